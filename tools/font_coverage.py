"""Write the characters the app's font draws (assets/fonts/coverage.txt), read by
companion/glyphs.py to refuse a name no screen could show (an emoji: the app ships no emoji font).

    uv run python tools/font_coverage.py          # rewrite the file from assets/fonts/*.ttf
    uv run python tools/font_coverage.py --check  # exit 1 if the file is not the fonts' coverage

A character counts when both the regular and the bold face have it (names are drawn in both).
The file lists ranges of code points, one "start-end" in hex a line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = [ROOT / "assets" / "fonts" / "DejaVuSans.ttf", ROOT / "assets" / "fonts" / "DejaVuSans-Bold.ttf"]
COVERAGE = ROOT / "assets" / "fonts" / "coverage.txt"


def covered() -> list[tuple[int, int]]:
    from fontTools.ttLib import TTFont

    points = set.intersection(*(set(TTFont(str(font)).getBestCmap()) for font in FONTS))
    ranges: list[tuple[int, int]] = []
    for point in sorted(points):
        if ranges and point == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return ranges


def text(ranges: list[tuple[int, int]]) -> str:
    header = "# Code points both faces of the app's font draw (tools/font_coverage.py writes this file).\n"
    return header + "".join(f"{start:x}-{end:x}\n" for start, end in ranges)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args()
    wanted = text(covered())
    if args.check:
        current = COVERAGE.read_text(encoding="utf-8") if COVERAGE.exists() else ""
        if current != wanted:
            print(f"{COVERAGE} is not the fonts' coverage: run uv run python tools/font_coverage.py", file=sys.stderr)
            return 1
        return 0
    COVERAGE.write_text(wanted, encoding="utf-8")
    print(f"wrote {COVERAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
