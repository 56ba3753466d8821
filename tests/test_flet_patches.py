"""views/flet_patches/: what each patch relies on in Flet (fails loudly on an upgrade), and what
each one buys, on real sessions in-process and on the real server (issue 11).

The timing goal (another room's tap p95 within 2x during a flood) is benchmarks/flood.py's; here
the generous 1 s bound on /healthz and the properties that do not depend on timing."""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import gc
import hashlib
import inspect
import time
from pathlib import Path
from typing import Any

import msgpack
import psutil
import pytest
from websockets.exceptions import ConnectionClosed

from benchmarks.flet_client import TABLET, FletClient
from benchmarks.flood import RULES, RULES_BACK, HealthPoller, Player, patch_frames, reconnect_loop, send_flood, told
from benchmarks.latency import ServerProcess, Table, VabanqueMirror, create_rooms, free_port, vabanque_setup
from tests.conftest import VABANQUE_SEED
from tests.conftest import vabanque_setup as table_setup
from tests.harness.flet_inprocess import FakeBrowser, strings_in, walk_controls
from tests.harness.world import make_world
from views import flet_patches
from views.flet_patches import drawing, hardening, memory, speed
from views.i18n import translator

#: sha256 (first 16 hex digits) of the source of each Flet function a patch replaces or relies
#: on, as in flet / flet-web 1.0.5. A change means: read the new version, re-check the patch.
FLET_SOURCES = {
    "FletApp.handle": "d7464637bb485356",
    "FletApp.__receive_loop": "72d3eaba05852340",
    "FletApp.__on_message": "c147d1a264795579",
    "FletApp.__send_loop": "6bdcfa9a5e2a2c6d",
    "FletApp.send_message": "47399d973ee706f0",
    "Session.__resolve_event_control": "fca8c607b8511bff",
    "Session.dispatch_event": "69ad080f0c4d5c1b",
    "Session.handle_invoke_method_results": "c6de9785ab38cbab",
    "Session.apply_patch": "832f07222dda550b",
    "patch_dataclass": "e5520c284a9b8487",
    "patch_font_manifest_json": "fd9cd5e8d4f66115",
    "DiffBuilder._compare_dataclasses": "0bc5db79c8c1f61b",
    "DiffBuilder._maybe_compare_dataclasses": "ea2a7f422136ec7a",
    "DiffBuilder._removed_controls": "a2053753507269d7",
    "DiffBuilder.get_removed_controls": "05b75852bb479d8e",
    "DiffBuilder.get_added_controls": "91181e821dc5ddcf",
    "Session.patch_control": "870102dfe8f9e97c",
    "encode_object_for_msgpack": "b182fdc4aafff329",
    "validation._get_reported_validation_errors": "3d5daaf65d20aa17",
    "validation.validate": "f2efd71017cff2db",
    "DiffBuilder._configure_dataclass": "fbbb21ab0ef5bcaa",
    "get_event_field_type": "071056c2f4bf7c1c",
}


def source_hash(function: Any) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


def test_flet_is_the_version_the_patches_were_written_for() -> None:
    from flet.messaging.protocol import ControlEventBody, MessageAction
    from flet.messaging.session import Session
    from flet_web.fastapi.flet_app import FletApp
    from flet_web.fastapi.flet_app_manager import app_manager

    flet_patches.apply()
    found = {name: source_hash(function) for name, function in flet_patches.ORIGINALS.items()}
    found["FletApp.__on_message"] = source_hash(FletApp._FletApp__on_message)
    found["Session.dispatch_event"] = source_hash(Session.dispatch_event)
    found["Session.handle_invoke_method_results"] = source_hash(Session.handle_invoke_method_results)
    from flet.utils.object_model import patch_dataclass

    found["patch_dataclass"] = source_hash(patch_dataclass)
    from flet.controls.object_patch import DiffBuilder

    found["DiffBuilder.get_removed_controls"] = source_hash(DiffBuilder.get_removed_controls)
    # patch 11's walks return lists: their callers take every control at once (`yield from`)
    found["DiffBuilder.get_added_controls"] = source_hash(DiffBuilder.get_added_controls)
    # patch 9 sends through Flet's own patch_control, and keeps the snapshots the encoder writes
    found["Session.patch_control"] = source_hash(Session.patch_control)
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    found["encode_object_for_msgpack"] = source_hash(configure_encode_object_for_msgpack)
    import flet.utils.validation as validation

    found["validation.validate"] = source_hash(validation.validate)  # patch 10: how it uses the set
    changed = sorted(name for name, digest in FLET_SOURCES.items() if found.get(name) != digest)
    assert not changed, f"Flet changed {changed}: re-check views/flet_patches/ against the new code, then update FLET_SOURCES"
    # the private names and shapes the replacements use
    assert callable(Session._Session__is_mounted_control) and isinstance(Session.index, property)
    assert callable(FletApp._FletApp__get_unique_session_id) and callable(app_manager.disconnect_session)
    assert (MessageAction.REGISTER_CLIENT.value, MessageAction.CONTROL_EVENT.value, MessageAction.INVOKE_METHOD.value) == (1, 3, 5)
    assert set(ControlEventBody.__dataclass_fields__) == {"target", "name", "data"}
    from flet.controls import context as flet_context

    assert flet_context._update_behavior_context_var.get(None) is None  # reset per event by EventLane
    # set by EventLane, as Session.dispatch_event sets it, before telling a page of a missed tap
    assert isinstance(flet_context._context_page, contextvars.ContextVar)
    # views/app.py turns auto-update off app-wide, before any session: what a context without
    # its own behaviour (each event's, see EventLane) falls back to
    assert callable(flet_context.context.disable_auto_update) and isinstance(flet_context._app_update_behavior, flet_context.UpdateBehavior)
    # the patched versions are in place
    assert FletApp.handle is hardening._handle and FletApp._FletApp__receive_loop is hardening._receive_loop
    assert Session._Session__resolve_event_control is hardening._resolve_event_control


def test_a_frames_action_is_read_without_decoding_it() -> None:
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    for action in (1, 3, 4, 5):
        client_frame = b"\x00" + msgpack.packb([action, {"target": 987654, "name": "click", "data": None}], use_bin_type=True)
        server_frame = b"\x00" + msgpack.packb([action, {"x": 1}], default=configure_encode_object_for_msgpack(BaseControl))
        assert hardening.frame_action(client_frame) == hardening.frame_action(server_frame) == action
    assert hardening.frame_action(b"\x00\xdc\x00\x02\x03") is None  # an array16: decoded instead
    assert hardening.frame_action(b"\x00") is None


def test_the_rate_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    bucket = hardening.TokenBucket(rate=10.0, burst=5, clock=lambda: now[0])
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    now[0] += 0.35  # 3.5 tokens back
    assert [bucket.take() for _ in range(4)] == [True] * 3 + [False]
    now[0] += 100
    assert sum(bucket.take() for _ in range(10)) == 5  # never more than the burst


# -- in-process: real sessions and pages --------------------------------------------------------


async def drawn_twice_with_a_kept_part(in_field: bool = False) -> tuple[Any, Any, list[str]]:
    """A page drawn, then drawn again as views/sections.py does: a new parent (same key) holding
    the very control shown before, in its list of controls or (`in_field`) as the `content` of
    a new Container. Returns the session, the kept part's button, the taps."""
    import flet as ft

    from tests.harness.flet_inprocess import FletHarness

    taps: list[str] = []
    button = ft.TextButton("tap", on_click=lambda e: taps.append("tap"))
    kept = ft.Container(key="kept", content=ft.Column([button]))

    def draw(page: ft.Page, count: int) -> None:
        part = ft.Container(content=kept) if in_field else kept
        page.controls[:] = [ft.Column(key="root", controls=[part, ft.Text(str(count))])]
        page.update()

    async def main(page: ft.Page) -> None:
        draw(page, 0)

    harness = FletHarness(main)
    tab = await harness.open("/", name="kept")
    draw(tab.page, 1)  # the rebuilt root takes over the shown one's id; `kept` is handed over as is
    return tab.session, button, taps


@pytest.mark.parametrize("in_field", [False, True], ids=["in-a-list", "in-a-content-field"])
async def test_a_part_kept_under_a_redrawn_parent_stays_mounted(monkeypatch: Any, in_field: bool) -> None:
    """Patch 8. What it relies on: Flet's own diff takes the kept part and its descendants out
    of the index (its taps would be dropped) though the browser still shows them; with the patch
    they stay, and a tap reaches the button."""
    from flet.controls.object_patch import DiffBuilder

    flet_patches.apply()
    with monkeypatch.context() as flets_own:
        for name in ("_compare_dataclasses", "_maybe_compare_dataclasses", "_removed_controls"):
            flets_own.setattr(DiffBuilder, name, flet_patches.ORIGINALS[f"DiffBuilder.{name}"])
        session, button, _ = await drawn_twice_with_a_kept_part(in_field)
        assert session.index.get(button._i) is None, "Flet keeps a retained control indexed now: patch 8 may go"
    drawing.RETAINED.clear()
    session, button, taps = await drawn_twice_with_a_kept_part(in_field)
    assert session.index.get(button._i) is button
    assert drawing.RETAINED, "the kept part was noted"
    await session.dispatch_event(button._i, "click", None)
    assert taps == ["tap"]


def page_as_sent(control: Any) -> Any:
    """A control tree as Flet sends it whole (ids, types, properties), for comparing with the
    tree a browser built from patches."""
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    encode = configure_encode_object_for_msgpack(BaseControl)

    def walk(value: Any) -> Any:
        if isinstance(value, BaseControl) or dataclasses.is_dataclass(value):
            value = encode(value)
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(control)


@pytest.mark.parametrize("together", [False, True], ids=["alone", "together"])
@pytest.mark.parametrize("same_key", [True, False], ids=["matched", "replaced"])
async def test_a_child_sent_alone_is_what_the_browser_and_the_index_hold(same_key: bool, together: bool) -> None:
    """Patch 9 (`Swap`), as views/sections.py uses it: a shown page, then one child in a list and
    the child in a Container's `content` replaced and sent alone, addressed to the controls
    holding them (`together`: both in one patch of the page's top control, one frame). The
    browser's page (built from the frames) is the server's page; a matched child takes the old
    one's id, a tap on it (or on a replaced one) reaches the new control, a kept grandchild stays
    in the index, and the old controls are gone from it."""
    import flet as ft

    from tests.harness.flet_inprocess import BrowserPage, FletHarness

    flet_patches.apply()  # (patch 8 keeps the grandchild both keep mounted)
    taps: list[str] = []
    kept = ft.TextButton("kept", key="kept", on_click=lambda e: taps.append("kept"))
    old_row = ft.Row(key="row", controls=[ft.Text("old"), kept])
    old_content = ft.Text("old content", key="content")
    column = ft.Column(key="column", controls=[ft.Text("first"), old_row])
    holder = ft.Container(key="holder", content=old_content)

    root = ft.Column(key="root", controls=[column, holder])

    async def main(page: ft.Page) -> None:
        page.controls[:] = [root]
        page.update()

    harness = FletHarness(main)
    tab = await harness.open("/", name="swap")
    session = tab.session
    new_row = ft.Row(key="row" if same_key else "other-row", controls=[ft.Text("new"), kept])
    new_content = ft.TextButton("new content", key="content" if same_key else "other", on_click=lambda e: taps.append("new"))
    swaps = [drawing.Swap.put(column, "controls", 1, old_row, new_row), drawing.Swap.put(holder, "content", None, old_content, new_content)]
    assert column.controls[1] is new_row and holder.content is new_content, "put in place in the Python tree"
    old_ids = (old_row._i, old_content._i)
    sent = len(tab.frames_since(0))
    if together:
        paths = [["controls", 0, "controls", 1], ["controls", 1, "content"]]
        assert drawing.Swap.send_together(session, root, list(zip(paths, swaps, strict=True))) == []
        assert len(tab.frames_since(sent)) == 1, "one frame"
        assert new_row.parent is column and new_content.parent is holder
    else:
        for swap in swaps:
            swap.send(session)

    browser = BrowserPage().feed(tab.frames_since(0))
    assert browser is not None
    assert browser["views"] == page_as_sent(tab.page)["views"], "the browser holds the server's page"
    assert (new_row._i == old_ids[0]) is same_key, "a matched child keeps the old one's id (a tap on its way lands)"
    assert session.index.get(new_row._i) is new_row and session.index.get(new_content._i) is new_content
    assert session.index.get(kept._i) is kept, "a kept grandchild stays mounted"
    if not same_key:
        assert all(session.index.get(i) is None for i in old_ids), "the old controls left the index"
    await session.dispatch_event(kept._i, "click", None)
    await session.dispatch_event(new_content._i, "click", None)
    assert taps == ["kept", "new"]


def test_swaps_inside_another_swapped_child_are_left_to_send_alone() -> None:
    """A path running through another change's child cannot share its patch."""
    import flet as ft

    outer = drawing.Swap(ft.Column(), "controls", 0, ft.Column(), ft.Column())
    inner = drawing.Swap(ft.Column(), "controls", 2, ft.Text("a"), ft.Text("b"))

    class Session:
        patched: list[Any] = []

        def patch_control(self, **kwargs: Any) -> None:
            self.patched.append(kwargs)

    session = Session()
    left = drawing.Swap.send_together(session, ft.Column(), [(["controls", 0, "controls", 2], inner), (["controls", 0], outer)])
    assert left == [inner] and len(session.patched) == 1
    assert session.patched[0]["control"] == {"controls": {0: outer.new}}


async def test_a_swap_undone_leaves_the_tree_as_it_was() -> None:
    """A drawing that fails half-way puts the shown children back (views/sections.py `end`)."""
    import flet as ft

    first, second = ft.Text("a"), ft.Text("b")
    column, holder = ft.Column(controls=[first]), ft.Container(content=first)
    swaps = [drawing.Swap.put(column, "controls", 0, first, second), drawing.Swap.put(holder, "content", None, first, second)]
    for swap in reversed(swaps):
        swap.undo()
    assert column.controls[0] is first and holder.content is first


async def test_a_client_sets_declared_properties_only(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "props", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    page = board.page
    page_id = page._i
    board.session.apply_patch(page_id, {"width": 1100.0, "_junk": "x" * 250_000, "_i": 424242, "theme": {"_deep": "y" * 1000}})
    assert page.width == 1100.0 and page._i == page_id and board.session.index.get(page_id) is page
    assert not hasattr(page, "_junk") and not hasattr(page.theme, "_deep")
    board.session.apply_patch(page_id, ["not", "a", "dict"])  # ignored, as Flet ignores unknown names
    await board.click(RULES)  # the page still works
    assert board.has(RULES_BACK)
    world.harness.check()


@pytest.mark.parametrize("width", ["x", True, [1], {"w": 1}, None])
async def test_a_client_value_of_another_type_than_declared_is_ignored(make_host: Any, harness_factory: Any, width: Any) -> None:
    """A page width of "x" (or any non-number) sent at registering or later changes nothing: the
    device's own page keeps working (it crashed its session), and so does everyone else's."""
    world = await make_world(make_host, harness_factory, "typed", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.harness.open(f"/join/{world.room.id}/{world.room.seats[0].token}", width=width, height=width, name="junk-phone")
    assert phone.has(RULES) and phone.page.width in (None,) and phone.page.height in (None,)
    phone.session.apply_patch(phone.page._i, {"width": width, "height": 700.0})
    assert phone.page.width is None and phone.page.height == 700.0
    await phone.click(RULES)  # its page still draws
    assert phone.has(RULES_BACK) and board.has(RULES)
    assert hardening.client_values(board.page, {"width": 800, "height": 600.5}) == {"width": 800, "height": 600.5}
    world.harness.check()



async def test_an_event_for_an_unknown_control_is_dropped_without_walking_the_page(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    from flet.messaging.session import Session

    world = await make_world(make_host, harness_factory, "unknown-id", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    walks: list[int] = []
    original = Session._Session__find_live_control
    monkeypatch.setattr(Session, "_Session__find_live_control", lambda self, *a, **k: walks.append(1) or original(self, *a, **k))
    before = board.mark()
    for target in (987654, -1, 2**40):
        await board.session.dispatch_event(target, "click", None)
    await world.harness.settle()
    assert board.frames_since(before) == [] and walks == []
    await board.click(RULES)  # a real control still gets its event
    assert board.has(RULES_BACK) and walks == []
    world.harness.check()


async def test_an_event_for_a_hidden_or_disabled_control_is_dropped(make_host: Any, harness_factory: Any) -> None:
    """A phone's table buttons stay mounted, hidden, between its turns (views/games/vabanque/phone.py
    `table_picker`): a second tap of a hurried double tap, on its way when they hid, or a click a
    client forges for them, reaches a control the browser no longer draws. It is dropped like a
    removed control's (no action, no message, no frame), and so is one for a disabled control;
    the same button shown again takes its tap. Relies on Flet's `Control.visible`/`disabled`
    and `BaseControl.parent`."""
    world = await make_world(make_host, harness_factory, "hidden-tap", "vabanque", table_setup(), seed=VABANQUE_SEED)
    seat = world.current()
    phone = await world.open_phone(seat)
    await world.open_phone((seat + 1) % len(world.room.seats))
    await phone.click("seat-table-1")
    version = world.room.version
    assert not phone.has("seat-table-1")
    hidden = [c for c in walk_controls(phone.page) if getattr(c, "identifier", None) == "seat-table-1"]
    assert len(hidden) == 1, "hidden, still mounted"
    target = phone.clickable_in(hidden[0])
    assert target is not None and phone.session.index.get(target._i) is target
    before = phone.mark()
    await phone.session.dispatch_event(target._i, "click", None)
    await world.harness.settle()
    assert world.room.version == version and phone.frames_since(before) == [] and not phone.has("banner")
    # a disabled control (the greyed "Take back" once another action came) drops its tap too
    while world.current() != seat:
        await world.room.submit({"type": "place_chip", "by": world.current(), "table": 2}, channel="seat", seat=world.current(), based_on_version=world.room.version)
        await world.harness.settle()
    shown = phone.find("seat-table-1")
    assert shown is not None and phone.clickable_in(shown)._i == target._i, "the same control (id), shown again"
    greyed = [c for c in walk_controls(phone.page) if getattr(c, "disabled", False) is True]
    assert greyed, "a disabled control on the page"
    version = world.room.version
    for control in greyed:
        await phone.session.dispatch_event(control._i, "click", None)
    await world.harness.settle()
    assert world.room.version == version
    await phone.click("seat-table-1")
    assert world.room.version == version + 1
    world.harness.check()


async def test_no_whole_page_update_follows_an_event(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """Every page sends its own changes (RoomScreen.render); Flet's auto-update after each event
    handler would diff the whole page again for nothing. It is off for the whole app
    (views/app.py): a tap on a phone and the redraws it causes call no `Page.update`, and the
    tap still takes effect on every page."""
    import flet as ft
    from flet.controls import context as flet_context
    from flet.messaging.session import Session

    world = await make_world(make_host, harness_factory, "no-auto-update", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    seat = world.current()
    phone = await world.open_phone(seat)
    assert flet_context._app_update_behavior._auto_update_enabled is False
    auto_updates: list[Any] = []
    original_auto = Session._Session__auto_update
    monkeypatch.setattr(Session, "_Session__auto_update", lambda self, control: auto_updates.append(control) or original_auto(self, control))
    updates: list[str] = []
    original = ft.Page.update
    monkeypatch.setattr(ft.Page, "update", lambda self, *a, **k: updates.append(self.route) or original(self, *a, **k))
    version = world.room.version
    await phone.click("seat-table-3")
    assert world.room.version == version + 1
    assert auto_updates == [] and phone.page.route not in updates, (auto_updates, updates)
    assert "chip on table 3." in board.text() and phone.has("take-back"), "the tap shows on both pages"
    world.harness.check()


async def test_controls_carry_no_empty_validation_error_set(make_host: Any, harness_factory: Any) -> None:
    """Patch 10: Flet attached an empty "errors already reported" set to every control it
    validated; now only a control that failed validation keeps one. What the set is for still
    works: an invalid control's error is raised once, its repeats are not, and once the control
    is valid again a new failure is raised again."""
    import flet as ft
    from flet.utils.validation import _REPORTED_VALIDATION_ERRORS_KEY, validate

    world = await make_world(make_host, harness_factory, "validation-sets", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.open_phone(world.current())
    await phone.click("seat-table-3")
    for tab in (board, phone):
        controls = list(walk_controls(tab.page))
        assert len(controls) > 100, "a real page: this test would prove nothing"
        assert not [c for c in controls if hasattr(c, _REPORTED_VALIDATION_ERRORS_KEY)]
    text = ft.Text("x", opacity=2.0)
    with pytest.raises(ValueError, match="opacity"):
        validate(text, suppress_repeated_errors=True)
    validate(text, suppress_repeated_errors=True)  # the same error again: reported once
    assert getattr(text, _REPORTED_VALIDATION_ERRORS_KEY)
    text.opacity = 0.5
    validate(text, suppress_repeated_errors=True)
    assert not getattr(text, _REPORTED_VALIDATION_ERRORS_KEY), "cleared once valid"
    text.opacity = 3.0
    with pytest.raises(ValueError, match="opacity"):
        validate(text, suppress_repeated_errors=True)
    valid = ft.Text("y")
    validate(valid, suppress_repeated_errors=True)
    assert not hasattr(valid, _REPORTED_VALIDATION_ERRORS_KEY)
    world.harness.check()


#: the kinds every page holds most of: without patch 14 each held a dictionary of its own
COMMON_KINDS = ("Text", "Container", "Column", "Row", "Semantics", "Icon")


@pytest.mark.parametrize("game_id", ["vabanque", "reglement"])
async def test_sent_controls_keep_their_attributes_in_their_classs_layout(make_host: Any, harness_factory: Any, game_id: str) -> None:
    """Patch 14: every control of a board and a phone, after play began, holds its attributes in
    its class's shared layout; without the patch the common kinds each held a dictionary of
    their own, about 230 bytes more per control."""
    import random

    import flet as ft

    from tests.test_sections import PLAYERS, random_actions

    assert all(memory.LAID_OUT.get(getattr(ft, kind)) for kind in COMMON_KINDS), {kind: memory.LAID_OUT.get(getattr(ft, kind)) for kind in COMMON_KINDS}
    world = await make_world(make_host, harness_factory, f"layout-{game_id}", game_id, {"players": PLAYERS}, seed=77)
    tabs = [await world.open_board(), await world.open_phone(0)]
    await random_actions(world, random.Random(77), 6)
    # no throwaway service reached a page (a service made while a page draws joins that page)
    assert [v for v in strings_in(tabs[0].messages()) if v == "SharedPreferences"] == ["SharedPreferences"]
    for tab in tabs:
        controls = list(walk_controls(tab.page))
        assert len(controls) > 100, "a real page: this test would prove nothing"
        # (the Page is made once per session, with the session: nothing to share)
        own = sorted({type(c).__name__ for c in controls if memory.has_own_dict(c) and not isinstance(c, ft.Page)})
        assert not own, f"{tab.name}: controls of these kinds hold a dictionary of their own: {own}"
    # the check sees a dictionary when there is one (reading `__dict__` makes one)
    probe = ft.Text("probe")
    assert not memory.has_own_dict(probe)
    assert probe.__dict__ and memory.has_own_dict(probe)
    world.harness.check()


async def test_the_attributes_laid_out_are_those_flet_gives_a_control_it_sends(make_host: Any, harness_factory: Any) -> None:
    """Patch 14 relies on Flet giving a control these attributes when it first sends it: a
    control of a page sent has them, and only them, after its constructor's own."""
    import flet as ft

    world = await make_world(make_host, harness_factory, "layout-names", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    sent = next(c for c in walk_controls(board.page) if type(c) is ft.Text)
    built = list(ft.Text("fresh").__dict__)
    names = list(sent.__dict__)
    assert names[: len(built)] == built
    assert set(names[len(built) :]) == set(memory.SENT_ATTRIBUTES)
    world.harness.check()


def test_a_service_is_not_laid_out_and_a_class_laid_out_too_late_says_so(caplog: Any) -> None:
    """Patch 14 makes no service (made once per page; its construction registers it with the
    page being drawn), and a class with too many instances already says it could not be laid
    out instead of claiming it was."""
    import flet as ft

    assert memory.lay_out(ft.SharedPreferences) is False

    @ft.control("LateProbe")
    class LateProbe(ft.Container):
        pass

    made = [LateProbe() for _ in range(40)]
    with caplog.at_level("WARNING"):
        assert memory.lay_out(LateProbe) is False
    assert "LateProbe" in caplog.text and len(made) == 40


def fields_flet_walks(item: Any) -> list[Any]:
    """What Flet's own walks read: every field but the skip-marked, in order, kept when it is a
    dataclass (a control among them), a dict or a list."""
    values = [getattr(item, f.name) for f in dataclasses.fields(item) if not f.metadata.get("skip", False)]
    return [v for v in values if dataclasses.is_dataclass(v) or isinstance(v, (dict, list))]


async def test_the_diffs_walks_read_only_what_holds_something(make_host: Any, harness_factory: Any) -> None:
    """Patch 11: mounting and unmounting walk a control's fields reading only its Prop values
    set (`_values`) and its other fields; on every control and value object of real pages (a
    board, a phone with its private section open) that is exactly what Flet's walk through all
    the fields finds, the same objects in the same order. Mounting stays whole: each control of
    the pages is in the session's index."""
    import flet as ft
    from flet.controls.object_patch import DiffBuilder

    assert DiffBuilder._configure_dataclass is speed._configure_dataclass
    world = await make_world(make_host, harness_factory, "walks", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.open_phone(world.current())
    await phone.click("show-private")
    checked = 0
    for tab in (board, phone):
        pending: list[Any] = [tab.page]
        seen: set[int] = set()
        while pending:
            item = pending.pop()
            if id(item) in seen:
                continue
            seen.add(id(item))
            expected = fields_flet_walks(item)
            assert [id(v) for v in speed._walked(item)] == [id(v) for v in expected], type(item).__name__
            checked += 1
            for value in expected:
                pending.extend(value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value])
            pending[:] = [v for v in pending if dataclasses.is_dataclass(v) and not isinstance(v, type)]
        missing = [c for c in walk_controls(tab.page) if tab.session.index.get(c._i) is not c]
        assert not missing, missing[:3]
    assert checked > 300, "real pages: this test would prove little"
    # in field order, whatever order the values were set in
    container = ft.Container(border=ft.Border.all(2, "#000000"), key="walked")
    container.content = ft.Text("x")
    assert [id(v) for v in speed._walked(container)] == [id(v) for v in fields_flet_walks(container)]
    world.harness.check()


async def test_the_diffs_walks_find_what_flets_own_find_in_the_same_order(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """Patch 11 returns lists where Flet made a generator per level: on a real board and phone
    (private section open), the controls a removal lists are Flet's own, in its order, with and
    without recursing; and mounting a new tree configures the same controls in the same order,
    leaving them in the same state (parent, frozen, initialised)."""
    import flet as ft
    from flet.controls.base_control import BaseControl
    from flet.controls.object_patch import DiffBuilder

    flet_patches.apply()
    world = await make_world(make_host, harness_factory, "walks-order", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.open_phone(world.current())
    await phone.click("show-private")
    builder = DiffBuilder(None, None, control_cls=BaseControl)
    flets_removed = flet_patches.ORIGINALS["DiffBuilder._removed_controls"]
    listed = 0
    for tab in (board, phone):
        for recurse in (True, False):
            ours = [id(c) for c in speed._removed_controls(builder, tab.page.controls, recurse)]
            with monkeypatch.context() as flets_own:
                flets_own.setattr(DiffBuilder, "_removed_controls", flets_removed)
                theirs = [id(c) for c in flets_removed(builder, tab.page.controls, recurse)]
            assert ours == theirs
            listed += len(ours)
    assert listed > 300, "real pages: this test would prove little"

    def tree(frozen: bool) -> Any:
        cells = [ft.Semantics(key=f"k{i}", button=True, content=ft.Container(border=ft.Border.all(2, "#000000"), content=ft.Text(f"t{i}", style=ft.TextStyle(size=12)))) for i in range(4)]
        return ft.Column([ft.Row(cells[:2]), ft.Stack(cells[2:]), ft.Text("last")], key="frozen" if frozen else "live")

    flets_configure = flet_patches.ORIGINALS["DiffBuilder._configure_dataclass"]
    for frozen in (False, True):
        ours_tree, theirs_tree = tree(frozen), tree(frozen)
        ours = speed._configure_dataclass(builder, ours_tree, None, frozen)
        with monkeypatch.context() as flets_own:
            flets_own.setattr(DiffBuilder, "_configure_dataclass", flets_configure)
            theirs = list(flets_configure(builder, theirs_tree, None, frozen))
        def named(control: Any) -> tuple[Any, ...]:
            return (type(control).__name__, control.key, getattr(control, "value", None))

        assert [named(c) for c in ours] == [named(c) for c in theirs] and len(ours) == 16

        def state(control: Any, root: Any) -> tuple[Any, ...]:
            parent = control._parent() if getattr(control, "_parent", None) else None
            return (
                getattr(control, "_frozen", None),
                getattr(control, "_initialized", None),
                None if parent is None else named(parent),
                parent is root,
                bool(getattr(control, "_dirty", None)),
                hasattr(control, "__changes"),
            )

        assert [state(c, ours_tree) for c in ours] == [state(c, theirs_tree) for c in theirs]
    world.harness.check()


def handlers_missing_from_index(session: Any) -> list[str]:
    """Controls on the page with an event handler that the session's index does not map to them
    (an event for them would be dropped by the O(1) lookup)."""
    missing = []
    for control in walk_controls(session.page):
        handlers = [name for name in dir(type(control)) if name.startswith("on_") and getattr(control, name, None) is not None]
        if handlers and session.index.get(control._i) is not control:
            missing.append(f"{type(control).__name__}#{control._i} {handlers}")
    return missing


async def test_after_every_render_each_control_with_a_handler_is_in_the_index(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """The guard of `_resolve_event_control`: on the real pages (rooms, host and spectator boards,
    the rule card, a seat's QR code, pass-and-play, a phone's seat page with its cards open),
    after the patches of each drawing are sent (one or several: children sent alone, see
    views/sections.py; checked when the loop next runs anything, which is when an event could
    be handled), every control with a handler is found through the index."""
    from flet.messaging.session import Session

    renders: list[str] = []
    problems: list[str] = []
    patch_control = Session.patch_control

    def check(session: Any) -> None:
        problems.extend(f"{session.page.route}: {m}" for m in handlers_missing_from_index(session))

    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = patch_control(self, *args, **kwargs)
        renders.append(self.page.route)
        asyncio.get_running_loop().call_soon(check, self)
        return result

    monkeypatch.setattr(Session, "patch_control", checked)
    world = await make_world(make_host, harness_factory, "index-guard", "vabanque", table_setup(), seed=VABANQUE_SEED)
    host = world.host
    harness = world.harness
    rooms = await harness.open(f"/?k={host.token}", name="rooms")
    spectator_rooms = await harness.open("/", name="spectator-rooms")
    board = await world.open_board()
    spectator = await harness.open(f"/room/{world.room.id}", name="spectator", browser=FakeBrowser("spectator"))
    phone = await world.open_phone(0)
    for ident in (RULES, RULES_BACK, "seat-1", "close-qr", "pass-2", "privacy-ready", "privacy-done"):
        await board.click(ident)
    for table in (2, 4):
        await board.click(f"table-{table}")
    await spectator.click(RULES)
    await spectator.click(RULES_BACK)
    await phone.click("show-private")
    await phone.click("hide-private")
    await phone.session.dispatch_event(phone.page._i, "resize", {"width": 400.0, "height": 800.0})
    await harness.settle()
    for tab in (rooms, spectator_rooms, board, spectator, phone):
        problems.extend(f"{tab.name} (now): {m}" for m in handlers_missing_from_index(tab.session))
    assert len(renders) > 15, renders
    assert problems == []
    harness.check()


async def test_a_resize_storm_costs_one_drawing(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "resize", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    before = board.mark()
    for width in range(1000, 1200, 5):  # 40 resizes in a row
        board.session.apply_page_patch({"width": float(width)})
        await board.session.dispatch_event(board.page._i, "resize", {"width": float(width), "height": 800.0})
    await world.harness.settle()
    assert len(board.frames_since(before)) == 1  # drawn once, at the size it settled on
    assert board.page.width == 1195.0
    world.harness.check()


async def test_presence_flips_are_drawn_where_they_settle(make_host: Any, harness_factory: Any) -> None:
    """A phone in a reconnect loop: its seat goes away and back; the board draws presence at most
    once per PRESENCE_EVERY, and nothing when the seat is back as drawn."""
    world = await make_world(make_host, harness_factory, "presence", "vabanque", table_setup(), seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.open_phone(0)
    await world.harness.settle()
    connected = "● " + translator("en").t("ui.connected")
    assert board.text().count(connected) == 1
    before = board.mark()
    for _ in range(20):
        await phone.session.disconnect(3600)
        await phone.session.connect(phone.conn)
    await world.harness.settle()
    assert len(board.frames_since(before)) <= 1
    assert board.text().count(connected) == 1
    await phone.session.disconnect(3600)
    await world.harness.settle()
    assert board.text().count(connected) == 0  # a real change is drawn
    world.harness.check()


# -- the real server ------------------------------------------------------------------------------


@pytest.fixture
def two_rooms(tmp_path: Path) -> Any:
    infos = create_rooms(tmp_path, vabanque_setup(3), 2, 11)
    server = ServerProcess(tmp_path).start()
    yield server, infos
    server.stop()


async def test_a_flood_from_a_spectator_leaves_the_other_tables_playing(two_rooms: Any) -> None:
    """20,000 events for an unknown id, then 2,000 real ones (resize, Rules), as fast as a
    spectator board without a token can send them, while another room plays."""
    server, infos = two_rooms
    table = Table(server.base_url, infos[0], VabanqueMirror(infos[0].setup, infos[0].seed))
    flooder = FletClient(server.base_url, f"/room/{infos[1].room}", width=TABLET[0], height=TABLET[1], name="flooder")
    stop = asyncio.Event()
    poller = HealthPoller(server.base_url, timeout=30.0)
    player = Player(table, think=0.3, timeout=60.0)
    tasks: list[asyncio.Task[Any]] = []
    try:
        await table.open_all(30)
        await flooder.connect()
        await flooder.wait_for(lambda c: c.clickable(RULES), 30, what="the spectator board")
        tasks = [asyncio.create_task(poller.run(stop)), asyncio.create_task(player.run(stop, 5))]
        started = time.perf_counter()
        await send_flood(flooder, 20_000, 2_000)
        notice = translator("en").t("ui.too_many_events")
        await flooder.wait_for(lambda c: told(c, notice), 30, what="the notice")
        await poller.answered_at_once()
        taps_before = len(player.taps)
        await table.board.wait_for(lambda _c: len(player.taps) >= taps_before + 2, 60, what="two more taps of the other room")
        ended = time.perf_counter()
        stop.set()
        await asyncio.gather(*tasks)
        assert server.proc.poll() is None and not flooder.closed
        assert poller.failures == [] and poller.longest(started, ended) < 1.0, poller.longest(started, ended)
        assert player.errors == [] and player.delays_ms(started, ended)
        # the flooding device is not cut off: once calm, its taps work again
        await asyncio.sleep(hardening.EVENT_BURST / hardening.EVENT_RATE)  # the burst refills
        await flooder.click(RULES if flooder.clickable(RULES) else RULES_BACK)
        await flooder.wait_for(lambda c: c.clickable(RULES_BACK) or c.clickable(RULES), 30)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(table.close(), flooder.close(), return_exceptions=True)


async def test_a_phone_in_a_reconnect_loop_does_not_redraw_the_board_each_time(two_rooms: Any) -> None:
    server, infos = two_rooms
    playing = Table(server.base_url, infos[0], VabanqueMirror(infos[0].setup, infos[0].seed))
    looping = Table(server.base_url, infos[1], VabanqueMirror(infos[1].setup, infos[1].seed))
    stop = asyncio.Event()
    player = Player(playing, think=0.3, timeout=60.0)
    try:
        await playing.open_all(30)
        await looping.open_all(30)
        play = asyncio.create_task(player.run(stop, 7))
        started = time.perf_counter()
        reconnects = await reconnect_loop(looping.phones[0], 10.0, 50.0)
        ended = time.perf_counter()
        stop.set()
        await play
        board_frames = patch_frames(looping.board, started, ended)
        assert reconnects > 100
        # at most one drawing per PRESENCE_EVERY (and a few for the phone's own page changes)
        assert board_frames <= (ended - started) / 0.5 + 3, (board_frames, reconnects)
        online = "● " + translator("en").t("ui.connected")
        await looping.board.wait_for(lambda c: c.texts().count(online) == 3, 30, what="every seat connected again")
        assert player.errors == [] and player.delays_ms(started, ended)
    finally:
        stop.set()
        await asyncio.gather(playing.close(), looping.close(), return_exceptions=True)


async def test_connections_that_fail_before_registering_leave_nothing_behind(tmp_path: Path) -> None:
    """300 sockets that close before registering, send garbage first, or an event first: each
    one's FletApp and tasks go (Flet kept them for ever, ~42 KiB each). The server runs in this
    process so its objects can be counted; RSS over a second round of 300 stays under 4 MiB
    (the leak was ~12 MiB a round)."""
    import uvicorn
    from flet_web.fastapi.flet_app import FletApp
    from websockets.asyncio.client import connect

    from main import build_app

    port = free_port()
    app, host = build_app(tmp_path, f"http://127.0.0.1:{port}")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", ws="websockets-sansio", lifespan="off"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    url = f"ws://127.0.0.1:{port}/ws"
    firsts = [None, b"\x00\xc1garbage", b"\x00" + msgpack.packb([3, {"target": 1, "name": "click", "data": None}]), b"\x07", b"\x00", b"", b"\x01\x00\x00\x00\x00data"]
    hung_up: list[bool] = []

    async def fail(i: int) -> None:
        async with connect(url, max_size=None) as ws:
            first = firsts[i % len(firsts)]
            if first is not None:
                await ws.send(first)
                # the server hangs up at once (not at the 30 s registration deadline); 5 s bounds the wait
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed:
                    hung_up.append(True)
                except TimeoutError:
                    hung_up.append(False)

    def apps() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, FletApp))

    async def settled(count: int) -> None:
        deadline = time.monotonic() + 30
        while apps() > count:
            assert time.monotonic() < deadline, f"{apps()} FletApps left"
            await asyncio.sleep(0.1)

    try:
        apps_before, tasks_before = apps(), len(asyncio.all_tasks())
        for start in range(0, 300, 30):
            await asyncio.gather(*(fail(i) for i in range(start, start + 30)))
        await settled(apps_before)
        rss_round_one = psutil.Process().memory_info().rss
        for start in range(0, 300, 30):
            await asyncio.gather(*(fail(i) for i in range(start, start + 30)))
        await settled(apps_before)
        assert hung_up and all(hung_up), f"{hung_up.count(False)} junk connections were kept open"
        assert len(asyncio.all_tasks()) <= tasks_before
        assert psutil.Process().memory_info().rss - rss_round_one < 4 * 2**20
    finally:
        server.should_exit = True
        await serving
        host.close()


def test_an_events_payload_type_is_found_once_per_class_and_field() -> None:
    """Patch 12: Flet's dispatch gets, for every event of every control class in `flet`, the
    payload type Flet's own function finds, and that function runs once per class and field."""
    import flet as ft
    import flet.controls.base_control as base_control

    flet_patches.apply()
    original = flet_patches.ORIGINALS["get_event_field_type"]
    assert base_control.get_event_field_type is not original, "installed where _trigger_event looks it up"
    checked = 0
    for name in dir(ft):
        cls = getattr(ft, name, None)
        if not (isinstance(cls, type) and issubclass(cls, base_control.BaseControl)):
            continue
        try:
            control = cls()
        except Exception:
            continue  # needs arguments: not one a page draws bare
        for field in (f for f in getattr(cls, "__dataclass_fields__", {}) if f.startswith("on_")):
            try:
                expected = original(control, field)
            except RuntimeError:  # a colour named on_...: Flet fails alike, every time
                with pytest.raises(RuntimeError):
                    base_control.get_event_field_type(control, field)
                continue
            assert base_control.get_event_field_type(control, field) == expected, (name, field)
            checked += 1
    assert checked > 200, checked

    calls: list[tuple[type, str]] = []

    def counted(control: Any, field: str) -> Any:
        calls.append((type(control), field))
        return original(control, field)

    once = speed._once_per_class(counted, vars(base_control))
    first = [once(c, "on_click") for c in (ft.Container(), ft.Container(), ft.TextButton("a"))]
    assert once(ft.Container(), "on_hover") == original(ft.Container(), "on_hover")
    assert first[0] is first[1] and first[0] == original(ft.Container(), "on_click") and first[2] == original(ft.TextButton("a"), "on_click")
    assert calls == [(ft.Container, "on_click"), (ft.TextButton, "on_click"), (ft.Container, "on_hover")]



def built_state(control: Any) -> dict[str, Any]:
    """What a control holds once built, but its id (each control gets a new one) and the time a
    date picker starts at (now); an object of its own (a lock, a method bound to it) by its kind."""
    import datetime

    def same(value: Any) -> Any:
        if isinstance(value, (datetime.datetime, datetime.time)):
            return "now"
        if inspect.ismethod(value):  # bound to this control
            return value.__func__
        if type(value).__eq__ is object.__eq__ and not isinstance(value, type):  # an asyncio.Event
            return type(value)
        return value

    def when(values: dict[str, Any]) -> dict[str, Any]:
        return {name: same(value) for name, value in values.items()}

    state = when({name: value for name, value in vars(control).items() if name != "_i"})
    state["_values"] = when(control._values)
    return state


def test_a_control_built_without_a_call_per_default_field_is_the_same_control() -> None:
    """Patch 13: every control class in `flet` (all of them read through `ft.<Name>`, as the
    pages read them: those loaded after `apply` are patched as they load) builds, with no
    argument and with arguments the pages give, what its dataclass-made `__init__` builds: the
    same values set, dirty fields, internals and everything else but its id."""
    import dataclasses

    import flet as ft
    from flet.controls.base_control import BaseControl

    flet_patches.apply()
    assert dataclasses._FIELD and dataclasses._FIELD_INITVAR  # what _fast_init reads (private)
    compared = 0
    for name in dir(ft):
        cls = getattr(ft, name, None)
        if not (isinstance(cls, type) and issubclass(cls, BaseControl)) or cls not in speed.ORIGINAL_INITS:
            continue
        original = speed.ORIGINAL_INITS[cls]
        assert speed._is_dataclass_init(cls) is False, f"{name}: its own __init__ was not replaced"
        made = object.__new__(cls)
        try:
            original(made)
        except Exception as error:  # needs arguments (compared below if a page draws it), or abstract
            with pytest.raises(type(error)):
                cls.__init__(object.__new__(cls))
            continue
        fast = object.__new__(cls)
        cls.__init__(fast)
        assert built_state(fast) == built_state(made), name
        compared += 1
    assert compared > 100, compared
    samples: list[tuple[type, tuple[Any, ...], dict[str, Any]]] = [
        (ft.Text, ("hello",), {"size": 14, "color": "#FFFFFF", "weight": ft.FontWeight.BOLD, "spans": [ft.TextSpan("x")]}),
        (ft.Container, (), {"width": 10, "height": 10, "bgcolor": "#FFFFFF", "border": ft.Border.all(1, "#000000"), "content": ft.Text("x"), "on_click": lambda e: None, "key": "k"}),
        (ft.Column, ([ft.Text("a")],), {"spacing": 2, "tight": True}),
        (ft.Row, (), {"controls": [ft.Text("a")], "wrap": True}),
        (ft.Stack, ([ft.Text("a")],), {"width": 3, "height": 4}),
        (ft.Semantics, (), {"identifier": "x", "label": "words", "button": True, "content": ft.Text("a")}),
        (ft.Icon, (ft.Icons.CAKE,), {"size": 12, "color": "#FFFFFF"}),
        (ft.Button, ("Go",), {"on_click": lambda e: None, "disabled": True}),
        (ft.Dropdown, (), {"options": [ft.DropdownOption("a")], "value": "a", "label": "L"}),
        (ft.TextField, (), {"value": "typed", "label": "Name"}),
        (ft.GestureDetector, (), {"content": ft.Text("a"), "on_tap_down": lambda e: None}),
        (ft.DragTarget, (), {"group": "g", "content": ft.Text("a")}),
    ]
    for cls, args, kwargs in samples:
        assert cls in speed.ORIGINAL_INITS, cls.__name__
        fast = object.__new__(cls)
        cls.__init__(fast, *args, **kwargs)
        made = object.__new__(cls)
        speed.ORIGINAL_INITS[cls](made, *args, **kwargs)
        assert built_state(fast) == built_state(made), cls.__name__
        assert fast._values and fast._values == made._values, cls.__name__


async def test_a_value_typed_just_before_a_redraw_is_the_value_its_event_reads(tmp_path: Path) -> None:
    """A device's value updates and its events are handled in the order it sent them. A client
    sends a field's new value, then its `change` event; Flet applied the value at once and the
    event in turn, so an earlier event's redraw running in between rebuilt the field from what
    the page knew (empty), and the event read that: the setup form said "Left empty" under a
    name the host had typed (a CI run; a review once: "Ada" typed after two Remove taps came out
    empty). Here three names go in one burst, each one an earlier name's redraw before its event."""
    from benchmarks.flet_client import EVENT, UPDATE_PROPS, pack, walk

    names = ["Ada", "Bea", "Cyd"]
    server = ServerProcess(tmp_path).start()
    home = FletClient(server.base_url, f"/?k={server.host_token}", width=TABLET[0], height=TABLET[1], name="home")

    def name_fields(client: FletClient) -> list[dict[str, Any]]:
        found = [client.find(f"player-name-{row}") for row in range(len(names))]
        return [next(n for n in walk(node) if n["_c"] == "TextField") for node in found if node is not None]

    try:
        await home.connect(60)
        fields = await home.wait_for(lambda c: len(name_fields(c)) == len(names) and name_fields(c), 30, what="the name fields")
        assert all(field.get("helper") for field in fields)  # "Left empty: Red" under each, to start with
        burst = []
        for field, name in zip(fields, names):
            burst.append(pack(UPDATE_PROPS, {"id": field["_i"], "props": {"value": name}}))
            burst.append(pack(EVENT, {"target": field["_i"], "name": "change", "data": name}))
        for frame in burst:  # written back to back: the server reads them before a handler runs
            await home._write(frame)

        def settled(client: FletClient) -> bool:
            # (this client keeps what it typed to itself: a value sent back would be the server's)
            now = name_fields(client)
            return all(field.get("value") in (None, name) and not field.get("helper") for field, name in zip(now, names))

        try:
            await home.wait_for(settled, 30, what="three names the page knows, none said to be left empty")
        except TimeoutError:
            raise AssertionError([(field.get("value"), field.get("helper")) for field in name_fields(home)]) from None
    finally:
        await home.close()
        server.stop()
