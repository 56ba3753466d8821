"""The rooms list, and for the host the setup of a new room."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

import flet as ft


from companion.games import GAMES
from views.games import UIS, GameUI
from views.games import get as game_ui
from babel.lists import format_list

from companion.glyphs import undrawable
from companion.players import NAME_LENGTH, Colour
from companion.room import Rejected
from views.i18n import Translator
from views.lan import JoinHelp
from views.text_metrics import BODY_LETTER_SPACING, fits_dropdown, text_width
from views.screen import refresh_page
from views.context import SetupContext
from views.common import ACCENT, DANGER, INK, MUTED, PANEL, big_button, choice_name, handler, icon_button, label, language_menu, player_chip, show_screen, tagged

if TYPE_CHECKING:
    from views.session import PageSession

COLOURS: tuple[str, ...] = get_args(Colour)
#: from this page width on (a tablet, a desktop window) the setup form has two columns
WIDE = 960
#: the left column's width (a player's name, colour and remove button side by side)
LEFT_COLUMN = 480
COLUMN_GAP = 24
#: room kept for the rules column's scroll bar, beside the fields
SCROLLBAR = 16
ROOM_CARD_WIDTH = 380
ROOM_CARD_GAP = 12
#: the room cards wrap onto this many rows at most, then scroll (the setup form keeps its room:
#: at 1.5 rows the fourth player's name field was cut at 1280 x 800); the next row's top shows
ROOM_CARD_ROWS_SHOWN = 1.2
#: a room card's usual height (a wrapped row of many players makes it taller)
ROOM_CARD_HEIGHT = 132
#: the height kept for the setup form's refusal beside "Create the room" (it never moves the form)
ERROR_HEIGHT = 64
#: a house rule's field text, in px: the largest at which all its choices fit the field
RULE_TEXT_SIZES = (16, 15, 14, 13)
#: a field's floating label sits between the border's two ends: 16 px in from each side
LABEL_CHROME = 32


class HomeScreen:
    def __init__(self, session: PageSession, tr: Translator, *, is_host: bool, host_query: str):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.is_host = is_host
        self.host_query = host_query
        self.error: str | None = None
        self.game_id = next(iter(GAMES))
        self.players: list[dict[str, str]] = [
            {"name": "", "colour": COLOURS[i]} for i in range(4)
        ]
        self.first_player = "random"
        #: the table QR code's free-seat page (companion.store.TableLink.free_seats)
        self.free_seats = "True"
        self.rules: dict[str, str] = {}
        self.extra: dict[str, Any] = {}
        self._unsubscribe: Any = None
        #: what the name fields said at the last drawing (HomeScreen.form_words)
        self._shown_words: tuple[Any, ...] = ()
        self.join_help = JoinHelp(session, self.render) if is_host else None

    async def open(self) -> None:
        self._unsubscribe = self.session.host.subscribe(self.on_rooms_changed)
        await self.load_extra()
        await self.render()

    # -- a game's own setup fields (views/games: GameUI.setup_*) --

    def game_ui(self) -> GameUI[Any] | None:
        return game_ui(self.game_id) if self.game_id in UIS else None

    def setup_context(self) -> SetupContext:
        data_dir = getattr(self.session.config, "data_dir", None)
        return SetupContext(self.tr, len(self.players), data_dir, self.host_query, self.page, self.render, self.extra, self.rules)

    async def load_extra(self) -> None:
        self.extra = {}
        ui = self.game_ui()
        if self.is_host and ui is not None:
            await ui.setup_load(self.setup_context())

    async def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()

    async def connected(self, up: bool) -> None:
        if up:
            await self.render()

    async def on_rooms_changed(self) -> None:
        await refresh_page(self.page, self.render)

    async def render(self) -> None:
        show_screen(self.page, self.build(), "home")

    # -- building --

    def build(self) -> list[ft.Control]:
        tr = self.tr
        header = ft.Container(
            # room above the language field: its floating label is drawn above the field's box
            padding=ft.Padding.only(top=8),
            content=ft.Row(
                [
                    label(tr.t("ui.app_title"), 30, weight=ft.FontWeight.BOLD),
                    label(tr.t("ui.host_board") if self.is_host else tr.t("ui.spectator"), 18, MUTED),
                    *([self.join_help.button(tr)] if self.join_help else []),
                    self.language_picker(),
                ],
                # wraps on a phone (390 px): the title, then the buttons; nothing cut off
                wrap=True,
                spacing=12,
                run_spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        rooms = [self.room_card(room) for room in reversed(list(self.session.host.rooms.values()))]
        history = big_button(tr.t("history.open"), handler(self.open_history), ident="open-history", colour="#B0BEC5", width=320) if self.is_host else None
        rooms_title = label(tr.t("ui.rooms"), 22, ACCENT, ft.FontWeight.BOLD)
        none_yet = label(tr.t("ui.no_rooms"), 18, MUTED)
        if self.is_host and self.wide():
            page = self.wide_page(header, rooms_title, history, none_yet, rooms)
        else:
            controls: list[ft.Control] = [header, rooms_title]
            if history is not None:  # finished games, their replays, log import (views/history.py)
                controls.append(history)
            controls.extend(rooms or [none_yet])
            if self.is_host:
                controls.extend(self.setup_form())
            page = ft.Column(controls, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)
        if self.join_help and self.join_help.shown:
            return [self.join_help.over(tr, page)]
        return [page]

    def wide(self) -> bool:
        """A tablet or a desktop window: the setup form in two columns, its button always in view."""
        return float(self.page.width or 0) >= WIDE

    def wide_page(self, header: ft.Control, rooms_title: ft.Control, history: ft.Control | None, none_yet: ft.Control, rooms: list[ft.Control]) -> ft.Control:
        """The host's rooms page on a tablet: the rooms in one row (scrolling sideways when there
        are many), then the setup form in two columns that scroll on their own (players and table
        on the left, house rules and the game's own fields on the right), and "Create the room"
        below them, on screen whatever the game and its options."""
        tr = self.tr
        width = float(self.page.width or WIDE) - 24  # the page's padding
        top = ft.Row([rooms_title, *([history] if history else []), *([] if rooms else [none_yet])], wrap=True, spacing=16, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        controls: list[ft.Control] = [header, top]
        if rooms:
            # the cards wrap onto the next row (in one row that scrolled sideways, the fourth
            # card was cut at the screen's edge); past a row and a half they scroll
            cards = ft.Row([ft.Container(width=ROOM_CARD_WIDTH, content=card) for card in rooms], wrap=True, spacing=ROOM_CARD_GAP, run_spacing=ROOM_CARD_GAP, vertical_alignment=ft.CrossAxisAlignment.START)
            per_row = max(1, int((width + ROOM_CARD_GAP) // (ROOM_CARD_WIDTH + ROOM_CARD_GAP)))
            if len(rooms) > per_row:
                cards = ft.Container(height=ROOM_CARD_HEIGHT * ROOM_CARD_ROWS_SHOWN, content=ft.Column([cards], scroll=ft.ScrollMode.ALWAYS))
            controls.append(tagged("room-cards", cards))
        controls.append(
            ft.Row(
                [label(tr.t("ui.new_room"), 22, ACCENT, ft.FontWeight.BOLD), self.game_field()],
                wrap=True,
                spacing=24,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
        right_width = width - LEFT_COLUMN - COLUMN_GAP - SCROLLBAR
        left = ft.Column([*self.player_fields(), self.free_seats_field()], width=LEFT_COLUMN, scroll=ft.ScrollMode.AUTO, spacing=12)
        # its scroll bar always drawn: more rules may wait below the fold
        right = ft.Column(self.rule_fields(right_width), expand=True, scroll=ft.ScrollMode.ALWAYS, spacing=12)
        controls.append(ft.Row([left, right], expand=True, spacing=COLUMN_GAP, vertical_alignment=ft.CrossAxisAlignment.START))
        controls.append(self.create_row())
        return ft.Column(controls, expand=True, spacing=12)

    def room_card(self, room: Any) -> ft.Control:
        tr = self.tr
        view = room.view()
        names = room.names
        colours = [p.colour for p in room.setup.players]
        status = room_status(tr, room.game_id, view)
        if room.over:
            winners = room.game.result(room.state)["winners"]
            status = tr.t("ui.winner", names, seats=winners)
        return ft.Container(
            bgcolor=PANEL,
            border_radius=10,
            padding=12,
            # stacked lines, each wrapping: fits a 390 px phone as well as the tablet
            content=ft.Column(
                [
                    ft.Row([label(tr.t(f"game.{room.game_id}"), 20, weight=ft.FontWeight.BOLD), label(room.id, 14, MUTED)], wrap=True),
                    ft.Row([player_chip(tr, names, colours, s, 14) for s in range(len(names))], wrap=True),
                    ft.Row(
                        [tagged(f"room-status-{room.id}", label(status, 16, MUTED)), big_button(tr.t("ui.open"), handler(self.open_room, room.id), ident=f"open-{room.id}")],
                        wrap=True,
                        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ],
                spacing=6,
                tight=True,
            ),
        )

    def language_picker(self) -> ft.Control:
        return language_menu(self.tr, self.session.lang, self.on_language)

    async def on_language(self, event: Any) -> None:
        await self.session.set_language(event.control.value)

    def setup_form(self) -> list[ft.Control]:
        """The setup form in one column (a phone, a narrow window), its button at the end."""
        tr = self.tr
        width = min(float(self.page.width or 1024) - 24, 520)
        controls: list[ft.Control] = [label(tr.t("ui.new_room"), 22, ACCENT, ft.FontWeight.BOLD)]
        controls.append(self.game_field())
        controls.extend(self.player_fields())
        controls.extend(self.rule_fields(width))
        controls.append(self.free_seats_field(width))
        controls.append(self.create_row())
        return controls

    def game_field(self) -> ft.Control:
        tr = self.tr
        return tagged("setup-game", ft.Dropdown(
            label=tr.t("ui.game"),
            value=self.game_id,
            options=[ft.DropdownOption(key=g, text=tr.t(f"game.{g}")) for g in GAMES if g in UIS],
            on_select=self.on_game,
            width=320,
        ), name=tr.t("ui.choice", field=tr.t("ui.game"), value=tr.t(f"game.{self.game_id}")))

    def player_fields(self) -> list[ft.Control]:
        """The players (name and colour each), "Add a player" and the first player."""
        tr = self.tr
        game = GAMES[self.game_id]
        controls: list[ft.Control] = [label(tr.t("ui.players"), 18, INK)]
        problems = self.name_problems()
        self._shown_words = self.form_words()
        box = self.box_colours()  # the only colours offered, where the game's box decides them
        for i, player in enumerate(self.players):
            # the line under the field is always there (the counter of characters left holds
            # it): a name said twice, or the colour an empty row takes, moves nothing
            controls.append(
                ft.Row(
                    [
                        tagged(f"player-name-{i}", ft.TextField(
                            label=tr.t("ui.player_name", n=i + 1),
                            value=player["name"],
                            on_change=self.setter(i, "name"),
                            on_blur=handler(self.render),
                            max_length=NAME_LENGTH,
                            dense=True,  # 48 px high: the line under it costs no height in all
                            helper=tr.t("setup.name_default", colour=self.default_name(i)) if not player["name"].strip() else None,
                            error=problems.get(i),
                            helper_max_lines=1,
                            error_max_lines=1,
                            width=240,
                        )),
                        tagged(f"player-colour-{i}", ft.Dropdown(
                            value=player["colour"],
                            options=[ft.DropdownOption(key=c, text=tr.t(f"colour.{c}")) for c in box or COLOURS],
                            on_select=self.setter(i, "colour"),
                            width=170,
                        ), name=tr.t("ui.choice", field=tr.t("ui.player_colour", n=i + 1), value=tr.t(f"colour.{player['colour']}"))),
                        icon_button(ft.Icons.DELETE, tr.t("ui.remove_player"), handler(self.remove_player, i)),
                    ]
                )
            )
        if box is not None:
            # the colours are the box's pieces (Règlement's gangs): said, as the menus offer no other
            colours = ", ".join(tr.t(f"colour.{c}").lower() for c in box)  # (mid-sentence)
            controls.append(tagged("box-colours", label(tr.t(f"{game.id}.setup.colours", count=len(box), colours=colours), 15, MUTED)))
        if len(self.players) < game.max_players:
            controls.append(ft.TextButton(tr.t("ui.add_player"), on_click=handler(self.add_player), height=48))  # a 48 px touch target
        first_options = [ft.DropdownOption(key="random", text=tr.t("ui.random"))]
        # the players' names as typed (an empty row: its colour's name, the name it will get)
        first_options += [ft.DropdownOption(key=str(i), text=p["name"].strip() or self.default_name(i)) for i, p in enumerate(self.players)]
        controls.append(
            ft.Semantics(
                label=choice_name(tr, tr.t("ui.first_player"), first_options, self.first_player),
                content=ft.Dropdown(label=tr.t("ui.first_player"), value=self.first_player, options=first_options, on_select=self.on_first, width=260),
            )
        )
        return controls

    def rule_fields(self, width: float) -> list[ft.Control]:
        """The house rules, `width` px wide, then the game's own setup fields."""
        tr = self.tr
        game = GAMES[self.game_id]
        controls: list[ft.Control] = []
        if game.house_rules:
            controls.append(label(tr.t("ui.house_rules"), 18, INK))
        defaults = game.setup_model.model_fields
        for rule, values in game.house_rules.items():
            controls.append(self.rule_field(game.id, rule, values, self.rules.get(rule, str(defaults[rule].default)), width))
        ui = self.game_ui()
        if ui is not None:
            controls.extend(ui.setup_fields(self.setup_context()))
        return controls

    def rule_field(self, game_id: str, rule: str, values: Any, current: str, width: float) -> ft.Control:
        """A house rule's drop-down. Its field cannot wrap, so its text is the largest size at
        which every choice fits `width`; in the open menu each choice wraps, whole. A choice too
        long for the field even so (a phone) is also written out, whole, under it."""
        tr = self.tr
        texts = {str(v): tr.t(f"{game_id}.rule.{rule}.{v}") for v in values}
        name = tr.t(f"{game_id}.rule.{rule}")
        size = next((s for s in RULE_TEXT_SIZES if all(fits_dropdown(t, width, s) for t in texts.values())), RULE_TEXT_SIZES[-1])
        # the name as the field's floating label (12 px), or above the field when it is too long
        floating = text_width(name, 12, letter_spacing=BODY_LETTER_SPACING) <= width - LABEL_CHROME
        dropdown = tagged(f"rule-{rule}", ft.Dropdown(
            label=name if floating else None,
            value=current,
            options=[ft.DropdownOption(key=key, text=text, content=ft.Text(text, size=size)) for key, text in texts.items()],
            on_select=self.rule_setter(rule),
            text_size=size,
            width=width,
        ), name=tr.t("ui.choice", field=name, value=texts.get(current, current)))
        parts: list[ft.Control] = [dropdown]
        if not floating:
            parts.insert(0, ft.Container(width=width, content=label(name, 14, MUTED)))
        if not fits_dropdown(texts.get(current, ""), width, size):
            parts.append(ft.Container(width=width, content=label(texts[current], size, MUTED)))
        return parts[0] if len(parts) == 1 else ft.Column(parts, spacing=4, tight=True)

    def free_seats_field(self, width: float = 460) -> ft.Control:
        tr = self.tr
        free_options = [ft.DropdownOption(key=v, text=tr.t(f"table.option.free_seats.{v}")) for v in ("True", "False")]
        size = 16 if all(fits_dropdown(o.text or "", width) for o in free_options) else 14
        return tagged("setup-free-seats", ft.Dropdown(
            label=tr.t("table.option.free_seats"),
            value=self.free_seats,
            options=free_options,
            on_select=self.on_free_seats,
            text_size=size,
            width=width,
        ), name=choice_name(tr, tr.t("table.option.free_seats"), free_options, self.free_seats))

    def create_button(self) -> ft.Control:
        return big_button(self.tr.t("ui.create_room"), handler(self.create), ident="create-room", width=320)

    def create_row(self) -> ft.Control:
        """"Create the room", and beside it (under it on a phone) the reason it was refused, in a
        place kept for it: the red banner above the form pushed the whole form ~60 px down."""
        error = ft.Container(
            height=ERROR_HEIGHT,
            expand=True,
            content=tagged(
                "setup-error",
                ft.Container(
                    bgcolor=DANGER,
                    border_radius=8,
                    padding=ft.Padding.symmetric(horizontal=12, vertical=6),
                    alignment=ft.Alignment.CENTER_LEFT,
                    content=ft.Text(self.error or "", size=15, color="#111111", weight=ft.FontWeight.BOLD, max_lines=3, overflow=ft.TextOverflow.ELLIPSIS),
                ),
                name=self.error or "",
            ),
            visible=bool(self.error),
        )
        # its height is kept with or without a refusal: nothing above or beside it moves
        if self.wide():
            return ft.Container(height=ERROR_HEIGHT, content=ft.Row([self.create_button(), error], spacing=16, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        return ft.Column([self.create_button(), ft.Container(height=ERROR_HEIGHT, content=ft.Row([error]))], spacing=8, tight=True)

    def name_problems(self) -> dict[int, str]:
        """Per row: what is wrong with its name, in words naming the other row (a name too long
        cannot be typed: the field stops at NAME_LENGTH)."""
        tr = self.tr
        rows: dict[str, list[int]] = {}
        for i, player in enumerate(self.players):
            name = player["name"].strip()
            if name:
                rows.setdefault(name.casefold(), []).append(i)
        out: dict[int, str] = {}
        for same in rows.values():
            if len(same) > 1:
                for i in same:
                    others = [str(j + 1) for j in same if j != i]
                    out[i] = tr.t("setup.name_twice", rows=format_list(others, locale=tr.locale))
        for i, player in enumerate(self.players):
            missing = undrawable(player["name"])
            if missing:  # an emoji: shown as an empty box on every device
                out[i] = tr.t("setup.name_undrawable", chars=missing)
        return out

    def names_refusal(self) -> str | None:
        """Why Create refuses the names, naming the rows ("Two players are called Ada: rows 1
        and 3"), or None."""
        for i, player in enumerate(self.players):
            missing = undrawable(player["name"])
            if missing:
                return self.tr.t("setup.names_undrawable", row=i + 1, chars=missing)
        rows: dict[str, list[int]] = {}
        for i, player in enumerate(self.players):
            name = player["name"].strip()
            if name:
                rows.setdefault(name.casefold(), []).append(i)
        for same in rows.values():
            if len(same) > 1:
                name = self.players[same[0]]["name"].strip()
                return self.tr.t("setup.names_twice", name=name, rows=format_list([str(i + 1) for i in same], locale=self.tr.locale))
        return None

    def form_words(self) -> tuple[Any, ...]:
        """What the form says under the name fields (drawn again when it changes)."""
        return (self.name_problems(), tuple(bool(p["name"].strip()) for p in self.players))

    def default_name(self, index: int) -> str:
        """The name an empty row gets: its colour's (said under the field)."""
        return self.tr.t("colour." + self.players[index]["colour"])

    # -- form events --

    def setter(self, index: int, key: str):
        async def on_change(event: Any) -> None:
            self.players[index][key] = event.control.value or ""
            # the colour: its screen-reader name says the colour chosen; a name: drawn again
            # only when what is said under a field changes (a name said twice, a row left empty)
            if key == "colour" or self.form_words() != self._shown_words or self.error:
                if key == "name":
                    self.error = None  # the refusal was about the names, now being edited
                await self.render()

        return on_change

    def rule_setter(self, rule: str):
        async def on_select(event: Any) -> None:
            self.rules[rule] = event.control.value
            # its screen-reader name says the choice; the game's own fields may depend on it
            await self.render()

        return on_select

    def box_colours(self) -> tuple[str, ...] | None:
        """The colours the game's box decides for this many players (Règlement's gangs), or None:
        any colour (and for a count the game does not take, which Create refuses)."""
        box = GAMES[self.game_id].player_colours(len(self.players))
        return box if box is not None and len(box) == len(self.players) else None

    def fit_colours(self) -> None:
        """Where the game's box decides the colours (Règlement: n players play the n largest
        gangs), each player keeps theirs if it is one of them and the others take the ones left."""
        box = self.box_colours()
        if box is None:
            return
        kept: set[str] = set()
        for player in self.players:
            if player["colour"] in box and player["colour"] not in kept:
                kept.add(player["colour"])
            else:
                player["colour"] = ""
        left = [c for c in box if c not in kept]
        for player in self.players:
            if not player["colour"]:
                player["colour"] = left.pop(0)

    async def on_game(self, event: Any) -> None:
        self.game_id = event.control.value
        self.fit_colours()
        self.rules = {}
        await self.load_extra()
        await self.render()

    async def on_free_seats(self, event: Any) -> None:
        self.free_seats = event.control.value
        await self.render()  # its screen-reader name says the choice

    async def on_first(self, event: Any) -> None:
        self.first_player = event.control.value
        await self.render()  # its screen-reader name says the choice

    async def add_player(self) -> None:
        used = {p["colour"] for p in self.players}
        colour = next(c for c in COLOURS if c not in used)
        self.players.append({"name": "", "colour": colour})
        self.fit_colours()
        await self.render()

    async def remove_player(self, index: int) -> None:
        if len(self.players) > 1:
            self.players.pop(index)
            self.fit_colours()
            self.first_player = "random"
            await self.render()

    async def open_room(self, room_id: str) -> None:
        self.page.navigate(f"/room/{room_id}{self.host_query}")

    async def open_history(self) -> None:
        self.page.navigate(f"/history{self.host_query}")

    async def create(self) -> None:
        refusal = self.names_refusal()
        if refusal is not None:
            self.error = refusal
            await self.render()
            return
        game = GAMES[self.game_id]
        setup: dict[str, Any] = {
            "players": [{"name": p["name"].strip() or f"{self.tr.t('colour.' + p['colour'])}", "colour": p["colour"]} for p in self.players],
            "first_player": None if self.first_player == "random" else int(self.first_player),
        }
        fields = game.setup_model.model_fields
        for rule, value in self.rules.items():
            annotation = fields[rule].annotation
            setup[rule] = _coerce(value, annotation)
        if "first_player" not in fields:
            setup.pop("first_player")
        ui = self.game_ui()
        if ui is not None:
            setup.update(ui.setup_values(self.setup_context()))
        try:
            room = await self.session.host.create_room(self.game_id, setup, free_seats=self.free_seats == "True")
        except Rejected as rejection:
            self.error = self.tr.error(rejection.code, rejection.params, [])
            await self.render()
            return
        self.page.navigate(f"/room/{room.id}{self.host_query}")


def room_status(tr: Translator, game_id: str, view: Any) -> str:
    """A room card's line: the round of a game played in rounds, and the phase (Chicago Poker
    and Reglement have no rounds: a card said "Round 1 of 1")."""
    parts: list[str] = []
    rounds = game_ui(game_id).rounds(view) if game_id in UIS else None
    if rounds is not None:
        parts.append(tr.t("ui.round", round=rounds[0], rounds=rounds[1]))
    phase = f"{game_id}.phase.{view.phase}"
    if phase in tr.messages:
        parts.append(tr.t(phase))
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]


def _coerce(value: str, annotation: Any) -> Any:
    if annotation is bool or value in ("True", "False"):
        return value == "True"
    try:
        return int(value)
    except ValueError:
        return value
