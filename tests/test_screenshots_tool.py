"""tools/screenshots.py end to end: one game, one language, both sizes, through the real command
(prepared room, `main.py` on loopback, Debian's Chromium). Every picture must exist, be as wide
as its device, and show something: not one colour (a page photographed before it painted) nor
nearly so (Flet's "Working..." screen while the server is busy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.browser


def test_one_game_both_sizes(tmp_path: Path) -> None:
    from tests.harness.browser import require_chromium

    require_chromium()
    out = tmp_path / "shots"
    command = [sys.executable, "tools/screenshots.py", "--out", str(out), "--game", "vabanque", "--lang", "fr"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "never settled" not in done.stderr, done.stderr
    widths = {"phone": 360, "tablet": 1280}
    expected = {out / "vabanque" / f"fr-{size}-{page}.png": width for size, width in widths.items() for page in ("board", "seat")}
    assert sorted(out.rglob("*.png")) == sorted(expected)
    for path, width in expected.items():
        assert str(path) in done.stdout  # the command says where each file went
        with Image.open(path) as image:
            assert image.width == width, (path, image.size)
            spread = max(ImageStat.Stat(image.convert("L")).stddev)
            rgb = image.convert("RGB")
            commonest = max(count for count, _ in rgb.getcolors(rgb.width * rgb.height)) / (rgb.width * rgb.height)
        assert spread > 10, f"{path} looks blank (pixel spread {spread:.1f})"
        # Flet's "Working..." screen (a spinner on white) is not blank by spread alone
        assert commonest < 0.97, f"{path} is {commonest:.0%} one colour"
