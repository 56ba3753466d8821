"""What a device loses when it stays away longer than the session timeout, and telling it so.

Seats and the host board are found again through their tokens (the phone's storage, the board's
link), so a device back after its session expired gets a new session on the same page, drawn
from the room as it is now. What lived only in the old session is the page's view state
(`RoomScreen.ui`): where it was (ruling steps, the peek: never worth a word) and what was picked
or typed and not sent yet (a card chosen, a deal form half filled). Only the latter is a loss,
and only then does the returning page say so.

A loss is judged when the old session expires: the page is drawn once more, from an empty view
state, and every entry that drawing looks at is compared with what the old session held. An
entry the current drawing does not look at belongs to a past step of the game (its key names an
older round or turn) and was not lost; an entry equal to what a fresh page starts with (an empty
form, a default name) neither. At most one note is kept per seat and one per room's host board.
"""

from __future__ import annotations

import logging
from typing import Any

from views.common import PEEK_KEY, PEEK_SHOWN

log = logging.getLogger(__name__)

#: endings of view-state keys (a string, or a tuple's first item) that say where a page is, not
#: what its player entered: ruling steps, the last shootout shown, an open deal form, the peek,
#: what a phone's hidden table buttons were last used for (the action was sent) and the totals
#: they last showed
VIEW_POSITIONS = (".step", ".step_seen", ".show_last", ".dealing", ".peek", ".drafts", ".picking", ".totals_shown")


class Reads(dict):
    """An empty view state that remembers every key a drawing looks at."""

    def __init__(self) -> None:
        super().__init__()
        self.read: set[Any] = set()

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(key)
        return super().__contains__(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().setdefault(key, default)

    def pop(self, key: Any, *default: Any) -> Any:
        self.read.add(key)
        return super().pop(key, *default)


def is_position(key: Any) -> bool:
    name = key[0] if isinstance(key, tuple) and key else key
    return isinstance(name, str) and name.endswith(VIEW_POSITIONS)


def entered(value: Any) -> bool:
    """Whether a view-state value holds something a player entered (a blank form does not)."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, dict):
        return any(entered(v) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return len(value) > 0
    return True


def unsent_input(screen: Any) -> bool:
    """Whether `screen`'s view state holds picks or typing its current drawing would show."""
    kept = screen.ui
    fresh = Reads()
    fresh[PEEK_KEY] = PEEK_SHOWN  # what was picked behind the peek counts too
    screen.ui = fresh
    try:
        screen.build()
        looked_at = fresh.read
    except Exception:  # judged without the drawing: every entry counts
        log.warning("could not draw %s to judge what its device lost", type(screen).__name__, exc_info=True)
        looked_at = set(kept)
    finally:
        screen.ui = kept
    return any(
        key in kept and not is_position(key) and entered(kept[key]) and kept[key] != dict.get(fresh, key)
        for key in looked_at
    )


class AwayNotes:
    """The devices whose session expired with unsent input, until each comes back: by seat (for
    the seat's token then, so a re-issued seat's new phone is not told) and by host board."""

    def __init__(self) -> None:
        self._notes: dict[tuple[Any, ...], str | None] = {}

    @staticmethod
    def key(screen: Any) -> tuple[tuple[Any, ...], str | None] | None:
        if getattr(screen, "channel", None) == "seat":
            return ("seat", screen.room.id, screen.seat), screen.token
        if getattr(screen, "is_host", False) and getattr(screen, "room", None) is not None:
            return ("host", screen.room.id), None
        return None  # a spectator board enters nothing, the host's room list keeps nothing of a room

    def session_expired(self, screen: Any) -> None:
        """The session showing `screen` expired: note it if its device loses something."""
        found = self.key(screen)
        if found is not None and unsent_input(screen):
            self._notes[found[0]] = found[1]

    def take(self, screen: Any) -> bool:
        """`screen` opens on a new session: whether its device was told nothing yet of a loss."""
        found = self.key(screen)
        if found is None or found[0] not in self._notes:
            return False
        return self._notes.pop(found[0]) == found[1]
