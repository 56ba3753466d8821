"""Règlement de comptes: the host's saved boards and seating presets (pure, no Flet).

Shipped defaults live in assets/; what a table saves lives in the host's data directory:

    <root>/reglement/boards/<slug>.json    a Board (companion/games/reglement_board.py)
    <root>/reglement/presets/<slug>.json   a seating preset (the shape Setup.preset accepts)

Every file is validated when read: a bad file gives a `LibraryError` whose message names the
file and the problem ("boards/mine.json: the board has 3 bar seats (A, D, L); it needs exactly
2"). Writes are atomic (a temporary file in the same directory, fsynced, then `os.replace`), so
a crash mid-write leaves the old file or the new one, never half of one.

All calls touch the disk: from an event loop, call them through `asyncio.to_thread`.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, Literal, TypeVar, get_args

from pydantic import Field, ValidationError, field_validator, model_validator

from companion.engine import Model
from companion.games.reglement import GANG_BY_PLAYERS, KIND_NAMES, KINDS, PresetGangster, Setup
from companion.games.reglement_board import Board
from companion.players import Colour

PRESET_FORMAT: Final = "reglement-de-comptes-preset/1"


class LibraryError(ValueError):
    """A saved file (or a board/preset about to be saved) is not usable; the message says why."""


class SeatingPreset(Model):
    """A seating the table saved: which gangster of which player sits where."""

    format: Literal["reglement-de-comptes-preset/1"] = PRESET_FORMAT
    name: str = Field(min_length=1, max_length=80)
    #: the player count it was saved for (player indices are 0..players-1, in seat order)
    players: int
    #: the board it was saved on (informational; it fits any board that has its seats)
    board: str = ""
    gangsters: tuple[PresetGangster, ...]

    @field_validator("players")
    @classmethod
    def _players(cls, value: int) -> int:
        if value not in GANG_BY_PLAYERS:
            raise ValueError(f"a preset is for 3 to 6 players, not {value}")
        return value

    @model_validator(mode="after")
    def _gangs(self) -> SeatingPreset:
        problems: list[str] = []
        seats = [g.seat for g in self.gangsters]
        repeated = sorted(s for s, count in Counter(seats).items() if count > 1)
        if repeated:
            problems.append(f"the preset puts two gangsters on seat {', '.join(repeated)}")
        strangers = sorted({g.player for g in self.gangsters if not 0 <= g.player < self.players})
        if strangers:
            problems.append(f"the preset names player {', '.join(map(str, strangers))}, not one of its {self.players} players")
        counts = Counter((g.player, g.kind) for g in self.gangsters)
        for player in range(self.players):
            for kind, wanted in zip(KINDS, GANG_BY_PLAYERS[self.players], strict=True):
                if counts[(player, kind)] != wanted:
                    problems.append(
                        f"the preset gives player {player + 1} {counts[(player, kind)]} {KIND_NAMES[kind]}, not {wanted}"
                    )
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def setup_entries(self) -> dict[str, Any]:
        """What a Setup needs to start from this seating."""
        return {"seating": "preset", "preset": [g.model_dump() for g in self.gangsters]}


#: what the library holds: boards and seating presets
ItemT = TypeVar("ItemT", Board, SeatingPreset)


@dataclass(frozen=True)
class Entry(Generic[ItemT]):
    """One file in the library: its key (file stem), display name, and either the loaded item or
    the problem that makes it unusable."""

    key: str
    name: str
    path: Path
    item: ItemT | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def loaded(self) -> ItemT:
        """The item; a LibraryError saying the problem when there is none."""
        if self.item is None:
            raise LibraryError(self.problem or f"{self.key}: not loaded")
        return self.item


def problems_of(error: Exception) -> list[str]:
    """An exception from reading or validating, as sentences naming each problem."""
    if isinstance(error, ValidationError):
        out: list[str] = []
        for e in error.errors():
            message = str(e.get("msg", ""))
            for prefix in ("Value error, ", "Assertion failed, "):
                if message.startswith(prefix):
                    message = message[len(prefix):]
            where = ".".join(str(p) for p in e.get("loc", ()))
            for line in message.split("\n"):
                if e.get("type") == "value_error" and e.get("loc", ()) == ():
                    out.append(line)
                elif e.get("type") == "json_invalid":
                    out.append(f"not valid JSON: {e.get('ctx', {}).get('error', line)}")
                else:
                    out.append(f"{where}: {line}" if where else line)
        return out or [str(error)]
    if isinstance(error, json.JSONDecodeError):
        return [f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"]
    return [str(error)]


def board_problems_of(data: Any) -> list[str]:
    """Everything wrong with board data (a dict or a JSON string), as the Board model says it;
    empty when it is a valid board."""
    try:
        if isinstance(data, str):
            Board.model_validate_json(data)
        else:
            Board.model_validate(data)
    except (ValidationError, ValueError) as error:
        return problems_of(error)
    return []


def preset_problem(preset: SeatingPreset, board: Board) -> str | None:
    """Why `preset` cannot start a game on `board` (the engine's own check), or None."""
    colours = get_args(Colour)
    players = [{"name": f"P{i + 1}", "colour": colours[i]} for i in range(preset.players)]
    try:
        Setup.model_validate({"players": players, "board": board, **preset.setup_entries()})
    except ValidationError as error:
        return "; ".join(problems_of(error))
    return None


def slug(name: str) -> str:
    """A safe file stem for a display name ("Ma table n°2" -> "ma-table-n-2")."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return text[:60] or "unnamed"


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers see the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable (best effort: not every platform can open a directory)
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


class ReglementLibrary:
    """Named boards and seating presets under `root` (the host's data directory)."""

    def __init__(self, root: str | Path):
        self.root = Path(root) / "reglement"
        self.boards_dir = self.root / "boards"
        self.presets_dir = self.root / "presets"

    # -- boards --

    def board_path(self, name: str) -> Path:
        return self.boards_dir / f"{slug(name)}.json"

    def list_boards(self) -> list[Entry[Board]]:
        return [self._read_board(path) for path in _json_files(self.boards_dir)]

    def load_board(self, key: str) -> Board:
        return self._read_board(self.boards_dir / f"{slug(key)}.json").loaded()

    def save_board(self, name: str, board: Board | dict[str, Any]) -> Entry[Board]:
        """Validate and save a board under `name` (its `name` field becomes `name`)."""
        name = name.strip()
        if not name:
            raise LibraryError("a board needs a name")
        data = board.model_dump(mode="json") if isinstance(board, Board) else dict(board)
        data["name"] = name
        problems = board_problems_of(data)
        if problems:
            raise LibraryError("; ".join(problems))
        valid = Board.model_validate(data)
        path = self.board_path(name)
        atomic_write(path, json.dumps(valid.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
        return Entry(key=path.stem, name=name, path=path, item=valid)

    def _read_board(self, path: Path) -> Entry[Board]:
        return _read_entry(path, Board, "boards", "board")

    # -- seating presets --

    def preset_path(self, name: str) -> Path:
        return self.presets_dir / f"{slug(name)}.json"

    def list_presets(self, players: int | None = None) -> list[Entry[SeatingPreset]]:
        """Every preset file; with `players`, only the valid ones for that player count."""
        entries = [self._read_preset(path) for path in _json_files(self.presets_dir)]
        if players is None:
            return entries
        return [e for e in entries if e.item is not None and e.item.players == players]

    def load_preset(self, key: str) -> SeatingPreset:
        return self._read_preset(self.presets_dir / f"{slug(key)}.json").loaded()

    def save_preset(self, name: str, preset: SeatingPreset | dict[str, Any]) -> Entry[SeatingPreset]:
        name = name.strip()
        if not name:
            raise LibraryError("a preset needs a name")
        data = preset.model_dump(mode="json") if isinstance(preset, SeatingPreset) else dict(preset)
        data["name"] = name
        try:
            valid = SeatingPreset.model_validate(data)
        except ValidationError as error:
            raise LibraryError("; ".join(problems_of(error))) from None
        path = self.preset_path(name)
        atomic_write(path, json.dumps(valid.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
        return Entry(key=path.stem, name=name, path=path, item=valid)

    def _read_preset(self, path: Path) -> Entry[SeatingPreset]:
        return _read_entry(path, SeatingPreset, "presets", "preset")

def _read_entry(path: Path, model: type[ItemT], folder: str, noun: str) -> Entry[ItemT]:
    """One saved file as an Entry: its item, or the problem that keeps it from being offered."""
    where = f"{folder}/{path.name}"
    try:
        item = model.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Entry(path.stem, path.stem, path, problem=f"{where}: there is no such {noun}")
    except (OSError, UnicodeDecodeError) as error:
        return Entry(path.stem, path.stem, path, problem=f"{where}: cannot be read ({error})")
    except ValidationError as error:
        return Entry(path.stem, path.stem, path, problem=f"{where}: " + "; ".join(problems_of(error)))
    return Entry(path.stem, item.name, path, item=item)


def _json_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix == ".json" and not p.name.startswith(".") and p.is_file())
