"""The table's shared steps that no game draws itself: the reveal (a logged action tapped on the
host board, or everyone being ready), the phones' "I'm ready", and a phone's "Take back my move".

They read only public projection fields (`awaiting_reveal`, `ready`, `board_legal.reveal`,
`my_legal.ready`), present in every game that hides something; a game without them (Règlement)
gets none of these controls.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from views.context import GameContext
from views.common import ACCENT, INK, MUTED, PANEL, big_button, handler, label, tagged


def ready_line(ctx: GameContext, view: Any) -> ft.Control | None:
    ready = tuple(getattr(view, "ready", ()) or ())
    if not ready:
        return None
    return tagged("ready-list", label(ctx.tr.t("ui.ready_list", ctx.names, seats=list(ready)), 16, MUTED))


def reveal_panel(ctx: GameContext, view: Any, subject: str | None = None) -> ft.Control | None:
    """On the board while the game waits for the reveal: what it waits for (`subject`, what the
    reveal turns up, where the game says so: GameUI.reveal_subject), who is ready, and on the
    host board the Reveal button (the undo stops at the reveal: everyone has then seen)."""
    if not getattr(view, "awaiting_reveal", False):
        return None
    tr = ctx.tr
    legal = getattr(view, "board_legal", None)
    may_reveal = ctx.acts_for_current and legal is not None and getattr(legal, "reveal", False)

    def build() -> ft.Control:
        items: list[ft.Control] = (
            [tagged("reveal-subject", label(subject, 22, ACCENT, ft.FontWeight.BOLD)), label(tr.t("ui.reveal_when_ready"), 18, INK)]
            if subject
            else [label(tr.t("ui.reveal_waiting"), 20, INK, ft.FontWeight.BOLD)]
        )
        line = ready_line(ctx, view)
        if line is not None:
            items.append(line)
        if may_reveal:
            items.append(big_button(tr.t("ui.reveal"), handler(ctx.submit, {"type": "reveal", "by": None}), ident="reveal"))
        return ft.Semantics(
            identifier="reveal-panel",
            key="reveal-panel",
            content=ft.Container(bgcolor=PANEL, border=ft.Border.all(3, ACCENT), border_radius=12, padding=12, content=ft.Column(items, spacing=8, tight=True)),
        )

    # a part: the redraws while the table gets ready send only who is ready
    return ctx.part("reveal-panel", (tuple(getattr(view, "ready", ()) or ()), may_reveal, subject), build)


def ready_panel(ctx: GameContext, view: Any, seat: int, subject: str | None = None) -> ft.Control | None:
    """On a phone: "I'm ready" while the table waits for everyone (the reveal, or Vabanque's next
    round after the payout), and who is ready already; `subject`: what the reveal turns up."""
    legal = getattr(view, "my_legal", None)
    may = legal is not None and getattr(legal, "ready", False)
    ready = tuple(getattr(view, "ready", ()) or ())
    if not may and not ready:
        return None
    tr = ctx.tr
    awaiting = bool(getattr(view, "awaiting_reveal", False))

    def build() -> ft.Control:
        items: list[ft.Control] = []
        if subject and awaiting:
            items.append(tagged("reveal-subject", label(subject, 20, ACCENT, ft.FontWeight.BOLD)))
        if may:
            text = tr.t("ui.ready") if awaiting else tr.t("ui.ready_next")
            items.append(big_button(text, handler(ctx.submit, {"type": "ready", "by": seat}), ident="ready", key=ctx.act_key("ready", seat)))
            # what the tap leads to: the reveal, or the next round
            items.append(tagged("ready-help", label(tr.t("ui.ready_help") if awaiting else tr.t("ui.ready_next_help"), 15, MUTED)))
        line = ready_line(ctx, view)
        if line is not None:
            items.append(line)
        return ft.Column(items, spacing=6, tight=True, key="ready-panel")

    # a part: another player's redraw that changes neither sends nothing
    return ctx.part("ready-panel", (may, awaiting, ready, seat, subject), build)


#: the enabled "Take back my move": the page's light ink, not the grey of secondary buttons
TAKE_BACK_FILL = INK


def take_back_slot(ctx: GameContext, status: Any, where: str, shown: bool, on_tap: Any) -> ft.Control:
    """The owner's "Take back my move" at the page's top or bottom (`where`): bright while its
    latest action is the last one and revealed nothing; greyed with the reason once another
    action came or a reveal happened. Both places are drawn for the whole game and at most one
    is `shown` (a hidden control takes no tap): its coming, going and greying send a flag or a
    line, never the button anew. At the top it is only ever the bright one."""
    tr = ctx.tr
    if where == "top":
        available, why = True, None
    elif shown:
        available, why = status.available, None if status.available else status.refusal
    else:
        # hidden below, it waits greyed as it mostly shows there: showing it sends its flag only
        available, why = False, "room.err.take_back_later"

    def button() -> ft.Control:
        # bright, dark text: an action one may take (a grey fill read as a disabled button)
        if available:
            return big_button(tr.t("ui.take_back"), on_tap, ident="take-back", colour=TAKE_BACK_FILL)
        return big_button(tr.t("ui.take_back"), None, ident="take-back", colour="#B0BEC5", disabled=True)

    lines = [ctx.part(f"take-back-{where}-button", available, button)]
    if where == "bottom":

        def reason() -> ft.Control:
            line = tagged("take-back-why", label(tr.t(why) if why else "", 14, MUTED))
            line.visible = why is not None
            return line

        lines.append(ctx.part("take-back-why", why, reason))
    return ctx.group(f"take-back-{where}", shown, lines, lambda lines: ft.Column(lines, spacing=2, tight=True, visible=shown))
