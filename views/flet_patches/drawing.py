"""The Flet patches that make part reuse (views/sections.py, docs/decisions/part-reuse.md)
correct and cheap (8, 9 of views/flet_patches/__init__.py). Why each exists and the upstream fix
it stands in for: docs/decisions/flet-patches-drawing.md.

8. A control kept as it was under a redrawn parent stays mounted (`DiffBuilder`, `_retained`), in a
   list or in a one-control field such as `content` (`_keep_field_values`).
9. One child of a control already shown, replaced and sent alone (`Swap`): Flet's own means for a
   component's body (`Session.patch_control` with a parent and a path), for a child in a list or
   in a one-control field, with the Python tree and Flet's snapshots of it kept as sent.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

# -- 8. a control kept under a redrawn parent stays mounted ---------------------------------------


#: the ids of the control objects the diff running now found kept as they were (views/sections.py
#: clears it before a page is sent and reads it after: a part reused but not in it was sent anew,
#: inside a parent Flet replaced)
RETAINED: set[int] = set()


def _noting_retained(original: Callable[..., Any]) -> Callable[..., Any]:
    """A drawing may hand Flet the very control object it shows (views/sections.py: a part
    unchanged since the last drawing), inside a parent built afresh. Flet's diff stops at it
    ("retained immutable children", `frozen and src is dst`) and sends nothing for it, which is
    the point. But the rebuilt parent takes over the shown one's id, and Flet counts the shown
    parent as removed: `get_removed_controls` lists everything it held at its last sending
    (`__prev_lists`), the kept control and all its descendants too. They are then taken out of
    the session's index and unmounted while the browser still shows them: their taps were
    dropped (patch 3 trusts the index). So the diff notes each control it keeps as it is, and
    the removed controls leave out a kept one and what is inside it (`_removed_controls`; all
    objects the new tree holds, so their ids are unique during the diff)."""

    def compare(self: Any, parent: Any, path: list[Any], src: Any, dst: Any, frozen: bool) -> None:
        # (compared with itself unfrozen, in a page's own list, it is kept in place as well)
        if src is dst:
            retained = self.__dict__.get("_retained")
            if retained is None:
                retained = self._retained = set()
            retained.add(id(src))
            RETAINED.add(id(src))
        original(self, parent, path, src, dst, frozen)
        if frozen and src is not dst:
            _keep_field_values(self, path, src, dst)

    compare.__wrapped__ = original  # type: ignore[attr-defined]
    return compare


def _keep_field_values(builder: Any, path: list[Any], src: Any, dst: Any) -> None:
    """A rebuilt control's one-control fields (a Container's `content`) holding the very control
    its predecessor held: Flet's frozen compare skips them (`old is new`), so they would be
    neither noted as kept nor given the new parent. They are compared as list items are."""
    from flet.controls.object_patch import _path_join

    src_values, dst_values = getattr(src, "_values", None), getattr(dst, "_values", None)
    if not src_values or not dst_values or builder.control_cls is None:
        return
    for name, value in dst_values.items():
        if value is not None and src_values.get(name) is value and isinstance(value, builder.control_cls):
            builder._compare_dataclasses(dst, _path_join(path, name), value, value, True)


# -- 9. one child of a shown control, sent alone ---------------------------------------------------


class Swap:
    """`new` in the place of `old`, held by the shown control `holder` in `field` (at `index` in a
    list field, or alone: index None). views/sections.py puts it in place while a page is drawn
    (so the page's tree is the one drawn) and sends it before the page's own update, if any.

    Sending is what a Flet component does with its new body: `Session.patch_control` with the
    holder as parent and the child's path in it, diffing `old` against `new` frozen (the new
    control takes the old one's id where they match, so a tap on its way still lands) and
    mounting and unmounting what the diff says, exactly as a page update would. Putting in place
    writes the holder's field without its property setter (a control Flet has sent frozen refuses
    to be set) and the snapshot Flet keeps of a non-frozen holder's lists and controls (what it
    diffs against, and walks when the holder is removed): the old child would be unmounted
    again under the new one's id."""

    def __init__(self, holder: Any, field: str, index: int | None, old: Any, new: Any) -> None:
        self.holder, self.field, self.index, self.old, self.new = holder, field, index, old, new

    @classmethod
    def put(cls, holder: Any, field: str, index: int | None, old: Any, new: Any) -> Swap:
        swap = cls(holder, field, index, old, new)
        swap._place(old, new)
        return swap

    def undo(self) -> None:
        self._place(self.new, self.old)

    def _place(self, was: Any, now: Any) -> None:
        holder, field, index = self.holder, self.field, self.index
        if index is None:
            holder._values[field] = now
            snapshot = getattr(holder, "__prev_classes", None)
            if snapshot is not None and snapshot.get(field) is was:
                snapshot[field] = now
        else:
            items = getattr(holder, field)
            assert items[index] is was, "the child to replace is not where it was drawn"
            items[index] = now
            lists = getattr(holder, "__prev_lists", None)
            snapshot = lists.get(field) if lists is not None else None
            if snapshot is not None and index < len(snapshot) and snapshot[index] is was:
                snapshot[index] = now

    def send(self, session: Any) -> None:
        path: list[Any] = [self.field] if self.index is None else [self.field, self.index]
        session.patch_control(control=self.new, prev_control=self.old, parent=self.holder, path=path, frozen=True)

    @staticmethod
    def send_together(session: Any, top: Any, changes: list[tuple[list[Any], Swap]]) -> list[Swap]:
        """Swaps under `top` in one patch (one frame), each at its path from `top`: the old and
        the new children in trees of dicts along their paths (Flet diffs dicts key by key,
        naming each key in the path), as a component's body is sent. (Addressed instead to the
        deepest control holding them all, a patch was not applied by the web client in one case:
        tests/test_handover_browser.py's Chicago phone.) The new children then get
        their holders as parents (the diff gave them `top`). A swap inside another's child (a
        group kept in a part drawn anew) cannot share the patch: returned, to be sent alone
        (its holder is kept by the other's diff, so either order is right)."""
        before: dict[Any, Any] = {}
        after: dict[Any, Any] = {}
        together: list[Swap] = []
        alone: list[Swap] = []
        for path, swap in sorted(changes, key=lambda change: len(change[0])):
            old_node, new_node = before, after
            for step in path[:-1]:
                old_node, new_node = old_node.setdefault(step, {}), new_node.setdefault(step, {})
                if not isinstance(old_node, dict):
                    break
            else:
                if path and path[-1] not in old_node:
                    old_node[path[-1]], new_node[path[-1]] = swap.old, swap.new
                    together.append(swap)
                    continue
            alone.append(swap)
        if together:
            session.patch_control(control=after, prev_control=before, parent=top, path=[], frozen=True)
            for swap in together:
                swap.new._parent = weakref.ref(swap.holder)
        return alone
