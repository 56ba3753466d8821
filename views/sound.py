"""Optional board sounds: a soft chime when the turn changes, three notes at a
reveal, a knock at a Chicago Poker shootout. The sounds ship in assets/sounds (written by
tools/board_sounds.py) and play through Flet's Audio service (flet-audio; the web client is
built with it), so they work offline.

Off until the host taps the sound button: browsers play sound only after a tap on the page, and
that tap is it. A sound never delays the board: it is played in a task of its own, bounded.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

SOUNDS = ("turn", "reveal", "shootout")
#: a play call the client has not answered by then is given up (the board carries on, silent)
PLAY_TIMEOUT = 3.0


@dataclass(frozen=True)
class Moment:
    """What of a board view the sounds follow."""

    waiting_for: tuple[int, ...]
    awaiting_reveal: bool
    #: Chicago Poker: which reveal waits ("shootout" or "reinforcements")
    pending_reveal: str | None
    over: bool


def moment_of(view: Any) -> Moment:
    return Moment(
        waiting_for=tuple(getattr(view, "waiting_for", ()) or ()),
        awaiting_reveal=bool(getattr(view, "awaiting_reveal", False)),
        pending_reveal=getattr(view, "pending_reveal", None),
        over=getattr(view, "phase", None) == "over",
    )


def sound_for(before: Moment | None, after: Moment) -> str | None:
    """The sound a change of the board calls for, or None: a reveal done (a shootout's own sound
    for a Chicago Poker shootout), else a new player to wait for."""
    if before is None or before == after:
        return None
    if before.awaiting_reveal and not after.awaiting_reveal:
        return "shootout" if before.pending_reveal == "shootout" else "reveal"
    if after.waiting_for and after.waiting_for != before.waiting_for and not after.over:
        return "turn"
    return None


class BoardSounds:
    """One board's sounds: off at first; `toggle` (the host's tap) turns them on or off."""

    def __init__(self) -> None:
        self.on = False
        self._players: dict[str, Any] = {}
        self._last: Moment | None = None

    def toggle(self) -> None:
        self.on = not self.on
        if self.on and not self._players:
            from flet_audio import Audio

            # Services register with the page in whose handler they are made (this tap's), and
            # stay while referenced: kept here for the board's life.
            self._players = {name: Audio(src=f"/sounds/{name}.wav", volume=0.8) for name in SOUNDS}

    def observe(self, view: Any, page: Any) -> str | None:
        """Follow the board's view; play what its change calls for (when on). Returns the sound."""
        now = moment_of(view)
        cue = sound_for(self._last, now)
        self._last = now
        if cue is None or not self.on:
            return None
        page.run_task(self._play, cue)
        return cue

    async def _play(self, name: str) -> None:
        try:
            await asyncio.wait_for(self._players[name].play(), PLAY_TIMEOUT)
        except Exception:  # a client without audio, or one that went away: stay silent
            log.info("board sound %s not played", name, exc_info=True)
