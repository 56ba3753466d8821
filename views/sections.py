"""Keyed reuse of a page's unchanged parts (docs/decisions/part-reuse.md): a part built from the same props as at the
page's last drawing is that drawing's control object again, so it is neither built nor diffed.

Flet 1.0 reconciles a redrawn page with the one shown field by field, but stops at a control
that *is* the one shown (object_patch `_compare_dataclasses`: "frozen and src is dst"): the
same rule `ft.memo` relies on, without turning the pages into components. A part names its place
with a key and says what it is drawn from (`props`: projection slices, plain values); the
drawing's context (language, names, colours, size, whose page) is part of every part's props.

A wrapper around parts is a group (`group`): while its own props are equal and it has as many
children, it is the wrapper shown before, and only the children that changed are sent, each alone
(views/flet_patches/drawing.py, 9). The pages' top controls are groups: most drawings send only
the parts that changed, with no diff of the page.

What makes reuse safe, each checked:
  * a part's build reads nothing but its props and the context: with REFEREE_CHECK_SECTIONS=1
    (the tests) every reused part is built again and compared with the reused one, field by
    field; a difference is logged as an error, which fails the test;
  * a part stays in its place: after the page is sent, every reused control must still hold its
    id, be the control the session finds under it, and have been found kept by Flet's diff
    (views/flet_patches/drawing.py, 8), not sent anew inside a parent Flet replaced; otherwise an
    error is logged and nothing is reused at the next drawing. A screen's `layout()` bounds reuse;
  * controls acting for a player take their keys from the handover (views/screen.py Handover):
    a reused part's calls are replayed, and the part is reused only if each gives the same key.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from flet.components.component_decorator import component
from flet.components.memo import memo
from flet.controls.base_control import BaseControl

from views.flet_patches import is_applied
from views.flet_patches.drawing import RETAINED, Swap
from views.flet_patches.speed import holding_fields

if TYPE_CHECKING:
    import flet as ft

log = logging.getLogger(__name__)

#: build every reused part again and compare (the tests set it: see tests/conftest.py)
CHECK = os.environ.get("REFEREE_CHECK_SECTIONS", "") == "1"
#: reuse unchanged parts (off: every part is built at every drawing; benchmarks
#: compare the two in one run)
REUSE = os.environ.get("REFEREE_REUSE_PARTS", "1") != "0"
#: reuse the groups (`Sections.group`; off: wrappers are built at every drawing and the page is
#: diffed whole, benchmarks/redraw_cost.py compares the two)
GROUPS = True
#: how unchanged parts are kept (docs/decisions/table-mechanism.md): "parts" (this module's
#: reuse of shown controls) or "components" (each part an `ft.memo` component of Flet's own,
#: groups built at every drawing); benchmarks/redraw_cost.py measures both in one run
MECHANISM = os.environ.get("REFEREE_TABLE_MECHANISM", "parts")


#: a part with no parts drawn inside it (most): one shared empty mapping, not a dict each
_NO_PARTS: Mapping[str, _Part] = MappingProxyType({})


# (slots, tuples, the shared empty mapping: a page keeps a _Part per part it shows, a phone of
# Règlement de comptes about 400; as dataclasses with dicts they were 104 KiB of its session)
@dataclass(slots=True)
class _Part:
    props: Any
    control: Any
    #: the act-for keys its build asked for: (base, seat, key)
    act_keys: tuple[tuple[str, int, str], ...]
    #: the parts drawn inside it (they come along when it is reused)
    inner: Mapping[str, _Part]
    #: a group's: the children it holds now, and where each sits in the wrapper
    #: (holder control, field, index in a list field or None, path from the wrapper); None
    #: when not found
    children: tuple[Any, ...] | None = None
    slots: list[tuple[Any, str, int | None, list[Any]]] | None = None


@dataclass(slots=True)
class _Building:
    act_keys: list[tuple[str, int, str]]
    inner: dict[str, _Part]


#: parts (groups included) built and reused since the server started, per kind of page (its
#: screen's class name): /healthz reports them, benchmarks/rooms.py prints them per action
TOTALS: dict[str, list[int]] = {}


class Sections:
    """One page's parts at its last drawing, and how many were built or reused."""

    def __init__(self, kind: str = "page") -> None:
        self._totals = TOTALS.setdefault(kind, [0, 0])
        self._shown: dict[str, _Part] = {}
        self._drawing: dict[str, _Part] = {}
        #: the groups drawn now, by id(control) (see _group_paths)
        self._groups: dict[int, _Part] = {}
        #: the controls reused at this drawing, by id(control): (part key, control, its id then)
        self._reused: dict[int, tuple[str, Any, int]] = {}
        #: the parts being built (innermost last): the act-for keys and parts drawn inside them
        self._building: list[_Building] = []
        self._checking = 0
        #: the layout of the last drawing (see begin)
        self._layout: Any = None
        #: a drawing is under way (a build outside one, e.g. views/away.py judging input, reuses nothing)
        self._active = False
        #: children put in the place of the shown ones inside reused groups, to be sent (see group)
        self._swaps: list[tuple[Any, list[Any], Swap]] = []
        #: the contexts' signatures drawn with, each kept once (see interned)
        self._signatures: dict[tuple[Any, ...], tuple[Any, ...]] = {}
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
        self._groups = {}
        self._reused = {}
        self._building = []
        self._swaps = []
        self.built = self.reused = 0

    def end(self, complete: bool = True) -> None:
        """The drawing is over: if `complete`, its parts are the ones the next drawing may reuse
        (a drawing that failed half-way leaves nothing to reuse)."""
        self._active = False
        if not complete:
            for _, _, swap in reversed(self._swaps):  # the page keeps what its browser shows
                swap.undo()
            self._swaps = []
            self._shown = {}
            return
        self._shown = self._drawing
        self.total_built += self.built
        self.total_reused += self.reused
        self._totals[0] += self.built
        self._totals[1] += self.reused

    def interned(self, signature: tuple[Any, ...]) -> tuple[Any, ...]:
        """`signature` (GameContext.signature), or the equal one an earlier drawing used: every
        part's props begin with it, so comparing them with the shown ones starts with an
        identity, not a comparison of the names and colours."""
        if len(self._signatures) > 16:  # widths a page was drawn at, languages: a few
            self._signatures.clear()
        return self._signatures.setdefault(signature, signature)

    def forget(self) -> None:
        """Reuse nothing at the next drawing (a language or a screen change)."""
        self._shown = {}

    def part(self, key: str, props: Any, build: Callable[[], ft.Control], ctx: Any) -> ft.Control:
        if self._checking or not self._active or not REUSE:
            return _keyed(build(), key)
        if MECHANISM == "components":
            return _memo_part(props=(ctx.signature(), props), build=_Builder(build), key=key)
        props = (ctx.signature(), props)
        shown = self._shown.get(key)
        handover = ctx.handover
        before = handover.checkpoint() if CHECK and handover is not None else None
        if shown is not None and shown.props == props and self._replay(shown, ctx):
            self._enter(key, shown, reused=True)
            self.reused += 1
            self._reused[id(shown.control)] = (key, shown.control, shown.control._i)
            if CHECK:
                self._check_same(key, shown.control, build, ctx, before)
            return shown.control
        building = _Building([], {})
        self._building.append(building)
        try:
            control = _keyed(build(), key)
        finally:
            self._building.pop()
        self._enter(key, _Part(props, control, tuple(building.act_keys), building.inner or _NO_PARTS), reused=False)
        self.built += 1
        return control

    def group(self, key: str, props: Any, children: list[Any], build: Callable[[list[Any]], ft.Control], ctx: Any) -> ft.Control:
        """A wrapper around `children` (drawn before it, most of them parts). While its own props
        are equal and it has as many children, it is the wrapper shown before: a child that is
        another control than the one it held is put in its place, and only that child is sent (`send_swaps`: Flet's diff of the old child against
        the new, addressed to the control holding it). So a change deep in a page costs the
        part that changed, not the wrappers on its way up nor a diff of the page."""
        if self._checking or not self._active or not REUSE or not GROUPS or MECHANISM == "components":
            return _keyed(build(children), key)
        props = (ctx.signature(), props)
        shown = self._shown.get(key)
        before = ctx.handover.checkpoint() if CHECK and ctx.handover is not None else None
        if shown is not None and shown.props == props and shown.children is not None and len(shown.children) == len(children):
            changed = [i for i, (old, new) in enumerate(zip(shown.children, children, strict=True)) if old is not new]
            # a child (or a key: a part drawn again) shown elsewhere in it before, moved: the
            # wrapper is drawn anew and Flet's keyed diff moves it (sent alone in its new place, it
            # would be unmounted from its old one, or sent whole again)
            moved = _moved(shown.children, children, changed)
            if not changed or (shown.slots is not None and not moved):
                for i in changed:
                    holder, field, index, where = shown.slots[i]  # type: ignore[index]
                    swap = Swap.put(holder, field, index, shown.children[i], children[i])
                    self._swaps.append((shown.control, where, swap))
                control = shown.control
                # unchanged: the part shown is the one drawn now, as it is
                self._enter(key, _Part(props, control, (), _NO_PARTS, tuple(children), shown.slots) if changed else shown, reused=True)
                self.reused += 1
                # Flet's diff stops at this wrapper (or never reaches it): its place is checked
                # for the children it holds
                for child in children:
                    self._reused.pop(id(child), None)
                self._reused[id(control)] = (key, control, control._i)
                if CHECK:
                    self._check_same(key, control, lambda: build(children), ctx, before)
                return control
        control = _keyed(build(children), key)
        self._enter(key, _Part(props, control, (), _NO_PARTS, tuple(children), _slots(control, children)), reused=False)
        self.built += 1
        return control

    def send_swaps(self, session: Any, top: Any) -> int:
        """Send the children put in reused groups' places: in one patch of the page's `top`
        control when it is the top group shown before (each child's path from it known through
        the groups that hold one another), the others each alone (before the page's own update:
        the browser knows the controls they are addressed to). One patch a drawing is one frame:
        the board's frame is not queued behind the phones' drawings. The number of children."""
        swaps, self._swaps = self._swaps, []
        if not swaps:
            return 0
        paths = self._group_paths(top, {id(group) for group, _, _ in swaps})
        changes = [(paths[id(group)] + where, swap) for group, where, swap in swaps if id(group) in paths]
        alone = [swap for group, _, swap in swaps if id(group) not in paths]
        if changes:
            alone += Swap.send_together(session, top, changes)
        for swap in alone:
            swap.send(session)
        return len(swaps)

    def _group_paths(self, top: Any, wanted: set[int]) -> dict[int, list[Any]]:
        """The path from `top` (a group's control drawn now) to the groups held in it through
        groups only: at least to each one of `wanted` (ids of groups' controls) held so."""
        groups = self._groups
        if id(top) not in groups:
            return {}
        paths: dict[int, list[Any]] = {id(top): []}
        pending = [top]
        missing = wanted - {id(top)}
        while pending and missing:
            part = groups[id(pending.pop())]
            base = paths[id(part.control)]
            for child, (_, _, _, where) in zip(part.children or (), part.slots or (), strict=True):
                if id(child) in groups and id(child) not in paths:
                    paths[id(child)] = base + where
                    pending.append(child)
                    missing.discard(id(child))
        return paths

    def _enter(self, key: str, part: _Part, reused: bool) -> None:
        """`part` is drawn now (a reused one with the parts inside it: a built one's entered
        themselves as they were built)."""
        drawing = self._drawing
        entered = [(key, part)]
        if reused and part.inner:
            if drawing.keys().isdisjoint(part.inner):
                drawing.update(part.inner)  # the common case, at once
                self._groups.update((id(inner.control), inner) for inner in part.inner.values() if inner.slots is not None)
            else:
                entered += part.inner.items()
        for name, drawn in entered:
            if name in drawing:
                # a mistake in a view (which fails its tests); a player's page is drawn anyway,
                # the second part simply not offered for reuse
                log.error("part %r drawn twice on one page: part keys must be unique", name)
                continue
            drawing[name] = drawn
            if drawn.slots is not None:
                self._groups[id(drawn.control)] = drawn
        if self._building:
            outer = self._building[-1]
            outer.act_keys.extend(part.act_keys)
            outer.inner[key] = part
            outer.inner.update(part.inner)

    @property
    def checking(self) -> bool:
        """A reused part is being built again to be compared (or its keys replayed): what this
        build makes is thrown away, so it must not be registered anywhere."""
        return self._checking > 0

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
        RETAINED.clear()

    def check_placed(self, session: Any, unsent: Any = ()) -> bool:
        """After the page was sent: every reused control kept its id, is the one the session
        routes that id's events to, and was found kept by Flet's diff (not sent anew inside a
        parent Flet replaced: an unkeyed list whose items shifted). Otherwise the part was
        drawn in another place than before: nothing is reused at the next drawing, and the
        error (which fails a test) says which part. `unsent`: the page's top controls when the
        page itself was not sent again (the same ones as shown: no diff ran over them)."""
        index = session.index
        kept = RETAINED if is_applied() else None
        not_diffed = {id(control) for control in unsent}
        for key, control, id_ in self._reused.values():
            if control._i != id_ or index.get(id_) is not control:
                problem = "has another id now"
            elif kept is not None and id(control) not in kept and id(control) not in not_diffed:
                problem = "was sent anew inside a replaced parent (key the lists above it)"
            else:
                continue
            log.error("part %r %s: its keys must name one place on the page", key, problem)
            self.forget()
            return False
        return True


class _Builder:
    """A part's build handed to its component: equal to every other, so that `ft.memo` compares
    the part's props only (the build is a new closure at every drawing)."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Builder)

    __hash__ = None  # type: ignore[assignment]


def _part_body(props: Any, build: _Builder) -> Any:
    return build.build()


#: a part as Flet's own memoised component (MECHANISM "components"): its body is built by Flet's
#: diff when its props changed, else the body shown is kept
_memo_part: Callable[..., Any] = memo(component(_part_body))


def duplicate_sibling_keys(root: Any) -> list[str]:
    """Where two controls of one list share a key (Flet's diff matches a list's children by key:
    two alike make it send moves a client cannot apply). Empty on a sound page."""
    from flet.controls.base_control import BaseControl

    found: list[str] = []
    stack = [root]
    while stack:
        item = stack.pop()
        for name, value in holding_fields(item):
            children = [c for c in (value if isinstance(value, list) else [value]) if isinstance(c, BaseControl)]
            keys = [c.key for c in children if c.key is not None]
            if len(keys) != len(set(keys)):
                twice = sorted({str(k) for k in keys if keys.count(k) > 1})
                found.append(f"{type(item).__name__}.{name} holds keys {twice} twice")
            stack.extend(children)
    return found


def _moved(before: Sequence[Any], now: Sequence[Any], changed: list[int]) -> bool:
    """Whether a child, or a keyed child's key, is at another of the `changed` places now."""
    if not changed:
        return False
    old_ids = {id(before[i]) for i in changed}
    if any(id(child) in old_ids for child in now):
        return True
    old_keys = {before[i].key: i for i in changed if before[i].key is not None}
    return any(now[i].key in old_keys and old_keys[now[i].key] != i for i in changed if now[i].key is not None)


def _slots(wrapper: Any, children: Sequence[Any]) -> list[tuple[Any, str, int | None, list[Any]]] | None:
    """Where each of `children` sits inside `wrapper` (the control holding it, the field, the
    index in a list field or None, and its path from the wrapper as Flet's patches name it),
    found by walking the wrapper's own controls down to them; None if one is not found exactly
    once."""
    wanted = {id(child): i for i, child in enumerate(children)}
    found: dict[int, tuple[Any, str, int | None, list[Any]]] = {}
    seen = 0

    def walk(node: Any, path: list[Any]) -> None:
        nonlocal seen
        for name, value in holding_fields(node):
            items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
            for index, item in items:
                if not isinstance(item, BaseControl):
                    continue
                where = [*path, name] if index is None else [*path, name, index]
                if id(item) in wanted:
                    seen += 1
                    found[wanted[id(item)]] = (node, name, index, where)
                else:
                    walk(item, where)

    walk(wrapper, [])
    if seen != len(children) or len(found) != len(children):
        return None
    return [found[i] for i in range(len(children))]


def _keyed(control: Any, key: str) -> Any:
    """A part's control is keyed (by its part's key unless it has one): matched by key in its
    list, wherever its siblings come and go."""
    if control.key is None:
        control.key = key
    return control


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two control trees draw something different (ids, parents and handlers aside: a
    handler's presence counts, as it is what the page is sent), or None."""
    if a is b:
        return None  # a group's children: the very controls it holds (each checked as a part)
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
