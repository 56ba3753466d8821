"""An in-process table for view tests: one host with one room, served by a `FletHarness`, with the
host board and phones opened as tabs.

    world = await make_world(make_host, harness_factory, "name", "vabanque", vabanque_setup(), seed=SEED)
    board = await world.open_board()
    phone = await world.open_phone(0)
    await world.submit_for(2, {...})     # a seat with no phone in this test
    await world.host_enters({...})       # a public action entered on the board
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.room import Host, Room
from tests.harness.flet_inprocess import FakeBrowser, FletHarness, Tab, normalise

#: a phone's viewport (an iPhone 12-14 in CSS pixels)
PHONE = {"width": 390, "height": 844}


def qr_text_of(image: bytes) -> bytes | str:
    """A QR code image as the text it encodes (then normalised like any string), else as is."""
    from tests.harness.qr import decode_qr, is_svg

    if not is_svg(image) and not image.startswith(b"\x89PNG"):
        return image
    texts = decode_qr(image)
    return f"<qr:{'|'.join(texts)}>" if texts else image


def first_difference(a: list[Any], b: list[Any]) -> str | None:
    """None when equal, else a short description of the first differing frame."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"frame {i} differs:\n  A: {repr(x)[:700]}\n  B: {repr(y)[:700]}"
    if len(a) != len(b):
        return f"frame counts differ: {len(a)} vs {len(b)}"
    return None


@dataclass
class World:
    """One host process with one room, a host board, and phones for some seats."""

    host: Host
    room: Room
    harness: FletHarness
    board: Tab | None = None
    phones: dict[int, Tab] = field(default_factory=dict)
    #: the viewport `open_phone` gives each phone
    phone_size: dict[str, int] = field(default_factory=lambda: dict(PHONE))

    @property
    def replacements(self) -> dict[str, str]:
        """Per-world random public identifiers (room id, host token, seat tokens)."""
        subs = {self.room.id: "<room>", self.host.token: "<host-token>", self.room.table.secret: "<table-secret>"}
        for seat in self.room.seats:
            subs[seat.token] = f"<seat-token-{seat.seat}>"
        # each phone's own device secret (random, kept in its browser's storage)
        for seat, tab in self.phones.items():
            device = tab.browser.storage.get("referee.device")
            if isinstance(device, str):
                subs[device] = f"<device-{seat}>"
        return subs

    def frames(self, tab: Tab, since: int = 0) -> list[Any]:
        """What the server sent `tab` since a `tab.mark()`, with this world's random ids replaced
        (two worlds played alike then compare equal)."""
        return normalise(tab.frames_since(since), self.replacements, blob=qr_text_of)

    def current(self) -> int:
        """The one seat the room waits for."""
        waiting = self.room.view().waiting_for
        assert len(waiting) == 1, waiting
        return waiting[0]

    async def open_board(self) -> Tab:
        self.board = await self.harness.open(f"/room/{self.room.id}?k={self.host.token}", name="board")
        return self.board

    async def open_phone(self, seat: int) -> Tab:
        """The seat's phone opens its link (again: a new tab of the same phone, the same device)."""
        token = self.room.seats[seat].token
        browser = self.phones[seat].browser if seat in self.phones else FakeBrowser(f"phone-{seat}")
        tab = await self.harness.open(f"/join/{self.room.id}/{token}", browser=browser, name=f"phone-{seat}", **self.phone_size)
        self.phones[seat] = tab
        return tab

    async def host_enters(self, raw: dict[str, Any]) -> None:
        """A public action entered on the host board's channel, straight into the room."""
        await self.room.submit(raw, channel="host", seat=None, based_on_version=self.room.version)
        await self.harness.settle()  # one render per action, as with taps

    async def submit_for(self, seat: int, raw: dict[str, Any]) -> None:
        """A seat whose page this test does not drive: its own channel, straight into the room."""
        await self.room.submit(raw, channel="seat", seat=seat, based_on_version=self.room.version)
        await self.harness.settle()


async def make_world(
    make_host: Any, harness_factory: Any, name: str, game_id: str, setup: dict[str, Any], *, seed: int, phone_size: dict[str, int] | None = None
) -> World:
    """A world around a new room (`make_host` and `harness_factory` are the conftest fixtures)."""
    host = make_host(name)
    room = await host.create_room(game_id, setup, seed=seed)
    world = World(host=host, room=room, harness=harness_factory(host))
    if phone_size is not None:
        world.phone_size = dict(phone_size)
    return world


async def show_private(phone: Tab) -> None:
    """Open a phone's private section with the tap alternative (an accepted action closes it)."""
    if not phone.has("hide-private"):
        await phone.click("show-private")
    assert phone.has("hide-private"), phone.identifiers()
