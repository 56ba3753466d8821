"""End-to-end latency and footprint of the real server, measured with protocol-level devices.

    uv run python benchmarks/latency.py                  # one 6-player Vabanque game
    uv run python benchmarks/latency.py --players 3 --idle 20 --seed 7

What it does (loopback only, bounded in time and count):
  1. pre-creates a Vabanque room in a temporary data directory (the same code path as the host's
     "new room" screen: companion.room.Host.create_room), then starts `main.py` in a subprocess;
     cold start = process start -> first HTTP 200 on `/`;
  2. server RSS (psutil, server pid) with 0 sessions, then with 1 and 1+N idle host-board
     sessions connected and rendered; those sockets are then closed;
  3. connects 7 devices (the host board, one phone per seat through its /join link), and plays a
     whole game by clicking on the phones (random legal actions from a local replay of the same
     seeded game), measuring for every action the delay from writing the click to the board
     receiving the frame that shows it (its "What just happened" list equals the expected one).

The helpers here (ServerProcess, create_room, VabanqueMirror, Table) are also used by
tests/test_restart.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.flet_client import PHONE, TABLET, FletClient, Frame, wait_for_any  # noqa: E402

DB_NAME = "referee.sqlite3"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
SEAT_KEY = "referee.seat.{room}"  # views/app.py


#: Under pytest-xdist, worker N takes the ports of its servers from WORKER_PORTS[0] + N *
#: WORKER_PORTS[1] on (below Linux's ephemeral ports, 32768 and up).
WORKER_PORTS = (20000, 1000)
_next_port: dict[int, int] = {}


def free_port() -> int:
    """A port on 127.0.0.1 that nothing uses now, for a server about to start.

    Alone, the kernel picks one. Under pytest-xdist each worker takes ports from a range of its
    own, outside the kernel's ephemeral ones: the kernel's pick is free only until the server binds
    it, a second or so later, and meanwhile another worker's pick or any outgoing connection (a
    browser's, a client's) could take it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    first, count = WORKER_PORTS[0] + int(worker[2:]) * WORKER_PORTS[1], WORKER_PORTS[1]
    # from a random place in the range: two runs on one machine rarely start on one port
    _next_port.setdefault(first, random.randrange(count))
    for _ in range(count):
        offset = _next_port[first]
        _next_port[first] = (offset + 1) % count  # each port once before any again
        port = first + offset
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use (or a connection to it still in TIME_WAIT)
            return port
    raise RuntimeError(f"no free port in {first}..{first + count - 1}")


# -- the room, created before the server starts ------------------------------------------------

ROOMS_SNIPPET = r"""
import asyncio, json, random, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from companion.room import Host, idempotency_key
from companion.store import Store, LogEntry

async def main():
    store = Store(Path(sys.argv[2]) / "referee.sqlite3")
    count, setup, seed, log_len, game_id = int(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
    if log_len:
        store.db.execute("PRAGMA synchronous=OFF")
    host = Host(store)
    out = []
    try:
        for i in range(count):
            room = await host.create_room(game_id, setup, seed=seed + i)
            out.append({"room": room.id, "tokens": [s.token for s in room.seats], "host_token": host.token, "seed": room.seed})
            if log_len:
                game, state, rng = room.game, room.state, random.Random(seed + i)
                store.db.execute("BEGIN")
                for seq in range(1, log_len + 1):
                    action = game.random_action(state, rng)
                    if action is None or game.result(state) is not None:
                        break
                    state = game.apply(state, action).state
                    payload = action.model_dump(mode="json")
                    key = idempotency_key("seat", action.by, seq - 1, payload)
                    store.db.execute("INSERT INTO log(room_id, seq, kind, payload, channel, key, at) VALUES (?,?,?,?,?,?,?)",
                                     (room.id, seq, "action", json.dumps(payload), "seat", key, time.time()))
                store.db.execute("COMMIT")
    finally:
        host.close()
    print(json.dumps(out))

asyncio.run(main())
"""


@dataclass
class RoomInfo:
    room: str
    tokens: list[str]
    host_token: str
    seed: int
    setup: dict[str, Any]
    game: str = "vabanque"


def vabanque_setup(players: int) -> dict[str, Any]:
    """The players, every rule at its default: a setup each of the four games takes."""
    return {"players": [{"name": n, "colour": c} for n, c in zip(NAMES[:players], COLOURS[:players])]}


def create_rooms(data_dir: Path, setup: dict[str, Any], count: int, seed: int, log_len: int = 0, game: str = "vabanque") -> list[RoomInfo]:
    """Create `count` rooms of `game` in `data_dir` (no server running), in a separate Python
    process; room i has seed `seed + i` and, with `log_len`, up to that many logged random actions."""
    out = subprocess.run(
        [sys.executable, "-c", ROOMS_SNIPPET, str(ROOT), str(data_dir), str(count), json.dumps(setup), str(seed), str(log_len), game],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    return [RoomInfo(room=row["room"], tokens=row["tokens"], host_token=row["host_token"], seed=row["seed"], setup=setup, game=game) for row in rows]


def create_room(data_dir: Path, setup: dict[str, Any], seed: int) -> RoomInfo:
    """One Vabanque room in `data_dir` (no server running)."""
    return create_rooms(data_dir, setup, 1, seed)[0]


# -- the server process --------------------------------------------------------------------------


@dataclass
class ServerProcess:
    """`main.py` on 127.0.0.1 in a subprocess (the interpreter itself, so its pid is the server's)."""

    data_dir: Path
    port: int = 0
    proc: subprocess.Popen[str] | None = None
    lines: list[str] = field(default_factory=list)
    host_token: str | None = None
    started_at: float = 0.0
    #: seconds from Popen to the first HTTP 200 on "/"
    cold_start: float | None = None
    #: the server script (same command line as main.py: --host --port --data-dir)
    script: Path = ROOT / "main.py"
    #: extra environment variables for the server
    env: dict[str, str] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 120.0) -> ServerProcess:
        self.port = self.port or free_port()
        self.lines = []
        self.host_token = None
        token_seen = threading.Event()
        # The websocket figures are what is measured here: no background filling of the
        # compressed web-client cache in the same CPU budget, unless the caller configures the
        # web client's compression or cache itself (page_weight.py measures that).
        quiet = {} if any(name.startswith("REFEREE_WEB_") for name in self.env) else {"REFEREE_WEB_COMPRESSION": "0"}
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **quiet, **self.env}
        self.started_at = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, str(self.script), "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )

        def pump(stream: Any) -> None:
            for line in stream:
                self.lines.append(line.rstrip("\n"))
                match = re.search(r"[?&]k=([A-Za-z0-9_\-]+)", line)
                if match and self.host_token is None:
                    self.host_token = match.group(1)
                    token_seen.set()

        threading.Thread(target=pump, args=(self.proc.stdout,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n" + "\n".join(self.lines[-40:]))
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=2) as response:
                    if response.status == 200:
                        self.cold_start = time.perf_counter() - self.started_at
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise TimeoutError(f"server did not answer within {timeout}s:\n" + "\n".join(self.lines[-40:]))
            time.sleep(0.02)  # polling an HTTP port: the only readiness signal a process gives
        if not token_seen.wait(max(0.0, deadline - time.monotonic())):
            raise RuntimeError("no host link (?k=...) printed:\n" + "\n".join(self.lines[-40:]))
        return self

    def get(self, path: str) -> tuple[int, bytes]:
        with urllib.request.urlopen(self.base_url + path, timeout=10) as response:
            return response.status, response.read()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """kill -9 by default: no shutdown handler, no checkpoint, nothing flushed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss(self) -> int:
        import psutil

        return psutil.Process(self.pid).memory_info().rss


# -- a local replay of the same seeded game, and how a table enters each action -------------------

#: the games a mirror drives (`--game` of benchmarks/rooms.py)
GAME_IDS = ("vabanque", "corruption", "chicago_poker", "reglement")


def shows_chosen(client: FletClient, ident: str) -> bool:
    """A choice local to the page took effect: after "show-private" the page shows its secrets
    ("hide-private"), else the control is marked selected (controls keep their ids across
    redraws, so the selection itself is the sign)."""
    if ident == "show-private":
        return client.find("hide-private") is not None
    node = client.find(ident)
    return node is not None and node.get("selected") is True


class GameMirror:
    """The game as the server must have it: the same setup, seed and accepted actions, applied
    locally with the pure engine. Gives the legal moves to click and what the board must show.

    Per game (a subclass each, same names): `device_for(action)` (the seat whose phone enters it,
    or None: the host board), `clicks_for(action)` (the identifiers to click on that device, in
    order: the last sends the action, the ones before it are choices local to the page) and
    `picked(client, ident)` (one of those choices took effect). `random_action` gives the action
    as the server records it (the host board's entries with `by: None`)."""

    game_id: ClassVar[str] = ""
    #: actions the host board enters for the table (the phones cannot, or the table does not)
    HOST_ENTRIES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, setup: dict[str, Any], seed: int, lang: str = "en"):
        from companion.games import GAMES
        from views.i18n import translator

        self.game = GAMES[self.game_id]
        self.setup = self.game.setup_model.model_validate(setup)
        self.seed = seed
        self.names = [p.name for p in self.setup.players]
        self.colours = [p.colour for p in self.setup.players]
        self.tr = translator(lang)
        self.states = [self.game.initial_state(self.setup, seed)]
        opening = getattr(self.game, "opening_rulings", None)  # what the board says before any action
        self.opening: tuple[Any, ...] = tuple(opening(self.states[0])) if opening is not None else ()
        self.actions: list[Any] = []
        self.outcomes: list[tuple[Any, ...]] = []

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def apply(self, action: Any) -> None:
        outcome = self.game.apply(self.state, action)
        self.states.append(outcome.state)
        self.actions.append(action)
        self.outcomes.append(outcome.rulings)

    def pop(self) -> Any:
        """Forget the last applied action (it was not acknowledged)."""
        self.states.pop()
        self.outcomes.pop()
        return self.actions.pop()

    @property
    def rulings(self) -> list[Any]:
        return [*self.opening, *(r for rulings in self.outcomes for r in rulings)]

    def random_action(self, rng: random.Random) -> Any:
        action = self.game.random_action(self.state, rng)
        if action is not None and action.type in self.HOST_ENTRIES:
            action = action.model_copy(update={"by": None})
        return action

    def seat_view(self, seat: int) -> Any:
        from companion.engine import seat_audience

        return self.game.project(self.state, seat_audience(seat))

    def board_rulings(self) -> list[str]:
        """The board's "What just happened" list (views/board.py: last 12, newest first)."""
        return [self.tr.ruling(r, self.names) for r in reversed(self.rulings[-40:][-12:])]

    def seat_name(self, seat: int) -> str:
        """The seat's name with its glyph, as its phone's header shows it."""
        from views.common import glyph

        return f"{glyph(self.colours[seat])} {self.names[seat]}"

    def device_for(self, action: Any) -> int | None:
        return None if action.type in self.HOST_ENTRIES else action.by

    def clicks_for(self, action: Any) -> list[str]:
        raise NotImplementedError

    def picked(self, client: FletClient, ident: str) -> bool:
        return shows_chosen(client, ident)


class VabanqueMirror(GameMirror):
    game_id = "vabanque"

    def seat_header(self, seat: int) -> tuple[str, str]:
        """(name with glyph, money) as a phone's header shows them."""
        return self.seat_name(seat), self.tr.money(self.state.money[seat])

    def clicks_for(self, action: Any) -> list[str]:
        """The phone identifiers to click, in order, for `action` on its seat's phone."""
        kind = action.type
        if kind == "place_chip":
            return [f"seat-table-{action.table}"]
        if kind == "place_card":
            return ["show-private", f"card-{action.card}", f"seat-table-{action.table}"]
        if kind == "move_pawn":
            return [f"move-{action.steps}"]
        if kind == "next_round":
            return ["next-round"]
        if kind == "ready":  # random play says ready on every phone (reveal, next round)
            return ["ready"]
        raise ValueError(kind)


#: the catalogue of Corruption's contracts the benchmark's servers read (CORRUPTION_CATALOGUE):
#: the app's own, each card with a value (those the app does not know get one here), and
#: numbered contracts after it, so that four rounds of six each find a card to tap
CORRUPTION_DEAL_CARDS = 24


def corruption_catalogue() -> dict[str, Any]:
    from companion.games.corruption import CATALOGUE_PATH

    data = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    entries = data["contracts"]
    for i, entry in enumerate(entries):
        entry["value"] = entry.get("value") or 100_000 * (2 + i % 10)
    for n in range(len(entries) + 1, CORRUPTION_DEAL_CARDS + 1):
        entries.append({"name": f"Contract {n}", "value": 100_000 * (1 + n % 12), "source": "benchmarks/latency.py"})
    return data


def server_env(game_id: str, data_dir: Path) -> dict[str, str]:
    """Environment a server needs for the benchmark's rooms of `game_id` (Corruption: the
    catalogue its deal taps, a copy in the data dir, which the server also writes to)."""
    if game_id != "corruption":
        return {}
    path = data_dir / "corruption_contracts.json"
    path.write_text(json.dumps(corruption_catalogue(), ensure_ascii=False, indent=1), encoding="utf-8")
    return {"CORRUPTION_CATALOGUE": str(path)}


class CorruptionMirror(GameMirror):
    """The host board deals (tapping catalogue cards into the six slots, in order: each card
    with its value, see `corruption_catalogue`); a player plays their cards and makes their award
    choices on their phone, and says ready for the reveal there."""

    game_id = "corruption"
    HOST_ENTRIES = ("deal_contracts",)

    def random_action(self, rng: random.Random) -> Any:
        from companion.games.corruption import BODIES, NEW_CONTRACTS_PER_BODY, DealContracts, NewContract

        if self.state.phase not in ("deal", "round_over") or self.over:
            return super().random_action(rng)
        on_table = {c.name.casefold() for c in self.state.contracts}
        cards = [e for e in corruption_catalogue()["contracts"] if e["name"].casefold() not in on_table]
        picks = rng.sample(cards, len(BODIES) * NEW_CONTRACTS_PER_BODY)
        slots = [body for body in BODIES for _ in range(NEW_CONTRACTS_PER_BODY)]  # views: deal_form's order
        return DealContracts(by=None, contracts=tuple(NewContract(body=body, name=e["name"], value=e["value"]) for body, e in zip(slots, picks, strict=True)))

    def clicks_for(self, action: Any) -> list[str]:
        kind = action.type
        if kind == "deal_contracts":
            opening = ["deal-open"] if self.state.phase == "round_over" else []
            return [*opening, *(f"deal-card-{c.name}" for c in action.contracts), "deal-submit"]
        if kind == "play_card":
            return ["show-private", f"card-{action.card}", f"loc-{action.location}"]
        if kind == "assign_swiss":
            return [f"swiss-to-{action.contract}"]
        if kind == "hit":
            return [f"hit-{action.target}"]
        if kind == "report":
            return [f"report-{'none' if action.bribe is None else action.bribe}"]
        if kind == "peek":
            return ["show-private", f"peek-{action.placement}"]
        if kind == "choose_face_up":
            return [*(f"slot-{n}" for n in action.slots), "slots-confirm"]
        if kind == "ready":
            return ["ready"]
        raise ValueError(kind)

    def picked(self, client: FletClient, ident: str) -> bool:
        if ident == "deal-open":
            return client.find("deal-form") is not None
        if ident.startswith("deal-card-"):  # a card dealt stays, saying where it went, no longer a button
            return client.find(ident) is not None and client.clickable(ident) is None
        return super().picked(client, ident)


class ChicagoPokerMirror(GameMirror):
    """The host board enters the business tiles and the deck's cards turned up in a shootout;
    a player enters everything else on their phone: cards face up or down (value, colour,
    business), draws, the end of a turn, special cards, the shootout to resolve first, a
    reinforcement, and ready for the reveal."""

    game_id = "chicago_poker"
    HOST_ENTRIES = ("reveal_tile", "reveal_deck_card")

    def clicks_for(self, action: Any) -> list[str]:
        kind = action.type
        if kind == "reveal_tile":
            return [f"tile-{action.kind}"]
        if kind == "reveal_deck_card":
            if isinstance(action.card, str):
                return [f"deck-special-{action.card}"]
            return [f"value-{action.card.value}", f"colour-{action.card.colour}", "deck-card-enter"]
        if kind in ("play_face_up", "play_face_down"):
            return ["show-private", f"value-{action.card.value}", f"colour-{action.card.colour}", f"play-{action.business}"]
        if kind == "draw":
            return ["draw"]
        if kind == "end_turn":
            return ["end-turn"]
        if kind == "choose_shootout":
            return [f"choose-{action.business}"]
        if kind == "ready":
            return ["ready"]
        if kind == "reinforce":
            if action.card is not None:
                return ["show-private", f"value-{action.card.value}", f"colour-{action.card.colour}", "reinforce-send"]
            if action.special is not None:
                return ["show-private", f"reinforce-special-{action.special}"]
            return ["show-private", "reinforce-none"]
        if kind == "revolver":
            return ["special-revolver", "special-confirm"]
        if kind in ("liquidation", "police_raid"):
            return [f"special-{kind}", f"target-{action.business}-{action.target}", "special-confirm"]
        if kind == "bribe":
            if action.card is not None:
                return ["special-bribe", f"bribe-{action.card.value}-{action.card.colour}"]
            if action.special is not None:
                return ["special-bribe", f"bribe-{action.special}"]
            return ["special-bribe", "special-confirm"]
        if kind == "limousine":
            cards = [f"limo-card-{p}" for p in action.positions]
            return ["special-limousine", f"limo-from-{action.source}", *cards, f"limo-to-{action.destination}", "special-confirm"]
        raise ValueError(kind)

    def picked(self, client: FletClient, ident: str) -> bool:
        if ident.startswith("special-") and ident != "special-confirm":  # its panel replaces the turn's buttons
            return client.find(f"special-panel-{ident.removeprefix('special-')}") is not None
        if ident.startswith("limo-from-"):  # the source's cards are offered
            return client.find("limo-card-1") is not None
        if ident.startswith("limo-to-"):  # source, cards and destination chosen: the confirmation is enabled
            return client.clickable("special-confirm") is not None
        return super().picked(client, ident)


class ReglementMirror(GameMirror):
    """A player seats their gangsters and plays their cards on their phone (the private rules
    helper: the card, then its target; pills: the glasses, then the confirmation), sets a card
    aside or ends the turn there, and chooses who wakes (house rule "choose")."""

    game_id = "reglement"

    def clicks_for(self, action: Any) -> list[str]:
        kind = action.type
        if kind == "place":
            return [f"kind-{action.kind}", f"pick-{action.seat}"]
        if kind == "discard":
            return ["discard"]
        if kind == "end_turn":
            if action.wake is not None:
                return [*self._sleep_on(action.by, action.wake), "end-turn"]
            return ["end-turn"]
        if kind == "wake":
            return [*self._sleep_on(action.by, action.seats), "wake-confirm"]
        targets = self._targets(action)
        if kind == "pills":
            return ["show-private", "help-pills", *(f"target-{targets[s]}" for s in action.targets), "pills-confirm"]
        return ["show-private", f"help-{kind}", f"target-{targets[None]}"]

    def _targets(self, action: Any) -> dict[str | None, int]:
        """Where the phone's helper lists the action's target(s) (`target-<i>`): pills, per glass;
        any other card, its one row (key None)."""
        from views.games.reglement.pieces import target_action

        option = next(o for o in self.seat_view(action.by).my_options if o.card == action.type)
        wanted = action.model_dump(mode="json")
        out: dict[str | None, int] = {}
        for i, t in enumerate(option.targets):
            if action.type == "pills":
                out.setdefault(t.seat, i)
            elif all(wanted.get(k) == v for k, v in target_action(t, action.by).items()):
                return {None: i}
        if action.type != "pills":
            raise ValueError(f"{action!r} is not among the phone's targets")
        return out

    def _sleep_on(self, seat: int, waking: tuple[str, ...]) -> list[str]:
        """The sleepers to tap off (the wake-up choice starts with every sleeper waking)."""
        return [f"wake-{s}" for s in self.game.sleepers(self.state, seat) if s not in waking]

    def picked(self, client: FletClient, ident: str) -> bool:
        if ident.startswith("wake-") and ident != "wake-confirm":  # tapped off: sleeps on
            node = client.find(ident)
            return node is not None and node.get("selected") is not True
        return super().picked(client, ident)


MIRRORS: dict[str, type[GameMirror]] = {m.game_id: m for m in (VabanqueMirror, CorruptionMirror, ChicagoPokerMirror, ReglementMirror)}


def mirror_for(info: RoomInfo) -> GameMirror:
    """The mirror of a room created by `create_rooms`."""
    return MIRRORS[info.game](info.setup, info.seed)


def board_shows(mirror: GameMirror, client: FletClient) -> bool:
    """The board's ruling list is exactly the mirror's (the list is last on the host board's
    page; messages such as "Bea joined" float over it and are not part of it)."""
    texts = client.texts()
    # the floating messages (views/common.py message_overlay) come after the page's texts
    overlay = sum(len(client.texts(node)) for ident in ("handover-now", "banner", "notice") if (node := client.find(ident)) is not None)
    texts = texts[: len(texts) - overlay]
    expected = mirror.board_rulings()
    heading = mirror.tr.t("ui.last_rulings")
    if heading not in texts:
        return False
    shown = texts[len(texts) - 1 - texts[::-1].index(heading) + 1 :]
    return shown == expected


# -- the table: one board and one phone per seat ----------------------------------------------

#: seconds a device waits past its window after its own action (the window opens when it draws)
PACE_MARGIN = 0.15


@dataclass
class Table:
    base_url: str
    info: RoomInfo
    mirror: GameMirror
    board: FletClient | None = None
    phones: list[FletClient] = field(default_factory=list)
    #: each phone's SharedPreferences (the phone's storage outlives its connections)
    storage: list[dict[str, Any]] = field(default_factory=list)

    async def open_board(self, timeout: float = 30.0) -> FletClient:
        self.board = FletClient(
            self.base_url, f"/room/{self.info.room}?k={self.info.host_token}", width=TABLET[0], height=TABLET[1], name="board"
        )
        await self.board.connect(timeout)
        await self.board.wait_for(lambda c: board_shows(self.mirror, c), timeout, what="board with the current rulings")
        return self.board

    async def open_phone(self, seat: int, via: str = "join", timeout: float = 30.0) -> FletClient:
        """A phone for `seat`: `via="join"` opens the QR link, `via="seat"` reopens /seat/<room>
        with the token already in the phone's storage."""
        while len(self.storage) <= seat:
            self.storage.append({})
        route = f"/join/{self.info.room}/{self.info.tokens[seat]}" if via == "join" else f"/seat/{self.info.room}"
        phone = FletClient(self.base_url, route, width=PHONE[0], height=PHONE[1], prefs=self.storage[seat], name=f"phone-{seat}")
        await phone.connect(timeout)
        header = self.mirror.seat_name(seat)
        await phone.wait_for(lambda c: header in c.texts(), timeout, what=f"seat page of {header}")
        while len(self.phones) <= seat:
            self.phones.append(None)  # type: ignore[arg-type]
        self.phones[seat] = phone
        return phone

    async def open_all(self, timeout: float = 30.0) -> None:
        await self.open_board(timeout)
        for seat in range(len(self.info.tokens)):
            await self.open_phone(seat, timeout=timeout)
        online = "● " + self.mirror.tr.t("ui.connected")
        count = len(self.info.tokens)
        await self.board.wait_for(lambda c: c.texts().count(online) == count, timeout, what="every seat shown as connected")

    async def play(self, action: Any, timeout: float = 30.0, wait_board: bool = True) -> tuple[float, float | None]:
        """Click `action` on the device that enters it (its seat's phone, or the host board for
        the host's entries); returns (last click written, board frame showing it).

        The clicks before the last are choices local to the page (showing the cards, choosing
        one); one already made (a card still chosen, the cards still shown) is not clicked again.
        A click that crosses a re-render on the wire can be dropped by Flet without a word: if
        the page shows the same target again under a new id before the click took effect, the
        click is sent again (`self.retries`); the room's idempotency key makes a repeat of a click
        that did arrive harmless.

        A device that acted moments ago waits, as a player would, for the window in which the
        app takes its next tap for the second tap of a double tap (a phone) or for a tap meant
        for the previous player (the host board) to close (views/screen.py): a tap inside it is
        refused ("Tapped twice?").
        """
        seat = self.mirror.device_for(action)
        device = self.phones[seat] if seat is not None else self.board
        assert device is not None
        clicks = self.mirror.clicks_for(action)
        await self._pace(device)
        retries = self.retries
        for ident in clicks[:-1]:
            chosen = self._picked(device, ident)
            if not chosen(0):
                await self.click(device, ident, chosen, [device], timeout)
        if not wait_board:
            sent = await device.click(clicks[-1], timeout)
            self.mirror.apply(action)
            return sent, None
        assert self.board is not None
        self.mirror.apply(action)
        board = self.board
        # An action the board lists no ruling for (a reinforcement in Chicago Poker before the
        # last) shows as the board's next frame.
        frames = len(board.frames) if not self.mirror.outcomes[-1] else -1
        try:
            sent, frame = await self.click(
                device, clicks[-1], lambda _clicked: len(board.frames) > frames and board_shows(self.mirror, board), [device] if device is board else [device, board], timeout
            )
        except BaseException:
            self.mirror.pop()
            raise
        seen = frame.at if frame is not None else time.perf_counter()
        self.acted_at[device.name] = time.monotonic()
        error = device.find("banner")
        said = device.texts(error) if error is not None else []
        # A click sent again is answered, and the answer may still show as the board shows the
        # action (the phone is drawn after the board): a first click that did arrive makes the
        # second "Tapped twice?"; a first click Flet dropped (it crossed a redraw) said "Not done:
        # ... tap again" before the second acted. Both harmless: the board showed it exactly once.
        retried = {self.mirror.tr.t("ui.tapped_twice"), self.mirror.tr.t("ui.tap_missed")}
        if error is not None and not (self.retries > retries and len(said) == 1 and said[0] in retried):
            raise AssertionError(f"{device.name} shows an error after {action!r}: {said}")
        return sent, seen

    def _picked(self, client: FletClient, ident: str) -> Any:
        return lambda _clicked: self.mirror.picked(client, ident)

    async def _pace(self, device: FletClient) -> None:
        from views.screen import DOUBLE_TAP_SECONDS, HANDOVER_SECONDS

        window = HANDOVER_SECONDS if device is self.board else DOUBLE_TAP_SECONDS
        # the window opens when the device draws the action, a little after the board showed it
        wait = self.acted_at.get(device.name, -math.inf) + window + PACE_MARGIN - time.monotonic()
        if wait > 0:
            self.paced += 1
            await asyncio.sleep(wait)  # a player's pause, not a wait for a condition

    @staticmethod
    def _chosen(phone: FletClient, ident: str) -> Any:
        """Done when the phone shows `ident` selected (controls keep their ids across redraws,
        so the selection itself is the sign; a new round starts with no card selected)."""
        return lambda _clicked: shows_chosen(phone, ident)

    retries: int = 0
    #: when each device's last action showed on the board (time.monotonic), and how many actions
    #: waited for a device's window after its previous one (see `play`)
    acted_at: dict[str, float] = field(default_factory=dict)
    paced: int = 0
    #: (phone, identifier, version the click was meant for) of every re-sent click
    retry_log: list[tuple[str, str, int]] = field(default_factory=list)

    async def click(
        self, phone: FletClient, ident: str, done: Any, watch: list[FletClient], timeout: float
    ) -> tuple[float, Frame | None]:
        deadline = time.monotonic() + timeout
        while True:
            target = await phone.wait_for(lambda c: c.clickable(ident), max(0.1, deadline - time.monotonic()), what=f"clickable {ident}")
            clicked = target["_i"]
            sent = await phone.send_event(clicked, "click", None)

            def outcome() -> Any:
                if done(clicked):
                    return "done"
                again = phone.clickable(ident)
                if again is not None and again["_i"] != clicked:
                    return "again"
                return None

            result, _, frame = await wait_for_any(watch, outcome, max(0.1, deadline - time.monotonic()), what=f"{phone.name}: {ident} took effect")
            if result == "done":
                return sent, frame
            self.retries += 1
            self.retry_log.append((phone.name, ident, self.mirror.version))

    async def close(self) -> None:
        for client in [self.board, *self.phones]:
            if client is not None:
                await client.close()


# -- the benchmark -----------------------------------------------------------------------------


def server_errors(lines: list[str], limit: int = 3) -> list[str]:
    """The server's logged errors: each traceback's first and last lines, and ERROR lines."""
    out: list[str] = []
    i = 0
    while i < len(lines) and len(out) < limit * 4:
        line = lines[i]
        if line.startswith("Traceback"):
            j = i + 1
            while j < len(lines) and (lines[j].startswith(" ") or lines[j].startswith("Traceback") or not lines[j].strip()):
                j += 1
            block = lines[i : j + 1]
            out += ["  ...", *block[-3:]]
            i = j + 1
            continue
        if "ERROR" in line or "CRITICAL" in line:
            out.append(line)
        i += 1
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


async def measure_rss(server: ServerProcess, info: RoomInfo, mirror: VabanqueMirror, idle: int, timeout: float) -> dict[str, int]:
    rss: dict[str, int] = {"0": server.rss()}
    clients: list[FletClient] = []

    async def board() -> None:
        client = FletClient(server.base_url, f"/room/{info.room}?k={info.host_token}", width=TABLET[0], height=TABLET[1], name=f"idle-{len(clients)}")
        clients.append(client)
        await client.connect(timeout)
        await client.wait_for(lambda c: board_shows(mirror, c), timeout, what="idle board rendered")

    await board()
    rss["1"] = server.rss()
    for start in range(0, idle, 10):
        await asyncio.gather(*(board() for _ in range(min(10, idle - start))))
    rss[str(1 + idle)] = server.rss()
    for client in clients:
        await client.close()
    return rss


async def presence_after_leaving(server: ServerProcess, info: RoomInfo, mirror: VabanqueMirror, timeout: float) -> int:
    """After every device closed its socket, how many seats a new board still shows as connected
    (waits up to 5 s for them to go away)."""
    online = "● " + mirror.tr.t("ui.connected")
    probe = FletClient(server.base_url, f"/room/{info.room}", width=TABLET[0], height=TABLET[1], name="probe")
    await probe.connect(timeout)
    try:
        await probe.wait_for(lambda c: board_shows(mirror, c), timeout, what="probe board")
        try:
            await probe.wait_for(lambda c: c.texts().count(online) == 0, 5.0, what="every seat away")
        except TimeoutError:
            pass
        return probe.texts().count(online)
    finally:
        await probe.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    loop_start = time.perf_counter()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        data_dir = Path(tmp)
        info = create_room(data_dir, vabanque_setup(args.players), args.seed)
        results["load_before"] = os.getloadavg()
        cold: list[float] = []
        for _ in range(max(0, args.cold_starts - 1)):
            probe = ServerProcess(data_dir).start()
            cold.append(probe.cold_start or float("nan"))
            probe.stop()
        server = ServerProcess(data_dir).start()
        cold.append(server.cold_start or float("nan"))
        results["cold_starts_s"] = cold
        try:
            mirror = VabanqueMirror(info.setup, info.seed)
            results["rss"] = await measure_rss(server, info, mirror, args.idle, args.timeout)
            table = Table(server.base_url, info, mirror)
            await table.open_all(args.timeout)
            import psutil

            proc = psutil.Process(server.pid)
            cpu_before = sum(proc.cpu_times()[:2])
            frames_before = [len(c.frames) for c in [table.board, *table.phones]]
            rng = random.Random(args.seed)
            latencies: list[float] = []
            by_kind: dict[str, list[float]] = {}
            deadline = time.monotonic() + args.budget
            while not mirror.over and len(latencies) < args.max_actions and time.monotonic() < deadline:
                action = mirror.random_action(rng)
                sent, seen = await table.play(action, args.timeout)
                assert seen is not None
                latencies.append(seen - sent)
                by_kind.setdefault(action.type, []).append(seen - sent)
            results["server_cpu_s"] = sum(proc.cpu_times()[:2]) - cpu_before
            frames_after = [len(c.frames) for c in [table.board, *table.phones]]
            results["frames_per_action"] = [(a - b) / max(1, len(latencies)) for a, b in zip(frames_after, frames_before)]
            results["retries"] = table.retries
            results["retry_log"] = table.retry_log
            results["actions"] = len(latencies)
            results["game_over"] = mirror.over
            results["latency"] = latencies
            results["by_kind"] = by_kind
            results["rss_after_game"] = server.rss()
            results["frames_board"] = len(table.board.frames) if table.board else 0
            results["bytes_board"] = sum(f.size for f in table.board.frames) if table.board else 0
            crashed = [c.name for c in [table.board, *table.phones] if c is not None and c.crashed]
            results["crashed"] = crashed
            await table.close()
            results["stuck_presence"] = await presence_after_leaving(server, info, mirror, args.timeout)
            status, body = server.get("/healthz")
            results["healthz"] = (status, json.loads(body))
            results["server_log_tail"] = server_errors(server.lines)
            results["server_error_lines"] = sum(1 for line in server.lines if "ERROR" in line)
        finally:
            server.stop()
    results["wall_s"] = time.perf_counter() - loop_start
    return results


def report(results: dict[str, Any], args: argparse.Namespace) -> str:
    ms = [x * 1000 for x in results["latency"]]
    mib = 1024 * 1024
    rss = results["rss"]
    idle_n = max(int(k) for k in rss)
    lines = [
        f"Vabanque, {args.players} players, seed {args.seed}: {1 + args.players} devices (1 board + {args.players} phones), loopback",
        f"machine: {os.cpu_count()} CPUs; load average (1/5/15 min) at start {', '.join(f'{x:.2f}' for x in results['load_before'])}, at end {', '.join(f'{x:.2f}' for x in os.getloadavg())}",
        "",
        f"{'measure':<44}{'value':>14}",
        f"{'-' * 58}",
        f"{'cold start: process start -> first 200 on /':<44}{min(results['cold_starts_s']) * 1000:>11.0f} ms",
        f"{'  (min of ' + str(len(results['cold_starts_s'])) + '; all: ' + ', '.join(f'{x:.1f}' for x in results['cold_starts_s']) + ' s)':<58}",
        f"{'actions played (game over: ' + str(results['game_over']) + ')':<44}{results['actions']:>14}",
        f"{'click -> board frame, median':<44}{statistics.median(ms):>11.1f} ms",
        f"{'click -> board frame, p95':<44}{percentile(ms, 0.95):>11.1f} ms",
        f"{'click -> board frame, max':<44}{max(ms):>11.1f} ms",
    ]
    for kind, values in sorted(results["by_kind"].items()):
        v = [x * 1000 for x in values]
        lines.append(f"{'  ' + kind + f' (n={len(v)}) median / max':<44}{statistics.median(v):>6.1f} /{max(v):>5.0f} ms")
    lines += [
        f"{'board frames received / bytes':<44}{results['frames_board']:>5} / {results['bytes_board'] / 1024:>5.0f} KiB",
        f"{'frames per action: board / all phones':<44}{results['frames_per_action'][0]:>6.2f} / {sum(results['frames_per_action'][1:]):>5.2f}",
        f"{'server CPU per action':<44}{results['server_cpu_s'] / max(1, results['actions']) * 1000:>11.1f} ms",
        f"{'clicks re-sent (dropped across a re-render)':<44}{results['retries']:>14}",
        f"{'server RSS, 0 sessions':<44}{rss['0'] / mib:>10.1f} MiB",
        f"{'server RSS, 1 idle board session':<44}{rss['1'] / mib:>10.1f} MiB",
        f"{f'server RSS, {idle_n} idle board sessions':<44}{rss[str(idle_n)] / mib:>10.1f} MiB",
        f"{'  first session (incl. warm-up)':<44}{(rss['1'] - rss['0']) / 1024:>10.0f} KiB",
        f"{'  per further session':<44}{(rss[str(idle_n)] - rss['1']) / max(1, idle_n - 1) / 1024:>10.0f} KiB",
        f"{'server RSS after the game':<44}{results['rss_after_game'] / mib:>10.1f} MiB",
        f"{'crashed sessions':<44}{len(results['crashed']):>14}",
        f"{'seats still shown connected after all left':<44}{results['stuck_presence']:>14}",
        f"{'wall time':<44}{results['wall_s']:>12.1f} s",
    ]
    if results["retry_log"]:
        lines += ["", "re-sent clicks (phone, target, action number): " + ", ".join(f"{p} {i} #{v}" for p, i, v in results["retry_log"])]
    if results["server_log_tail"]:
        lines += ["", f"server log: {results['server_error_lines']} ERROR line(s), the first ones:", *results["server_log_tail"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=6, choices=range(3, 7))
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--idle", type=int, default=50, help="extra idle board sessions for the RSS measure (default 50)")
    parser.add_argument("--max-actions", type=int, default=400, help="stop after this many actions (a full 6-player game is 159)")
    parser.add_argument("--budget", type=float, default=240.0, help="stop the game after this many seconds")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-step timeout in seconds")
    parser.add_argument("--cold-starts", type=int, default=3, help="server starts timed (the last one serves the game)")
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON too")
    args = parser.parse_args(argv)
    results = asyncio.run(asyncio.wait_for(run(args), args.budget + 300))
    print(report(results, args))
    if args.json:
        print(json.dumps({k: v for k, v in results.items() if k != "latency"}, default=str))
    return 0 if not results["crashed"] and results["actions"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
