"""Read QR codes the way a phone's camera would: from a screenshot PNG, or from the SVG the
board sends (views.common.qr_svg draws one "Mx,yH..V..H..z" square per dark module: drawn here
as a picture, then decoded).

Only QR codes are looked for: with every format on, zxing once read a column of a BG Stats QR code
(tests/test_endgame_views.py) as a valid EAN-13 barcode, '3300423756919', beside the QR code
itself (2 of some 3000 random plays' links in a trial: a link carries its play's id and time).
The pages show QR codes only, and a QR code's modules can line up as a 1-D code anywhere."""

from __future__ import annotations

import io
import re
from typing import Any


def is_svg(image: bytes) -> bool:
    return image.lstrip().startswith(b"<")


def picture_of(image: bytes) -> Any:
    """A PNG, or one of our QR SVGs drawn 8 px a module, as a PIL image."""
    from PIL import Image, ImageDraw

    if not is_svg(image):
        return Image.open(io.BytesIO(image))
    text = image.decode()
    side = int(float(re.search(r'viewBox="0 0 ([\d.]+)', text).group(1)))
    scale = 8
    picture = Image.new("L", (side * scale, side * scale), 255)
    draw = ImageDraw.Draw(picture)
    for x, y in re.findall(r"M(\d+),(\d+)H", text):
        draw.rectangle([int(x) * scale, int(y) * scale, (int(x) + 1) * scale - 1, (int(y) + 1) * scale - 1], fill=0)
    return picture


def decode_qr(image: bytes) -> list[str]:
    """The texts of the QR codes in a PNG (e.g. a screenshot) or in one of our QR SVGs."""
    import zxingcpp

    return [r.text for r in zxingcpp.read_barcodes(picture_of(image), formats=zxingcpp.BarcodeFormat.QRCode)]
