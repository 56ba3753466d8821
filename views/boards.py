"""The host's Règlement de comptes board editor (/boards?k=HOST_TOKEN).

Pick a board (the shipped default or one saved in the host's data directory), see it drawn the
way the game draws it (views/games/reglement/table.py `table_drawing`), tap a seat to set its marks
(business, cash register, glass, knife, revolver, X mark, the seat it faces), read the Board
model's validation problems live, save under a name, or paste a board's JSON.

The editor keeps a draft as plain board data (a dict), so a board with problems can be shown and
fixed; only a valid one can be saved. Files are read and written through
companion/reglement_library.py, off the event loop (`asyncio.to_thread`).
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import flet as ft
from pydantic import ValidationError

from companion.games.reglement import SeatView
from companion.games.reglement_board import BUSINESSES, Board, BoardSeat, default_board
from companion.i18n import validation_problems
from companion.reglement_library import Entry, LibraryError, ReglementLibrary
from views.common import ACCENT, DANGER, INK, MUTED, PANEL, PlainScreen, banner, big_button, choice_name, handler, label, tagged
from views.context import GameContext
from views.games.reglement.pieces import CHOSEN, board_title
from views.games.reglement.table import ChairTap, legend, table_drawing
from views.i18n import Translator

if TYPE_CHECKING:
    from views.session import PageSession

DEFAULT_KEY = "default"
MARKS = ("cash_register", "glass", "knife", "revolver", "no_shoot")
NOBODY = "-"
#: a disabled button's colour (big_button keeps its colour when disabled)
OFF = "#607D8B"


def board_data(board: Any) -> dict[str, Any]:
    return board.model_dump(mode="json")


def preview(draft: dict[str, Any]) -> Any:
    """A view-like object `table_drawing` can draw: the draft's seats, nobody seated."""
    faces: dict[str, str] = {}
    for pair in draft.get("facing", []):
        a, b = pair
        faces.setdefault(a, b)
        faces.setdefault(b, a)
    seats = tuple(
        SeatView(
            id=s["id"],
            business=s.get("business"),
            cash_register=bool(s.get("cash_register")),
            glass=bool(s.get("glass")),
            knife=bool(s.get("knife")),
            revolver=bool(s.get("revolver")),
            no_shoot=bool(s.get("no_shoot")),
            faces=faces.get(s["id"]),
            x=s.get("x"),
            y=s.get("y"),
            gangster=None,
            cake=None,
        )
        for s in draft["seats"]
    )
    return SimpleNamespace(seats=seats, gangsters=())


def board_problems(tr: Translator, data: Any) -> list[str]:
    """Everything the Board model finds wrong with board data, in the reader's language."""
    try:
        Board.model_validate(data)
    except ValidationError as error:
        return [tr.t(code, **params) for code, params in validation_problems(error)]
    return []


def parse_pasted(text: str, tr: Translator) -> tuple[dict[str, Any] | None, list[str]]:
    """Pasted board JSON -> (a draft the editor can draw, []) or (None, the problems).

    Board-level problems (wrong counts, bad facing pairs) still give a draft, listed live so the
    host can fix them; a seat that is itself malformed, or a repeated seat name, does not."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return None, [tr.t("reglement.board.err.bad_json", detail=error.msg, line=error.lineno, column=error.colno)]
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        return None, [tr.t("reglement.board.err.not_an_object")]
    try:
        seats = [BoardSeat.model_validate(s).model_dump(mode="json") for s in data["seats"]]
    except ValidationError as error:
        return None, [tr.t(code, **params) for code, params in validation_problems(error)]
    ids = [s["id"] for s in seats]
    if len(set(ids)) != len(ids):
        repeated = ", ".join(sorted({i for i in ids if ids.count(i) > 1}))
        return None, [tr.t("reglement.board.err.repeated_names", ids=repeated)]
    facing = data.get("facing", [])
    if not isinstance(facing, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in facing):
        return None, [tr.t("reglement.board.err.bad_facing")]
    return {**data, "seats": seats, "facing": [list(p) for p in facing]}, []


async def acts_for_nobody(_raw: dict[str, Any]) -> bool:
    """The board editor's drawing of a table is no game: nothing in it submits an action."""
    return False


class BoardsScreen(PlainScreen):
    screen_key = "boards"

    def __init__(self, session: PageSession, tr: Translator, *, host_query: str):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.host_query = host_query
        data_dir = getattr(session.config, "data_dir", None)
        self.library = ReglementLibrary(data_dir) if data_dir is not None else None
        self.entries: list[Entry] = []
        self.current = DEFAULT_KEY
        self.draft: dict[str, Any] = board_data(default_board())
        self.selected: str | None = None
        self.pasted = ""
        self.error: list[str] = []
        self.notice: str | None = None

    # -- lifecycle --

    async def open(self) -> None:
        await self.reload()
        await self.render()

    async def reload(self) -> None:
        if self.library is not None:
            self.entries = await asyncio.to_thread(self.library.list_boards)


    # -- building --

    def drawing_context(self) -> GameContext:
        # a drawing for nobody's seat that acts for nobody: every chair built, none reused
        return GameContext(tr=self.tr, names=[], colours=[], width=float(self.page.width or 1024), height=float(self.page.height or 768), seat=None, acts_for_current=False, submit=acts_for_nobody)

    def build(self) -> list[ft.Control]:
        tr = self.tr
        problems = board_problems(tr, self.draft)
        header = ft.Row(
            [
                label(tr.t("reglement.editor.title"), 28, weight=ft.FontWeight.BOLD),
                ft.Container(expand=True),
                big_button(tr.t("ui.back"), handler(self.back), ident="boards-back", colour="#B0BEC5"),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        controls: list[ft.Control] = [header, label(tr.t("reglement.editor.hint"), 16, MUTED)]
        if self.error:
            controls.append(banner("\n".join(self.error)))
        if self.notice:
            controls.append(banner(self.notice, colour="#A5D6A7", ident="boards-notice"))
        controls.append(self.picker())
        for entry in self.entries:
            if not entry.ok:
                controls.append(label(tr.t("reglement.editor.bad_file", problem=entry.problem), 14, DANGER))
        ctx = self.drawing_context()
        view = preview(self.draft)
        rings = {self.selected: CHOSEN} if self.selected else {}
        width = max(300.0, ctx.width - 32)
        centre = [label(self.draft.get("name", ""), 18, ACCENT, ft.FontWeight.BOLD)]
        controls.append(tagged("board-drawing", table_drawing(ctx, view, width, rings, ChairTap(self.tap_seat), centre)))
        if self.selected is not None and any(s["id"] == self.selected for s in self.draft["seats"]):
            controls.append(self.seat_panel(self.selected))
        controls.append(self.problems_panel(problems))
        controls.append(self.save_row(problems))
        controls.append(self.paste_panel())
        controls.append(legend(ctx))
        return [ft.Column(controls, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)]

    def picker(self) -> ft.Control:
        tr = self.tr
        options = [ft.DropdownOption(key=DEFAULT_KEY, text=tr.t("reglement.setup.default_board", name=board_title(tr, default_board().name)))]
        options += [ft.DropdownOption(key=e.key, text=e.name) for e in self.entries if e.ok]
        return tagged(
            "board-pick",
            ft.Dropdown(label=tr.t("reglement.editor.pick"), value=self.current, options=options, on_select=self.on_pick, width=640),
            name=choice_name(tr, tr.t("reglement.editor.pick"), options, self.current),
        )

    def seat_panel(self, seat_id: str) -> ft.Control:
        tr = self.tr
        seat = next(s for s in self.draft["seats"] if s["id"] == seat_id)
        business_chips = [
            self.chip(
                f"mark-business-{value or 'none'}",
                tr.t(f"reglement.business.{value}") if value else tr.t("reglement.editor.no_business"),
                seat.get("business") == value,
                handler(self.set_mark, seat_id, "business", value),
            )
            for value in (None, *BUSINESSES)
        ]
        mark_chips = [
            self.chip(f"mark-{mark}", tr.t(f"reglement.mark.{mark}"), bool(seat.get(mark)), handler(self.set_mark, seat_id, mark, not seat.get(mark)))
            for mark in MARKS
        ]
        partner = next((b if a == seat_id else a for a, b in self.draft.get("facing", []) if seat_id in (a, b)), None)
        face_options = [ft.DropdownOption(key=NOBODY, text=tr.t("reglement.editor.faces_nobody"))]
        face_options += [ft.DropdownOption(key=s["id"], text=s["id"]) for s in self.draft["seats"] if s["id"] != seat_id]
        faces = tagged(
            "mark-faces",
            ft.Dropdown(label=tr.t("reglement.mark.faces"), value=partner or NOBODY, options=face_options, on_select=self.on_faces, width=260),
            name=choice_name(tr, tr.t("reglement.mark.faces"), face_options, partner or NOBODY),
        )
        return ft.Semantics(
            identifier="seat-panel",
            key="seat-panel",
            content=ft.Container(
                bgcolor=PANEL,
                border_radius=12,
                padding=12,
                content=ft.Column(
                    [
                        label(tr.t("reglement.ui.seat_info", at=seat_id), 22, ACCENT, ft.FontWeight.BOLD),
                        ft.Row(business_chips, wrap=True, spacing=8, run_spacing=8),
                        ft.Row(mark_chips, wrap=True, spacing=8, run_spacing=8),
                        faces,
                    ],
                    spacing=10,
                ),
            ),
        )

    @staticmethod
    def chip(ident: str, text: str, chosen: bool, on_click: Any) -> ft.Control:
        return ft.Semantics(
            identifier=ident,
            key=ident,
            button=True,
            selected=chosen,
            content=ft.Container(
                on_click=on_click,
                height=52,
                bgcolor=ACCENT if chosen else "#263238",
                border=ft.Border.all(3, CHOSEN if chosen else MUTED),
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=14, vertical=12),
                content=ft.Text(text, size=17, weight=ft.FontWeight.BOLD, color="#111111" if chosen else INK),
            ),
        )

    def problems_panel(self, problems: list[str]) -> ft.Control:
        tr = self.tr
        if not problems:
            body: list[ft.Control] = [label(tr.t("reglement.editor.valid"), 18, "#A5D6A7", ft.FontWeight.BOLD)]
        else:
            body = [label(tr.t("reglement.editor.problems"), 18, DANGER, ft.FontWeight.BOLD)]
            body += [label(f"• {p}", 16, INK) for p in problems]
        return ft.Semantics(
            identifier="board-problems",
            key="board-problems",
            live_region=True,
            content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(body, spacing=4)),
        )

    def save_row(self, problems: list[str]) -> ft.Control:
        tr = self.tr
        name = str(self.draft.get("name", ""))
        cannot_save = bool(problems) or self.library is None or not name.strip()
        items: list[ft.Control] = [
            tagged("board-name", ft.TextField(label=tr.t("reglement.editor.name"), value=name, on_change=self.on_name, width=360)),
            big_button(
                tr.t("reglement.editor.save"),
                handler(self.save),
                ident="board-save",
                disabled=cannot_save,
                colour=OFF if cannot_save else ACCENT,
            ),
        ]
        if self.library is None:
            items.append(label(tr.t("reglement.editor.no_data_dir"), 15, MUTED))
        return ft.Row(items, wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def paste_panel(self) -> ft.Control:
        tr = self.tr
        return ft.Column(
            [
                label(tr.t("reglement.editor.paste"), 18, ACCENT, ft.FontWeight.BOLD),
                tagged(
                    "board-json",
                    ft.TextField(value=self.pasted, multiline=True, min_lines=3, max_lines=8, width=640, on_change=self.on_paste, label=tr.t("reglement.editor.paste_label")),
                ),
                big_button(
                    tr.t("reglement.editor.load_json"),
                    handler(self.load_pasted),
                    ident="board-load-json",
                    disabled=not self.pasted.strip(),
                    colour=ACCENT if self.pasted.strip() else OFF,
                ),
            ],
            spacing=8,
        )

    # -- events --

    async def back(self) -> None:
        self.page.navigate(f"/{self.host_query}")

    async def tap_seat(self, seat_id: str, _by: int | None) -> None:
        self.selected = None if self.selected == seat_id else seat_id
        await self.render()

    async def on_pick(self, event: Any) -> None:
        key = event.control.value
        self.error, self.notice, self.selected = [], None, None
        if key == DEFAULT_KEY:
            self.current, self.draft = DEFAULT_KEY, board_data(default_board())
        else:
            entry = next((e for e in self.entries if e.key == key and e.ok), None)
            if entry is not None:
                self.current, self.draft = key, board_data(entry.item)
        await self.render()

    async def set_mark(self, seat_id: str, mark: str, value: Any) -> None:
        for seat in self.draft["seats"]:
            if seat["id"] == seat_id:
                seat[mark] = value
        self.notice = None
        await self.render()

    async def on_faces(self, event: Any) -> None:
        seat_id = self.selected
        if seat_id is None:
            return
        other = event.control.value
        other = None if other in (None, NOBODY) else other
        touched = {seat_id, other} - {None}
        pairs = [pair for pair in self.draft.get("facing", []) if not touched & set(pair)]
        if other is not None:
            pairs.append([seat_id, other])
        self.draft["facing"] = pairs
        self.notice = None
        await self.render()

    async def on_name(self, event: Any) -> None:
        was_empty = not str(self.draft.get("name", "")).strip()
        self.draft["name"] = event.control.value or ""
        if was_empty != (not self.draft["name"].strip()):
            await self.render()  # enable or disable the save button

    async def on_paste(self, event: Any) -> None:
        was_empty = not self.pasted.strip()
        self.pasted = event.control.value or ""
        if was_empty != (not self.pasted.strip()):
            await self.render()  # enable or disable the load button

    async def load_pasted(self) -> None:
        draft, problems = parse_pasted(self.pasted, self.tr)
        self.notice = None
        if draft is None:
            self.error = [self.tr.t("reglement.editor.paste_failed")] + problems
        else:
            self.error, self.draft, self.selected, self.current = [], draft, None, DEFAULT_KEY
            self.notice = self.tr.t("reglement.editor.pasted")
        await self.render()

    async def save(self) -> None:
        if self.library is None:
            return
        name = str(self.draft.get("name", "")).strip()
        try:
            entry = await asyncio.to_thread(self.library.save_board, name, self.draft)
        except LibraryError as error:
            self.error, self.notice = [self.tr.t("reglement.board.save_failed", problem=str(error))], None
            await self.render()
            return
        await self.reload()
        self.error, self.current = [], entry.key
        self.draft = board_data(entry.item)
        self.notice = self.tr.t("reglement.editor.saved", name=entry.name)
        await self.render()
