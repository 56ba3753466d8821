"""The tests' QR reader (tests/harness/qr.py) reads QR codes only.

With every barcode format on, zxing read a column of this BG Stats QR code (the link of a finished
Règlement play, tests/test_endgame_views.py) as a valid EAN-13 code, '3300423756919', beside the
QR code itself: the end-screen test then found two codes where the board shows one."""

from __future__ import annotations

from tests.harness.qr import decode_qr, picture_of
from views.common import qr_svg

#: a play link whose QR code holds a false EAN-13 (found among some 3000 random plays' links)
LINK = (
    "https://app.bgstatsapp.com/addPlay.html?data=%7B%22sourceName%22:%22Table%20referee%22,%22"
    "sourcePlayId%22:%22142373-31%22,%22playDate%22:%222026-09-12%2012:54:15%22,%22durationMin%"
    "22:1,%22game%22:%7B%22name%22:%22R%C3%A8glement%20de%20comptes%22,%22sourceGameId%22:%22re"
    "glement%22,%22highestWins%22:true,%22noPoints%22:false%7D,%22players%22:%5B%7B%22name%22:%"
    "22Anna%22,%22sourcePlayerId%22:%22reglement-seat-0%22,%22score%22:55000.0,%22rank%22:1,%22"
    "winner%22:true,%22startPlayer%22:false,%22role%22:%22%22%7D,%7B%22name%22:%22Boris%22,%22s"
    "ourcePlayerId%22:%22reglement-seat-1%22,%22score%22:35000.0,%22rank%22:2,%22winner%22:fals"
    "e,%22startPlayer%22:true,%22role%22:%22%22%7D,%7B%22name%22:%22Chloe%22,%22sourcePlayerId%"
    "22:%22reglement-seat-2%22,%22score%22:30000.0,%22rank%22:3,%22winner%22:false,%22startPlay"
    "er%22:false,%22role%22:%22%22%7D%5D,%22board%22:%22%22,%22comments%22:%22%22%7D"
)


def test_a_qr_code_reads_as_its_text_alone() -> None:
    assert decode_qr(qr_svg(LINK)) == [LINK]


def test_the_false_ean_13_is_there_for_a_reader_of_every_format() -> None:
    """The case is real: the same picture read for every format gives the extra code."""
    import zxingcpp

    found = [r.text for r in zxingcpp.read_barcodes(picture_of(qr_svg(LINK)))]
    assert sorted(found) == sorted([LINK, "3300423756919"])
