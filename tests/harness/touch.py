"""A finger on a phone page in real Chromium: touch events sent through the DevTools protocol
(Input.dispatchTouchEvent), as a phone's touch screen sends them, one Flutter frame per move."""

from __future__ import annotations

from typing import Any


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Finger:
    """One finger of a page whose browser context has touch (`has_touch=True`)."""

    def __init__(self, context: Any, page: Any) -> None:
        self.page = page
        self.session = context.new_cdp_session(page)
        self.at: tuple[float, float] = (0.0, 0.0)

    def send(self, kind: str, x: float = 0, y: float = 0) -> None:
        points = [] if kind in ("touchEnd", "touchCancel") else [{"x": x, "y": y, "id": 1}]
        self.session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def next_frames(self) -> None:
        # a finger moves over frames: Flutter handles each move in the frame after it
        self.page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    def down(self, where: tuple[float, float]) -> None:
        self.at = where
        self.send("touchStart", *where)

    def slide(self, to: tuple[float, float], steps: int = 12) -> None:
        (x0, y0), (x1, y1) = self.at, to
        for i in range(1, steps + 1):
            self.send("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            self.next_frames()
        self.at = to

    def lift(self) -> None:
        self.send("touchEnd")

    def cancel(self) -> None:
        self.send("touchCancel")
