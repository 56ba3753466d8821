"""What a phone downloads on its first visit, and what serving it costs the server: identity vs the
pre-compressed variants of views/static_files.py vs a live GZipMiddleware, in one run.

    uv run python benchmarks/page_weight.py            # ~5-8 min, one headless Chromium at a time
    uv run python benchmarks/page_weight.py --quick    # no reload/offline phases, 1 cold start each
    uv run python benchmarks/page_weight.py --cache-dir /tmp/web-cache   # keep (and reuse) the cache

Every HTTP response of a first visit is recorded with Playwright + Debian's /usr/bin/chromium (the
launch arguments of FLET_NOTES.md, a fresh profile, loopback only), against main.py as a subprocess:

  * identity        REFEREE_WEB_COMPRESSION=0: the client as Flet serves it, uncompressed;
  * br (localhost)  pre-compressed, visited at http://127.0.0.1: Chromium offers
                    "gzip, deflate, br, zstd" to localhost (a potentially trustworthy origin);
  * gzip (LAN)      pre-compressed, visited at http://referee.lan (mapped to 127.0.0.1 by a
                    host-resolver rule): Chromium offers only "gzip, deflate" to a plain-HTTP
                    non-local origin, exactly like a phone on the table's Wi-Fi;
  * live gzip       REFEREE_WEB_COMPRESSION=0 plus Starlette's GZipMiddleware (level 6) around the
                    same app (a benchmark-only server), visited as on the LAN: the baseline whose
                    server CPU the pre-compressed runs are compared with.

Per run: requests, bytes on the wire (Playwright's responseBodySize, i.e. encoded, + headers),
decoded bytes, the encodings seen, time until the UI is up, and the server process's CPU (user +
system, psutil) from navigation to 3 s after the UI is up, which includes the Flet session's own
work; its ratio to the live-gzip run. Unless --quick, then a reload in the same profile (HTTP cache,
304s) and an offline reload.

Before the visits: the variant cache (a private temp dir) is filled once in this process with the
server's own code, timed; the server's cold start (Popen to first 200 on "/") is timed with compression
off, with an empty cache and with the filled one; and each pre-compressed server is visited only once
it serves main.dart.js compressed (its index of the cache is built in the background at start).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.harness.browser import CHROMIUM, launch_args  # noqa: E402  (the tests' Chromium flags)

LAN_HOST = "referee.lan"
CHROMIUM_ARGS = launch_args({LAN_HOST: "127.0.0.1"})
KIB = 1024
MIB = 1024 * 1024


def serve_gzip(argv: list[str]) -> None:
    """The benchmark-only server: main.build_app + GZipMiddleware (same CLI as main.py)."""
    import uvicorn
    from starlette.middleware.gzip import GZipMiddleware

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


def fill_cache(cache_dir: Path) -> dict[str, Any]:
    """Make every variant the server would make ahead of time, here and now; timed."""
    from flet_web import get_package_web_dir

    from main import ASSETS
    from views.static_files import VariantCache

    cache = VariantCache(cache_dir, eager_dirs=lambda: [str(ASSETS), get_package_web_dir()])
    cpu0, t0 = time.process_time(), time.perf_counter()
    made = cache.prepare_all()
    identity = sum(v.size for v in cache.index.values() if v.files)
    by_coding = {c: sum(f[1].st_size for v in cache.index.values() for cc, f in v.files.items() if cc == c) for c in ("br", "gzip")}
    return {"files": len(cache.index), "made": made, "cpu_s": time.process_time() - cpu0, "wall_s": time.perf_counter() - t0, "identity": identity, **by_coding}


def wait_until_compressed(base_url: str, path: str = "/main.dart.js", timeout: float = 300.0) -> float:
    """Seconds until the server serves `path` (the largest file: indexed last) as a variant."""
    t0 = time.perf_counter()
    while True:
        request = urllib.request.Request(base_url + path, method="HEAD", headers={"Accept-Encoding": "br, gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            if response.headers.get("Content-Encoding"):
                return time.perf_counter() - t0
        if time.perf_counter() - t0 > timeout:
            raise TimeoutError(f"{path} not served compressed after {timeout} s")
        time.sleep(0.1)


async def visit(base_url: str, server_pid: int, profile: str, phases: tuple[str, ...]) -> dict[str, Any]:
    import psutil
    from playwright.async_api import async_playwright

    out: dict[str, Any] = {}
    proc = psutil.Process(server_pid)
    async with async_playwright() as pw:
        ctx = await pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, viewport={"width": 390, "height": 844}
        )
        try:
            page = ctx.pages[0] if ctx.pages else await ctx.new_page()
            for phase in phases:
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
                    await page.goto(base_url + "/", wait_until="load", timeout=90_000)
                    await page.wait_for_selector("flutter-view, flt-glass-pane", state="attached", timeout=90_000)
                    if phase != "offline":
                        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
                except Exception as exc:  # noqa: BLE001 - reported (the offline visit is expected to fail)
                    shell = False
                    out[f"{phase}_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
                with_ui = time.perf_counter() - t0
                await asyncio.sleep(3.0)  # late fetches (fonts, assets)
                cpu = sum(proc.cpu_times()[:2]) - cpu0
                ctx.remove_listener("requestfinished", record)
                rows = []
                for req in requests:
                    resp = await req.response()
                    if resp is None or urlsplit(req.url).scheme not in ("http", "https"):
                        continue
                    sizes = await req.sizes()
                    headers = await resp.all_headers()
                    raw = 0
                    if phase == "first" and resp.status == 200:
                        try:
                            raw = len(await resp.body())  # decoded
                        except Exception:  # noqa: BLE001 - no body (e.g. evicted): counted as 0
                            raw = 0
                    rows.append(
                        {
                            "path": urlsplit(req.url).path,
                            "status": resp.status,
                            "from_sw": resp.from_service_worker,
                            "wire": sizes["responseBodySize"],
                            "headers": sizes["responseHeadersSize"],
                            "encoding": headers.get("content-encoding", ""),
                            "raw": raw,
                        }
                    )
                out[phase] = {"rows": rows, "ui_s": with_ui, "shell": shell, "server_cpu_s": cpu}
            await ctx.set_offline(False)
        finally:
            await ctx.close()
    return out


def summary(name: str, res: dict[str, Any], baseline_cpu: float | None) -> list[str]:
    first = res["first"]["rows"]
    lines = [f"-- {name} --"]
    if "first_error" in res:
        lines.append(f"first visit error: {res['first_error']}")
    wire = sum(r["wire"] + r["headers"] for r in first)
    raw = sum(r["raw"] for r in first)
    encodings: dict[str, int] = {}
    for r in first:
        encodings[r["encoding"] or "identity"] = encodings.get(r["encoding"] or "identity", 0) + 1
    cpu = res["first"]["server_cpu_s"]
    ratio = f" = {cpu / baseline_cpu:.2f} x live gzip" if baseline_cpu else ""
    lines.append(
        f"first visit: {len(first)} requests {encodings}, {wire / MIB:.2f} MiB on the wire (bodies+headers), "
        f"decoded {raw / MIB:.2f} MiB; UI up in {res['first']['ui_s']:.1f} s; server CPU {cpu * 1000:.0f} ms{ratio}"
    )
    if any(r["encoding"] for r in first):
        identity_paths = sorted({r["path"].rsplit("/", 1)[-1] or "/" for r in first if not r["encoding"]})
        lines.append(f"  served as identity: {', '.join(identity_paths)}")
    lines.append(f"  {'file':<52}{'status':>6}{'enc':>6}{'wire KiB':>10}{'raw KiB':>10}")
    for r in sorted(first, key=lambda r: -r["raw"]):
        if r["raw"] < 16 * KIB and r["wire"] < 16 * KIB:
            continue
        lines.append(f"  {r['path'][-52:]:<52}{r['status']:>6}{r['encoding'] or '-':>6}{r['wire'] / KIB:>10.0f}{r['raw'] / KIB:>10.0f}")
    for phase in ("reload", "offline"):
        if phase not in res:
            continue
        rows = res[phase]["rows"]
        statuses: dict[str, int] = {}
        for r in rows:
            key = f"{r['status']}{' (sw)' if r['from_sw'] else ''}"
            statuses[key] = statuses.get(key, 0) + 1
        lines.append(
            f"{phase}: {len(rows)} requests {statuses}, {sum(r['wire'] + r['headers'] for r in rows) / KIB:.0f} KiB on the wire, "
            f"app shell {'shown' if res[phase]['shell'] else 'NOT shown'} ({res[phase]['ui_s']:.1f} s)"
            + (f"; {res[phase + '_error']}" if phase + "_error" in res else "")
        )
    return lines


def cold_starts(cache_dir: Path, repeats: int) -> dict[str, list[float]]:
    """Popen -> first 200 on "/": compression off, empty cache, filled cache (alternating)."""
    from benchmarks.latency import ServerProcess

    configurations = ("compression off", "empty cache", "filled cache")
    times: dict[str, list[float]] = {name: [] for name in configurations}
    for _ in range(repeats):
        for name in configurations:
            with tempfile.TemporaryDirectory(prefix="referee-pw-") as tmp, tempfile.TemporaryDirectory(prefix="referee-pw-cache-") as empty:
                env = {
                    "compression off": {"REFEREE_WEB_COMPRESSION": "0"},
                    "empty cache": {"REFEREE_WEB_CACHE_DIR": empty},
                    "filled cache": {"REFEREE_WEB_CACHE_DIR": str(cache_dir)},
                }[name]
                server = ServerProcess(Path(tmp), env=env).start()
                try:
                    assert server.cold_start is not None
                    times[name].append(server.cold_start)
                    if name == "filled cache":
                        times.setdefault("filled cache: main.dart.js compressed after", []).append(wait_until_compressed(server.base_url))
                finally:
                    server.stop()
    return times


async def run(args: argparse.Namespace) -> int:
    from benchmarks.latency import ServerProcess

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    phases = ("first",) if args.quick else ("first", "reload", "offline")
    with tempfile.TemporaryDirectory(prefix="referee-pw-cache-") as cache_tmp:
        cache_dir = Path(args.cache_dir or cache_tmp)
        filled = fill_cache(cache_dir)
        print(
            f"variant cache filled once: {filled['files']} files, {filled['identity'] / MIB:.1f} MiB identity -> "
            f"br {filled['br'] / MIB:.1f} MiB, gzip {filled['gzip'] / MIB:.1f} MiB; {filled['made']} variants made "
            f"{filled['cpu_s']:.0f} s CPU, {filled['wall_s']:.0f} s wall",
            flush=True,
        )
        starts = cold_starts(cache_dir, 1 if args.quick else 2)
        print("cold start (Popen -> first 200 on /), min of runs: " + "; ".join(f"{k} {min(v):.2f} s" for k, v in starts.items()), flush=True)

        runs: list[tuple[str, dict[str, Any], str]] = [
            ("identity", {"env": {"REFEREE_WEB_COMPRESSION": "0"}}, "127.0.0.1"),
            ("br (pre-compressed, localhost)", {"env": {"REFEREE_WEB_CACHE_DIR": str(cache_dir)}}, "127.0.0.1"),
            ("gzip (pre-compressed, as on the LAN)", {"env": {"REFEREE_WEB_CACHE_DIR": str(cache_dir)}}, LAN_HOST),
            ("live gzip (GZipMiddleware level 6, as on the LAN)", {"env": {"REFEREE_WEB_COMPRESSION": "0"}, "script": Path(__file__).resolve()}, LAN_HOST),
        ]
        results: dict[str, dict[str, Any]] = {}
        for name, kw, hostname in runs:
            with tempfile.TemporaryDirectory(prefix="referee-pw-") as tmp, tempfile.TemporaryDirectory(prefix="referee-pw-profile-") as profile:
                server = ServerProcess(Path(tmp), **kw).start()
                try:
                    if "REFEREE_WEB_CACHE_DIR" in kw["env"]:
                        wait_until_compressed(server.base_url)
                    base = server.base_url.replace("127.0.0.1", hostname)
                    results[name] = await asyncio.wait_for(visit(base, server.pid, profile, phases), 400)
                finally:
                    server.stop()
        baseline = results[runs[-1][0]]["first"]["server_cpu_s"]
        for name, _, _ in runs:
            print("\n".join(summary(name, results[name], baseline)), flush=True)
        print("\nfirst visit, bytes on the wire and server CPU:")
        for name, _, _ in runs:
            first = results[name]["first"]
            wire = sum(r["wire"] + r["headers"] for r in first["rows"])
            cpu = first["server_cpu_s"]
            print(f"  {name:<52}{wire / MIB:>7.2f} MiB{cpu * 1000:>8.0f} ms CPU{cpu / baseline:>7.2f} x live gzip")
    return 0


if __name__ == "__main__":
    if "--data-dir" in sys.argv:
        serve_gzip(sys.argv[1:])
    else:
        parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("--quick", action="store_true", help="first visits only, one cold start per configuration")
        parser.add_argument("--cache-dir", help="variant cache to use and keep (default: a fresh temp dir, filled and timed)")
        raise SystemExit(asyncio.run(run(parser.parse_args())))
