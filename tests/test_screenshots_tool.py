"""tools/screenshots.py end to end: one game, one language, both sizes, through the real command
(prepared room, `main.py` on loopback, Debian's Chromium); and every other scene (the handover
window, a take-back, the standings, the free-seat page, the deal picker, Règlement's random
seating) in one language and size. Every picture must exist, be as wide as its device, and show
something: not one colour (a page photographed before it painted) nor nearly so (Flet's
"Working..." screen while the server is busy); a scene's picture must also show its moment, read
from the words the tool saved beside it (the page's accessibility tree when it was taken)."""

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
        assert_painted(path, width)


def assert_painted(path: Path, width: int) -> None:
    with Image.open(path) as image:
        assert image.width == width, (path, image.size)
        spread = max(ImageStat.Stat(image.convert("L")).stddev)
        rgb = image.convert("RGB")
        commonest = max(count for count, _ in rgb.getcolors(rgb.width * rgb.height)) / (rgb.width * rgb.height)
    assert spread > 10, f"{path} looks blank (pixel spread {spread:.1f})"
    # Flet's "Working..." screen (a spinner on white) is not blank by spread alone
    assert commonest < 0.97, f"{path} is {commonest:.0%} one colour"


#: each scene's pictures and words each must show (English, the tool's own players)
SCENE_WORDS = {
    ("handover", "board"): ["Now Benedetta", "Now Benedetta: tap again"],
    ("take-back", "seat"): ["Take back my move"],
    ("take-back", "board"): ["Adriano took back a move."],
    ("standings", "board"): ["Final standings", "1st", "Play again"],
    ("standings", "seat"): ["You came", "Final standings"],
    ("free-seat", "seat"): ["Pick your seat", "I am Adriano", "I am Дмитрий"],
    ("deal-picker", "board"): ["Tap the contracts as they are dealt", "in City Hall 1", "in City Hall 2"],
    ("seating", "board"): ["Seat everyone at random"],
}


def test_every_other_scene(tmp_path: Path) -> None:
    """The handover scene runs on a server whose window is long enough to photograph, although
    this test's environment turns the window off (tests/conftest.py): the tool sets it."""
    from tests.harness.browser import require_chromium

    require_chromium()
    out = tmp_path / "shots"
    scenes = sorted({scene for scene, _ in SCENE_WORDS})
    command = [sys.executable, "tools/screenshots.py", "--out", str(out), "--lang", "en", "--size", "tablet"]
    for scene in scenes:
        command += ["--scene", scene]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=480)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "never settled" not in done.stderr, done.stderr
    expected = {out / scene / f"en-tablet-{page}.png": words for (scene, page), words in SCENE_WORDS.items()}
    assert sorted(out.rglob("*.png")) == sorted(expected)
    for path, words in expected.items():
        assert str(path) in done.stdout
        assert_painted(path, 1280)
        text = path.with_suffix(".txt").read_text(encoding="utf-8")
        for word in words:
            assert word in text, f"{path} does not show {word!r}:\n{text}"
