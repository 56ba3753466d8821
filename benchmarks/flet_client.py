"""A minimal protocol-level Flet 1.0.5 web client: a "device" without a browser.

It speaks the same websocket protocol as the Flutter web client (`/ws`, each binary frame
`0x00` + msgpack `[action, body]`), keeps the control tree the server sends, answers the
server's method invocations (SharedPreferences, push_route), and clicks controls by their
`ft.Semantics(identifier=...)`. Used by the restart test and the latency benchmark; one asyncio
loop can run hundreds of these.

    client = FletClient("http://127.0.0.1:8550", "/join/abc123/<token>", prefs=phone_storage)
    await client.connect()
    await client.wait_for(lambda c: c.find("seat-table-3"), timeout=10)
    await client.click("seat-table-3")
    print(client.texts())
    await client.close()

Wire details (checked against flet 1.0.5's flet/messaging/protocol.py, flet/controls/
object_patch.py, flet_web/fastapi/flet_app.py and the Dart client's flet_backend.dart and
models/control.dart):

* register [1, {session_id, page_name, page: {route, web, width, height, platform, ...}}];
  the answer's `page_patch` is the whole page (a dict with `_c`/`_i`).
* patch [2, {id, patch}] with patch = [path_trie, op, op, ...]. The trie is
  `[node_id, {key: [node_id, {...}]}]`; node 0 is the control `id` itself. Operations:
  [0 replace, node, key, value], [1 add, node, key, value] (insert into a list),
  [2 remove, node, key], [3 move, from_node, from_key, to_node, to_key]. Like the Dart client,
  each operation resolves its node's path against the tree as it is at that moment.
* controls are dicts with `_c` (type) and `_i` (id); event handlers are serialised as
  `on_click: True`; default values are omitted.
* invoke [5, {control_id, call_id, name, args}] must be answered with
  [5, {control_id, call_id, result, error}] or the server's `await` never returns.
* events go out as [3, {target, name, data}], client-side property changes as
  [4, {id, props}] (the route after navigation).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import itertools
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import msgpack
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

log = logging.getLogger("flet_client")

REGISTER, PATCH, EVENT, UPDATE_PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
OP_REPLACE, OP_ADD, OP_REMOVE, OP_MOVE = 0, 1, 2, 3

#: Phone and tablet viewports (logical pixels).
PHONE = (390, 844)
TABLET = (1280, 800)

_client_ids = itertools.count(1)


def _ext_hook(code: int, data: bytes) -> Any:
    """Flet's msgpack extension types (datetime, time, duration)."""
    if code == 1:
        return _dt.datetime.fromisoformat(data.decode())
    if code == 2:
        return _dt.time(*map(int, data.decode().split(":")))
    if code == 3:
        return int.from_bytes(data, "big", signed=True)
    if code == 4:
        return data.decode()
    return msgpack.ExtType(code, data)


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body], use_bin_type=True)


def unpack(frame: bytes) -> list[Any]:
    return msgpack.unpackb(frame[1:], ext_hook=_ext_hook, raw=False, strict_map_key=False)


def is_control(value: Any) -> bool:
    return isinstance(value, dict) and "_c" in value and "_i" in value


@dataclass
class Frame:
    """One message received from the server."""

    seq: int
    #: time.perf_counter() when the frame was read off the socket
    at: float
    action: int
    size: int


@dataclass
class Invocation:
    name: str
    control_type: str | None
    args: Any
    answered: Any


class FletClientError(Exception):
    pass


@dataclass
class _Waiter:
    predicate: Callable[[FletClient], Any]
    future: asyncio.Future[tuple[Any, Frame | None]]


@dataclass
class FletClient:
    """One device. `prefs` is its SharedPreferences storage (pass the same dict to a later
    client to model the same phone reopening a link)."""

    base_url: str
    route: str = "/"
    width: float = PHONE[0]
    height: float = PHONE[1]
    prefs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    user_agent: str = "flet-protocol-client/1.0"
    platform: str = "android"
    #: what the register frame says about the client (a browser says True; any client may lie)
    web: bool = True
    #: the browser's preferred languages (navigator.languages), answered to get_device_info
    languages: tuple[str, ...] = ("en-US",)
    #: keep every frame's bytes as received (`raw`): for tests of what reaches a device at all
    keep_raw: bool = False

    def __post_init__(self) -> None:
        self.id = next(_client_ids)
        self.name = self.name or f"client-{self.id}"
        self.page: dict[str, Any] | None = None
        self.session_id: str | None = None
        self.frames: list[Frame] = []
        self.raw: list[bytes] = []
        self.invocations: list[Invocation] = []
        self.crashed: str | None = None
        self.closed = False
        self.close_reason: str | None = None
        self._index: dict[int, dict[str, Any]] = {}
        self._index_dirty = True
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._waiters: list[_Waiter] = []
        self._registered: asyncio.Future[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: patch operations applied, by kind (replace, add, remove, move)
        self.op_counts: dict[str, int] = {"replace": 0, "add": 0, "remove": 0, "move": 0}

    # -- connection --

    @property
    def ws_url(self) -> str:
        split = urlsplit(self.base_url)
        scheme = "wss" if split.scheme == "https" else "ws"
        return f"{scheme}://{split.netloc}/ws"

    async def connect(self, timeout: float = 15.0) -> FletClient:
        loop = asyncio.get_running_loop()
        self._registered = loop.create_future()
        self._ws = await asyncio.wait_for(
            ws_connect(self.ws_url, max_size=None, compression=None, user_agent_header=self.user_agent, open_timeout=timeout),
            timeout,
        )
        self._reader = asyncio.create_task(self._read_loop(), name=f"{self.name}-reader")
        await self.register(timeout)
        return self

    async def register(self, timeout: float = 15.0) -> None:
        """Send the register frame and wait for the page (any transport)."""
        loop = asyncio.get_running_loop()
        if self._registered is None or self._registered.done():
            self._registered = loop.create_future()
        await self._send(
            REGISTER,
            {
                "session_id": self.session_id,
                "page_name": "",
                "page": {
                    "route": self.route,
                    "pwa": False,
                    "web": self.web,
                    "debug": False,
                    "wasm": False,
                    "multi_view": False,
                    "platform_brightness": "dark",
                    "width": float(self.width),
                    "height": float(self.height),
                    "platform": self.platform,
                },
            },
        )
        await asyncio.wait_for(asyncio.shield(self._registered), timeout)

    async def reconnect(self, timeout: float = 15.0) -> FletClient:
        """What the Flutter client does after its socket dropped: a new socket, registering with
        the same session id and the current route (a restarted server does not know the session
        and starts a new one, running main() again). The storage (`prefs`) is kept."""
        if self._ws is not None and not self.closed:
            await self.close()
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        self.page = None
        self._index_dirty = True
        self.closed = False
        self.close_reason = None
        self.crashed = None
        return await self.connect(timeout)

    async def close(self) -> None:
        """Drop the socket (like closing the tab)."""
        self.closed = True
        if self._ws is not None:
            await self._disconnect()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def _send(self, action: int, body: Any) -> float:
        if self._ws is None:
            raise FletClientError(f"{self.name}: not connected")
        at = time.perf_counter()
        await self._write(pack(action, body))
        return at

    async def _disconnect(self) -> None:
        await self._ws.close()

    def _packets(self) -> Any:
        """The packets coming in (an async iterable): the websocket's binary frames here."""
        return self._ws

    async def _write(self, packet: bytes) -> None:
        """One packet (`0x00` + msgpack) out: a websocket binary frame here."""
        await self._ws.send(packet)

    async def _read_loop(self) -> None:
        try:
            async for raw in self._packets():
                self._received(raw)
        except ConnectionClosed as exc:
            self.close_reason = repr(exc)
        except Exception as exc:  # a bug here must fail the waiting test, not hang it
            self.close_reason = f"client error: {exc!r}"
            log.exception("%s: reader failed", self.name)
        finally:
            self.closed = True
            if self._registered is not None and not self._registered.done():
                self._registered.set_exception(FletClientError(f"{self.name}: closed before registering ({self.close_reason})"))
            for waiter in self._waiters:
                if not waiter.future.done():
                    waiter.future.set_exception(FletClientError(f"{self.name}: connection closed ({self.close_reason})"))
            self._waiters.clear()

    # -- incoming messages --

    def _received(self, raw: Any) -> None:
        """One packet in (any transport): decoded, applied to the tree, waiters woken."""
        at = time.perf_counter()
        if self.keep_raw:
            self.raw.append(raw if isinstance(raw, bytes) else str(raw).encode())
        if not isinstance(raw, bytes) or not raw or raw[0] != 0:
            return
        action, body = unpack(raw)
        frame = Frame(seq=len(self.frames) + 1, at=at, action=action, size=len(raw))
        self.frames.append(frame)
        self._handle(action, body)
        self._check_waiters(frame)

    def _handle(self, action: int, body: Any) -> None:
        if action == REGISTER:
            if body.get("error"):
                raise FletClientError(f"register failed: {body['error']}")
            self.session_id = body.get("session_id")
            patch = body.get("page_patch")
            if isinstance(patch, dict):  # the whole page
                self.page = patch if self.page is None else _merge(self.page, patch)
            elif isinstance(patch, list) and self.page is not None:
                self._apply_patch(self.page, patch)
            self._index_dirty = True
            if self._registered is not None and not self._registered.done():
                self._registered.set_result(None)
        elif action == PATCH:
            target = self.control_by_id(body["id"])
            if target is None:
                log.warning("%s: patch for unknown control %s", self.name, body["id"])
                return
            self._apply_patch(target, body["patch"])
            self._index_dirty = True
        elif action == INVOKE:
            self._spawn(self._answer_invoke(body))
        elif action == CRASHED:
            self.crashed = body.get("message") if isinstance(body, dict) else str(body)
            log.error("%s: session crashed: %s", self.name, self.crashed)

    def _apply_patch(self, root: dict[str, Any], patch: list[Any]) -> None:
        apply_patch(root, patch, self.op_counts)

    async def _answer_invoke(self, body: dict[str, Any]) -> None:
        control = self.control_by_id(body.get("control_id"))
        control_type = control.get("_c") if control else None
        name = body.get("name")
        args = body.get("args") or {}
        result: Any = None
        error: str | None = None
        after: Callable[[], Any] | None = None
        if name == "push_route":
            route = args.get("route", "/")

            async def navigated() -> None:
                await self._navigated(route)

            after = navigated
        elif name == "get_device_info":
            result = self.device_info()
        elif control_type == "HapticFeedback":  # a phone without a vibration motor: nothing to do
            result = None
        elif control_type == "Wakelock" or name in ("enable", "disable", "is_enabled"):  # the screen stays on, or may sleep
            result = True if name == "is_enabled" else None
        elif control_type == "SharedPreferences" or name in ("get", "set", "remove", "contains_key", "get_keys", "clear"):
            key = args.get("key")
            if name == "get":
                result = self.prefs.get(key)
            elif name == "set":
                self.prefs[key] = args.get("value")
                result = True
            elif name == "remove":
                self.prefs.pop(key, None)
                result = True
            elif name == "contains_key":
                result = key in self.prefs
            elif name == "get_keys":
                prefix = args.get("key_prefix", "")
                result = [k for k in self.prefs if k.startswith(prefix)]
            elif name == "clear":
                self.prefs.clear()
                result = True
        else:
            result, error, after = self._answer_other(control_type, name, args)
        self.invocations.append(Invocation(name=name, control_type=control_type, args=args, answered=result if error is None else error))
        if self.frames:  # a waiter may be waiting for this call (they are woken by frames otherwise)
            self._check_waiters(self.frames[-1])
        await self._send(INVOKE, {"control_id": body.get("control_id"), "call_id": body.get("call_id"), "result": result, "error": error})
        if after is not None:
            await after()

    def locales(self) -> list[dict[str, str]]:
        return [dict(zip(("language_code", "country_code"), tag.split("-", 1))) for tag in self.languages]

    def device_info(self) -> dict[str, Any]:
        """What get_device_info answers: as Flet's web client does (WebDeviceInfo)."""
        return {"browser_name": "chrome", "locales": self.locales(), "language": self.languages[0] if self.languages else None, "languages": list(self.languages)}

    def _answer_other(self, control_type: str | None, name: str | None, args: Any) -> tuple[Any, str | None, Callable[[], Any] | None]:
        """(result, error, what to do after answering) for a call the base client does not know."""
        error = f"protocol client: method {name!r} of {control_type} is not implemented"
        log.warning("%s: %s", self.name, error)
        return None, error, None

    async def _navigated(self, route: str) -> None:
        """What the Flutter client does after push_route: new route prop, then route_change."""
        self.route = route
        page_id = self.page.get("_i", 1) if self.page else 1
        if self.page is not None:
            self.page["route"] = route
        await self._send(UPDATE_PROPS, {"id": page_id, "props": {"route": route}})
        await self._send(EVENT, {"target": page_id, "name": "route_change", "data": {"route": route}})

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the tree --

    def _reindex(self) -> None:
        self._index = {}
        if self.page is not None:
            for node in walk(self.page, visible_only=False):
                self._index[node["_i"]] = node
        self._index_dirty = False

    def control_by_id(self, control_id: Any) -> dict[str, Any] | None:
        if self._index_dirty:
            self._reindex()
        return self._index.get(control_id)

    def controls(self, visible_only: bool = True) -> Iterator[dict[str, Any]]:
        if self.page is None:
            return iter(())
        return walk(self.page, visible_only=visible_only)

    def find(self, identifier: str) -> dict[str, Any] | None:
        """The visible Semantics control with this identifier, else None."""
        for node in self.controls():
            if node.get("identifier") == identifier:
                return node
        return None

    def find_all(self, prefix: str) -> list[dict[str, Any]]:
        return [n for n in self.controls() if isinstance(n.get("identifier"), str) and n["identifier"].startswith(prefix)]

    def clickable(self, identifier: str) -> dict[str, Any] | None:
        """The first control with a click handler at or under the Semantics `identifier`, if it
        is enabled (`disabled` is inherited from ancestors, as in the Flutter client)."""
        if self.page is None:
            return None
        for node, disabled in walk_disabled(self.page):
            if node.get("identifier") == identifier:
                for inner, inner_disabled in walk_disabled(node, disabled):
                    if inner.get("on_click") is True:
                        return None if inner_disabled else inner
                return None
        return None

    def texts(self, root: dict[str, Any] | None = None) -> list[str]:
        """Every visible Text value, in tree order."""
        start = root if root is not None else self.page
        if start is None:
            return []
        return [n["value"] for n in walk(start) if n.get("_c") == "Text" and isinstance(n.get("value"), str)]

    def text_of(self, identifier: str) -> list[str]:
        node = self.find(identifier)
        return self.texts(node) if node is not None else []

    # -- acting and waiting --

    async def stop_reading(self) -> None:
        """Read nothing more off the socket, as a phone whose page froze: what the server sends
        from now on stays unread in the socket (until the connection drops). Returns once every
        frame already read off it has been handled (the server sent those before this call; a page
        would have drawn them), so no frame is handled after it returns.

        Pausing the transport alone did not stop the reading at once: a read the event loop had
        already scheduled still ran, and frames read before the pause waited in the websocket's
        queue for the reader task; handled after a tap sent next, they were taken for the tap's
        answer (tests/test_reconnect.py, "the phone read something after its tap")."""
        ws = self._ws
        if ws is None:
            raise FletClientError(f"{self.name}: not connected")
        transport = ws.transport
        while True:
            transport.pause_reading()
            await asyncio.sleep(0)  # a read scheduled before the pause runs in this turn of the loop
            while len(ws.recv_messages.frames) and self._reader is not None and not self._reader.done():
                await asyncio.sleep(0)  # the reader task handles what was read
            # websockets' own flow control resumes reading when its queue drains (if it had paused
            # it): then pause again
            if not transport.is_reading():
                return

    async def send_event(self, control_id: int, name: str = "click", data: Any = None) -> float:
        """Send a control event; returns time.perf_counter() just before the write."""
        return await self._send(EVENT, {"target": control_id, "name": name, "data": data})

    async def click(self, identifier: str, timeout: float = 10.0) -> float:
        """Wait until `identifier` has an enabled clickable, click it; returns the send time."""
        target = await self.wait_for(lambda c: c.clickable(identifier), timeout, what=f"clickable {identifier!r}")
        return await self.send_event(target["_i"], "click", None)

    async def wait_for(self, predicate: Callable[[FletClient], Any], timeout: float = 10.0, what: str = "") -> Any:
        value, _ = await self.wait_for_frame(predicate, timeout, what)
        return value

    async def wait_for_frame(
        self, predicate: Callable[[FletClient], Any], timeout: float = 10.0, what: str = ""
    ) -> tuple[Any, Frame | None]:
        """Wait until `predicate(client)` is truthy. Evaluated now and after every received frame;
        returns (value, the frame after which it became true, or None if it already was)."""
        if self.crashed:
            raise FletClientError(f"{self.name}: session crashed: {self.crashed}")
        value = predicate(self)
        if value:
            return value, None
        if self.closed:
            raise FletClientError(f"{self.name}: connection closed ({self.close_reason})")
        waiter = _Waiter(predicate, asyncio.get_running_loop().create_future())
        self._waiters.append(waiter)
        try:
            return await asyncio.wait_for(waiter.future, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"{self.name}: timed out after {timeout}s waiting for {what or predicate!r}; "
                f"route={self.route!r} frames={len(self.frames)} crashed={self.crashed!r} texts={self.texts()[:40]!r}"
            ) from None
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def _check_waiters(self, frame: Frame) -> None:
        for waiter in list(self._waiters):
            if waiter.future.done():
                continue
            try:
                value = waiter.predicate(self)
            except Exception as exc:  # surface predicate bugs to the waiting test
                waiter.future.set_exception(exc)
                continue
            if value:
                waiter.future.set_result((value, frame))
        if self.crashed:
            for waiter in self._waiters:
                if not waiter.future.done():
                    waiter.future.set_exception(FletClientError(f"{self.name}: session crashed: {self.crashed}"))


async def wait_for_any(
    clients: list[FletClient], predicate: Callable[[], Any], timeout: float = 10.0, what: str = ""
) -> tuple[Any, FletClient | None, Frame | None]:
    """Wait until `predicate()` (which may look at several clients) is truthy; it is evaluated now
    and after every frame any of `clients` receives. Returns (value, client, frame)."""
    value = predicate()
    if value:
        return value, None, None
    loop = asyncio.get_running_loop()
    done: asyncio.Future[tuple[Any, FletClient | None, Frame | None]] = loop.create_future()
    waiters: list[tuple[FletClient, _Waiter]] = []
    for client in clients:
        if client.closed:
            raise FletClientError(f"{client.name}: connection closed ({client.close_reason})")

        def check(c: FletClient, _client: FletClient = client) -> Any:
            return predicate()

        waiter = _Waiter(check, loop.create_future())

        def relay(future: asyncio.Future[Any], _client: FletClient = client) -> None:
            if done.done() or future.cancelled():
                return
            if future.exception() is not None:
                done.set_exception(future.exception())  # type: ignore[arg-type]
            else:
                result, frame = future.result()
                done.set_result((result, _client, frame))

        waiter.future.add_done_callback(relay)
        client._waiters.append(waiter)
        waiters.append((client, waiter))
    try:
        return await asyncio.wait_for(done, timeout)
    except TimeoutError:
        states = "; ".join(f"{c.name}: frames={len(c.frames)} texts={c.texts()[:12]!r}" for c in clients)
        raise TimeoutError(f"timed out after {timeout}s waiting for {what or predicate!r}; {states}") from None
    finally:
        for client, waiter in waiters:
            if waiter in client._waiters:
                client._waiters.remove(waiter)
            if not waiter.future.done():
                waiter.future.cancel()


class PatchError(FletClientError):
    """A patch the Dart client could not apply to the tree it holds (an index out of range, a key
    that is not there): the client's page would stop following the server's."""


def apply_patch(root: dict[str, Any], patch: list[Any], counts: Any = None, *, strict: bool = False) -> None:
    """Apply [path_trie, op, ...] to `root`, resolving paths per operation (as Dart does).
    `strict`: refuse what the Dart client cannot apply (a list index past the end, a path that
    leads nowhere) with PatchError instead of doing what Python's lists allow."""
    if not patch:
        return
    paths: dict[int, list[Any]] = {}

    def index(node: list[Any], path: list[Any]) -> None:
        paths[node[0]] = path
        if len(node) > 1 and isinstance(node[1], dict):
            for key, child in node[1].items():
                index(child, [*path, key])

    index(patch[0], [])

    def target(node_id: int) -> Any:
        obj: Any = root
        for key in paths[node_id]:
            if strict and (isinstance(obj, list) and not (isinstance(key, int) and 0 <= key < len(obj)) or isinstance(obj, dict) and key not in obj):
                raise PatchError(f"path {paths[node_id]} leads nowhere at {key!r}")
            obj = obj[key]
        return obj

    def check(container: Any, at: Any, *, inserting: bool) -> None:
        if strict and isinstance(container, list) and not (isinstance(at, int) and 0 <= at < len(container) + (1 if inserting else 0)):
            raise PatchError(f"index {at!r} out of range for a list of {len(container)}")

    for op in patch[1:]:
        kind = op[0]
        if counts is not None and kind in (OP_REPLACE, OP_ADD, OP_REMOVE, OP_MOVE):
            counts[("replace", "add", "remove", "move")[kind]] += 1
        if kind == OP_REPLACE:
            container = target(op[1])
            check(container, op[2], inserting=False)
            container[op[2]] = op[3]
        elif kind == OP_ADD:
            container = target(op[1])
            if isinstance(container, list):
                check(container, op[2], inserting=True)
                container.insert(op[2], op[3])
            else:
                container[op[2]] = op[3]
        elif kind == OP_REMOVE:
            container = target(op[1])
            if isinstance(container, list):
                check(container, op[2], inserting=False)
                del container[op[2]]
            else:
                container.pop(op[2], None)
        elif kind == OP_MOVE:
            source, destination = target(op[1]), target(op[3])
            check(source, op[2], inserting=False)
            value = source.pop(op[2])
            if isinstance(destination, list):
                check(destination, op[4], inserting=True)
                destination.insert(op[4], value)
            else:
                destination[op[4]] = value
        else:
            raise FletClientError(f"unknown patch operation {op!r}")


def walk(node: Any, visible_only: bool = True) -> Iterator[dict[str, Any]]:
    """Controls under `node` (itself included), depth first in property order; a control with
    `visible: False` and its subtree are skipped when `visible_only`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if is_control(current):
                if visible_only and current.get("visible") is False:
                    continue
                yield current
            children = [v for k, v in current.items() if isinstance(v, (dict, list)) and k not in ("_c", "_i")]
            stack.extend(reversed(children))
        elif isinstance(current, list):
            stack.extend(reversed(current))


def walk_disabled(node: dict[str, Any], disabled: bool = False) -> Iterator[tuple[dict[str, Any], bool]]:
    """Like `walk` (visible controls only), with whether each control is disabled, itself or
    through an ancestor."""
    if node.get("visible") is False:
        return
    disabled = disabled or node.get("disabled") is True
    yield node, disabled
    for key, value in node.items():
        if key in ("_c", "_i"):
            continue
        for child in _controls_in(value):
            yield from walk_disabled(child, disabled)


def _controls_in(value: Any) -> Iterator[dict[str, Any]]:
    """The outermost controls inside a property value (a control, or lists/dicts holding some)."""
    if isinstance(value, dict):
        if is_control(value):
            yield value
        else:
            for item in value.values():
                yield from _controls_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _controls_in(item)


def _merge(dst: dict[str, Any], src: dict[str, Any]) -> dict[str, Any]:
    for key, value in src.items():
        if isinstance(dst.get(key), dict) and isinstance(value, dict) and dst[key].get("_i") == value.get("_i"):
            _merge(dst[key], value)
        else:
            dst[key] = value
    return dst
