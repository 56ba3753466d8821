"""The dependencies of an Android or iOS `flet build`, resolved the way that build resolves them.

`flet build apk | aab | ipa` hands the app's requirements to serious_python's `package` command,
which runs pip once per architecture, on the build machine, as (flet-cli 1.0.5
`flet_cli/commands/build_base.py` `package_python_app`; serious_python
`src/serious_python/bin/package_command.dart` and `sitecustomize.dart`):

    python -m pip install --upgrade --disable-pip-version-check --only-binary :all:
        --extra-index-url https://pypi.flet.dev --target <site-packages>/<arch> <requirement> ...

with PYTHONNOUSERSITE=1, PIP_REQUIRE_VIRTUALENV=false and PYTHONPATH on a `sitecustomize.py`
that makes `platform.system()` the target ("Android", "iOS") and `sysconfig.get_platform()` its
platform tag ("android-24-arm64_v8a", "ios-13.0-arm64-iphoneos", ...), shims
`platform.android_ver()` / `platform.ios_ver()` and `sys.implementation._multiarch` for the wheel
tags, and appends ";embedded" to `platform.version()`. Nothing else: `sys.platform`,
`platform.machine()` and `os.name` stay the build machine's. So the markers pip evaluates see
`platform_system == "Android"` (or "iOS") but `sys_platform == "linux"` or "darwin" and the build
machine's `platform_machine`.

This test takes the requirements from flet-cli's own code (its `package_python_app`, with the
dart command captured instead of run), writes a `sitecustomize.py` that does what serious_python's
does, and runs pip with serious_python's arguments for each architecture of the build's Python
(3.14: arm64-v8a and x86_64 on Android; iphoneos arm64, iphonesimulator arm64 and x86_64 on
iOS). Three things differ from a real build, each to stand for what this machine is not:

* pip runs on this machine's Python (3.11), so `--python-version 3.14` gives it the wheel tags and
  Requires-Python of the build's Python, and the marker environment's `python_version` and
  `python_full_version` are set to 3.14's (pip evaluates markers on the running interpreter);
* the build machine is stood in for by its marker values: Linux x86_64 for Android, a Mac
  (darwin, arm64) for both (iOS builds only run on a Mac);
* Flet's index cannot be reached from here: it is stood in for by a local index of wheels with the
  names, versions and mobile tags tests/data/flet_mobile_index.toml records, each carrying the
  dependency metadata of the real package at that version (read from one of its PyPI wheels).

`--dry-run --report` makes pip resolve and report without installing. PyPI is asked (CI reaches
it): a network failure fails the test, with pip's own error.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import os
import re
import sys
import tomllib
import types
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
INDEX_LIST = ROOT / "tests" / "data" / "flet_mobile_index.toml"
#: python-build's manifest as flet-cli 1.0.5 pins it (a build fetches it; tests/test_app_package.py)
MANIFEST = ROOT / "tests" / "data" / "flet_python_build_manifest.json"
#: pip's HTTP cache and the PyPI wheels read for their metadata, kept between runs (build/ is not in git)
CACHE = ROOT / "build" / "mobile-pip-cache"
PYPI_SIMPLE = "https://pypi.org/simple"
#: what serious_python passes as the extra index; replaced here by the local stand-in
FLET_INDEX = "https://pypi.flet.dev"


@dataclass(frozen=True)
class Arch:
    """One pip run of serious_python's package command: a target architecture and its tag."""

    target: str  # flet build target
    platform: str  # serious_python --platform (what platform.system() returns)
    name: str  # serious_python's architecture key
    tag: str  # what sysconfig.get_platform() returns

    @property
    def wheel_tag(self) -> str:
        return self.tag.replace("-", "_").replace(".", "_")


#: serious_python's architectures for Python 3.13+ (its package command skips armeabi-v7a and
#: x86 for them: python-build dropped 32-bit Android, PEP 738)
ARCHS = [
    Arch("apk", "Android", "arm64-v8a", "android-24-arm64_v8a"),
    Arch("apk", "Android", "x86_64", "android-24-x86_64"),
    Arch("ipa", "iOS", "iphoneos.arm64", "ios-13.0-arm64-iphoneos"),
    Arch("ipa", "iOS", "iphonesimulator.arm64", "ios-13.0-arm64-iphonesimulator"),
    Arch("ipa", "iOS", "iphonesimulator.x86_64", "ios-13.0-x86_64-iphonesimulator"),
]
#: build machines, by the marker values serious_python leaves them (Android builds run on Linux,
#: macOS or Windows; iOS builds on macOS only)
HOSTS = {
    "linux-x86_64": {"sys_platform": "linux", "platform_machine": "x86_64", "os_name": "posix"},
    "macos-arm64": {"sys_platform": "darwin", "platform_machine": "arm64", "os_name": "posix"},
}
RUNS = [(arch, host) for arch in ARCHS for host in HOSTS if not (arch.platform == "iOS" and host != "macos-arm64")]
#: uvicorn's "standard" extra (uvloop, httptools, watchfiles, python-dotenv, pyyaml), asked for by
#: flet-web: no mobile wheels, left out of mobile builds on purpose (uvicorn runs on asyncio and
#: h11 without them: tests/test_app_dependencies.py test_the_server_runs_without_the_packages_mobile_lacks)
LEFT_OUT_EXTRAS = {("uvicorn", "standard")}
#: never in a mobile build: C extensions without mobile wheels, the app does without them
#: (tests/test_app_dependencies.py), and uvicorn's accelerators
NOT_ON_MOBILE = {"brotli", "psutil", "uvloop", "httptools", "watchfiles"}


def build_python() -> tuple[str, str]:
    """(short, full) version of the Python a `flet build` with this pyproject.toml bundles."""
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    from flet_cli.utils import python_versions
    from flet_cli.utils.pyproject_toml import load_pyproject_toml

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLET_PYTHON_BUILD_MANIFEST", str(MANIFEST))  # a build fetches it; kept in tests/data
        python_versions._load_data.cache_clear()
        short = python_versions.resolve_python_version(None, load_pyproject_toml(ROOT)).short
    python_versions._load_data.cache_clear()
    return short, manifest["pythons"][short]["full_version"]


def flet_index() -> dict[str, list[str]]:
    """{canonical name: versions} of Flet's mobile index, both platforms' packages included."""
    data = tomllib.loads(INDEX_LIST.read_text(encoding="utf-8"))
    listed: dict[str, list[str]] = {}
    for table in ("packages", "packages_android", "packages_ios"):
        for name, versions in data[table].items():
            listed[canonicalize_name(name)] = list(versions)
    return listed


def package_command(target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], dict[str, str]]:
    """The serious_python command line and environment flet-cli's `flet build <target>` runs to
    package the app, from flet-cli's own `package_python_app` (the command captured, not run)."""
    from flet_cli.commands.build import Command
    from flet_cli.utils import python_versions
    from flet_cli.utils.pyproject_toml import load_pyproject_toml
    from flet_cli.utils.python_versions import resolve_python_version

    monkeypatch.setenv("FLET_PYTHON_BUILD_MANIFEST", str(MANIFEST))
    python_versions._load_data.cache_clear()
    parser = argparse.ArgumentParser()
    command = Command(parser)
    command.options = parser.parse_args([target, str(ROOT)])
    command.target_platform = target
    command.package_platform = command.platforms[target]["package_platform"]
    command.config_platform = command.platforms[target]["config_platform"]
    command.python_app_path = command.package_app_path = ROOT
    command.build_dir = tmp_path / target / "build"
    command.flutter_dir = command.build_dir / "flutter"
    command.flutter_packages_dir = command.build_dir / "flutter-packages"
    command.flutter_packages_temp_dir = command.build_dir / "flutter-packages-temp"
    command.dart_exe = "dart"
    command.get_pyproject = load_pyproject_toml(ROOT)
    command.python_release = resolve_python_version(None, command.get_pyproject)
    command.setup_template_data()
    command.status = types.SimpleNamespace(update=lambda _status: None)
    command.emojis = {"checkmark": "ok"}
    captured: dict[str, Any] = {}

    def run(args: list[str], cwd: str | None = None, env: dict[str, str] | None = None, capture_output: bool = True) -> Any:
        captured["args"], captured["env"] = list(args), dict(env or {})
        (command.build_dir / "python-app").mkdir(parents=True, exist_ok=True)  # what the command leaves
        return types.SimpleNamespace(returncode=0, stdout="", stderr="")

    command.run = run
    command.package_python_app()
    return captured["args"], captured["env"]


def pip_requirements(dart_args: list[str]) -> list[str]:
    """serious_python's `-r` values, in order: what it appends to pip's command line as they are."""
    return [dart_args[i + 1] for i, arg in enumerate(dart_args) if arg in ("-r", "--requirements")]


def sitecustomize(arch: Arch, host: str, python_full: str, dump: Path) -> str:
    """serious_python's pip customisation for `arch` (what its sitecustomize.py does, written
    again here), then this machine's stand-ins for the build machine and the build's Python."""
    python_short = ".".join(python_full.split(".")[:2])
    overrides = {**HOSTS[host], "python_version": python_short, "python_full_version": python_full, "implementation_version": python_full}
    return f'''\
# --- as serious_python's package command (sitecustomize.dart) ---
import collections, platform, sys, sysconfig

TARGET_SYSTEM = {arch.platform!r}
TARGET_TAG = {arch.tag!r}
platform.system = lambda: TARGET_SYSTEM
sysconfig.get_platform = lambda: TARGET_TAG
_tag = TARGET_TAG.split("-")
if TARGET_SYSTEM == "iOS":
    _IOSVersionInfo = collections.namedtuple("IOSVersionInfo", ["system", "release", "model", "is_simulator"])
    platform.ios_ver = lambda *args, **kwargs: _IOSVersionInfo(TARGET_SYSTEM, _tag[1], "iPhone", "simulator" in _tag[3])
    # sysconfig looks for its data under the new multiarch name: serious_python copies the build
    # Python's file to those names (package_command.dart duplicateSysconfigFile); the same here
    import importlib
    _data = importlib.import_module(sysconfig._get_sysconfigdata_name())
    sys.implementation._multiarch = _tag[2] + "_" + _tag[3]
    sys.modules[sysconfig._get_sysconfigdata_name()] = _data
if TARGET_SYSTEM == "Android":
    _AndroidVer = collections.namedtuple("AndroidVer", ["release", "api_level", "manufacturer", "model", "device", "is_emulator"])
    platform.android_ver = lambda *args, **kwargs: _AndroidVer("", int(_tag[1]), "", "", "", False)
_version = platform.version
platform.version = lambda: _version() + ";embedded"

# --- this test's stand-ins: the build machine ({host}) and the build's Python, in the markers ---
import json
from pip._vendor.packaging import markers as _markers

_default_environment = _markers.default_environment
_written = []


def _environment():
    environment = _default_environment()
    environment.update({overrides!r})
    if not _written:
        _written.append(1)
        with open({str(dump)!r}, "w") as out:
            json.dump(environment, out)
    return environment


_markers.default_environment = _environment
'''


def pypi_metadata(name: str, version: str) -> str:
    """The core metadata of `name` `version` on PyPI, read from the smallest of its wheels
    (cached in build/)."""
    cached = CACHE / "metadata" / f"{canonicalize_name(name)}-{version}.METADATA"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    request = urllib.request.Request(f"{PYPI_SIMPLE}/{canonicalize_name(name)}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    prefix = f"{canonicalize_name(name).replace('-', '_')}-{version}-"
    wheels = [f for f in files if f["filename"].lower().startswith(prefix.lower()) and f["filename"].endswith(".whl")]
    assert wheels, f"PyPI has no wheel of {name} {version} to read its metadata from"
    smallest = min(wheels, key=lambda f: f.get("size") or 1 << 40)
    with urllib.request.urlopen(smallest["url"], timeout=120) as response:
        data = response.read()
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        metadata = next(wheel.read(n) for n in wheel.namelist() if n.endswith(".dist-info/METADATA")).decode("utf-8")
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(metadata, encoding="utf-8")
    return metadata


def stand_in_wheel(directory: Path, name: str, version: str, python_tag: str, arch: Arch) -> Path:
    """A wheel of `name` `version` for `arch`, with the real package's dependency metadata and no code."""
    real = pypi_metadata(name, version)
    kept = [line for line in real.split("\n\n", 1)[0].splitlines() if line.startswith(("Requires-Dist:", "Requires-Python:", "Provides-Extra:"))]
    dist = canonicalize_name(name).replace("-", "_")
    filename = f"{dist}-{version}-{python_tag}-{python_tag}-{arch.wheel_tag}.whl"
    info = f"{dist}-{version}.dist-info"
    files = {
        f"{info}/METADATA": "\n".join(["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", *kept]) + "\n",
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: tests/test_mobile_build_dependencies.py\nRoot-Is-Purelib: false\nTag: {python_tag}-{python_tag}-{arch.wheel_tag}\n",
    }
    record = [f"{path},sha256={hashlib.sha256(text.encode()).hexdigest()},{len(text.encode())}" for path, text in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    path = directory / filename
    with zipfile.ZipFile(path, "w") as wheel:
        for member, text in files.items():
            wheel.writestr(member, text)
    return path


def local_flet_index(root: Path, names: set[str], python_short: str, arch: Arch) -> str:
    """A PEP 503 index at `root` holding, of Flet's recorded mobile wheels, those of `names`, for `arch`."""
    python_tag = "cp" + python_short.replace(".", "")
    listed = flet_index()
    root.mkdir(parents=True, exist_ok=True)
    for name in sorted(names & listed.keys()):
        project = root / name
        project.mkdir(parents=True, exist_ok=True)
        links = []
        for version in listed[name]:
            wheel = stand_in_wheel(project, name, version, python_tag, arch)
            links.append(f'<a href="{wheel.name}">{wheel.name}</a>')
        (project / "index.html").write_text("<!DOCTYPE html><html><body>\n" + "\n".join(links) + "\n</body></html>\n", encoding="utf-8")
    (root / "index.html").write_text("".join(f'<a href="{n}/">{n}</a>\n' for n in sorted(names & listed.keys())), encoding="utf-8")
    return root.as_uri()


@dataclass
class Resolution:
    arch: Arch
    host: str
    returncode: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None
    environment: dict[str, str] | None
    command: list[str]

    def installed(self) -> dict[str, dict[str, Any]]:
        assert self.report is not None
        return {canonicalize_name(item["metadata"]["name"]): item for item in self.report["install"]}


def runtime_packages() -> set[str]:
    """Every package the project's runtime dependencies can bring on any platform, extras
    included: the project's entry in uv.lock and what its dependencies depend on, transitively."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    by_name = {canonicalize_name(p["name"]): p for p in lock["package"]}
    project = canonicalize_name(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"])
    seen: set[str] = set()
    todo = [d["name"] for d in by_name[project].get("dependencies", [])]
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        package = by_name[name]
        todo += [d["name"] for d in package.get("dependencies", [])]
        todo += [d["name"] for deps in package.get("optional-dependencies", {}).values() for d in deps]
    return seen


async def resolve(arch: Arch, host: str, requirements: list[str], python: tuple[str, str], work: Path) -> Resolution:
    """serious_python's pip run for `arch`, on stand-ins for `host` and Flet's index, resolving only.
    The stand-in index holds, of the recorded list, the packages asked for by name or in uv.lock
    (every package the project's dependencies can bring, on any platform), and any other one pip
    finds missing (run again with it): what the real index would offer this resolution."""
    listed = flet_index()
    names = {canonicalize_name(Requirement(r).name) for r in requirements if not r.startswith("-")} | (runtime_packages() & listed.keys())
    attempt = 0
    while True:
        resolution = await resolve_once(arch, host, requirements, python, work / f"try{attempt}", names)
        missing = {canonicalize_name(n) for n in NOT_FOUND.findall(resolution.stderr)}
        more = {n for n in missing if n in listed} - names
        if resolution.returncode == 0 or not more:
            return resolution
        names |= more
        attempt += 1


#: pip's words for a requirement no index offers (a wheel for this target) of
NOT_FOUND = re.compile(r"No matching distribution found for ([A-Za-z0-9._-]+)")


async def resolve_once(arch: Arch, host: str, requirements: list[str], python: tuple[str, str], work: Path, names: set[str]) -> Resolution:
    python_short, python_full = python
    work.mkdir(parents=True)
    index_url = local_flet_index(work / "flet-index", names, python_short, arch)
    custom = work / "sitecustomize"
    custom.mkdir()
    dump = work / "markers.json"
    (custom / "sitecustomize.py").write_text(sitecustomize(arch, host, python_full, dump), encoding="utf-8")
    report = work / "report.json"
    # serious_python's arguments (package_command.dart), Flet's index replaced by its stand-in
    pip_args = ["install", "--upgrade", "--disable-pip-version-check", "--only-binary", ":all:", "--extra-index-url", FLET_INDEX, "--target", str(work / "site-packages"), *requirements]
    pip_args[pip_args.index(FLET_INDEX)] = index_url
    # this test's: resolve only, for the build's Python
    pip_args += ["--dry-run", "--report", str(report), "--python-version", python_short, "--cache-dir", str(CACHE / "pip")]
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PIP_")},
        "PYTHONPATH": str(custom),
        "PYTHONNOUSERSITE": "1",
        "PIP_REQUIRE_VIRTUALENV": "false",
        "PIP_CONFIG_FILE": os.devnull,  # no pip.conf of this machine's
        "PIP_NO_INPUT": "1",
    }
    command = [sys.executable, "-m", "pip", *pip_args]
    proc = await asyncio.create_subprocess_exec(*command, cwd=work, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 600)
    return Resolution(
        arch,
        host,
        proc.returncode or 0,
        out.decode(),
        err.decode(),
        json.loads(report.read_text(encoding="utf-8")) if report.exists() else None,
        json.loads(dump.read_text(encoding="utf-8")) if dump.exists() else None,
        command,
    )


def missing_requirements(resolution: Resolution, requirements: list[str]) -> list[str]:
    """Requirements of the resolved set it does not satisfy, evaluated in the marker environment
    pip saw, extras followed (a set installed with --no-deps must still be whole), but for
    LEFT_OUT_EXTRAS."""
    assert resolution.environment is not None
    installed = resolution.installed()
    wanted: dict[str, set[str]] = {name: {""} for name in installed}
    found: list[str] = []

    def need(requirement: Requirement, by: str) -> None:
        name = canonicalize_name(requirement.name)
        item = installed.get(name)
        if item is None:
            found.append(f"{requirement} (asked for by {by}): not in the set")
            return
        if requirement.specifier and not requirement.specifier.contains(Version(item["metadata"]["version"]), prereleases=True):
            found.append(f"{requirement} (asked for by {by}): {item['metadata']['version']} is there")
        extras = {e for e in requirement.extras if (name, e) not in LEFT_OUT_EXTRAS}
        if not extras <= wanted[name]:
            wanted[name] |= extras
            pending.add(name)

    pending: set[str] = set()
    for text in requirements:
        if text.startswith("-"):
            continue
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate(dict(resolution.environment)):
            need(requirement, "the app")
    pending |= set(installed)
    while pending:
        name = pending.pop()
        for text in installed[name]["metadata"].get("requires_dist", []):
            requirement = Requirement(text)
            for extra in sorted(wanted[name]):
                if requirement.marker is None or Marker(str(requirement.marker)).evaluate({**resolution.environment, "extra": extra}):
                    need(requirement, name)
                    break
    return sorted(set(found))


@pytest.fixture(scope="module")
def monkeymodule() -> Any:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def resolutions(tmp_path_factory: pytest.TempPathFactory, monkeymodule: pytest.MonkeyPatch) -> list[tuple[Resolution, list[str]]]:
    """Every architecture's resolution, on every build machine it can be built on: the first
    alone (it fills pip's cache), then the others two at a time."""
    tmp = tmp_path_factory.mktemp("mobile-pip")
    python = build_python()
    commands = {target: package_command(target, tmp / "flet", monkeymodule) for target in {arch.target for arch, _ in RUNS}}
    requirements = {target: pip_requirements(args) for target, (args, _) in commands.items()}

    async def all_runs() -> list[Resolution]:
        first = await resolve(*RUNS[0], requirements[RUNS[0][0].target], python, tmp / "run0")
        slots = asyncio.Semaphore(2)

        async def one(i: int, arch: Arch, host: str) -> Resolution:
            async with slots:
                return await resolve(arch, host, requirements[arch.target], python, tmp / f"run{i}")

        rest = await asyncio.gather(*(one(i, arch, host) for i, (arch, host) in enumerate(RUNS[1:], 1)))
        return [first, *rest]

    return [(r, requirements[r.arch.target]) for r in asyncio.run(all_runs())]


def label(resolution: Resolution) -> str:
    return f"{resolution.arch.platform} {resolution.arch.name} built on {resolution.host}"


def test_the_build_passes_the_project_dependencies_and_the_mobile_pins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What flet-cli hands serious_python: [project] dependencies, then the platform's own
    ([tool.flet.<platform>] dependencies), the two mobile platforms' alike."""
    android, _ = package_command("apk", tmp_path, monkeypatch)
    ios, ios_env = package_command("ipa", tmp_path, monkeypatch)
    assert pip_requirements(android) == pip_requirements(ios)
    assert ios[ios.index("--platform") + 1] == "iOS" and android[android.index("--platform") + 1] == "Android"
    assert ios_env["SERIOUS_PYTHON_VERSION"] == build_python()[0]
    assert "SERIOUS_PYTHON_ALLOW_SOURCE_DISTRIBUTIONS" not in ios_env, "every package from a wheel"


def test_pip_sees_the_target_in_platform_system_and_the_build_machine_in_sys_platform(resolutions: list[tuple[Resolution, list[str]]]) -> None:
    for resolution, _ in resolutions:
        environment = resolution.environment
        assert environment is not None, f"{label(resolution)}: pip evaluated no marker\n{resolution.stderr[-3000:]}"
        assert environment["platform_system"] == resolution.arch.platform, environment
        assert environment["sys_platform"] == HOSTS[resolution.host]["sys_platform"], environment
        assert environment["platform_version"].endswith(";embedded"), environment


def test_every_mobile_dependency_resolves_as_the_build_resolves_it(resolutions: list[tuple[Resolution, list[str]]]) -> None:
    failed = [f"{label(r)} (exit {r.returncode}):\n{r.stderr.strip()[-2500:]}" for r, _ in resolutions if r.returncode != 0]
    assert not failed, "the build's pip stops:\n\n" + "\n\n".join(failed)
    listed = flet_index()
    for resolution, requirements in resolutions:
        installed = resolution.installed()
        report = [f"{label(resolution)}: {len(installed)} packages"]
        for name, item in sorted(installed.items()):
            url = item["download_info"]["url"]
            version = item["metadata"]["version"]
            if url.startswith("file:"):
                assert version in listed.get(name, []), f"{name} {version} from the stand-in index is not in the recorded list"
                report.append(f"  {name} {version}: Flet's mobile index")
            elif not item["download_info"]["url"].endswith("-none-any.whl"):
                report.append(f"  {name} {version}: PyPI, {url.rsplit('/', 1)[-1]}")
        print("\n".join(report))
        assert not NOT_ON_MOBILE & installed.keys(), f"{label(resolution)}: {sorted(NOT_ON_MOBILE & installed.keys())} in a mobile build"
        assert {"flet", "flet-web", "uvicorn", "fastapi", "pydantic", "qrcode", "pillow"} <= installed.keys(), f"{label(resolution)}: the LAN server is not all there"
        missing = missing_requirements(resolution, requirements)
        assert not missing, f"{label(resolution)}: the set is not whole:\n" + "\n".join(missing)
