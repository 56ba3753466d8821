"""Table referee: serve the board and seat pages on the LAN, or replay a finished game's log.

    uv run main.py                      serve on all interfaces, port 8550
    uv run main.py --port 9000 --public-url http://192.168.1.20:9000
    uv run main.py replay game.json     print the final public state of a complete log
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

ROOT = Path(__file__).resolve().parent
ASSETS = ROOT / "assets"


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, private LAN ones first.

    Read from the interface table (psutil): nothing is sent anywhere to find them.
    """
    import psutil

    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family.name != "AF_INET":
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local:
                continue
            found.append(str(ip))
    return sorted(set(found), key=lambda a: (not ipaddress.ip_address(a).is_private, a))


def build_app(data_dir: Path, base_url: str) -> tuple[Any, Any]:
    """The ASGI app: Flet's web client and sessions, plus the export route. Returns (app, host)."""
    import flet as ft
    from fastapi import HTTPException
    from fastapi.responses import JSONResponse

    from companion.room import Host
    from companion.store import Store
    from views import flet_patches
    from views.app import AppConfig, build_main

    flet_patches.apply()
    host = Host(Store(data_dir / "referee.sqlite3"))
    flet_app = ft.run(
        build_main(host, AppConfig(base_url=base_url, data_dir=data_dir)),
        assets_dir=str(ASSETS),
        export_asgi_app=True,
        no_cdn=True,
        web_renderer=ft.WebRenderer.AUTO,
    )

    async def healthz() -> dict[str, Any]:
        return {"ok": True, "rooms": len(host.rooms)}

    async def export(room_id: str, k: str = "", complete: int = 0) -> JSONResponse:
        room = host.rooms.get(room_id)
        if room is None or not host.is_host(k):
            raise HTTPException(status_code=404, detail="not found")
        whole = bool(complete) or room.over
        return JSONResponse(
            room.export(complete=whole),
            headers={"Content-Disposition": f'attachment; filename="{room.game_id}-{room.id}{"-complete" if whole else ""}.json"'},
        )

    # Our routes must come before Flet's catch-all mount at "/".
    flet_app.router.add_api_route("/healthz", healthz, methods=["GET"])
    flet_app.router.add_api_route("/export/{room_id}.json", export, methods=["GET"])
    flet_app.router.routes.insert(0, flet_app.router.routes.pop())
    flet_app.router.routes.insert(0, flet_app.router.routes.pop())
    return flet_app, host


def print_banner(urls: list[str]) -> None:
    import qrcode

    print("\nTable referee is running. Open the host board on the tablet:\n")
    for url in urls:
        print(f"  {url}")
    if urls:
        qr = qrcode.QRCode(border=1)
        qr.add_data(urls[0])
        qr.print_ascii(invert=True)
    print("Keep this window open during the game. Ctrl+C stops the host (nothing is lost).\n", flush=True)


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    data_dir = Path(args.data_dir)
    if args.public_url:
        bases = [args.public_url.rstrip("/")]
    elif args.host in ("0.0.0.0", "::", ""):
        bases = [f"http://{ip}:{args.port}" for ip in lan_addresses()] or [f"http://127.0.0.1:{args.port}"]
    else:
        bases = [f"http://{args.host}:{args.port}"]
    app, host = build_app(data_dir, bases[0])
    print_banner([f"{base}/?k={host.token}" for base in bases])
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    try:
        asyncio.run(uvicorn.Server(config).serve())
    except KeyboardInterrupt:
        pass  # Ctrl+C: every accepted action is already on disk
    finally:
        host.close()


def replay(args: argparse.Namespace) -> int:
    from companion.room import replay_export

    data = json.loads(Path(args.log).read_text(encoding="utf-8"))
    try:
        game, state = replay_export(data)
    except ValueError as exc:
        print(f"cannot replay: {exc}", file=sys.stderr)
        return 2
    view = game.project(state, __import__("companion.engine", fromlist=["BOARD"]).BOARD)
    result = game.result(state)
    names = [p.name for p in state.setup.players]
    output = {"game": game.id, "players": names, "over": result is not None, "result": result}
    if hasattr(view, "money"):
        output["money"] = dict(zip(names, view.money))
    print(json.dumps(output, indent=2, ensure_ascii=False))
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "0.0.0.0"), help="interface to listen on (default: all)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "8550")))
    parser.add_argument(
        "--data-dir",
        default=os.environ.get("REFEREE_DATA_DIR", user_data_dir("table-referee", appauthor=False)),
        help="where the game database lives (default: the per-user data directory)",
    )
    parser.add_argument("--public-url", default=os.environ.get("REFEREE_PUBLIC_URL"), help="address phones use, when the detected one is wrong")
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser("replay", help="replay a complete exported log and print the final public state")
    rp.add_argument("log")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING)
    if args.command == "replay":
        return replay(args)
    serve(args)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
