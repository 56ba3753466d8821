"""The Flet patches that keep one device from hurting the others (1, 3, 4, 5, 6 of
views/flet_patches/__init__.py). Why each exists and the upstream fix it stands in for:
docs/decisions/flet-patches-hardening.md; the limits they enforce: docs/decisions/connection-limits.md.

1. Disconnects that never reach the page (`_wrap_send_loop`).
3. Events for controls that are not on the page: dropped at O(1) (`_resolve_event_control`); a
   tap among them is told to its page (`when_a_tap_misses`): Flet drops it without a word.
4. One bounded event lane per connection (`_receive_loop`, `EventLane`).
5. Connections that fail before registering: cleaned up (`_receive_loop`, `_handle`).
6. Properties a client sets that no control declares, or with a value of another type than a
   plain field declares (a page width of "x"): ignored (`_wrap_apply_patch`, `client_values`).

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
from typing import Any

log = logging.getLogger(__name__)

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


#: what each page does when a tap reaches a control it no longer holds (see `when_a_tap_misses`)
_missed_callbacks: weakref.WeakKeyDictionary[Any, Callable[[], Awaitable[None]]] = weakref.WeakKeyDictionary()
#: the events a finger's tap sends: a control's on_click, a gesture's on_tap and on_long_press (a
#: pad's tap_down / tap_up are not: a pad drawn again under a held finger is no missed tap)
TAP_EVENTS = frozenset({"click", "tap", "long_press"})


def when_a_tap_misses(page: Any, callback: Callable[[], Awaitable[None]]) -> None:
    """Await `callback()` when a tap of this page's session is for a control the page no longer
    holds, or holds hidden or disabled: drawn again between the finger and the server (the page
    changed under it). The event is dropped all the same; the page can say so."""
    _missed_callbacks[page.session] = callback


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
        from flet.controls.context import _context_page, _update_behavior_context_var
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
                        if event.name in TAP_EVENTS and _resolve_event_control(session, event.target) is None:
                            missed = _missed_callbacks.get(session)
                            if missed is not None:
                                _context_page.set(session.page)  # as Flet's dispatch_event does
                                await missed()
                        else:
                            await session.dispatch_event(event.target, event.name, event.data)
                except Exception:  # a malformed event, or a handler's error Flet did not catch
                    log.warning("event not handled", exc_info=True)
                self.dispatched += 1
                await asyncio.sleep(0)  # one event at a time, others' tasks in between
            self.wake.clear()
            await self.wake.wait()


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
