"""Work-arounds for flet-web 1.0.5, applied once by the server at start-up. Each one is checked
by tests/test_flet_patches.py, which fails when a Flet upgrade changes what it relies on. Why each
exists, and the upstream change that would replace it: docs/decisions/flet-patches-*.md.

1. Disconnects that never reach the page (`_send_loop`).
2. A debug string built for every message sent (`_send_message`).
3. Events for controls that are not on the page: dropped at O(1) (`_resolve_event_control`).
4. One bounded event lane per connection (`_receive_loop`, `EventLane`).
5. Connections that fail before registering: cleaned up (`_receive_loop`, `_handle`).
6. Properties a client sets that no control declares, or with a value of another type than a
   plain field declares (a page width of "x"): ignored (`_apply_patch`, `client_values`).
7. The app's font in the web client's FontManifest.json (`_with_app_fonts`).
8. A control kept as it was under a redrawn parent stays mounted (`DiffBuilder`, `_retained`), in a
   list or in a one-control field such as `content` (`_keep_field_values`).
9. One child of a control already shown, replaced and sent alone (`Swap`): Flet's own means for a
   component's body (`Session.patch_control` with a parent and a path), for a child in a list or
   in a one-control field, with the Python tree and Flet's snapshots of it kept as sent.
10. No empty "validation errors reported" set attached to every control (`_ReportedOnFirstUse`).
11. The diff's walks through a new or removed control's fields read only the fields that can
   hold something (`_configure_dataclass`, `_removed_controls`, `_held`), and return lists, not a
   generator per level.
12. An event's payload type found once per control class and event (`_once_per_class`).

Why 3-5 (measured with benchmarks/flood.py, Flet's own code in place): one device without a
token that sent 2,000 click events for a control id that does not exist left /healthz
unanswered for 11-12 s. Flet looks an unknown id up by walking the whole page tree (~5 ms per
event on a board, `Session.__find_live_control`), and `FletApp.__on_message` starts a task per
frame with no limit, so every frame's walk runs before anything else gets the loop. And when the
first frame is bad or the socket closes before registering, `__receive_loop` tells the send loop
to stop only if a session exists: `handle()` waits for ever (~42 KiB per connection).

Upstream fixes these would be: in `Session.__resolve_event_control`, trust the index (Flet keeps
it exact: every patch adds and removes the controls it mounts) and drop an id it does not hold
instead of walking the tree; in `FletApp`, a bounded per-connection queue drained by one task,
with invoke-method answers handled in the receive loop as now, and `__receive_loop` putting the
send loop's sentinel in a `finally`, with `handle()` skipping `disconnect_session` when no
session was ever made.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)
_applied = False

#: Per connection: events accepted per second (sustained) and in one burst; beyond that they are
#: dropped and the device is told once. The fastest the real pages send (benchmarks/
#: ui_event_rates.py, headless Chromium at machine speed): typing into a name field,
#: one `change` event (after its value update) per key, at most 52 events in 1 s and 17 in 100 ms
#: (a person holding a key: ~30/s); clicking Rules / Back as fast as the page redraws, 29 in 1 s;
#: resizing the window every 5 ms for 2 s, 1 event (the client sends the size it settles on).
#: The app has no slider; taps, the hold pad's down/up and drags stay far below typing. So
#: 120/s and a burst of 240: over twice the fastest, per second and per burst.
EVENT_RATE = 120.0
EVENT_BURST = 240
#: events waiting for a connection's worker; a full lane drops what comes (told like the rate)
EVENT_QUEUE_LIMIT = 256
#: seconds a new connection gets to register (the Flutter client registers on open)
REGISTER_TIMEOUT = 30.0
#: frames the receive loop reads in a row before it lets other tasks run
YIELD_EVERY = 64

_MSGPACK_FIXARRAY_2 = 0x92
_REGISTER, _CONTROL_EVENT, _UPDATE_CONTROL_PROPS = 1, 3, 4

#: what each page does when its device's events are dropped (see `when_events_dropped`)
_dropped_callbacks: weakref.WeakKeyDictionary[Any, Callable[[], Awaitable[None]]] = weakref.WeakKeyDictionary()


def when_events_dropped(page: Any, callback: Callable[[], Awaitable[None]]) -> None:
    """Call `callback()` (in the page's own task) the first time a connection of this page's
    session has events dropped for going too fast."""
    _dropped_callbacks[page.session] = callback


class ProtocolError(Exception):
    """A frame no Flet client sends (an event before registering, ...)."""


def frame_action(data: bytes) -> int | None:
    """The action of a `0x00` frame, read from its first bytes without decoding the body
    (msgpack `[action, body]`: fixarray of 2, then a positive fixint), else None."""
    if len(data) >= 3 and data[1] == _MSGPACK_FIXARRAY_2 and data[2] < 0x80:
        return data[2]
    return None


class TokenBucket:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class EventLane:
    """One connection's control events: rate-limited, queued (bounded) and dispatched one at a
    time by a single worker task. Nothing here blocks the receive loop: what does not fit is
    dropped. A control's values sent by the device (a field's text) take the same lane, in the
    order sent, so a redraw between a value and its `change` event cannot rebuild the field
    from the older value the event would then read.

    So a handler must not wait for a later event of the same device (it would wait behind
    itself): start such a wait in a task of its own (views/common.py `_hide_soon`). Waiting for
    the device's answer to a method call is fine: answers do not go through the lane."""

    def __init__(self, app: Any):
        self.app = app
        self.bucket = TokenBucket(EVENT_RATE, EVENT_BURST)
        #: (the session when the event came, the frame): a device that left still has the events
        #: it sent before leaving handled (its FletApp forgets the session on disconnect)
        self.pending: collections.deque[tuple[Any, bytes] | None] = collections.deque()
        self.wake = asyncio.Event()
        self.worker: asyncio.Task[None] | None = None
        self.dropped = 0
        self.dispatched = 0
        self.told = False

    def offer(self, data: bytes, *, charged: bool = True) -> None:
        if (charged and not self.bucket.take()) or len(self.pending) >= EVENT_QUEUE_LIMIT:
            self.drop()
            return
        self.pending.append((self.app._FletApp__session, data))
        if self.worker is None:
            self.worker = asyncio.get_running_loop().create_task(self.run(), name="flet-events")
        self.wake.set()

    def drop(self) -> None:
        self.dropped += 1
        if self.told:
            return
        self.told = True
        session = self.app._FletApp__session
        callback = _dropped_callbacks.get(session) if session is not None else None
        log.warning("events dropped for a device going too fast (%s/s, burst %s)", EVENT_RATE, EVENT_BURST)
        if callback is not None:
            session.page.run_task(callback)

    def close(self) -> None:
        """No more events: the worker handles those already queued, then ends."""
        self.pending.append(None)
        self.wake.set()

    async def run(self) -> None:
        import msgpack
        from flet.controls.context import _update_behavior_context_var
        from flet.messaging.protocol import ControlEventBody, UpdateControlPropsBody, decode_ext_from_msgpack

        while True:
            while self.pending:
                item = self.pending.popleft()
                if item is None:
                    return
                session, data = item
                # Each event as if in a task of its own (Flet's way): no auto-update setting a
                # previous handler left in this task's context carries over.
                _update_behavior_context_var.set(None)
                try:
                    action, body = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack)
                    if action == _UPDATE_CONTROL_PROPS:
                        update = UpdateControlPropsBody(**body)
                        session.apply_patch(update.id, update.props)
                    else:
                        event = ControlEventBody(**body)
                        await session.dispatch_event(event.target, event.name, event.data)
                except Exception:  # a malformed event, or a handler's error Flet did not catch
                    log.warning("event not handled", exc_info=True)
                self.dispatched += 1
                await asyncio.sleep(0)  # one event at a time, others' tasks in between
            self.wake.clear()
            await self.wake.wait()


def _fletapp() -> Any:
    from flet_web.fastapi.flet_app import FletApp

    return FletApp


def _session() -> Any:
    from flet.messaging.session import Session

    return Session


def _diff_builder() -> Any:
    from flet.controls.object_patch import DiffBuilder

    return DiffBuilder


def _validation() -> Any:
    import flet.utils.validation as validation

    return validation


def _base_control_module() -> Any:
    import flet.controls.base_control as base_control

    return base_control


#: what `apply` replaces: (name, class, attribute); Flet's own versions are kept in ORIGINALS
PATCHED: tuple[tuple[str, Callable[[], Any], str], ...] = (
    ("FletApp.handle", _fletapp, "handle"),
    ("FletApp.__receive_loop", _fletapp, "_FletApp__receive_loop"),
    ("FletApp.__send_loop", _fletapp, "_FletApp__send_loop"),
    ("FletApp.send_message", _fletapp, "send_message"),
    ("Session.__resolve_event_control", _session, "_Session__resolve_event_control"),
    ("Session.apply_patch", _session, "apply_patch"),
    ("DiffBuilder._compare_dataclasses", _diff_builder, "_compare_dataclasses"),
    ("DiffBuilder._maybe_compare_dataclasses", _diff_builder, "_maybe_compare_dataclasses"),
    ("DiffBuilder._removed_controls", _diff_builder, "_removed_controls"),
    ("DiffBuilder._configure_dataclass", _diff_builder, "_configure_dataclass"),
    ("validation._get_reported_validation_errors", _validation, "_get_reported_validation_errors"),
    ("get_event_field_type", _base_control_module, "get_event_field_type"),
)
ORIGINALS: dict[str, Any] = {}


def apply() -> None:
    global _applied
    if _applied:
        return
    from flet.messaging.session import Session
    from flet_web.fastapi.flet_app import FletApp

    for name, owner, attribute in PATCHED:
        ORIGINALS[name] = getattr(owner(), attribute)
    FletApp._FletApp__send_loop = _wrap_send_loop(FletApp._FletApp__send_loop)  # type: ignore[attr-defined]
    FletApp.send_message = _send_message  # type: ignore[method-assign]
    Session._Session__resolve_event_control = _resolve_event_control  # type: ignore[attr-defined]
    FletApp._FletApp__receive_loop = _receive_loop  # type: ignore[attr-defined]
    FletApp.handle = _handle  # type: ignore[method-assign]
    Session.apply_patch = _wrap_apply_patch(ORIGINALS["Session.apply_patch"])  # type: ignore[method-assign]
    DiffBuilder = _diff_builder()
    DiffBuilder._compare_dataclasses = _noting_retained(ORIGINALS["DiffBuilder._compare_dataclasses"])
    DiffBuilder._maybe_compare_dataclasses = _noting_retained(ORIGINALS["DiffBuilder._maybe_compare_dataclasses"])
    DiffBuilder._removed_controls = _removed_controls
    DiffBuilder._configure_dataclass = _configure_dataclass
    _validation()._get_reported_validation_errors = _reported_validation_errors
    base_control = _base_control_module()
    base_control.get_event_field_type = _once_per_class(ORIGINALS["get_event_field_type"], vars(base_control))
    import flet_web.fastapi.flet_static_files as flet_static_files

    ORIGINALS["patch_font_manifest_json"] = flet_static_files.patch_font_manifest_json
    flet_static_files.patch_font_manifest_json = _with_app_fonts(flet_static_files.patch_font_manifest_json)
    _applied = True


# -- 1. disconnects that never reach the page ----------------------------------------------------


def _wrap_send_loop(original: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    """`FletApp.handle` awaits its send loop before it disconnects the session. When a client
    goes away while a frame is being sent, the send loop raises, `disconnect_session` is never
    reached: the page never gets `on_disconnect` (its seat stays "connected" on the board) and
    the session is never expired. Measured with protocol clients closing together: 2 stuck seats
    out of 6 before, 0 after. The loop's only job left then is to stop: its error is logged."""

    async def send_loop(self: Any) -> None:
        try:
            await original(self)
        except Exception as exc:  # the socket closed under us
            log.debug("send loop ended with %r; disconnecting the session anyway", exc)

    send_loop.__wrapped__ = original  # type: ignore[attr-defined]
    return send_loop


# -- 2. no debug string per message ----------------------------------------------------------------


def _send_message(self: Any, message: Any) -> None:
    """`send_message` formatted every outgoing message for a debug log line even with debug
    logging off: a repr of whole control trees, measured at 4-5% of the server's CPU."""
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    body = msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
    self._FletApp__send_queue.put_nowait(b"\x00" + body)


# -- 3. unknown control ids: O(1) ------------------------------------------------------------------


def _resolve_event_control(self: Any, control_id: int) -> Any:
    """The control an event is for, from the session's index only; None (the event is dropped)
    when the id is not a control mounted on this page. Flet's own version walks the whole page
    tree for an id the index does not hold. tests/test_flet_patches.py checks that after every
    render of the real pages each control with a handler is in the index."""
    control = self.index.get(control_id)
    if control is not None and self._Session__is_mounted_control(control) and _takes_input(control):
        return control
    return None


def _takes_input(control: Any) -> bool:
    """Whether the browser could have sent an event for `control`: neither it nor a parent is
    hidden or disabled. A page keeps some controls mounted but hidden between uses (a phone's
    table buttons between its turns): a tap already on its way when they hid, or one a client
    forges, is dropped as a removed control's is, instead of acting for a player who no longer
    sees the button."""
    node = control
    while node is not None:
        if getattr(node, "visible", True) is False or getattr(node, "disabled", False) is True:
            return False
        node = node.parent
    return True


# -- 4 and 5. the receive loop and handle ----------------------------------------------------------


async def _receive_loop(self: Any) -> None:
    """Flet's receive loop, with control events going through the connection's `EventLane`
    (everything else, including invoke-method answers that handlers await, handled at once as
    before), frames read in turns, a deadline for registering, and the send loop always told to
    stop at the end (Flet's told it only when a session existed)."""
    import msgpack
    from fastapi import WebSocketDisconnect
    from flet.messaging.protocol import decode_ext_from_msgpack

    websocket = self._FletApp__websocket
    lane = EventLane(self)
    self._referee_events = lane
    read = 0
    try:
        while True:
            if self._FletApp__session is None:
                data = await asyncio.wait_for(websocket.receive_bytes(), REGISTER_TIMEOUT)
            else:
                data = await websocket.receive_bytes()
            read += 1
            if read % YIELD_EVERY == 0:
                await asyncio.sleep(0)
            if self._FletApp__session is None and (not data or data[0] != 0x00):
                # before registering only a registration frame is expected: junk ends it at once
                raise ProtocolError("first frame is not a registration frame")
            if not data:
                continue
            if data[0] == 0x00:
                action = frame_action(data)
                message = None
                if action is None:  # not the client's encoding: decoded to find its action
                    message = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack)
                    action = message[0] if isinstance(message, list) and message else None
                if self._FletApp__session is None and action != _REGISTER:
                    raise ProtocolError(f"first frame is not a registration (action {action!r})")
                if action == _CONTROL_EVENT:
                    lane.offer(data)
                elif action == _UPDATE_CONTROL_PROPS:
                    # in the lane too, uncharged (Flet never limited them): a value typed is
                    # applied after the events sent before it and before its own `change`
                    lane.offer(data, charged=False)
                else:
                    await self._FletApp__on_message(message if message is not None else msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack))
            elif data[0] == 0x01:
                if len(data) < 5:
                    continue
                channel = self._data_channels.get(int.from_bytes(data[1:5], "little", signed=False))
                if channel is not None:
                    channel._deliver(data[5:])
    except Exception as exc:
        if isinstance(exc, (ProtocolError, TimeoutError)) or self._FletApp__session is None:
            log.info("connection dropped before registering: %r", exc)
        elif not isinstance(exc, WebSocketDisconnect):
            log.warning("Receive loop error: %s", exc, exc_info=True)
    finally:
        lane.close()
        queue = self._FletApp__send_queue
        if queue is not None:
            queue.put_nowait(None)  # stop the send loop, with or without a session


async def _handle(self: Any, websocket: Any) -> None:
    """`FletApp.handle` as in flet-web 1.0.5, except that a connection that never made a session
    is not disconnected from one (it raised AttributeError there, after waiting for ever)."""
    from flet_web.fastapi.flet_app_manager import app_manager

    self._FletApp__websocket = websocket
    self._FletApp__client_ip = websocket.client.host if websocket.client else ""
    self._FletApp__client_user_agent = websocket.headers.get("user-agent", "")
    self._FletApp__oauth_state_id = websocket.cookies.get("flet_oauth_state")
    self.pubsubhub = app_manager.get_pubsubhub(self._FletApp__main, loop=self.loop)
    self.page_url = str(websocket.url).rsplit("/", 1)[0]
    self.page_name = websocket.url.path.rsplit("/", 1)[0].lstrip("/")
    if not self._FletApp__upload_endpoint_path:
        self._FletApp__upload_endpoint_path = f"{'' if self.page_name == '' else '/'}{self.page_name}/upload"

    await websocket.accept()
    self._FletApp__send_queue = asyncio.Queue()
    send_loop_task = asyncio.create_task(self._FletApp__send_loop())
    await self._FletApp__receive_loop()
    await send_loop_task

    session = self._FletApp__session
    if session is not None:
        await app_manager.disconnect_session(self._FletApp__get_unique_session_id(session.id), self._FletApp__session_timeout_seconds)


# -- 6. client property updates: declared properties only ----------------------------------------


def declared_only(patch: Any) -> Any:
    """`patch` without the names starting with "_", at any depth. Flet's `patch_dataclass` sets
    such a name on the control even when the control does not declare it (`_i`, `_parent` and any
    new name included): one connection could keep adding attributes (200 frames of 250 kB: +46
    MiB) or renumber a control. The Flutter client only ever sends declared properties."""
    if isinstance(patch, dict):
        return {k: declared_only(v) for k, v in patch.items() if not (isinstance(k, str) and k.startswith("_"))}
    if isinstance(patch, list):
        return [declared_only(v) for v in patch]
    return patch


#: a plain field's declared type -> the Python types a client's value for it may have
_PLAIN_TYPES: dict[Any, tuple[type, ...]] = {int: (int,), float: (int, float), str: (str,), bool: (bool,)}


def _plain_types(hint: Any) -> tuple[type, ...] | None:
    """The types a value for a field of this type hint may have, when the hint is plain (numbers,
    strings, booleans, optionally None); None for anything else (Flet converts those itself)."""
    import types
    import typing

    args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    allowed: list[type] = []
    for arg in args:
        if arg is type(None):
            allowed.append(type(None))
        elif arg in _PLAIN_TYPES:
            allowed.extend(_PLAIN_TYPES[arg])
        else:
            return None
    return tuple(allowed)


_field_types: dict[type, dict[str, tuple[type, ...]]] = {}


def _plain_fields(cls: type) -> dict[str, tuple[type, ...]]:
    """A control class's plain fields and the value types each takes (found once per class)."""
    found = _field_types.get(cls)
    if found is None:
        import sys
        import typing

        found = {}
        # each annotation on its own, in its own class's module (one name Flet leaves unresolved,
        # such as Page's KeyValue, fails typing.get_type_hints for the whole class)
        for base in reversed(cls.__mro__):
            module = vars(sys.modules.get(base.__module__, typing))
            for name, hint in vars(base).get("__annotations__", {}).items():
                try:
                    resolved = eval(hint, module) if isinstance(hint, str) else hint  # noqa: S307 - Flet's own annotations
                except Exception:
                    found.pop(name, None)
                    continue
                allowed = _plain_types(resolved)
                if allowed is None:
                    found.pop(name, None)
                else:
                    found[name] = allowed
        _field_types[cls] = found
    return found


def client_values(control: Any, patch: dict[str, Any]) -> dict[str, Any]:
    """`patch` without the values of plain fields that have another type than declared (a bool is
    no number here): a client sends the page's size, a field's text, a switch's state; a width of
    "x" would reach every drawing of the page (and crash it) if it were kept."""
    plain = _plain_fields(type(control))
    kept = {}
    for name, value in patch.items():
        allowed = plain.get(name)
        if allowed is not None and (not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed)):
            log.info("client value ignored: %s.%s = %r", type(control).__name__, name, value)
            continue
        kept[name] = value
    return kept


def _wrap_apply_patch(original: Callable[..., Any]) -> Callable[..., Any]:
    def apply_patch(self: Any, control_id: int, patch: dict[str, Any]) -> None:
        if not isinstance(patch, dict):
            patch = {}
        control = self.index.get(control_id)
        patch = declared_only(patch)
        if control is not None:
            patch = client_values(control, patch)
        original(self, control_id, patch)

    apply_patch.__wrapped__ = original  # type: ignore[attr-defined]
    return apply_patch


# -- 7. the app's font, loaded before the first frame ---------------------------------------------

#: The app's font family (views/common.py FONT) as the web client's FontManifest.json lists it:
#: the file under assets/fonts (an asset path is fetched as "assets/<path>", so "../fonts/..." is
#: the URL /fonts/..., where Flet serves the app's assets directory). Regular only, as `page.fonts`
#: had it: bold stays drawn from it (DejaVuSans-Bold.ttf is wider, and every layout was measured
#: with the regular file's bold).
APP_FONTS = {"family": "DejaVu", "fonts": [{"asset": "../fonts/DejaVuSans.ttf"}]}


def _with_app_fonts(original: Callable[[str], None]) -> Callable[[str], None]:
    """Letters went missing in headings in headless Chromium ("Host bo d"). With the
    font set through `page.fonts` alone, the web client drew its first frames in its bundled
    Roboto, fetched DejaVu only once the page's tree had arrived (measured: 3 s later on a busy
    machine), then laid every text out again in it: the one moment a drawn page had its font
    swapped under it, the likeliest source of a frame with glyphs missing (not reproduced here
    in a dozen loads, delayed fonts included). A font in the manifest is loaded by the Flutter
    engine before the app's first frame: every text is drawn in DejaVu from the start, and
    nothing is swapped under a drawn page (tests/test_setup_layout_browser.py checks the text's
    width and its painted letters).
    Flet writes its patched manifest once, at its first request (`FletStaticFiles.__config`)."""

    def patch_font_manifest_json(manifest_path: str) -> None:
        import json

        original(manifest_path)
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if not any(entry.get("family") == APP_FONTS["family"] for entry in manifest):
            manifest.append(APP_FONTS)
        with open(manifest_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2)

    return patch_font_manifest_json


# -- 8. a control kept under a redrawn parent stays mounted ---------------------------------------


#: the ids of the control objects the diff running now found kept as they were (views/sections.py
#: clears it before a page is sent and reads it after: a part reused but not in it was sent anew,
#: inside a parent Flet replaced)
RETAINED: set[int] = set()


def is_applied() -> bool:
    return _applied


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


# -- 10. no empty error set on every control -------------------------------------------------------


class _ReportedOnFirstUse(set):  # type: ignore[type-arg]
    """Flet's `validate` asks each control, at each of its updates, for the set of validation
    errors already reported for it, and attaches an empty set to every control the first time
    (a set and a larger instance dict per control: ~90 KiB of a phone's ~500 KiB session). This
    one is attached only when an error is added to it, the one time Flet needs it kept."""

    __slots__ = ("owner",)

    def add(self, signature: Any) -> None:
        if self.owner is not None:
            from flet.utils.validation import _REPORTED_VALIDATION_ERRORS_KEY

            try:
                setattr(self.owner, _REPORTED_VALIDATION_ERRORS_KEY, self)
            except Exception:  # as Flet's: a control refusing the attribute reports every time
                pass
            self.owner = None
        super().add(signature)


def _reported_validation_errors(instance: Any) -> set[tuple[str, str]]:
    from flet.utils.validation import _REPORTED_VALIDATION_ERRORS_KEY

    reported = getattr(instance, _REPORTED_VALIDATION_ERRORS_KEY, None)
    if reported is not None:
        return reported
    lazy = _ReportedOnFirstUse()
    lazy.owner = instance
    return lazy


# -- 11. the walks over a control's fields skip what holds nothing ---------------------------------

@dataclass(frozen=True)
class _WalkPlan:
    """How to read a dataclass's fields as Flet's walks do (see `_held`)."""

    #: its fields as Flet walks them (skip-marked ones aside), in order
    names: tuple[str, ...]
    #: the position of each in `names`
    order: dict[str, int]
    #: those its Prop descriptors keep in `_values` (absent there: the default)
    props: frozenset[str]
    #: the others, read with getattr
    others: tuple[str, ...]
    #: every Prop default is a plain value (so a Prop absent from `_values` holds nothing)
    plain: bool


_WALK_PLANS: dict[type, _WalkPlan] = {}
#: per type of value: whether Flet's walks act on it (see _holds_something)
_HOLDING_TYPES: dict[type, bool] = {dict: True, list: True, str: False, int: False, float: False, bool: False}


def _holds_something(value: Any) -> bool:
    """What Flet's two walks act on: a dataclass (a control among them), a dict or a list."""
    kind = type(value)
    holds = _HOLDING_TYPES.get(kind)
    if holds is None:
        import dataclasses

        holds = isinstance(value, (dict, list)) or dataclasses.is_dataclass(value)
        if kind is not type:  # a class is a dataclass or not by itself, not by its type
            _HOLDING_TYPES[kind] = holds
    return holds


def _walk_plan(cls: type) -> _WalkPlan:
    plan = _WALK_PLANS.get(cls)
    if plan is None:
        import dataclasses

        names = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False))
        defaults = cls.__dict__.get("_prop_defaults") or {}
        props = frozenset(name for name in names if name in defaults)
        plain = not any(_holds_something(defaults[name]) for name in props)
        order = {name: i for i, name in enumerate(names)}
        plan = _WALK_PLANS[cls] = _WalkPlan(names, order, props, tuple(n for n in names if n not in props), plain)
    return plan


def _held(item: Any) -> list[tuple[str, Any]]:
    """`item`'s fields (skip-marked ones aside, in field order) that Flet's walks act on, with
    their values. A Prop field's value is in `_values` unless it is its default, so only the
    values set and the other fields are read: a control's ~60 fields are mostly defaults."""
    plan = _walk_plan(type(item))
    values = getattr(item, "_values", None)
    if values is None or not plan.plain:
        return [(name, value) for name in plan.names if _holds_something(value := getattr(item, name))]
    props = plan.props
    held = [(name, value) for name, value in values.items() if name in props and _holds_something(value)]
    held += [(name, value) for name in plan.others if (value := getattr(item, name)) is not None and _holds_something(value)]
    if len(held) > 1:
        order = plan.order
        held.sort(key=lambda pair: order[pair[0]])
    return held


def _walked(item: Any) -> list[Any]:
    """The values Flet's walks act on in `item` (see `_held`), in field order."""
    return [value for _, value in _held(item)]


def holding_fields(item: Any) -> list[tuple[str, Any]]:
    """`item`'s public fields (as Flet names them in a patch's path) whose value is a dict, a
    list or a dataclass (a control among them), in field order: where views/sections.py looks
    for a group's children."""
    return [(name, value) for name, value in _held(item) if not name.startswith("_")]


def _configure_dataclass(self: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False) -> list[Any]:
    """Flet's `DiffBuilder._configure_dataclass` (flet 1.0.5), its walk through the fields
    reading only those that can hold something (`_walked`): every new control's ~60 fields were
    each read and walked into, a generator made for each, for a handful of values. The controls
    come as a list, in the generator's order, with the same steps in the same order: Flet's one
    caller (`get_added_controls`, under `list()`) takes them all at once, and a generator per
    level passed every control up through each level above it."""
    found: list[Any] = []
    _configure_into(self, found, item, parent, frozen, configure_setattr_only)
    return found


def _configure_into(self: Any, found: list[Any], item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False) -> None:
    import dataclasses
    import weakref

    from flet.controls.object_patch import ObjectPatchException, _control_setattr, logger

    if isinstance(item, (dict, list)):
        for v in item.values() if isinstance(item, dict) else item:
            _configure_into(self, found, v, parent, frozen)
        return
    if not dataclasses.is_dataclass(item):
        return
    logger.debug("\n_configure_dataclass: %s %s %s", item, frozen, configure_setattr_only)
    if parent is None:
        parent_ref = getattr(item, "_parent", None)
        parent = parent_ref() if parent_ref else None
    if parent:
        if parent is item:
            raise ObjectPatchException(f"Parent is the same as item: {item}")
        item._parent = weakref.ref(parent)
    if hasattr(item, "_frozen"):
        frozen = item._frozen
    elif frozen:
        item._frozen = frozen
    item_cls = item.__class__
    if getattr(item_cls, "__flet_control_cls__", None) is None:
        item_cls.__flet_control_cls__ = self.control_cls
    is_control = bool(self.control_cls) and isinstance(item, self.control_cls)
    if is_control:
        if not configure_setattr_only:
            item.build()
            item._before_update_safe()
            object.__setattr__(item, "_initialized", True)
        found.append(item)
    if not configure_setattr_only:
        child_parent = item if is_control else parent
        for value in _walked(item):
            _configure_into(self, found, value, child_parent, frozen)
    if not frozen:
        dst_dirty = getattr(item, "_dirty", None)
        if dst_dirty is not None:
            dst_dirty.clear()
        else:
            item_cls = type(item)
            if item_cls.__setattr__ is not _control_setattr:
                item_cls.__setattr__ = _control_setattr
            object.__setattr__(item, "__changes", {})


def _removed_controls(self: Any, item: Any, recurse: bool) -> list[Any]:
    """Flet's `DiffBuilder._removed_controls` (flet 1.0.5), its walk through a control's fields
    (one never sent whole: no snapshots) reading only those that can hold something, as a list
    (see `_configure_dataclass`); a kept control and what is inside it are left out (patch 8)."""
    found: list[Any] = []
    _removed_into(self, found, item, recurse, self.__dict__.get("_retained"))
    return found


def _removed_into(self: Any, found: list[Any], item: Any, recurse: bool, retained: Any) -> None:
    if retained and id(item) in retained:
        return
    if isinstance(item, (dict, list)):
        for v in item.values() if isinstance(item, dict) else item:
            _removed_into(self, found, v, recurse, retained)
        return
    if not (self.control_cls and isinstance(item, self.control_cls)):
        return
    if hasattr(item, "__prev_lists"):
        for snapshots in ("__prev_lists", "__prev_dicts", "__prev_classes"):
            for held in getattr(item, snapshots, {}).values():
                _removed_into(self, found, held, recurse, retained)
    elif recurse:
        for value in _walked(item):
            _removed_into(self, found, value, recurse, retained)
    found.append(item)


# -- 12. an event's payload type, found once per control class and event ---------------------------


def _once_per_class(original: Callable[[Any, str], Any], caller_globals: dict[str, Any]) -> Callable[[Any, str], Any]:
    """Flet's `get_event_field_type`, which `BaseControl._trigger_event` calls for every event:
    it merges the annotations of the control's whole class hierarchy, copies two module
    namespaces and evaluates the handler's type hint (~0.2 ms an event, ~2 % of the server's
    time at ten tables). The answer depends on the control's class and the field alone, so it
    is kept per (class, field). Made with `caller_globals` (the module that calls it) as its
    globals: Flet's function resolves names in its caller's frame, which is this one."""
    found: dict[tuple[type, str], Any] = {}

    def get_event_field_type(control: Any, field_name: str) -> Any:
        key = (type(control), field_name)
        if key not in found:
            found[key] = original(control, field_name)
        return found[key]

    import types

    return types.FunctionType(get_event_field_type.__code__, caller_globals, "get_event_field_type", None, get_event_field_type.__closure__)
