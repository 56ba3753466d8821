"""An in-process Flet harness: real `Session`/`Page` objects over a fake connection.

What is real: flet's `Session`, `Page`, control diffing and patching, the msgpack encoding of every
outgoing message (byte for byte what `flet_web.fastapi.flet_app.FletApp.send_message` puts on the
websocket, minus nothing), a real `PubSubHub(loop, executor=None)`, our `build_main(...)` entry
point, the room, the store (SQLite on disk) and its writer thread.

What is faked: the Flutter client. A `FakeConnection` records each frame and answers the client-side
method calls the app makes:
  * `SharedPreferences` get/set/remove/contains_key/get_keys/clear, against a dict per
    `FakeBrowser` (localStorage is per origin, so every tab of one browser shares it);
  * `Page.push_route` (what `page.navigate` calls): answered, then the route change is applied
    the way the browser would report it (page route patch + a `route_change` event).
Any other method call is answered with an error and recorded in `FakeConnection.unhandled`.

Registering a tab mirrors `FletApp.__on_message(REGISTER_CLIENT)` for a new session:
`apply_page_patch({route, width, height, web, ...})`, the register response carrying
`get_page_patch()`, then `main(page)` in its own task with the page context set, then
`after_event(page)`.

Events are dispatched with `session.dispatch_event(control_id, "click", None)`, the path a real
CONTROL_EVENT message takes. Controls are found by their `ft.Semantics(identifier=...)`, looked up
in `session.index` (only controls still mounted on the page count).

`normalise(frames)` decodes recorded frames and renumbers control ids (and the other per-process
random ids: session id, invoke-method call ids) by order of first appearance, so two sessions'
streams can be compared for equality.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
    decode_ext_from_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

__all__ = [
    "FakeBrowser",
    "FakeConnection",
    "FletHarness",
    "Tab",
    "decode_frame",
    "decode_frames",
    "normalise",
    "strings_in",
]

_ENCODE = configure_encode_object_for_msgpack(BaseControl)


# --------------------------------------------------------------------------------------------
# wire format
# --------------------------------------------------------------------------------------------


def encode_message(message: Message) -> bytes:
    """Exactly `FletApp.send_message`: 0x00 + msgpack([action, body]) with Flet's encoder."""
    return b"\x00" + msgpack.packb([message.action, message.body], default=_ENCODE)


def decode_frame(frame: bytes) -> list[Any]:
    """One websocket frame (0x00 + msgpack [action, body]) -> [action, body]."""
    if not frame or frame[0] != 0x00:
        raise ValueError(f"not a Flet protocol frame: {frame[:8]!r}")
    return msgpack.unpackb(frame[1:], ext_hook=decode_ext_from_msgpack, strict_map_key=False)


def decode_frames(frames: Iterable[bytes]) -> list[list[Any]]:
    return [decode_frame(f) for f in frames]


#: keys whose value is (or refers to) a control id
_ID_KEYS = {"_i", "control_id", "target"}
#: per-process random strings: renumbered by first appearance too
_RANDOM_STR_KEYS = {"session_id", "call_id", "uid"}


def normalise(
    frames: Iterable[bytes | list[Any]],
    replace: dict[str, str] | None = None,
    blob: Callable[[bytes], Any] | None = None,
) -> list[Any]:
    """Decode frames and replace ids by their order of first appearance.

    * control ids: every `_i` value, a PATCH_CONTROL body's `id`, an INVOKE_METHOD body's
      `control_id` -> "#0", "#1", ... (one numbering shared by all of them);
    * session ids and invoke-method call ids -> "$0", "$1", ...;
    * `replace`: substrings to replace in every string (e.g. a room id or a host token that
      legitimately differs between two otherwise identical worlds) -> the given placeholder;
    * `blob`: applied to every bytes value first (e.g. decode a QR code PNG into its text, which
      then goes through `replace` like any string).
    """
    ids: dict[Any, str] = {}
    rand: dict[Any, str] = {}
    subs = sorted((replace or {}).items(), key=lambda kv: -len(kv[0]))

    def cid(value: Any) -> Any:
        if value is None:
            return None
        if value not in ids:
            ids[value] = f"#{len(ids)}"
        return ids[value]

    def rid(value: Any) -> Any:
        if value not in rand:
            rand[value] = f"${len(rand)}"
        return rand[value]

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k in _ID_KEYS and isinstance(v, int):
                    out[k] = cid(v)
                elif k in _RANDOM_STR_KEYS and isinstance(v, str):
                    out[k] = rid(v)
                else:
                    out[walk(k) if isinstance(k, str) else k] = walk(v)
            return out
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, str):
            for old, new in subs:
                if old:
                    value = value.replace(old, new)
            return value
        if isinstance(value, bytes) and blob is not None:
            value = blob(value)
            if isinstance(value, str):
                return walk(value)
        if isinstance(value, bytes):
            for old, new in subs:
                if old:
                    value = value.replace(old.encode(), new.encode())
            return value
        return value

    result = []
    for frame in frames:
        action, body = decode_frame(frame) if isinstance(frame, (bytes, bytearray)) else frame
        if action == MessageAction.PATCH_CONTROL.value and isinstance(body, dict) and isinstance(body.get("id"), int):
            body = {**body, "id": cid(body["id"])}
        result.append([action, walk(body)])
    return result


class BrowserPage:
    """The page a browser holds after the frames a tab was sent: the register answer's page,
    then each patch applied to the control it is addressed to, by the protocol client's own
    algorithm (benchmarks/flet_client.py, which the load benchmarks check against the server)."""

    def __init__(self) -> None:
        self.page: dict[str, Any] | None = None
        self.op_counts: collections.Counter[str] = collections.Counter()  # what FletClient._apply_patch counts

    def feed(self, frames: Iterable[bytes]) -> dict[str, Any] | None:
        from benchmarks.flet_client import FletClient, _merge, walk

        for frame in frames:
            action, body = decode_frame(frame)
            if action == MessageAction.REGISTER_CLIENT.value and isinstance(body.get("page_patch"), dict):
                self.page = body["page_patch"] if self.page is None else _merge(self.page, body["page_patch"])
            elif action == MessageAction.PATCH_CONTROL.value and self.page is not None:
                target = next((node for node in walk(self.page, visible_only=False) if node.get("_i") == body["id"]), None)
                assert target is not None, f"a patch for control {body['id']}, which the browser does not have"
                FletClient._apply_patch(self, target, body["patch"])  # type: ignore[arg-type]
        return self.page


def strings_in(value: Any) -> Iterator[str]:
    """Every string (keys and values) in a decoded structure; bytes decoded leniently."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from strings_in(k)
            yield from strings_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, str):
        yield value
    elif isinstance(value, (bytes, bytearray)):
        yield value.decode("utf-8", "replace")


# --------------------------------------------------------------------------------------------
# the fake client
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class FakeBrowser:
    """One browser profile: its localStorage, shared by all its tabs (SharedPreferences)."""

    name: str = "browser"
    storage: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: navigator.languages, in order of preference (what `Page.get_device_info` reports)
    languages: list[str] = dataclasses.field(default_factory=lambda: ["en-US", "en"])


class FakeConnection(Connection):
    """Records every outgoing frame as bytes and plays the client's part of method calls."""

    def __init__(self, loop: asyncio.AbstractEventLoop, hub: PubSubHub, browser: FakeBrowser, page_url: str):
        super().__init__()
        self.loop = loop
        self.pubsubhub = hub
        self.page_url = page_url
        self.page_name = ""
        self.browser = browser
        self.frames: list[bytes] = []
        self.unhandled: list[tuple[str, str, Any]] = []
        #: (src, method) of each call to an Audio service (flet-audio), as a browser would play it
        self.audio: list[tuple[str, str]] = []
        self.session: Session | None = None
        self.routes: list[str] = []
        self.disposed = False

    # Connection API -------------------------------------------------------------------------

    def send_message(self, message: Message) -> None:
        frame = encode_message(message)
        self.frames.append(frame)
        if message.action == MessageAction.INVOKE_METHOD:
            body = message.body
            self.loop.call_soon(self._answer, body.control_id, body.call_id, body.name, body.args)

    def dispose(self) -> None:
        self.disposed = True

    # the client's side of invoke_method -----------------------------------------------------

    def _answer(self, control_id: int, call_id: str, name: str, args: Any) -> None:
        session = self.session
        assert session is not None
        control = session.index.get(control_id)
        kind = getattr(control, "_c", None)
        result: Any = None
        error: str | None = None
        after: Callable[[], Awaitable[None]] | None = None
        args = args or {}
        if kind == "SharedPreferences":
            store = self.browser.storage
            if name == "get":
                result = store.get(args["key"])
            elif name == "set":
                store[args["key"]] = args["value"]
                result = True
            elif name == "remove":
                result = store.pop(args["key"], None) is not None
            elif name == "contains_key":
                result = args["key"] in store
            elif name == "get_keys":
                result = [k for k in store if k.startswith(args.get("key_prefix", ""))]
            elif name == "clear":
                store.clear()
                result = True
            else:
                error = f"harness: SharedPreferences.{name} not supported"
        elif kind == "Audio":
            self.audio.append((control.src, name))  # played: a browser answers play() with nothing
        elif kind == "HapticFeedback":
            result = None  # a browser without navigator.vibrate answers the same way
        elif control is session.page and name == "get_device_info":
            result = self._web_device_info()
        elif control is session.page and name == "push_route":
            route = args["route"]
            self.routes.append(route)
            after = functools.partial(self._navigated, route)
        else:
            error = f"harness: no fake for {kind}.{name}"
        if error:
            self.unhandled.append((str(kind), name, args))
        session.handle_invoke_method_results(control_id, call_id, result, error)
        if after is not None:
            self.loop.create_task(after())

    def _web_device_info(self) -> dict[str, Any]:
        """The shape Flet's web client answers get_device_info with (a subset of navigator)."""
        languages = self.browser.languages
        locales = []
        for tag in languages:
            language, _, country = tag.partition("-")
            locales.append({"language_code": language, "country_code": country or None})
        return {"browser_name": "chrome", "language": languages[0] if languages else None, "languages": languages, "locales": locales}

    async def _navigated(self, route: str) -> None:
        """What the browser reports after a push_route: the new route, as a route_change event."""
        session = self.session
        assert session is not None
        session.apply_page_patch({"route": route})
        await session.dispatch_event(session.page._i, "route_change", {"route": route})


# --------------------------------------------------------------------------------------------
# tabs and the harness
# --------------------------------------------------------------------------------------------


def _children(value: Any, seen: set[int]) -> Iterator[BaseControl]:
    """Controls directly reachable from `value` (through lists, dicts and plain dataclasses)."""
    if value is None or id(value) in seen:
        return
    if isinstance(value, BaseControl):
        yield value
        return
    if isinstance(value, (list, tuple)):
        seen.add(id(value))
        for item in value:
            yield from _children(item, seen)
    elif isinstance(value, dict):
        seen.add(id(value))
        for item in value.values():
            yield from _children(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen.add(id(value))
        for f in dataclasses.fields(value):
            if f.name.startswith("_") or f.metadata.get("skip", False):
                continue
            yield from _children(getattr(value, f.name, None), seen)


def walk_controls(root: BaseControl, shown_only: bool = False) -> Iterator[BaseControl]:
    """The control tree under `root` (root included), depth first, in declaration order;
    `shown_only`: without what `visible=False` hides (the browser draws none of it)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        control = stack.pop()
        if id(control) in seen:
            continue
        seen.add(id(control))
        if shown_only and getattr(control, "visible", True) is False:
            continue
        yield control
        kids: list[BaseControl] = []
        for f in dataclasses.fields(control):
            if f.name in ("_parent",) or f.metadata.get("skip", False):
                continue
            if f.name.startswith("_") and f.name not in ("_services", "_overlay", "_dialogs"):
                continue
            kids.extend(_children(getattr(control, f.name, None), set()))
        stack.extend(reversed(kids))


class Tab:
    """One browser tab: a Flet session on a fake connection."""

    def __init__(self, harness: FletHarness, route: str, *, width: float, height: float, browser: FakeBrowser, name: str):
        self.harness = harness
        self.route = route
        self.name = name
        self.browser = browser
        self.conn = FakeConnection(harness.loop, harness.hub, browser, harness.page_url)
        self.session = Session(self.conn)
        self.conn.session = self.session
        self.width = width
        self.height = height

    @property
    def page(self) -> ft.Page:
        return self.session.page

    @property
    def frames(self) -> list[bytes]:
        return self.conn.frames

    def mark(self) -> int:
        """A position in this tab's frame stream (see `frames_since`)."""
        return len(self.conn.frames)

    def frames_since(self, mark: int) -> list[bytes]:
        return self.conn.frames[mark:]

    def messages(self, since: int = 0) -> list[list[Any]]:
        return decode_frames(self.conn.frames[since:])

    # lifecycle -------------------------------------------------------------------------------

    async def register(self) -> None:
        """REGISTER_CLIENT for a new session, as FletApp handles it, then main(page)."""
        session = self.session
        _context_page.set(session.page)
        session.apply_page_patch(
            {
                "route": self.route,
                "web": True,
                "pwa": False,
                "debug": False,
                "platform": "linux",
                "width": self.width,
                "height": self.height,
            }
        )
        session.page.client_ip = "127.0.0.1"
        session.page.client_user_agent = "flet-harness"
        self.conn.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(session_id=session.id, page_patch=session.get_page_patch(), error=""),
            )
        )
        task = asyncio.get_running_loop().create_task(self._run_main(), name=f"main:{self.name}")
        self.harness._keep(task)

    async def _run_main(self) -> None:
        session = self.session
        _context_page.set(session.page)
        context.reset_auto_update()
        try:
            await self.harness.main(session.page)
            await session.after_event(session.page)
        except Exception as exc:  # what FletApp does: log and crash the session
            logging.getLogger("flet-harness").exception("main() failed in %s", self.name)
            session.error(str(exc))

    async def close(self) -> None:
        """The session expires (FLET_SESSION_TIMEOUT): page `close` event."""
        self.session.close()
        await self.harness.settle()

    async def disconnect(self) -> None:
        await self.session.disconnect(3600)
        await self.harness.settle()

    # finding controls -----------------------------------------------------------------------

    def _mounted(self, control: BaseControl) -> bool:
        try:
            return control.page is self.session.page
        except RuntimeError:
            return False

    @staticmethod
    def _hidden(control: BaseControl) -> bool:
        """`visible=False` on it or a parent: the browser draws none of it (Flutter builds no
        widget for it), so a player can neither see nor tap it."""
        node: BaseControl | None = control
        while node is not None:
            if getattr(node, "visible", True) is False:
                return True
            node = node.parent
        return False

    def controls(self, hidden: bool = False) -> Iterator[BaseControl]:
        """Every control currently mounted and shown in this tab (from the session index);
        `hidden`: the hidden ones too (what a field kept while hidden holds, say)."""
        for control in list(self.session.index.values()):
            if self._mounted(control) and (hidden or not self._hidden(control)):
                yield control

    def find_all(self, identifier: str, hidden: bool = False) -> list[ft.Semantics]:
        return [
            c
            for c in self.controls(hidden)
            if isinstance(c, ft.Semantics) and getattr(c, "identifier", None) == identifier
        ]

    def find(self, identifier: str, hidden: bool = False) -> ft.Semantics | None:
        found = self.find_all(identifier, hidden)
        if len(found) > 1:
            raise AssertionError(f"{self.name}: {len(found)} controls with identifier {identifier!r}")
        return found[0] if found else None

    def has(self, identifier: str) -> bool:
        return self.find(identifier) is not None

    def identifiers(self) -> list[str]:
        return sorted(
            str(c.identifier)
            for c in self.controls()
            if isinstance(c, ft.Semantics) and getattr(c, "identifier", None)
        )

    def texts(self, root: BaseControl | None = None) -> list[str]:
        """Visible text values under `root` (default: the page), in tree order."""
        out: list[str] = []
        for control in walk_controls(root or self.session.page, shown_only=True):
            if isinstance(control, ft.Text) and isinstance(control.value, str):
                out.append(control.value)
        return out

    def text(self, root: BaseControl | None = None) -> str:
        return "\n".join(self.texts(root))

    @staticmethod
    def clickable_in(root: BaseControl) -> BaseControl | None:
        """The first clickable control the browser shows under `root` (a hidden one takes no tap)."""
        for control in walk_controls(root, shown_only=True):
            if getattr(control, "on_click", None) is not None and not getattr(control, "disabled", False):
                return control
        return None

    async def click(self, identifier: str) -> None:
        """Tap the control labelled `identifier` (its first clickable descendant) and settle."""
        semantics = self.find(identifier)
        if semantics is None:
            raise AssertionError(f"{self.name}: no control {identifier!r}; present: {self.identifiers()}")
        target = self.clickable_in(semantics)
        if target is None:
            raise AssertionError(f"{self.name}: {identifier!r} has nothing clickable (disabled?)")
        await self.session.dispatch_event(target._i, "click", None)
        await self.harness.settle()

    async def click_tooltip(self, tooltip: str) -> None:
        """Tap the (icon) button whose tooltip is `tooltip`."""
        hits = []
        for control in self.controls():
            tip = getattr(control, "tooltip", None)
            tip_text = tip if isinstance(tip, str) else getattr(tip, "message", None)
            if tip_text == tooltip and getattr(control, "on_click", None) is not None:
                hits.append(control)
        if len(hits) != 1:
            raise AssertionError(f"{self.name}: {len(hits)} buttons with tooltip {tooltip!r}")
        await self.session.dispatch_event(hits[0]._i, "click", None)
        await self.harness.settle()


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FletHarness:
    """Sessions of one app in one event loop (one 'server process').

    Usage (inside an async test):
        harness = FletHarness(build_main(host, AppConfig(base_url="http://referee.test")))
        board = await harness.open(f"/room/{room.id}?k={host.token}")
        await board.click("table-3")
        harness.check()        # no crashed session, no logged error, no unanswered client call
    """

    def __init__(self, main: Callable[[ft.Page], Awaitable[None]], *, page_url: str = "http://referee.test"):
        self.main = main
        self.loop = asyncio.get_running_loop()
        self.hub = PubSubHub(self.loop, executor=None)
        self.page_url = page_url
        self.tabs: list[Tab] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._errors = _ErrorLog()
        logging.getLogger().addHandler(self._errors)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def open(
        self,
        route: str,
        *,
        width: float = 1280,
        height: float = 800,
        browser: FakeBrowser | None = None,
        name: str | None = None,
    ) -> Tab:
        tab = Tab(self, route, width=width, height=height, browser=browser or FakeBrowser(), name=name or route)
        self.tabs.append(tab)
        await tab.register()
        await self.settle()
        return tab

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every task started by the app (renders, listeners, store calls) is done.

        Tasks scheduled with `run_coroutine_threadsafe` (page.run_task) appear one loop turn
        later, and store calls finish on the writer thread, so quiet means: several consecutive
        loop turns with no pending task.
        """
        me = asyncio.current_task()
        deadline = self.loop.time() + timeout
        quiet = 0
        while quiet < 5:
            pending = {t for t in asyncio.all_tasks() if t is not me and not t.done()}
            if pending:
                quiet = 0
                left = deadline - self.loop.time()
                if left <= 0:
                    raise TimeoutError(f"harness: tasks still running: {pending}")
                await asyncio.wait(pending, timeout=min(left, 0.5))
            else:
                quiet += 1
                await asyncio.sleep(0)

    def problems(self) -> list[str]:
        from tests.harness.flutter_rules import undrawn_controls  # (it walks with this module's walk_controls)

        found = [f"log {r.name}: {r.getMessage()}" for r in self._errors.records]
        for tab in self.tabs:
            for kind, name, args in tab.conn.unhandled:
                found.append(f"{tab.name}: unanswered client call {kind}.{name}({args})")
            for action, body in tab.messages():
                if action == MessageAction.SESSION_CRASHED.value:
                    found.append(f"{tab.name}: session crashed: {body}")
            if tab.session.connection is not None:
                found.extend(f"{tab.name}: the browser draws an error box: {what}" for what in undrawn_controls(tab.page))
        return found

    def check(self) -> None:
        problems = self.problems()
        assert not problems, "\n".join(problems)

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            for tab in self.tabs:
                if tab.session.connection is not None:
                    tab.session.close()
            await self.settle()
        logging.getLogger().removeHandler(self._errors)
