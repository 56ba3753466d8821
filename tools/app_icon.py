"""Draw the app's icon and splash (assets/icon.png, assets/splash.png) for `flet build`.

The design: a referee's whistle on the table's green felt, ringed by the four games' motifs:
a casino chip (Vabanque), a folded banknote (Corruption), a playing card with a spade (Chicago
Poker) and a gangster's fedora (Règlement de comptes). Drawn at 4x and scaled down, so edges
are smooth; 1024 px is the largest size any platform's build makes from it (iOS, macOS).

    uv run python tools/app_icon.py            # writes assets/icon.png and assets/splash.png
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
SIZE = 1024
SCALE = 4  # supersampling
FELT = (11, 61, 46)  # views/common.py FELT
FELT_LIGHT = (20, 90, 67)
GOLD = (255, 213, 79)  # ACCENT
INK = (241, 248, 233)
RED = (198, 40, 40)
METAL = (207, 216, 220)
METAL_DARK = (120, 144, 156)
SHADOW = (0, 0, 0, 90)
FONT = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"


def _s(value: float) -> int:
    return int(round(value * SCALE))


def _box(cx: float, cy: float, rx: float, ry: float | None = None) -> list[int]:
    ry = rx if ry is None else ry
    return [_s(cx - rx), _s(cy - ry), _s(cx + rx), _s(cy + ry)]


def chip(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Vabanque: a casino chip, red with white edge spots."""
    draw.ellipse(_box(cx + 6, cy + 8, r), fill=SHADOW)
    draw.ellipse(_box(cx, cy, r), fill=RED, outline=INK, width=_s(6))
    for k in range(8):
        a = k * math.pi / 4
        x, y = cx + math.cos(a) * r * 0.8, cy + math.sin(a) * r * 0.8
        draw.ellipse(_box(x, y, r * 0.13), fill=INK)
    draw.ellipse(_box(cx, cy, r * 0.52), outline=INK, width=_s(5))
    draw.ellipse(_box(cx, cy, r * 0.36), fill=GOLD)


def banknote(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float) -> None:
    """Corruption: a banknote, slipped under the table."""
    layer = Image.new("RGBA", (_s(w * 1.6), _s(w * 1.6)), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    ox, oy = w * 0.8, w * 0.8
    d.rounded_rectangle([_s(ox - w / 2 + 6), _s(oy - h / 2 + 8), _s(ox + w / 2 + 6), _s(oy + h / 2 + 8)], radius=_s(10), fill=SHADOW)
    d.rounded_rectangle([_s(ox - w / 2), _s(oy - h / 2), _s(ox + w / 2), _s(oy + h / 2)], radius=_s(10), fill=(129, 199, 132), outline=INK, width=_s(5))
    d.rounded_rectangle([_s(ox - w / 2 + 14), _s(oy - h / 2 + 14), _s(ox + w / 2 - 14), _s(oy + h / 2 - 14)], radius=_s(6), outline=FELT, width=_s(3))
    d.ellipse([_s(ox - h * 0.3), _s(oy - h * 0.3), _s(ox + h * 0.3), _s(oy + h * 0.3)], fill=FELT)
    font = ImageFont.truetype(str(FONT), _s(h * 0.42))
    d.text((_s(ox), _s(oy)), "$", font=font, fill=GOLD, anchor="mm")
    layer = layer.rotate(-18, resample=Image.BICUBIC)
    draw._image.alpha_composite(layer, (_s(cx - w * 0.8), _s(cy - w * 0.8)))  # type: ignore[attr-defined]


def card(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float) -> None:
    """Chicago Poker: a playing card with a spade."""
    layer = Image.new("RGBA", (_s(h * 1.5), _s(h * 1.5)), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    ox, oy = h * 0.75, h * 0.75
    d.rounded_rectangle([_s(ox - w / 2 + 6), _s(oy - h / 2 + 8), _s(ox + w / 2 + 6), _s(oy + h / 2 + 8)], radius=_s(14), fill=SHADOW)
    d.rounded_rectangle([_s(ox - w / 2), _s(oy - h / 2), _s(ox + w / 2), _s(oy + h / 2)], radius=_s(14), fill=INK, outline=METAL_DARK, width=_s(3))
    # the spade: a heart upside down (two circles and a triangle) on a stem
    r = w * 0.2
    top = oy - h * 0.2
    d.polygon([(_s(ox), _s(top)), (_s(ox - r * 1.95), _s(oy + r * 0.35)), (_s(ox + r * 1.95), _s(oy + r * 0.35))], fill=(33, 33, 33))
    d.ellipse([_s(ox - r * 2.0), _s(oy - r * 0.3), _s(ox), _s(oy + r * 1.7)], fill=(33, 33, 33))
    d.ellipse([_s(ox), _s(oy - r * 0.3), _s(ox + r * 2.0), _s(oy + r * 1.7)], fill=(33, 33, 33))
    d.polygon([(_s(ox), _s(oy + r * 0.6)), (_s(ox - r * 0.7), _s(oy + h * 0.32)), (_s(ox + r * 0.7), _s(oy + h * 0.32))], fill=(33, 33, 33))
    font = ImageFont.truetype(str(FONT), _s(w * 0.22))
    d.text((_s(ox - w / 2 + w * 0.16), _s(oy - h / 2 + w * 0.2)), "A", font=font, fill=(33, 33, 33), anchor="mm")
    layer = layer.rotate(14, resample=Image.BICUBIC)
    draw._image.alpha_composite(layer, (_s(cx - h * 0.75), _s(cy - h * 0.75)))  # type: ignore[attr-defined]


def fedora(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float) -> None:
    """Règlement de comptes: a gangster's fedora with its band."""
    brim_h = w * 0.2
    draw.ellipse(_box(cx + 6, cy + w * 0.18 + 8, w / 2, brim_h / 2), fill=SHADOW)
    draw.ellipse(_box(cx, cy + w * 0.18, w / 2, brim_h / 2), fill=(38, 50, 56), outline=INK, width=_s(4))
    crown = [
        (_s(cx - w * 0.3), _s(cy + w * 0.16)),
        (_s(cx - w * 0.26), _s(cy - w * 0.22)),
        (_s(cx - w * 0.08), _s(cy - w * 0.3)),
        (_s(cx), _s(cy - w * 0.22)),
        (_s(cx + w * 0.08), _s(cy - w * 0.3)),
        (_s(cx + w * 0.26), _s(cy - w * 0.22)),
        (_s(cx + w * 0.3), _s(cy + w * 0.16)),
    ]
    draw.polygon(crown, fill=(55, 71, 79), outline=INK, width=_s(4))
    draw.rectangle([_s(cx - w * 0.295), _s(cy + w * 0.02), _s(cx + w * 0.295), _s(cy + w * 0.12)], fill=RED)


def whistle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The referee: a whistle, its lanyard ring up, mouthpiece to the right."""
    draw.ellipse(_box(cx + 8, cy + 12, r), fill=SHADOW)
    # mouthpiece
    draw.rounded_rectangle([_s(cx), _s(cy - r * 0.98), _s(cx + r * 2.05), _s(cy - r * 0.2)], radius=_s(r * 0.18), fill=METAL, outline=METAL_DARK, width=_s(5))
    # body
    draw.ellipse(_box(cx, cy, r), fill=METAL, outline=METAL_DARK, width=_s(6))
    draw.ellipse(_box(cx - r * 0.15, cy + r * 0.12, r * 0.55), fill=(236, 239, 241))
    # the pea window
    draw.ellipse(_box(cx + r * 0.2, cy - r * 0.25, r * 0.22), fill=GOLD)
    # lanyard ring
    draw.ellipse(_box(cx - r * 0.95, cy - r * 0.95, r * 0.3), outline=GOLD, width=_s(r * 0.12))
    # the sound: three arcs by the mouthpiece
    for k in range(3):
        rr = r * (0.55 + 0.28 * k)
        draw.arc(_box(cx + r * 2.25, cy - r * 0.6, rr), start=-40, end=40, fill=GOLD, width=_s(r * 0.09))


def draw_icon(size: int = SIZE) -> Image.Image:
    image = Image.new("RGBA", (_s(SIZE), _s(SIZE)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    # the table: felt with a gold rim, corners rounded (platforms that mask the icon crop it)
    draw.rounded_rectangle([0, 0, _s(SIZE) - 1, _s(SIZE) - 1], radius=_s(220), fill=FELT)
    draw.rounded_rectangle([_s(40), _s(40), _s(SIZE - 40), _s(SIZE - 40)], radius=_s(190), outline=GOLD, width=_s(14))
    draw.ellipse(_box(SIZE / 2, SIZE / 2, 330), fill=FELT_LIGHT)
    chip(draw, 275, 285, 105)
    card(draw, 735, 300, 150, 210)
    banknote(draw, 290, 735, 250, 130)
    fedora(draw, 735, 728, 270)
    whistle(draw, 465, 565, 120)
    return image.resize((size, size), Image.LANCZOS)


def draw_splash(size: int = SIZE) -> Image.Image:
    """The splash: the whistle alone, on transparent (the splash colour is the felt)."""
    image = Image.new("RGBA", (_s(SIZE), _s(SIZE)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    whistle(draw, 420, 540, 230)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    draw_icon().save(ASSETS / "icon.png", optimize=True)
    draw_splash().save(ASSETS / "splash.png", optimize=True)
    print(f"wrote {ASSETS / 'icon.png'} and {ASSETS / 'splash.png'}")


if __name__ == "__main__":
    main()
