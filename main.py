"""Table referee: serve the board and seat pages on the LAN, or replay a finished game's log.

    uv run main.py                      serve on all interfaces, port 8550
    uv run main.py --port 9000 --public-url http://192.168.1.20:9000
    uv run main.py --window             the host board in the app's own window, phones join on the LAN
    uv run main.py replay game.json     print the final public state of a complete log
    uv run main.py import game.json     add a finished game's complete log to the host's history
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from companion.network import JoinAddress, join_addresses, lan_addresses  # noqa: F401 (lan_addresses: its old home)

ROOT = Path(__file__).resolve().parent
ASSETS = ROOT / "assets"

#: The largest websocket frame a device may send (uvicorn's `ws_max_size`, 16 MiB by default:
#: 32 devices registering with 15 MB routes grew the server by 531 MiB). The largest frames the
#: real client sends (measured in tests/test_memory_bound.py): a register ~0.5 KiB (it carries the
#: route), a Règlement board pasted into the editor ~9 KiB per keystroke (the whole text: the
#: default board's JSON is 8.5 KiB indented), a typed contract name or player name well under
#: 1 KiB. History imports go over HTTP (/import), not the socket. 256 KiB leaves a board 30 times
#: the default one; a bigger frame closes that socket (1009) and costs nothing else.
WS_MAX_FRAME_BYTES = 256 * 1024
#: The cyclic garbage collector's thresholds for the server (CPython's default is (700, 10, 10)).
#: A server holds every session's controls for hours, ~200,000 objects at ten tables: at the
#: default, a young collection ran after every ~700 allocations (about one per phone redraw) and
#: a full one every few seconds of play, each 120-180 ms during which every table waited. Ten
#: rooms playing, 20 s (benchmarks/rooms.py, 2026-12-05): 123 young + 1 full collections, 463 ms
#: at the default; 8 young, none full, 189 ms (the longest 52 ms) at 10,000. Garbage freed by
#: reference counting (most of it: a redraw's discarded controls) is not affected.
SERVER_GC_THRESHOLDS = (10_000, 10, 10)
#: Seconds a session whose socket closed waits for its device to come back (Flet's default is
#: 3600 s, pinning ~0.3 MiB per board left behind for an hour). Seat and host identity do not live
#: in the session (tokens, in the phone's storage and the board's link), so a device back after
#: this gets a new session on the same page, current; only its unsent picks and typing are
#: gone, and it is told (views/screen.py AwayNotices). Ten minutes covers a phone put to sleep
#: for a turn or two, the usual case.
SESSION_TIMEOUT_SECONDS = 600


def build_app(data_dir: Path, base_url: str, addresses: list[JoinAddress] | None = None) -> tuple[Any, Any]:
    """The ASGI app: Flet's web client and sessions, plus the export route. Returns (app, host)."""
    import flet as ft
    from fastapi import HTTPException
    from fastapi.responses import HTMLResponse, JSONResponse

    from companion.network import check_page_html
    from companion.room import Host
    from companion.store import Store
    from views import flet_patches, sections
    from views.app import AppConfig, build_main
    from views.memory import reclaim_pending

    flet_patches.apply()
    host = Host(Store(data_dir / "referee.sqlite3"))
    config = AppConfig(base_url=base_url, data_dir=data_dir, addresses=addresses or [])
    flet_main = build_main(host, config)
    flet_app = ft.run(
        flet_main,
        assets_dir=str(ASSETS),
        export_asgi_app=True,
        no_cdn=True,
        web_renderer=ft.WebRenderer.AUTO,
    )

    data = data_fingerprint(data_dir)

    async def healthz() -> dict[str, Any]:
        parts = {kind: {"built": built, "reused": reused} for kind, (built, reused) in sections.TOTALS.items()}
        return {"ok": True, "rooms": len(host.rooms), "sessions": len(config.sessions), "reclaiming": reclaim_pending(), "parts": parts, "data": data}

    async def export(room_id: str, k: str = "", complete: int = 0) -> JSONResponse:
        room = host.rooms.get(room_id) or host.imported.get(room_id)
        if room is None or not host.is_host(k):
            raise HTTPException(status_code=404, detail="not found")
        whole = bool(complete) or room.over
        if whole and not room.over:  # the secrets of a running game: never (was a 500)
            raise HTTPException(status_code=409, detail="the game is still running")
        return JSONResponse(
            room.export(complete=whole),
            headers={"Content-Disposition": f'attachment; filename="{room.game_id}-{room.id}{"-complete" if whole else ""}.json"'},
        )

    # Plain Starlette endpoints (they take the request itself).
    async def check_json(request: Any) -> JSONResponse:
        return JSONResponse(check_request(request, config).model_dump())

    async def check_page(request: Any) -> HTMLResponse:
        return HTMLResponse(check_page_html(check_request(request, config)))

    # Our routes must come before Flet's catch-all mount at "/".
    flet_app.router.add_api_route("/healthz", healthz, methods=["GET"])
    flet_app.router.add_api_route("/export/{room_id}.json", export, methods=["GET"])
    flet_app.router.add_route("/check.json", check_json, methods=["GET"])
    flet_app.router.add_route("/check", check_page, methods=["GET"])
    for _ in range(4):
        flet_app.router.routes.insert(0, flet_app.router.routes.pop())
    add_import_routes(flet_app, host)
    from views import static_files

    static_files.install(flet_app)  # the web client served pre-compressed, made in the background
    close_store_on_shutdown(flet_app, host)
    # App mode (main.py window) runs the same Flet main in the app's own window.
    flet_app.state.flet_main = flet_main
    flet_app.state.config = config
    return flet_app, host


def close_store_on_shutdown(flet_app: Any, host: Any) -> None:
    """Close the store (checkpoint the WAL, release the file) in the ASGI lifespan's shutdown.

    uvicorn runs the lifespan shutdown on SIGINT and SIGTERM alike, after the sockets are
    closed; code after `Server.serve()` may never run (uvicorn re-raises SIGTERM when it is done).
    """
    import contextlib

    inner = flet_app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        try:
            async with inner(app) as state:
                yield state
        finally:
            host.close()

    flet_app.router.lifespan_context = lifespan


def add_import_routes(flet_app: Any, host: Any) -> None:
    """`/import?k=`: the host's page to upload a complete game log (GET: the form; POST: the
    file, as a browser form's upload or a raw JSON body). Plain HTTP, so a file upload needs
    nothing from the Flet client. A non-host gets a bare 404, like /export."""
    from fastapi import HTTPException, Request
    from fastapi.responses import HTMLResponse

    from companion.history import MAX_UPLOAD_BYTES, import_done_text, import_log, import_page_html, log_from_upload, refusal_text
    from companion.i18n import LANGUAGES, translator
    from companion.room import Rejected

    def allowed(k: str, lang: str) -> Any:
        if not host.is_host(k):
            raise HTTPException(status_code=404, detail="not found")
        return translator(lang if lang in LANGUAGES else "en")

    async def import_form(k: str = "", lang: str = "") -> HTMLResponse:
        return HTMLResponse(import_page_html(allowed(k, lang), f"?k={k}"))

    async def capped_body(request: Request) -> bytes:
        """The body, refused as soon as it passes MAX_UPLOAD_BYTES: a huge (or endless chunked)
        upload is never read whole into memory."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            raise Rejected("history.err.too_big")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_UPLOAD_BYTES:
                raise Rejected("history.err.too_big")
        return bytes(body)

    async def import_upload(request: Request, k: str = "", lang: str = "") -> HTMLResponse:
        tr = allowed(k, lang)
        try:
            body = await capped_body(request)
            data = await asyncio.to_thread(log_from_upload, request.headers.get("content-type", ""), body)
            room = await import_log(host, data)
        except Rejected as refusal:
            refused = tr.t("history.import_refused", reason=refusal_text(tr, refusal))
            return HTMLResponse(import_page_html(tr, f"?k={k}", refused=refused), status_code=400)
        return HTMLResponse(import_page_html(tr, f"?k={k}", done=import_done_text(tr, room)))

    # This module's annotations are strings (PEP 563) and Request is imported locally, out of
    # FastAPI's sight: give it the class itself, or it takes `request` for a query parameter.
    import_upload.__annotations__["request"] = Request
    flet_app.router.add_api_route("/import", import_form, methods=["GET"])
    flet_app.router.add_api_route("/import", import_upload, methods=["POST"])
    for _ in range(2):  # before Flet's catch-all mount at "/", like the routes above
        flet_app.router.routes.insert(0, flet_app.router.routes.pop())


def check_request(request: Any, config: Any) -> Any:
    """The connectivity check as this request sees it: the address the phone opened, and the
    phone's own address as the server saw it (`/check`, `/check.json`)."""
    from companion.network import check_language, check_report, port_of

    opened = f"{request.url.scheme}://{request.url.netloc}"
    # The port the host listens on (for the firewall advice): from the socket, not the Host header.
    server: tuple[Any, ...] = request.scope.get("server") or ()
    return check_report(
        check_language(request.headers.get("accept-language"), request.query_params.get("lang")),
        host=opened,
        join_url=config.base_url,
        client_ip=request.client.host if request.client else "",
        port=server[1] if len(server) > 1 and server[1] else port_of(config.base_url),
    )


def print_banner(urls: list[str], window: bool = False) -> None:
    import qrcode

    if window:
        print("\nTable referee is running: the host board is in the app window. It also opens on a tablet:\n")
    else:
        print("\nTable referee is running. Open the host board on the tablet:\n")
    for url in urls:
        print(f"  {url}")
    if urls:
        qr = qrcode.QRCode(border=1)
        qr.add_data(urls[0])
        qr.print_ascii(invert=True)
    print("Keep this window open during the game. Ctrl+C stops the host (nothing is lost).\n", flush=True)


def data_fingerprint(data_dir: Path) -> str:
    """Which data directory a server serves, without naming it (/healthz answers anyone on the
    LAN): a relaunch compares it with its own to know the host on its port is itself."""
    return hashlib.sha256(str(Path(data_dir).resolve()).encode()).hexdigest()[:16]


def host_already_serving(args: argparse.Namespace) -> bool:
    """Whether this data directory's host already answers on `args.port` of this machine: the
    app relaunched while its host still runs (Android may keep the process of an app that left
    the screen; a second `main.py`). Nothing listening answers at once; a program that is not
    ours answers otherwise (then binding the port fails as before)."""
    import ssl
    import urllib.request

    scheme = "https" if args.certfile else "http"
    here = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]"}.get(args.host, args.host if ":" not in args.host else f"[{args.host}]")
    # our own certificate names the LAN address, not this one: the answer, not the name, is checked
    context = ssl._create_unverified_context() if scheme == "https" else None
    try:
        with urllib.request.urlopen(f"{scheme}://{here}:{args.port}/healthz", timeout=3, context=context) as response:
            answer = json.loads(response.read())
    except (OSError, ValueError):
        return False
    return isinstance(answer, dict) and answer.get("data") == data_fingerprint(Path(args.data_dir))


def board_bases(args: argparse.Namespace) -> tuple[list[str], list[JoinAddress]]:
    """The addresses the host board is offered at (the first is the one phones are shown), and
    the join addresses (listening on every interface: each one is offered in the Join help)."""
    scheme = "https" if args.certfile else "http"
    addresses = join_addresses(args.port, scheme=scheme) if args.host in ("0.0.0.0", "::", "") else []
    if args.public_url:
        bases = [args.public_url.rstrip("/")]
    elif args.host in ("0.0.0.0", "::", ""):
        bases = [a.url for a in addresses] or [f"{scheme}://127.0.0.1:{args.port}"]
    else:
        bases = [f"{scheme}://{args.host}:{args.port}"]
    return bases, addresses


def already_serving(args: argparse.Namespace) -> int:
    """The host is already running with this data on this port: say where, and leave it be."""
    from companion.store import Store

    store = Store(Path(args.data_dir) / "referee.sqlite3")
    try:
        token = store.host_token()
    finally:
        store.close()
    print(f"\nTable referee is already running with this data on port {args.port}: nothing more to start. Its host board:\n")
    for base in board_bases(args)[0]:
        print(f"  {base}/?k={token}")
    print(flush=True)
    return 0


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    config, host, links = lan_server(args)
    print_banner(links)
    # uvicorn stops gracefully on SIGTERM, then re-raises it with the handler that was there
    # before: make that one end like Ctrl+C (exit 0) instead of a death by signal.
    signal.signal(signal.SIGTERM, stop_like_ctrl_c)
    try:
        asyncio.run(uvicorn.Server(config).serve())
    except KeyboardInterrupt:
        pass  # Ctrl+C or SIGTERM: every accepted action is already on disk
    finally:
        host.close()  # already closed by the lifespan's shutdown when uvicorn got that far


def lan_server(args: argparse.Namespace) -> tuple[Any, Any, list[str]]:
    """The LAN server, as `serve` and the app window run it: (uvicorn.Config, Host, the host
    board's links)."""
    import gc

    import uvicorn

    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    data_dir = Path(args.data_dir)
    bases, addresses = board_bases(args)
    # Read by flet-web for every connection (FletApp.__init__), so set before the first one.
    os.environ.setdefault("FLET_SESSION_TIMEOUT", str(SESSION_TIMEOUT_SECONDS))
    app, host = build_app(data_dir, bases[0], addresses)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=int(os.environ.get("REFEREE_WS_MAX_BYTES", WS_MAX_FRAME_BYTES)),
        # A phone that vanished without closing its socket must not hold the shutdown up.
        timeout_graceful_shutdown=5,
        ssl_certfile=args.certfile,
        ssl_keyfile=args.keyfile,
    )
    return config, host, [f"{base}/?k={host.token}" for base in bases]


def window(args: argparse.Namespace) -> int:
    """App mode (`main.py --window`, and every packaged app): the host board in the app's own
    window, the seat pages served to phones on the LAN, in one process (views/app_window.py)."""
    import uvicorn

    from views import app_window

    key = app_window.host_key(args.data_dir, args.port)
    running = app_window.running_in_process(key)
    if running is not None:  # a relaunched app view: this process's host still runs
        app_window.open_window_on(running)
        return 0
    if host_already_serving(args):
        return already_serving(args)
    problem = app_window.no_window_reason()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    config, host, links = lan_server(args)
    sockets = [config.bind_socket()]  # a port in use fails here, before a window opens
    print_banner(links, window=True)
    app = config.app
    try:
        asyncio.run(app_window.run(uvicorn.Server(config), sockets, app.state.flet_main, str(ASSETS), app.state.config.windows, key=key))
    except KeyboardInterrupt:
        pass  # every accepted action is already on disk
    finally:
        host.close()
    return 0


def stop_like_ctrl_c(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def replay(args: argparse.Namespace) -> int:
    """`main.py replay LOG.json`: replay a complete log, checked entry by entry as an import is,
    and print the final public state (the board view) and the result as JSON. A log that stops
    before the game ends is replayed and said to be unfinished; a log that records no result has
    it computed (a replay checks the rules, not a record); a log that breaks a rule, or records
    another result than its actions give, is refused (exit 2)."""
    from companion.history import read_log, refusal_text, replay_summary
    from companion.i18n import translator
    from companion.room import Rejected

    tr = translator("en")
    try:
        checked = read_log(Path(args.log).read_bytes())
        summary = replay_summary(checked)
    except OSError as exc:
        print(f"cannot replay: {exc.strerror or exc}: {args.log}", file=sys.stderr)
        return 2
    except Rejected as refusal:
        print(f"cannot replay: {refusal_text(tr, refusal)}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if not summary["over"]:
        print(f"unfinished: {tr.t('history.replay_unfinished')}", file=sys.stderr)
    elif checked.log.result is None:
        print(f"computed: {tr.t('history.replay_result_computed')}", file=sys.stderr)
    return 0


def import_log(args: argparse.Namespace) -> int:
    """`main.py import LOG.json`: check the log and add it to the data directory's finished games.
    Only a complete log of a finished game that records the result its actions give is kept."""
    from companion.history import import_log as import_into
    from companion.history import refusal_text
    from companion.i18n import translator
    from companion.room import Host, Rejected
    from companion.store import Store

    try:
        data = Path(args.log).read_bytes()
    except OSError as exc:
        print(f"not imported: {exc.strerror or exc}: {args.log}", file=sys.stderr)
        return 2
    host = Host(Store(Path(args.data_dir) / "referee.sqlite3"))
    try:
        room = asyncio.run(import_into(host, data))
    except Rejected as refusal:
        print(f"not imported: {refusal_text(translator('en'), refusal)}", file=sys.stderr)
        return 2
    finally:
        host.close()
    result = room.game.result(room.state) or {}
    print(json.dumps({"imported": room.id, "game": room.game_id, "players": room.names, "winners": [room.names[s] for s in result.get("winners", [])]}, ensure_ascii=False))
    print("A running host shows it after a restart.", file=sys.stderr)
    return 0


def default_data_dir() -> str:
    """REFEREE_DATA_DIR if set; in a packaged app the app's data storage, which survives app
    updates (FLET_APP_STORAGE_DATA, set by the app's runtime); else the per-user data directory."""
    return os.environ.get("REFEREE_DATA_DIR") or os.environ.get("FLET_APP_STORAGE_DATA") or user_data_dir("table-referee", appauthor=False)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "0.0.0.0"), help="interface to listen on (default: all)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "8550")))
    parser.add_argument(
        "--data-dir",
        default=default_data_dir(),
        help="where the game database lives (default: the per-user data directory; in a packaged app, the app's own storage)",
    )
    parser.add_argument("--window", action="store_true", help="app mode: the host board in the app's own window (needs a display)")
    parser.add_argument("--public-url", default=os.environ.get("REFEREE_PUBLIC_URL"), help="address phones use, when the detected one is wrong")
    parser.add_argument("--certfile", default=os.environ.get("REFEREE_CERTFILE"), help="serve HTTPS with this certificate (PEM; chain after the certificate)")
    parser.add_argument("--keyfile", default=os.environ.get("REFEREE_KEYFILE"), help="the certificate's private key (PEM)")
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser("replay", help="replay a complete exported log and print the final public state")
    rp.add_argument("log")
    ip = sub.add_parser("import", help="add a finished game from a complete exported log to the host's history")
    ip.add_argument("log")
    ip.add_argument("--data-dir", default=argparse.SUPPRESS, help="the host's data directory (as for serving)")
    args = parser.parse_args(argv)
    if bool(getattr(args, "certfile", None)) != bool(getattr(args, "keyfile", None)):
        parser.error("--certfile and --keyfile go together (HTTPS needs the certificate and its key)")
    for option in ("certfile", "keyfile"):
        path = getattr(args, option, None)
        if path and not Path(path).is_file():
            parser.error(f"--{option}: no such file: {path}")
    return args


def main(argv: list[str] | None = None) -> int:
    from views.app_window import is_packaged

    if argv is None:
        # A packaged app's runtime passes no command line of ours: it is always the app mode.
        argv = [] if is_packaged() else sys.argv[1:]
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING)
    if args.command == "replay":
        return replay(args)
    if args.command == "import":
        return import_log(args)
    if args.window or is_packaged():
        return window(args)
    if host_already_serving(args):
        return already_serving(args)
    serve(args)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
