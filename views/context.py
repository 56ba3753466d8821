"""The contexts a game's UI module draws with (views/games/<game>.py): `GameContext` for one
audience's view of a room (board, phone, replay), `SetupContext` for the new-game form's hooks.

Only data and callbacks: this module imports no screen, so the game modules, views/common.py and
the screens can all name these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import flet as ft
    from pydantic import BaseModel

    from views.i18n import Translator
    from views.sections import Sections

#: sends an action to the room: a JSON object (its "type", "by" and the action's own fields, JSON
#: values of every kind: so Any), against the version the drawing showed; True when the room took it
Submit = Callable[[dict[str, Any]], Awaitable[bool]]
#: draws the page again (after a change of the view state in `GameContext.ui` or `SetupContext.state`)
Rerender = Callable[[], Awaitable[None]]


class ActingKeys(Protocol):
    """What a context asks of its page's handover (views/screen.py `Handover`, named here by what it
    does: views/screen.py imports this module)."""

    def key(self, base: str, seat: int) -> str: ...

    def slot(self, seat: int) -> int: ...

    # views/sections.py: what a drawing has asked of it so far, and giving it back
    def checkpoint(self) -> tuple[Any, ...]: ...

    def restore(self, saved: tuple[Any, ...]) -> None: ...


@dataclass
class GameContext:
    """What a game's UI module needs to draw one audience's view and send actions."""

    tr: Translator
    names: list[str]
    colours: list[str]
    width: float
    height: float
    #: the seat whose private view this is (phone or pass-and-play), else None
    seat: int | None
    #: may enter public actions for the current player (the host board)
    acts_for_current: bool
    #: (the board editor's drawing, which acts for nobody, passes None: views/boards.py)
    submit: Submit
    #: the game UI module's per-device view state: each game's own keys and values (of any kind)
    ui: dict[Any, Any] = field(default_factory=dict)
    #: draws the page again. Every page's context passes its render; only a drawing that no tap
    #: redraws leaves it out (the board editor's, and the tests')
    rerender: Rerender = None  # type: ignore[assignment]  # None stands for "never called" there: an Optional would ask every game's handler to check it
    #: the host's data directory (saved boards, presets), None when the host has none
    data_dir: Path | None = None
    #: the room version this drawing shows: `submit` sends it (the version the finger saw)
    version: int = -1
    #: keys of controls acting for a player (see Handover.key); None on pages that act for nobody
    handover: ActingKeys | None = None

    #: the page's parts reused from its last drawing (views/sections.py); None: build them all
    sections: Sections | None = None

    def act_key(self, base: str, seat: int) -> str:
        """The key (and so the control id) of a control acting for `seat`: a tap still on its way
        to the previous player's control never lands on this one (see Handover)."""
        key = f"{base}@{seat}" if self.handover is None else self.handover.key(base, seat)
        if self.sections is not None:
            self.sections.record(base, seat, key)
        return key

    def acting_slot(self, seat: int) -> int:
        """Whose own act-for controls take the taps for `seat` now (see Handover.slot): a control
        mounted per player (keyed `f"{base}@{player}"`, never through `act_key`) is shown for
        this one."""
        return seat if self.handover is None else self.handover.slot(seat)

    def signature(self) -> tuple[Any, ...]:
        """What every part of this drawing is drawn from besides its own props (asked by every
        part: built once for each width the drawing gives its context)."""
        if self._signature is None or self._signature[1] != self.width or self._signature[2] != self.height:
            signature = (self.tr.lang, self.width, self.height, self.seat, self.acts_for_current, tuple(self.names), tuple(self.colours))
            self._signature = signature if self.sections is None else self.sections.interned(signature)
        return self._signature

    def part(self, key: str, props: Any, build: Callable[[], ft.Control]) -> ft.Control:
        """The control `build()` draws, or the same control as at this page's last drawing when
        the part `key` (a place on the page) had equal `props` then (views/sections.py).
        `build` may read only `props` and this context's `signature()`: plain values and
        projection slices, never a handler made for the drawing (a reused part keeps its own)."""
        if self.sections is None:
            return build()
        return self.sections.part(key, props, build, self)

    def group(self, key: str, props: Any, children: list[ft.Control], build: Callable[[list[ft.Control]], ft.Control]) -> ft.Control:
        """`build(children)`: a wrapper kept, like a part, while its `props` are equal and it has
        as many children; a changed child is put in its place and sent alone (views/sections.py
        `Sections.group`). `children` are drawn first (parts, mostly); `build` may read only them,
        `props` and the signature."""
        if self.sections is None:
            control = build(children)
            if control.key is None:
                control.key = key  # keyed like a part, wherever it is drawn
            return control
        return self.sections.group(key, props, children, build, self)

    _signature: tuple[Any, ...] | None = field(default=None, init=False, repr=False, compare=False)

    #: on a seat's page: the room's BOARD projection, what a phone's public section is drawn
    #: from (never from `view.me`, so only the pad's section can hold a secret)
    #: (the game's own `View`: companion/games/<game>.py; `views.common.public_view` gives it that type)
    board_view: BaseModel | None = None


@dataclass
class SetupContext:
    """What a game UI module's optional setup hooks get (`setup_load`, `setup_fields`,
    `setup_values` in views/games/<game>.py): the form's player count, the host's data directory,
    `state`, the module's own dict for this form (kept until another game is chosen), and `rules`,
    the house-rule choices made so far (rule -> value as text; the form redraws on each choice
    when the game has `setup_fields`, so those can follow them)."""

    tr: Translator
    players: int
    data_dir: Path | None
    host_query: str
    page: ft.Page
    rerender: Rerender
    state: dict[str, Any] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
