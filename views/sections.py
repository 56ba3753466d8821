"""Keyed reuse of a page's unchanged parts (issue 17): a part built from the same props as at the
page's last drawing is that drawing's control object again, so it is neither built nor diffed.

Flet 1.0 reconciles a redrawn page with the one shown field by field, but stops at a control
that *is* the one shown (object_patch `_compare_dataclasses`: "frozen and src is dst"): the
same rule `ft.memo` relies on, without turning the pages into components. A part names its place
with a key and says what it is drawn from (`props`: projection slices, plain values); the
drawing's context (language, names, colours, size, whose page) is part of every part's props.

What makes reuse safe, each checked:
  * a part's build reads nothing but its props and the context: with REFEREE_CHECK_SECTIONS=1
    (the tests) every reused part is built again and compared with the reused one, field by
    field; a difference is logged as an error, which fails the test;
  * a part stays in its place: after the page is sent, every reused control must still hold its
    id, be the control the session finds under it, and have been found kept by Flet's diff
    (views/flet_patches.py, 8), not sent anew inside a parent Flet replaced; otherwise an error
    is logged and nothing is reused at the next drawing. A screen's `layout()` bounds reuse;
  * controls acting for a player take their keys from the handover (views/screen.py Handover):
    a reused part's calls are replayed, and the part is reused only if each gives the same key.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from views import flet_patches

if TYPE_CHECKING:
    import flet as ft

log = logging.getLogger(__name__)

#: build every reused part again and compare (the tests set it: see tests/conftest.py)
CHECK = os.environ.get("REFEREE_CHECK_SECTIONS", "") == "1"
#: reuse unchanged parts (off: every part is built at every drawing, as before; benchmarks
#: compare the two in one run)
REUSE = os.environ.get("REFEREE_REUSE_PARTS", "1") != "0"
#: reuse a wrapper whose children are all reused (`Sections.group`; off: wrappers are built at
#: every drawing, benchmarks/redraw_cost.py compares the two)
GROUPS = True


@dataclass
class _Part:
    props: Any
    control: Any
    #: the act-for keys its build asked for: (base, seat, key)
    act_keys: list[tuple[str, int, str]]
    #: the parts drawn inside it (they come along when it is reused)
    inner: dict[str, _Part]


@dataclass
class _Building:
    act_keys: list[tuple[str, int, str]]
    inner: dict[str, _Part]


class Sections:
    """One page's parts at its last drawing, and how many were built or reused."""

    def __init__(self) -> None:
        self._shown: dict[str, _Part] = {}
        self._drawing: dict[str, _Part] = {}
        self._reused: list[tuple[str, Any, int]] = []
        #: the parts being built (innermost last): the act-for keys and parts drawn inside them
        self._building: list[_Building] = []
        self._checking = 0
        #: the layout of the last drawing (see begin)
        self._layout: Any = None
        #: a drawing is under way (a build outside one, e.g. views/away.py judging input, reuses nothing)
        self._active = False
        #: parts built and reused at the last drawing, and since the page opened
        self.built = self.reused = 0
        self.total_built = self.total_reused = 0

    def begin(self, layout: Any = None) -> None:
        """A drawing starts. `layout` names how the page is put together (an overlay over it, the
        rule card instead of it, ...): parts are reused only within one layout, since a part
        under another parent than before is sent anew (see check_placed)."""
        if layout != self._layout:
            self._shown = {}
            self._layout = layout
        self._active = True
        self._drawing = {}
        self._reused = []
        self._building = []
        self.built = self.reused = 0

    def end(self, complete: bool = True) -> None:
        """The drawing is over: if `complete`, its parts are the ones the next drawing may reuse
        (a drawing that failed half-way leaves nothing to reuse)."""
        self._active = False
        if not complete:
            self._shown = {}
            return
        self._shown = self._drawing
        self.total_built += self.built
        self.total_reused += self.reused

    def forget(self) -> None:
        """Reuse nothing at the next drawing (a language or a screen change)."""
        self._shown = {}

    def part(self, key: str, props: Any, build: Callable[[], ft.Control], ctx: Any) -> ft.Control:
        if self._checking or not self._active or not REUSE:
            return _keyed(build(), key)
        props = (ctx.signature(), props)
        shown = self._shown.get(key)
        handover = ctx.handover
        before = handover.checkpoint() if CHECK and handover is not None else None
        if shown is not None and shown.props == props and self._replay(shown, ctx):
            self._enter(key, shown, reused=True)
            self.reused += 1
            self._reused.append((key, shown.control, shown.control._i))
            if CHECK:
                self._check_same(key, shown.control, build, ctx, before)
            return shown.control
        building = _Building([], {})
        self._building.append(building)
        try:
            control = _keyed(build(), key)
        finally:
            self._building.pop()
        self._enter(key, _Part(props, control, building.act_keys, building.inner), reused=False)
        self.built += 1
        return control

    def group(self, key: str, props: Any, children: list[Any], build: Callable[[list[Any]], ft.Control], ctx: Any) -> ft.Control:
        """A wrapper around `children` (drawn before it, most of them reused parts) that is itself
        reused when its own props are equal and every child is the very control it held: a change
        deep in a page then redraws the wrappers on its way up, not every wrapper of the page.
        (Ids compare the children: the shown wrapper holds its children, so no other object can
        have their ids while it may be reused.)"""
        if not GROUPS:
            return _keyed(build(children), key)
        before = len(self._reused)
        control = self.part(key, (props, tuple(id(child) for child in children)), lambda: build(children), ctx)
        if len(self._reused) > before and self._reused[-1][1] is control:
            # Flet's diff stops at the reused wrapper, so it never reaches its children to note
            # them kept: the wrapper's place is checked for them
            inside = {id(child) for child in children}
            self._reused[:-1] = [entry for entry in self._reused[:-1] if id(entry[1]) not in inside]
        return control

    def _enter(self, key: str, part: _Part, reused: bool) -> None:
        """`part` is drawn now (a reused one with the parts inside it: a built one's entered
        themselves as they were built)."""
        for name, drawn in [(key, part), *(part.inner.items() if reused else ())]:
            if name in self._drawing:
                # a mistake in a view (which fails its tests); a player's page is drawn anyway,
                # the second part simply not offered for reuse
                log.error("part %r drawn twice on one page: part keys must be unique", name)
                continue
            self._drawing[name] = drawn
        if self._building:
            outer = self._building[-1]
            outer.act_keys.extend(part.act_keys)
            outer.inner[key] = part
            outer.inner.update(part.inner)

    def record(self, base: str, seat: int, key: str) -> None:
        """An act-for key asked for by the part being built."""
        if self._building and not self._checking:
            self._building[-1].act_keys.append((base, seat, key))

    def _replay(self, shown: _Part, ctx: Any) -> bool:
        """Ask the handover for the part's act-for keys again, as its build would: reusable only
        if each is the key it has (else everything is as before the replay)."""
        if not shown.act_keys:
            return True
        handover = ctx.handover
        saved = handover.checkpoint() if handover is not None else None
        self._checking += 1  # the replayed keys are the part's own, recorded with it
        try:
            same = all(ctx.act_key(base, seat) == key for base, seat, key in shown.act_keys)
        finally:
            self._checking -= 1
        if not same and handover is not None:
            handover.restore(saved)
        return same

    def _check_same(self, key: str, reused: Any, build: Callable[[], Any], ctx: Any, before: Any) -> None:
        """Build the reused part again from the handover as it was before its keys were replayed
        (the build asks for them again), then put the handover back as the replay left it."""
        handover = ctx.handover
        after = handover.checkpoint() if handover is not None else None
        if handover is not None:
            handover.restore(before)
        self._checking += 1
        try:
            fresh = build()
            fresh = _keyed(fresh, key)
        finally:
            self._checking -= 1
            if handover is not None:
                handover.restore(after)
        difference = first_difference(reused, fresh)
        if difference is not None:
            log.error("part %r reused but its build now draws something else: %s", key, difference)

    def before_sending(self) -> None:
        flet_patches.RETAINED.clear()

    def check_placed(self, session: Any) -> bool:
        """After the page was sent: every reused control kept its id, is the one the session
        routes that id's events to, and was found kept by Flet's diff (not sent anew inside a
        parent Flet replaced: an unkeyed list whose items shifted). Otherwise the part was
        drawn in another place than before: nothing is reused at the next drawing, and the
        error (which fails a test) says which part."""
        index = session.index
        kept = flet_patches.RETAINED if flet_patches.is_applied() else None
        for key, control, id_ in self._reused:
            if control._i != id_ or index.get(id_) is not control:
                problem = "has another id now"
            elif kept is not None and id(control) not in kept:
                problem = "was sent anew inside a replaced parent (key the lists above it)"
            else:
                continue
            log.error("part %r %s: its keys must name one place on the page", key, problem)
            self.forget()
            return False
        return True


def _keyed(control: Any, key: str) -> Any:
    """A part's control is keyed (by its part's key unless it has one): matched by key in its
    list, wherever its siblings come and go."""
    if control.key is None:
        control.key = key
    return control


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two control trees draw something different (ids, parents and handlers aside: a
    handler's presence counts, as it is what the page is sent), or None."""
    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b):
        if type(a) is not type(b):
            return f"{path}: {type(a).__name__} != {type(b).__name__}"
        for f in dataclasses.fields(a):
            if f.name.startswith("_") or f.metadata.get("skip", False):
                continue
            x, y = getattr(a, f.name), getattr(b, f.name)
            if f.name.startswith("on_") or callable(x) or callable(y):
                if (x is None) != (y is None):
                    return f"{path}.{f.name}: handler {x is not None} != {y is not None}"
                continue
            found = first_difference(x, y, f"{path}.{f.name}")
            if found is not None:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"
        for k in a:
            found = first_difference(a[k], b[k], f"{path}[{k!r}]")
            if found is not None:
                return found
        return None
    if a != b:
        return f"{path}: {a!r} != {b!r}"
    return None
