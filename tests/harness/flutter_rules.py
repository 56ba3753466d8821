"""Controls the Flet client draws as its red error box when one property lacks a visible control
("Semantics.content must be provided and visible"): nothing on the server says so, and a tap or a
screen reader still finds what the control would have held. The table is the client's own
messages of that form (flet_web's main.dart.js), which tests/test_flutter_rules.py checks against
the installed client, so a Flet upgrade that changes them fails there first. (The client has
other refusals, of lists and of strings-or-controls, about controls this app does not use.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft

from tests.harness.flet_inprocess import walk_controls

#: control kind -> the property that must hold a visible control
REQUIRED_CHILD: dict[str, str] = {
    "AnimatedSwitcher": "content",
    "Banner": "content",
    "BottomSheet": "content",
    "Chip": "label",
    "ContextMenu": "content",
    "CupertinoContextMenu": "content",
    "CupertinoListTile": "title",
    "Dismissible": "content",
    "DragTarget": "content",
    "Draggable": "content",
    "ExpansionTile": "title",
    "Hero": "content",
    "InteractiveViewer": "content",
    "Pagelet": "content",
    "RadioGroup": "content",
    "ReorderableDragHandle": "content",
    "SafeArea": "content",
    "SelectionArea": "content",
    "Semantics": "content",
    "SnackBar": "content",
    "Tabs": "content",
    "WindowDragArea": "content",
}


def undrawn_controls(root: ft.BaseControl) -> Iterator[str]:
    """The shown controls under `root` (live, on the server) the client would draw as an error."""
    for control in walk_controls(root, shown_only=True):
        kind = getattr(control, "_c", None) or type(control).__name__  # (the kind the client builds)
        prop = REQUIRED_CHILD.get(kind)
        if prop is None:
            continue
        child = getattr(control, prop, None)
        if not isinstance(child, ft.BaseControl) or getattr(child, "visible", True) is False:
            yield f"{kind}.{prop} missing or hidden (key {control.key!r}, {describe(control)})"


def undrawn_nodes(page: dict[str, Any] | None) -> Iterator[str]:
    """The same, in a page as the browser holds it (decoded frames, `BrowserPage`)."""
    from benchmarks.flet_client import walk

    if page is None:
        return
    for node in walk(page, visible_only=True):
        kind = node.get("_c")
        prop = REQUIRED_CHILD.get(kind) if isinstance(kind, str) else None
        if prop is None:
            continue
        child = node.get(prop)
        if not isinstance(child, dict) or child.get("visible") is False:
            yield f"{kind}.{prop} missing or hidden (key {node.get('key')!r}, identifier {node.get('identifier')!r})"


def describe(control: ft.BaseControl) -> str:
    identifier = getattr(control, "identifier", None)
    return f"identifier {identifier!r}" if identifier else f"under {type(control.parent).__name__}"
