"""Optional board sounds (issue #15): shipped in assets/sounds, played through Flet's Audio
service, off until the host taps them on (that tap is what lets a browser play sound)."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

from tests.test_views_inprocess import CHIP_TABLES, make_world
from views.sound import SOUNDS, Moment, sound_for

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def moment(waiting_for: tuple[int, ...] = (0,), awaiting_reveal: bool = False, pending_reveal: str | None = None, over: bool = False) -> Moment:
    return Moment(waiting_for, awaiting_reveal, pending_reveal, over)


def sound_button_name(board: Any) -> str:
    import flet as ft

    from tests.harness.flet_inprocess import walk_controls

    return next(str(c.tooltip) for c in walk_controls(board.find("sound")) if isinstance(c, ft.IconButton))


def test_every_sound_ships_as_a_short_wav_file() -> None:
    for name in SOUNDS:
        with wave.open(str(ASSETS / f"{name}.wav")) as file:
            seconds = file.getnframes() / file.getframerate()
        assert 0.1 < seconds < 1.0, (name, seconds)


def test_which_change_calls_for_which_sound() -> None:
    assert sound_for(None, moment()) is None  # the board just opened: nothing happened
    assert sound_for(moment((0,)), moment((0,))) is None
    assert sound_for(moment((0,)), moment((1,))) == "turn"
    assert sound_for(moment((0, 1), awaiting_reveal=True), moment((2,))) == "reveal"
    assert sound_for(moment((), awaiting_reveal=True, pending_reveal="shootout"), moment((1,))) == "shootout"
    assert sound_for(moment((0,)), moment((), over=True)) is None


async def test_the_host_taps_sounds_on_then_a_turn_change_plays_the_chime(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "sounds")
    board = await world.open_board()
    connection = board.conn
    assert "Board sounds: off" in sound_button_name(board)
    await board.click(f"table-{CHIP_TABLES[0]}")
    assert connection.audio == []  # off: silent
    await board.click("sound")
    assert "Board sounds: on" in sound_button_name(board)
    await board.click(f"table-{CHIP_TABLES[1]}")
    await board.harness.settle()
    assert connection.audio == [("/sounds/turn.wav", "play")]
    await board.click("sound")
    await board.click(f"table-{CHIP_TABLES[2]}")
    assert connection.audio == [("/sounds/turn.wav", "play")]
