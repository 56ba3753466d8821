"""A control's attributes in its class's shared layout (docs/decisions/flet-patches-memory.md).

14. CPython 3.11 (what the server runs) keeps the attributes of a class's instances in one layout shared by
all of them (the class's shared keys) while they are set in the same order; an instance setting a
name the layout lacks, once the layout has stopped growing, gets a dictionary of its own: 464
bytes per control instead of 216 to 296, measured on a Règlement de comptes phone. The layout
stops growing early: each instance created takes one of its 30 places (`init_inline_values`).
Flet gives a control five attributes only when the control is first sent (`_parent`,
`_initialized` and its three `__prev_*` snapshots), and a page builds its controls before it
sends them: by the time the first Text was sent, dozens had been built, and every Text,
Container, Column, Row, Semantics and Icon of every page had a dictionary of its own.

`lay_out` makes one instance of a control class as soon as the class is loaded, and gives it those
attributes in the order Flet gives them, so that they are in the layout before it stops growing.
"""

from __future__ import annotations

import inspect
import weakref
from typing import Any

#: what Flet sets on a control when it is first sent, in that order (`_configure_dataclass`, then
#: the encoder's snapshots)
SENT_ATTRIBUTES = ("_parent", "_initialized", "__prev_lists", "__prev_dicts", "__prev_classes")

#: the classes laid out, and whether their instance could be made (an abstract base cannot)
LAID_OUT: dict[type, bool] = {}


class _Holder:
    """What the laid-out instance's `_parent` points to (a weak reference needs a referent)."""


_HOLDER = _Holder()


def lay_out(cls: type) -> bool:
    """Put `SENT_ATTRIBUTES` into `cls`'s shared layout, through one instance made with every
    required argument None and dropped at once. False if it cannot be made (an abstract base, or
    Page, made once per session: nothing to share)."""
    if cls in LAID_OUT:
        return LAID_OUT[cls]
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    required = {p.name: None for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    try:
        instance: Any = cls(**required)
    except Exception:  # (any refusal: this is only a head start)
        LAID_OUT[cls] = False
        return False
    object.__setattr__(instance, "_parent", weakref.ref(_HOLDER))
    for name in SENT_ATTRIBUTES[1:]:
        object.__setattr__(instance, name, True if name == "_initialized" else {})
    LAID_OUT[cls] = True
    return True


def lay_out_all(classes: Any) -> int:
    """`lay_out` for each of `classes` not laid out yet; how many could be."""
    return sum(lay_out(cls) for cls in list(classes) if cls not in LAID_OUT)
