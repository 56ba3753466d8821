"""The `flet build` configuration ([tool.flet] in pyproject.toml) and the app's icon and splash,
read by flet-cli's own code (no Flutter SDK here, so no binary is built).

flet-cli 1.0.5 prepares a build in steps; `setup_template_data` is the one that turns
pyproject.toml into what the Flutter template is rendered with (names, bundle id, Android
permissions, iOS Info.plist, macOS entitlements, splash), and `add_flutter_command_args` adds
the version. The icon and splash go through flet_platform_assets, the generator `flet build`
uses for every size of every platform.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: python-build's manifest as flet-cli 1.0.5 pins it (tests/data; a build fetches it)
MANIFEST = ROOT / "tests" / "data" / "flet_python_build_manifest.json"
TARGETS = ["apk", "aab", "ipa", "macos", "windows", "linux"]
LAN_PERMISSIONS = {
    "android.permission.INTERNET",
    "android.permission.ACCESS_NETWORK_STATE",
    "android.permission.ACCESS_WIFI_STATE",
    "android.permission.WAKE_LOCK",
    "android.permission.ACCESS_LOCAL_NETWORK",
}


@pytest.fixture(autouse=True)
def local_manifest(monkeypatch: pytest.MonkeyPatch) -> None:
    from flet_cli.utils import python_versions

    monkeypatch.setenv("FLET_PYTHON_BUILD_MANIFEST", str(MANIFEST))
    python_versions._load_data.cache_clear()


def build_command(target: str, tmp_path: Path) -> Any:
    """flet-cli's `flet build <target>` command, prepared up to its template data."""
    from flet_cli.commands.build import Command
    from flet_cli.utils.pyproject_toml import load_pyproject_toml
    from flet_cli.utils.python_versions import resolve_python_version

    parser = argparse.ArgumentParser()
    command = Command(parser)
    command.options = parser.parse_args([target, str(ROOT)])
    command.target_platform = target
    command.package_platform = command.platforms[target]["package_platform"]
    command.config_platform = command.platforms[target]["config_platform"]
    command.python_app_path = ROOT
    command.build_dir = tmp_path / "build"
    command.flutter_dir = tmp_path / "build" / "flutter"
    command.get_pyproject = load_pyproject_toml(ROOT)
    command.python_release = resolve_python_version(None, command.get_pyproject)
    command.setup_template_data()
    return command


@pytest.mark.parametrize("target", TARGETS)
def test_the_build_configuration_as_flet_cli_reads_it(target: str, tmp_path: Path) -> None:
    command = build_command(target, tmp_path)
    data = command.template_data
    options = data["options"]
    assert data["product_name"] == "Table Referee"
    assert data["bundle_id"] == "org.tablereferee.app"
    assert data["org_name"] == "org.tablereferee"
    assert data["company_name"] == "Table Referee"
    assert options["python_version"] == "3.14", "the Python the build bundles (tests/test_app_dependencies.py checks wheels for it)"
    assert LAN_PERMISSIONS <= {name for name, wanted in options["android_permissions"].items() if wanted is True}
    assert options["macos_entitlements"]["com.apple.security.network.server"] is True
    assert options["macos_entitlements"]["com.apple.security.network.client"] is True
    if target == "ipa":
        text = options["info_plist"]["NSLocalNetworkUsageDescription"]
        assert "Wi-Fi" in text and "phones" in text
    assert data["splash"]["color"] == data["splash"]["dark_color"] == "#0B3D2E"
    assert data["adaptive_icon_background"] == "#0B3D2E"
    assert command.get_platform_setting("app.exclude") == ["tests", "benchmarks", "tools", "docs", "build", ".ci"]

    args: list[str] = []
    command.add_flutter_command_args(args)
    assert args[args.index("--build-name") + 1] == command.get_pyproject("project.version")
    assert args[args.index("--build-number") + 1] == "1"


@pytest.mark.parametrize("platform", ["android", "ios", "macos", "windows", "linux", "web"])
def test_the_icon_makes_every_size_of_every_platform(platform: str) -> None:
    from flet_platform_assets import DEFAULT_SPECS, IconOptions, load_source, render_icons

    source, pre_rendered = load_source(ROOT / "assets" / "icon.png")
    assert source.size == (1024, 1024), "1024 px: the largest icon any platform makes (iOS, macOS)"
    result = render_icons(source, platform=platform, pre_rendered=pre_rendered, options=IconOptions(background=(11, 61, 46)))
    assert not [w for w in result.warnings if "resolution" in str(w).lower() or "smaller" in str(w).lower()], result.warnings
    made = {asset.relative_path: asset for asset in result.assets}
    for target in DEFAULT_SPECS[platform].targets:
        assert target.relative_path in made, f"{platform}: {target.relative_path} not made"


@pytest.mark.parametrize("platform", ["android", "ios", "web"])
def test_the_splash_renders_for_each_platform(platform: str) -> None:
    from flet_platform_assets import SplashOptions, load_source, render_splash

    source, _ = load_source(ROOT / "assets" / "splash.png")
    assert source.mode == "RGBA" and source.getextrema()[3][0] == 0, "the whistle on transparency (the splash colour is the felt)"
    result = render_splash(source, platform=platform, options=SplashOptions(color="#0B3D2E", dark_color="#0B3D2E"))
    assert result.assets, f"no {platform} splash made"


def test_the_icon_is_the_one_its_drawing_code_makes() -> None:
    """assets/icon.png and splash.png come from tools/app_icon.py (redraw them after a change)."""
    from PIL import Image, ImageChops

    from tools.app_icon import draw_icon, draw_splash

    for name, drawn in (("icon.png", draw_icon()), ("splash.png", draw_splash())):
        shipped = Image.open(ROOT / "assets" / name).convert("RGBA")
        assert ImageChops.difference(shipped, drawn).getbbox() is None, f"assets/{name} differs from tools/app_icon.py: run it"
