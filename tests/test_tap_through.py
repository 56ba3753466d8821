"""What the two test clickers (the in-process harness's `Tab.clickable_in` and the benchmarks'
protocol client `FletClient.clickable`) take a tap on a Semantics node without a child to hit:
the box holding it, when that box has a fixed size (Flutter gives the node the box's size, as
Règlement's chair tap targets rely on), and nothing otherwise (the node is 0 x 0: no finger can
reach it)."""

from __future__ import annotations

import weakref
from typing import Any

import flet as ft
import pytest

from benchmarks.flet_client import FletClient
from tests.harness.flet_inprocess import Tab


def held(box: ft.Container) -> ft.Semantics:
    """`box`'s Semantics, with its parent set as Flet sets it when the page is mounted."""
    semantics = box.content
    assert isinstance(semantics, ft.Semantics)
    semantics._parent = weakref.ref(box)
    return semantics


def tap() -> None:
    pass


@pytest.mark.parametrize(
    ("box", "hit"),
    [
        (ft.Container(width=40, height=60, on_click=tap, content=ft.Semantics(identifier="chair-A", button=True)), True),
        (ft.Container(on_click=tap, content=ft.Semantics(identifier="chair-A", button=True)), False),  # sized by nothing: 0 x 0
        (ft.Container(width=40, height=60, content=ft.Semantics(identifier="chair-A", button=True)), False),  # nothing to tap
        (ft.Container(width=40, height=60, on_click=tap, disabled=True, content=ft.Semantics(identifier="chair-A", button=True)), False),
    ],
)
def test_the_harness_taps_a_childless_semantics_through_its_sized_box(box: ft.Container, hit: bool) -> None:
    assert (Tab.clickable_in(held(box)) is box) is hit


def page_with(box: dict[str, Any]) -> dict[str, Any]:
    return {"_c": "Page", "_i": 1, "controls": [{"_c": "Column", "_i": 2, "controls": [box]}]}


@pytest.mark.parametrize(
    ("box", "hit"),
    [
        ({"_c": "Container", "_i": 3, "width": 40, "height": 60, "on_click": True, "content": {"_c": "Semantics", "_i": 4, "identifier": "chair-A"}}, True),
        ({"_c": "Container", "_i": 3, "on_click": True, "content": {"_c": "Semantics", "_i": 4, "identifier": "chair-A"}}, False),
        ({"_c": "Container", "_i": 3, "width": 40, "height": 60, "content": {"_c": "Semantics", "_i": 4, "identifier": "chair-A"}}, False),
        ({"_c": "Container", "_i": 3, "width": 40, "height": 60, "on_click": True, "disabled": True, "content": {"_c": "Semantics", "_i": 4, "identifier": "chair-A"}}, False),
        # not a Semantics: an identifier on another kind of control is not widened to its holder
        ({"_c": "Container", "_i": 3, "width": 40, "height": 60, "on_click": True, "content": {"_c": "Text", "_i": 4, "identifier": "chair-A"}}, False),
    ],
)
def test_the_protocol_client_taps_a_childless_semantics_through_its_sized_box(box: dict[str, Any], hit: bool) -> None:
    client = FletClient("http://127.0.0.1:1")
    client.page = page_with(box)
    found = client.clickable("chair-A")
    assert (found is box) is hit
