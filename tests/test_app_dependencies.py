"""Every runtime dependency exists on every desktop target the app is built for, or the app does
without it, knowingly; and the app runs without what a phone or tablet build leaves out.

`uv pip compile --python-platform <target> --only-binary :all:` resolves pyproject.toml's
dependencies for each desktop target at the Python `flet build` bundles (3.14: flet-cli 1.0.5
picks the highest stable Python of its pinned python-build release allowed by `requires-python`,
see tests/test_app_package.py). A package with no wheel there must be one the app does without,
its fallback tested here. Android and iOS are resolved the way their build resolves them, with
pip: tests/test_mobile_build_dependencies.py.

Anything else fails the test, listed. PyPI is asked (CI reaches it); uv's cache stays inside the
repository (build/, ignored by git).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "uv-target-cache"
#: the Python `flet build` bundles with this pyproject.toml (tests/test_app_package.py asserts it)
FLET_BUILD_PYTHON = "3.14"
TARGETS = {
    "windows": "x86_64-pc-windows-msvc",
    "macos": "aarch64-apple-darwin",
    "linux": "x86_64-manylinux_2_28",
}
#: Packages the app does without where they have no wheel, and how (each tested below). uvloop,
#: httptools and watchfiles come from flet-web's `uvicorn[standard]` requirement: the Android and
#: iOS builds leave them out (pyproject.toml [tool.flet.android] dependencies), and so do the
#: tests below.
FALLBACKS = {
    "uvloop": "uvicorn runs on asyncio's own event loop (test_the_server_runs_without_the_packages_mobile_lacks)",
    "httptools": "uvicorn parses HTTP with h11 (same test)",
    "watchfiles": "only uvicorn's --reload uses it (same test)",
    "brotli": "the web client is served gzip-compressed only (test_without_brotli_the_web_client_is_gzip_only)",
    "psutil": "addresses from the routing table (test_without_psutil_addresses_come_from_the_routes)",
}
NO_WHEEL = re.compile(r"Wheels are required for `([^`]+)`")


def uv() -> str:
    found = shutil.which("uv")
    assert found, "uv is required"
    return found


async def compile_for(target: str, extra: list[str], requirements: str | None = None) -> tuple[int, str, str]:
    args = [uv(), "pip", "compile", "--python-platform", TARGETS[target], "--python-version", FLET_BUILD_PYTHON]
    args += ["--only-binary", ":all:", "--no-header", "--no-annotate", "--quiet", "--cache-dir", str(CACHE), *extra]
    args.append("-" if requirements is not None else str(ROOT / "pyproject.toml"))
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    )
    out, err = await asyncio.wait_for(proc.communicate(requirements.encode() if requirements is not None else None), 600)
    return proc.returncode or 0, out.decode(), err.decode()


def pins(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        name, sep, version = line.strip().partition("==")
        if sep:
            found[name.lower()] = version.split(";")[0].strip()
    return found


async def classify(target: str) -> tuple[dict[str, str], dict[str, str]]:
    """(the resolution, {package: why it has no wheel here}) for one target."""
    source_allowed: list[str] = []
    while True:
        extra: list[str] = []
        for name in source_allowed:
            extra += ["--no-binary", name]
        code, out, err = await compile_for(target, extra)
        if code == 0:
            break
        new = [name for name in NO_WHEEL.findall(err) if name not in source_allowed]
        assert new, f"{target}: uv pip compile failed:\n{err[-3000:]}"
        source_allowed += new
    resolved = pins(out)
    reasons: dict[str, str] = {}
    for name in source_allowed:
        version = resolved.get(name.lower())
        if version is None:
            continue
        code, _, _ = await compile_for(target, ["--no-deps"], requirements=f"{name}=={version}\n")
        if code == 0:
            continue  # it has a wheel (named only because a dependency of it had none)
        if name.lower() in FALLBACKS:
            reasons[name] = f"{name} {version}: none; {FALLBACKS[name.lower()]}"
        else:
            reasons[name] = f"PROBLEM: {name} {version} has no wheel for {target}, no Flet mobile wheel, no tested fallback"
    return resolved, reasons


async def test_every_dependency_has_a_wheel_a_flet_mobile_wheel_or_a_tested_fallback() -> None:
    results = await asyncio.gather(*(classify(target) for target in TARGETS))
    report = []
    problems = []
    for target, (resolved, reasons) in zip(TARGETS, results):
        report.append(f"{target} ({TARGETS[target]}, Python {FLET_BUILD_PYTHON}): {len(resolved)} packages")
        for reason in reasons.values():
            report.append(f"  {reason}")
            if reason.startswith("PROBLEM"):
                problems.append(f"{target}: {reason}")
        assert {"brotli", "psutil", "flet-desktop"} <= resolved.keys(), f"{target}: the desktop builds keep brotli, psutil and the window client"
    print("\n".join(report))
    assert not problems, "dependencies with neither a wheel, a Flet mobile wheel nor a tested fallback:\n" + "\n".join(problems)


def run_python(code: str, blocked: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter where importing any of `blocked` fails, as where it has no
    wheel (a None entry in sys.modules makes `import` raise ImportError)."""
    prelude = f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\nsys.path.insert(0, {str(ROOT)!r})\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_without_brotli_the_web_client_is_gzip_only() -> None:
    done = run_python(
        "import gzip\nfrom views import static_files\n"
        "print([e.coding for e in static_files.ENCODERS])\n"
        "data = b'flet ' * 1000\n"
        "print(gzip.decompress(static_files.ENCODERS[0].compress(data)) == data)\n",
        ("brotli",),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['gzip']", "True"]
    with_brotli = run_python("from views import static_files\nprint([e.coding for e in static_files.ENCODERS])\n", ())
    assert with_brotli.stdout.strip() == "['br', 'gzip']", with_brotli.stderr


@pytest.mark.xdist_group("host-interfaces")  # read twice: no test network may come or go between (tests/test_lan_netns.py)
def test_without_psutil_addresses_come_from_the_routes() -> None:
    done = run_python("from companion.network import interface_addresses\nprint(sorted(a.ip for a in interface_addresses()))\n", ("psutil",))
    assert done.returncode == 0, done.stderr
    fallback = set(eval(done.stdout))  # a list of address strings printed by this test's own code
    from companion.network import interface_addresses

    with_psutil = {a.ip for a in interface_addresses()}
    assert fallback <= with_psutil, f"the routes name addresses the interfaces do not have: {fallback - with_psutil}"
    ip = shutil.which("ip")
    if ip:  # the kernel's own answer for the default route, read another way
        route = subprocess.run([ip, "-4", "route", "get", "192.0.2.1"], capture_output=True, text=True)
        source = re.search(r"\bsrc (\d+\.\d+\.\d+\.\d+)", route.stdout)
        if route.returncode == 0 and source and not source.group(1).startswith("127."):
            assert source.group(1) in fallback, (source.group(1), fallback)


async def test_the_server_runs_without_the_packages_mobile_lacks(tmp_path: Path) -> None:
    """The real server with uvloop, httptools, watchfiles, brotli and psutil all unimportable
    (what an Android or iOS build has): it starts, serves the web client, and a phone plays."""
    from benchmarks.flet_client import FletClient
    from benchmarks.latency import ServerProcess

    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\nfor name in ('uvloop', 'httptools', 'watchfiles', 'brotli', 'psutil'):\n    sys.modules[name] = None\n"
        f"open({str(tmp_path / 'blocked')!r}, 'a').write('blocked\\n')\n",
        encoding="utf-8",
    )
    # site imports sitecustomize from PYTHONPATH before main.py runs
    server = ServerProcess(tmp_path / "data", env={"PYTHONPATH": str(blocker), "REFEREE_WEB_COMPRESSION": "1", "REFEREE_WEB_CACHE_DIR": str(tmp_path / "cache")})
    await asyncio.to_thread(server.start)
    assert (tmp_path / "blocked").read_text().count("blocked") >= 1, "the server ran with the packages blocked"
    try:
        status, body = await asyncio.to_thread(server.get, "/healthz")
        assert status == 200 and b'"ok":true' in body.replace(b" ", b"")
        board = await FletClient(server.base_url, f"/?k={server.host_token}", name="board").connect(60)
        await board.wait_for(lambda c: c.find("create-room"), 60, what="the host's rooms page")
        await board.close()
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode == 0, "\n".join(server.lines[-40:])
    assert not [line for line in server.lines if "Traceback" in line], "\n".join(server.lines[-40:])


def test_the_blocked_packages_really_are_optional_to_uvicorn() -> None:
    """uvicorn's automatic choices, asked directly with the accelerators missing."""
    done = run_python(
        "from uvicorn.loops.auto import auto_loop_factory\nfrom uvicorn.protocols.http.auto import AutoHTTPProtocol\n"
        "loop = auto_loop_factory(use_subprocess=False)()\nprint(type(loop).__module__.split('.')[0])\nloop.close()\n"
        "print(AutoHTTPProtocol.__name__)\n",
        ("uvloop", "httptools", "watchfiles"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["asyncio", "H11Protocol"], done.stdout
    with_them = run_python("from uvicorn.protocols.http.auto import AutoHTTPProtocol\nprint(AutoHTTPProtocol.__name__)\n", ())
    assert with_them.stdout.strip() == "HttpToolsProtocol", "httptools is installed here: the check above means something"
