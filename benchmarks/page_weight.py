"""What a phone downloads on its first visit, raw vs gzip (brotli: see below), and whether a
compressed server keeps caching and the offline shell working.

    uv run python benchmarks/page_weight.py            # ~1-2 min, one headless Chromium

Records every HTTP response of a first visit with Playwright + Debian's /usr/bin/chromium (the
launch arguments of FLET_NOTES.md, a fresh profile, loopback only), on

  * "as served": main.py as it is (no compression), and
  * "gzip":      the same app (main.build_app) wrapped in Starlette's GZipMiddleware, served by
                 this file in a subprocess (a benchmark-only server, no app code changed),

and prints for each: requests, bytes on the wire (Playwright's responseBodySize = encoded size)
and the decoded sizes per file, with what gzip -6 / -9 would make of each file. Then a reload in
the same browser profile (cache, 304s, service worker) and an offline reload (is the app shell
still served, by the Flutter service worker or the HTTP cache).

Brotli: no brotli module is installed in this environment (checked: `brotli`, `brotlicffi`), so
only gzip is measured; the brotli column says "n/a".
"""

from __future__ import annotations

import asyncio
import gzip
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

try:  # brotli only if already installed
    import brotli  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - the usual case here
    brotli = None


def serve_gzip(argv: list[str]) -> None:
    """The benchmark-only server: main.build_app + GZipMiddleware (same CLI as main.py)."""
    import argparse

    import uvicorn
    from starlette.middleware.gzip import GZipMiddleware

    sys.path.insert(0, str(ROOT))
    from main import build_app

    p = argparse.ArgumentParser()
    p.add_argument("--host")
    p.add_argument("--port", type=int)
    p.add_argument("--data-dir")
    a = p.parse_args(argv)
    app, host = build_app(Path(a.data_dir), f"http://{a.host}:{a.port}")
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=int(os.environ.get("GZIP_LEVEL", "6")))
    print(f"gzip server: http://{a.host}:{a.port}/?k={host.token}", flush=True)
    try:
        asyncio.run(uvicorn.Server(uvicorn.Config(app, host=a.host, port=a.port, log_level="warning", ws="websockets-sansio")).serve())
    except KeyboardInterrupt:
        pass
    finally:
        host.close()


async def visit(base_url: str, server_pid: int, profile: str) -> dict[str, Any]:
    import psutil
    from playwright.async_api import async_playwright

    out: dict[str, Any] = {}
    proc = psutil.Process(server_pid)
    async with async_playwright() as pw:
        ctx = await pw.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True, viewport={"width": 390, "height": 844}
        )
        try:
            page = ctx.pages[0] if ctx.pages else await ctx.new_page()
            for phase in ("first", "reload", "offline"):
                requests: list[Any] = []

                def record(req: Any, _requests: list[Any] = requests) -> None:
                    _requests.append(req)

                ctx.on("requestfinished", record)
                if phase == "offline":
                    await ctx.set_offline(True)
                cpu0 = sum(proc.cpu_times()[:2])
                t0 = time.perf_counter()
                shell = True
                try:
                    await page.goto(base_url + "/", wait_until="load", timeout=60_000)
                    await page.wait_for_selector("flutter-view, flt-glass-pane", state="attached", timeout=60_000)
                    if phase != "offline":
                        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
                except Exception as exc:  # noqa: BLE001 - reported (the offline visit is expected to fail)
                    shell = False
                    out[f"{phase}_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
                with_ui = time.perf_counter() - t0
                await asyncio.sleep(3.0)  # late fetches (fonts, assets)
                ctx.remove_listener("requestfinished", record)
                rows = []
                for req in requests:
                    resp = await req.response()
                    if resp is None or urlsplit(req.url).scheme not in ("http", "https"):
                        continue
                    sizes = await req.sizes()
                    body = b""
                    if phase == "first" and resp.status == 200:
                        try:
                            body = await resp.body()
                        except Exception:  # noqa: BLE001 - no body (e.g. evicted): counted as 0
                            body = b""
                    rows.append(
                        {
                            "path": urlsplit(req.url).path,
                            "status": resp.status,
                            "from_sw": resp.from_service_worker,
                            "wire": sizes["responseBodySize"],
                            "headers": sizes["responseHeadersSize"],
                            "encoding": (await resp.all_headers()).get("content-encoding", ""),
                            "cache": (await resp.all_headers()).get("cache-control", ""),
                            "etag": bool((await resp.all_headers()).get("etag") or (await resp.all_headers()).get("last-modified")),
                            "raw": len(body),
                            "gz6": len(gzip.compress(body, 6)) if body else 0,
                            "gz9": len(gzip.compress(body, 9)) if body else 0,
                            "br": len(brotli.compress(body)) if (body and brotli) else None,
                        }
                    )
                out[phase] = {"rows": rows, "ui_s": with_ui, "shell": shell, "server_cpu_s": sum(proc.cpu_times()[:2]) - cpu0}
                if phase == "first":
                    out["service_workers"] = await page.evaluate(
                        "async () => navigator.serviceWorker ? (await navigator.serviceWorker.getRegistrations()).length : -1"
                    )
            await ctx.set_offline(False)
        finally:
            await ctx.close()
    return out


def summary(name: str, res: dict[str, Any]) -> list[str]:
    kib = 1024
    first = res["first"]["rows"]
    lines = [f"-- {name} --"]
    if "first_error" in res:
        lines.append(f"first visit error: {res['first_error']}")
    wire = sum(r["wire"] + r["headers"] for r in first)
    raw = sum(r["raw"] for r in first)
    lines.append(
        f"first visit: {len(first)} requests, {wire / kib / kib:.2f} MiB on the wire (bodies+headers), "
        f"decoded bodies {raw / kib / kib:.2f} MiB; UI up in {res['first']['ui_s']:.1f} s; server CPU {res['first']['server_cpu_s'] * 1000:.0f} ms; "
        f"service workers registered: {res.get('service_workers')}"
    )
    lines.append(f"  {'file':<44}{'status':>6}{'enc':>6}{'wire KiB':>10}{'raw KiB':>10}{'gzip-6':>9}{'gzip-9':>9}{'brotli':>8}  cache-control / validator")
    for r in sorted(first, key=lambda r: -r["raw"]):
        if r["raw"] < 2048 and r["wire"] < 2048:
            continue
        br = f"{r['br'] / kib:.0f}" if r["br"] is not None else "n/a"
        lines.append(
            f"  {r['path'][-44:]:<44}{r['status']:>6}{r['encoding'] or '-':>6}{r['wire'] / kib:>10.0f}{r['raw'] / kib:>10.0f}"
            f"{r['gz6'] / kib:>9.0f}{r['gz9'] / kib:>9.0f}{br:>8}  {r['cache'] or '-'} / {'yes' if r['etag'] else 'no'}"
        )
    gz6, gz9 = sum(r["gz6"] for r in first), sum(r["gz9"] for r in first)
    br_total = sum(r["br"] or 0 for r in first) if brotli else None
    lines.append(
        f"  {'total (all files)':<44}{'':>6}{'':>6}{sum(r['wire'] for r in first) / kib:>10.0f}{raw / kib:>10.0f}{gz6 / kib:>9.0f}{gz9 / kib:>9.0f}"
        f"{(f'{br_total / kib:.0f}' if br_total else 'n/a'):>8}"
    )
    for phase in ("reload", "offline"):
        rows = res[phase]["rows"]
        statuses: dict[str, int] = {}
        for r in rows:
            key = f"{r['status']}{' (sw)' if r['from_sw'] else ''}"
            statuses[key] = statuses.get(key, 0) + 1
        lines.append(
            f"{phase}: {len(rows)} requests {statuses}, {sum(r['wire'] + r['headers'] for r in rows) / kib:.0f} KiB on the wire, "
            f"app shell {'shown' if res[phase]['shell'] else 'NOT shown'} ({res[phase]['ui_s']:.1f} s)"
            + (f"; {res[phase + '_error']}" if phase + "_error" in res else "")
        )
    return lines


async def run() -> int:
    from benchmarks.latency import ServerProcess

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; brotli module: {'yes' if brotli else 'not installed (gzip only)'}", flush=True)
    results = {}
    for name, kw in (("as served (main.py)", {}), ("gzip (GZipMiddleware, level 6)", {"script": Path(__file__).resolve()})):
        with tempfile.TemporaryDirectory(prefix="referee-pw-") as tmp, tempfile.TemporaryDirectory(prefix="referee-pw-profile-") as profile:
            server = ServerProcess(Path(tmp), **kw).start()
            try:
                results[name] = await asyncio.wait_for(visit(server.base_url, server.pid, profile), 240)
            finally:
                server.stop()
        print("\n".join(summary(name, results[name])), flush=True)
    return 0


if __name__ == "__main__":
    if "--data-dir" in sys.argv:
        serve_gzip(sys.argv[1:])
    else:
        raise SystemExit(asyncio.run(run()))
