"""The controls the Flet client draws as an error box without a visible child
(tests/harness/flutter_rules.py) are the ones the installed client says so of, and the check
finds one, live and in the bytes a browser holds."""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft
import flet_web

from tests.harness.flutter_rules import REQUIRED_CHILD, undrawn_controls, undrawn_nodes

#: "Semantics.content must be provided and visible", "DragTarget.content must be visible", ...
#: (a property holding one control; "Banner.actions ... at least one action" is about a list)
MESSAGE = re.compile(rb'"(\w+)\.(\w+) must be (?:provided and |set and )?visible"')


def test_the_table_is_what_the_installed_client_refuses() -> None:
    script = Path(flet_web.__file__).parent / "web" / "main.dart.js"
    said = {kind.decode(): prop.decode() for kind, prop in MESSAGE.findall(script.read_bytes())}
    assert said, f"no such message in {script}: the client's wording changed; read its sources again"
    assert said == REQUIRED_CHILD


def test_a_childless_semantics_is_found() -> None:
    page = ft.Column(
        [
            ft.Semantics(identifier="ok", content=ft.Text("A")),
            ft.Container(width=40, height=60, content=ft.Semantics(identifier="bare", button=True)),
            ft.Semantics(identifier="hidden-child", content=ft.Text("B", visible=False)),
            ft.Container(visible=False, content=ft.Semantics(identifier="not-drawn")),  # never built
        ]
    )
    found = list(undrawn_controls(page))
    assert len(found) == 2 and "'bare'" in found[0] and "'hidden-child'" in found[1], found


def test_a_childless_semantics_is_found_in_what_the_browser_holds() -> None:
    page = {
        "_c": "Page",
        "_i": 1,
        "controls": [
            {"_c": "Semantics", "_i": 2, "identifier": "ok", "content": {"_c": "Text", "_i": 3, "value": "A"}},
            {"_c": "Container", "_i": 4, "width": 40, "content": {"_c": "Semantics", "_i": 5, "identifier": "bare"}},
            {"_c": "Container", "_i": 6, "visible": False, "content": {"_c": "Semantics", "_i": 7, "identifier": "not-drawn"}},
        ],
    }
    found = list(undrawn_nodes(page))
    assert len(found) == 1 and "'bare'" in found[0], found
