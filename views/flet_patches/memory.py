"""A control's attributes in its class's shared layout (docs/decisions/flet-patches-memory.md).

14. CPython 3.11 (what the server runs) keeps the attributes of a class's instances in one layout
shared by all of them (the class's shared keys) while that layout has room for each name an
instance sets; an instance setting a name the layout lacks, once the layout has stopped growing,
gets a dictionary of its own: 464 bytes per control instead of 216 to 296, measured on a Règlement
de comptes phone. The layout stops growing early: each instance created takes one of its 30
places (`init_inline_values`). Flet gives a control five attributes only when it first sends it
(`_parent`, `_initialized` and its three `__prev_*` snapshots), and a page builds its controls
before it sends them: by the time the first Text was sent, dozens had been built, and every
Text, Container, Column, Row, Semantics and Icon of every page had a dictionary of its own.

`lay_out` makes one instance of a control class as soon as the class is loaded, gives it those
attributes, and checks that they fit: they are then in the layout before it stops growing.
"""

from __future__ import annotations

import contextvars
import gc
import inspect
import logging
import weakref
from typing import Any

log = logging.getLogger(__name__)

#: what Flet sets on a control when it is first sent, in that order (`_configure_dataclass`, then
#: the encoder's snapshots)
SENT_ATTRIBUTES = ("_parent", "_initialized", "__prev_lists", "__prev_dicts", "__prev_classes")

#: the classes seen, and whether the attributes are in their layout now
LAID_OUT: dict[type, bool] = {}


class _Holder:
    """What the laid-out instance's `_parent` points to (a weak reference needs a referent)."""


_HOLDER = _Holder()


def has_own_dict(instance: Any) -> bool:
    """Whether `instance`'s attributes left its class's shared layout for a dictionary of its own
    (found among what it refers to: reading `__dict__` would make one)."""
    return any(isinstance(ref, dict) and "_values" in ref for ref in gc.get_referents(instance))


def lay_out(cls: type) -> bool:
    """Put `SENT_ATTRIBUTES` into `cls`'s shared layout through one instance, made with every
    required argument None, outside any page's context, and dropped at once. False when it
    cannot be made (an abstract base), for a service (made once per page, and its construction
    registers it with a page), and when the names no longer fit (too many instances made before:
    logged)."""
    from flet.controls.services.service import Service

    if cls in LAID_OUT:
        return LAID_OUT[cls]
    LAID_OUT[cls] = False
    if issubclass(cls, Service):
        return False
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    required = {p.name: None for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    try:
        # (a context of its own: a control made inside a page's drawing sees no page)
        instance: Any = contextvars.Context().run(cls, **required)
    except Exception:  # (any refusal: this is only a head start)
        return False
    object.__setattr__(instance, "_parent", weakref.ref(_HOLDER))
    for name in SENT_ATTRIBUTES[1:]:
        object.__setattr__(instance, name, True if name == "_initialized" else {})
    if has_own_dict(instance):
        log.warning("%s: too many instances made before start-up to lay out its attributes", cls.__qualname__)
        return False
    LAID_OUT[cls] = True
    return True


def lay_out_all(classes: Any) -> int:
    """`lay_out` for each of `classes` not seen yet; how many it laid out."""
    return sum(lay_out(cls) for cls in list(classes) if cls not in LAID_OUT)
