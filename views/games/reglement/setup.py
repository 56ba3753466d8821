"""Règlement de comptes' setup form: the host's saved boards and seating presets
(companion/reglement_library.py), chosen in the setup form (GameUI.setup_*)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion.games.reglement import View
from companion.games.reglement_board import Board, default_board
from companion.reglement_library import Entry, LibraryError, ReglementLibrary, SeatingPreset, preset_problem
from views.common import (
    ACCENT,
    DANGER,
    INK,
    MUTED,
    PANEL,
    big_button,
    choice_name,
    handler,
    label,
    tagged,
)
from views.context import GameContext, SetupContext
from views.games.reglement.pieces import board_title

# --------------------------------------------------------------------------------------------
# the host's saved boards and seating presets (companion/reglement_library.py)
# --------------------------------------------------------------------------------------------


def library_for(ctx: GameContext | SetupContext) -> ReglementLibrary | None:
    """The host's library of boards and presets (in its data directory), or None without one."""
    data_dir = getattr(ctx, "data_dir", None)
    return ReglementLibrary(data_dir) if data_dir is not None else None


# -- the setup form (views/home.py calls these optional hooks) --

DEFAULT_BOARD = "default"
FREE = "free"


async def setup_load(ctx: SetupContext) -> None:
    """Read the saved boards and presets (off the event loop) into the form's state."""
    library = library_for(ctx)
    boards, presets = [], []
    if library is not None:
        boards = await asyncio.to_thread(library.list_boards)
        presets = await asyncio.to_thread(library.list_presets)
    ctx.state.update(
        boards={e.key: e for e in boards if e.ok},
        presets={e.key: e for e in presets if e.ok},
        board=DEFAULT_BOARD,
        seating=FREE,
    )


def chosen_board(ctx: SetupContext) -> Board:
    entry = ctx.state.get("boards", {}).get(ctx.state.get("board"))
    return entry.item if entry is not None else default_board()


def fitting_presets(ctx: SetupContext) -> list[Entry[SeatingPreset]]:
    """Saved presets for this many players whose seats are all on the chosen board."""
    board = chosen_board(ctx)
    return [
        e
        for e in ctx.state.get("presets", {}).values()
        if e.item.players == ctx.players and preset_problem(e.item, board) is None
    ]


def setup_fields(ctx: SetupContext) -> list[ft.Control]:
    tr = ctx.tr
    state = ctx.state
    boards = state.get("boards", {})
    if state.get("board") not in boards:
        state["board"] = DEFAULT_BOARD
    presets = fitting_presets(ctx)
    if state.get("seating") not in {e.key for e in presets}:
        state["seating"] = FREE

    def chooser(key: str) -> Callable[[Any], Awaitable[None]]:
        async def on_select(event: Any) -> None:
            state[key] = event.control.value
            await ctx.rerender()

        return on_select

    async def edit_boards() -> None:
        ctx.page.navigate(f"/boards{ctx.host_query}")

    board_options = [ft.DropdownOption(key=DEFAULT_BOARD, text=tr.t("reglement.setup.default_board", name=board_title(tr, default_board().name)))]
    board_options += [ft.DropdownOption(key=key, text=e.name) for key, e in boards.items()]
    seating_options = [ft.DropdownOption(key=FREE, text=tr.t("reglement.setup.free"))]
    seating_options += [ft.DropdownOption(key=e.key, text=tr.t("reglement.setup.preset", name=e.name)) for e in presets]
    return [
        label(tr.t("reglement.setup.board"), 18, INK),
        ft.Row(
            [
                tagged(
                    "setup-board",
                    ft.Dropdown(label=tr.t("reglement.setup.board"), value=state["board"], options=board_options, on_select=chooser("board"), width=520),
                    name=choice_name(tr, tr.t("reglement.setup.board"), board_options, state["board"]),
                ),
                big_button(tr.t("reglement.setup.edit_boards"), handler(edit_boards), ident="open-boards", colour="#B0BEC5"),
            ],
            wrap=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        tagged(
            "setup-seating",
            ft.Dropdown(label=tr.t("reglement.setup.seating"), value=state["seating"], options=seating_options, on_select=chooser("seating"), width=520),
            name=choice_name(tr, tr.t("reglement.setup.seating"), seating_options, state["seating"]),
        ),
    ]


def setup_values(ctx: SetupContext) -> dict[str, Any]:
    """The Setup entries for the chosen board and seating (nothing extra for the defaults)."""
    state = ctx.state
    values: dict[str, Any] = {}
    entry = state.get("boards", {}).get(state.get("board"))
    if entry is not None:
        values["board"] = entry.item.model_dump(mode="json")
    preset = next((e for e in fitting_presets(ctx) if e.key == state.get("seating")), None)
    if preset is not None:
        assert preset.item is not None  # the form offers the presets that loaded (setup_load)
        values.update(preset.item.setup_entries())
    return values


# -- saving the seating the table just chose, on the host board --


def preset_ready(view: View) -> bool:
    """Free seating just ended: everyone is seated and the first turn has not played a card."""
    return (
        view.phase == "play"
        and view.turn_number == 1
        and not view.cards_played
        and not view.discarded
        and any(r.code == "reglement.seating_done" for r in view.turn_log)
        and all(g.alive and g.seat is not None for g in view.gangsters)
    )


def save_preset_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    library = library_for(ctx)
    state = ctx.ui.setdefault(("reglement.preset", view.turn_number), {})
    players = len(view.players)
    state.setdefault("name", tr.t("reglement.preset.default_name", count=players, board=view.board_name))

    async def on_name(event: Any) -> None:
        state["name"] = event.control.value or ""

    async def save() -> None:
        name = state.get("name", "").strip()
        preset: dict[str, Any] = {
            "name": name or "preset",
            "players": players,
            "board": view.board_name,
            "gangsters": [{"player": g.owner, "kind": g.kind, "seat": g.seat} for g in view.gangsters],
        }
        if library is None:
            return
        try:
            entry = await asyncio.to_thread(library.save_preset, preset["name"], preset)
        except (LibraryError, OSError) as error:
            state["result"] = tr.t("reglement.preset.failed", problem=str(error))
            state["ok"] = False
        else:
            state["result"] = tr.t("reglement.preset.saved", name=entry.name, count=players, players=players)
            state["ok"] = True
        await ctx.rerender()

    rows: list[ft.Control] = [label(tr.t("reglement.preset.title"), 18, ACCENT, ft.FontWeight.BOLD)]
    if library is None:
        rows.append(label(tr.t("reglement.editor.no_data_dir"), 15, MUTED))
    else:
        rows.append(
            ft.Row(
                [
                    ft.Semantics(
                        identifier="preset-name",
                        key="preset-name",
                        content=ft.TextField(label=tr.t("reglement.preset.name"), value=state["name"], on_change=on_name, width=360),
                    ),
                    big_button(tr.t("reglement.preset.save"), handler(save), ident="preset-save"),
                ],
                wrap=True,
                spacing=12,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if state.get("result"):
        rows.append(
            ft.Semantics(
                identifier="preset-result",
                key="preset-result",
                live_region=True,
                content=label(state["result"], 16, INK if state.get("ok") else DANGER),
            )
        )
    return ft.Semantics(
        identifier="save-preset",
        key="save-preset",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(rows, spacing=8)),
    )

