"""What a Vabanque seat's phone must show, for drills with protocol-level phones
(benchmarks/flet_client.py) against a real server."""

from __future__ import annotations

from benchmarks.flet_client import FletClient
from benchmarks.latency import VabanqueMirror
from views.games.vabanque import pieces as vabanque_ui


def expected_phone_lines(mirror: VabanqueMirror, seat: int) -> list[str]:
    """The seat's phone: its name, its money, the round and phase, whose turn."""
    tr = mirror.tr
    name, money = mirror.seat_header(seat)
    view = mirror.seat_view(seat)
    lines = [name, money, tr.t("ui.round", round=view.round, rounds=view.rounds) + " · " + tr.t(f"vabanque.phase.{view.phase}")]
    if vabanque_ui.is_my_turn(view, seat):
        lines.append(tr.t("ui.your_turn"))
    elif view.waiting_for and len(view.waiting_for) < len(mirror.names):
        # as views/seat.py: nobody is named when the whole table is waited for
        lines.append(tr.t("ui.waiting_for", mirror.names, seats=list(view.waiting_for)))
    return lines


async def phone_shows(phone: FletClient, lines: list[str], timeout: float) -> None:
    """Wait until the phone shows every line, with its header (name, money) first."""
    await phone.wait_for(lambda c: all(line in c.texts() for line in lines), timeout, what=f"{phone.name} showing {lines}")
    header = phone.texts()[:2]
    assert header == lines[:2], f"{phone.name}: header {header} != {lines[:2]}"
