"""Read QR codes the way a phone's camera would: from a screenshot PNG, or from the SVG the
board sends (views.common.qr_svg draws one "Mx,yH..V..H..z" square per dark module: drawn here
as a picture, then decoded)."""

from __future__ import annotations

import io
import re


def is_svg(image: bytes) -> bool:
    return image.lstrip().startswith(b"<")


def decode_qr(image: bytes) -> list[str]:
    """The texts of the QR codes in a PNG (e.g. a screenshot) or in one of our QR SVGs."""
    import zxingcpp
    from PIL import Image, ImageDraw

    if is_svg(image):
        text = image.decode()
        side = int(float(re.search(r'viewBox="0 0 ([\d.]+)', text).group(1)))
        scale = 8
        picture = Image.new("L", (side * scale, side * scale), 255)
        draw = ImageDraw.Draw(picture)
        for x, y in re.findall(r"M(\d+),(\d+)H", text):
            draw.rectangle([int(x) * scale, int(y) * scale, (int(x) + 1) * scale - 1, (int(y) + 1) * scale - 1], fill=0)
    else:
        picture = Image.open(io.BytesIO(image))
    return [r.text for r in zxingcpp.read_barcodes(picture)]
