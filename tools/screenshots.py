"""Screenshots of every game: its board and a seat's phone page, at phone and tablet sizes, in
each language; and of the table's moments that are not a game's own (the scenes).

    uv run python tools/screenshots.py [--out DIR] [--scene S ...] [--game G ...] [--lang L ...]
                                       [--size phone|tablet ...] [--jobs N] [--select]

Each game is scripted into a mid-game state that shows its main mechanic, through the engines'
real actions and the room layer (Host/Room.submit) in a temporary data directory: Vabanque in
the payout of round 1 (the seat page: a player's move), Corruption halfway through a round of
contracts, Chicago Poker in a shootout's reinforcement round, Règlement de comptes after a cake
explosion and the income. The seat page is the page of a player the game waits for, as it looks
on their phone without any secret revealed on screen. One server (`main.py` on loopback) and
one Chromium (Debian's, through Playwright) take every picture.

Scenes (--scene, repeatable; default `games` alone, the pictures above; `all` = every scene):
  games          each --game's board and seat page (as above)
  handover       the Vabanque board in the handover window just after a tap for one player: the
                 "Now <name>" cue and the second tap refused ("Now <name>: tap again"); its own
                 server, whose window lasts HANDOVER_SHOT_SECONDS (1.5 s at a real table) so the
                 picture settles inside it; one fresh room per picture (the tap acts)
  take-back      a Vabanque phone just after its secret card ("Take back my move") and the board
                 after a take-back ("<name> took back a move.")
  standings      a finished Vabanque game: the final standings on the board and a phone
  free-seat      the table QR code's page (/table/<room>/<secret>): the free seats to pick from
  deal-picker    Corruption's deal on the host board, two catalogue cards tapped
  seating        Règlement's free seating on the board, with "Seat everyone at random"
--game applies to the `games` scene only.

Files: DIR/<game or scene>/<lang>-<size>-<page>.png (default DIR: build/screenshots, not
committed), and beside each picture a .txt: the page's accessibility tree (its words) when it was
taken. --select also copies the README's selection (SELECTION below) into docs/screenshots/.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from companion.engine import seat_audience  # noqa: E402
from tests.harness.browser import LAUNCH_ARGS, WAIT_MS, require_chromium  # noqa: E402
from tests.harness.browser import device_script as phone_device_script  # noqa: E402
from tests.harness.server import RefereeServer, prepare_rooms  # noqa: E402

GAMES = ("vabanque", "corruption", "chicago_poker", "reglement")
LANGS = ("en", "fr", "ru")
SIZES = {"phone": (360, 780), "tablet": (1280, 800)}
#: `games`: each game's board and seat page; the others: the table's moments (see the docstring)
SCENES = ("games", "handover", "take-back", "standings", "free-seat", "deal-picker", "seating")
#: The handover scene's window (REFEREE_HANDOVER_SECONDS of its own server): long enough for a
#: tap, the refused second tap and a settled picture on a busy machine (a table has 1.5 s).
HANDOVER_SHOT_SECONDS = 30.0
#: how long a page may keep changing before it is photographed anyway
SETTLE_SECONDS = 45.0
DEFAULT_OUT = ROOT / "build" / "screenshots"
SELECTED_DIR = ROOT / "docs" / "screenshots"
#: The README's gallery: each game's board on a tablet, each in another language, and phones.
SELECTION = (
    ("vabanque", "en", "tablet", "board"),
    ("corruption", "fr", "tablet", "board"),
    ("chicago_poker", "ru", "tablet", "board"),
    ("reglement", "en", "tablet", "board"),
    ("vabanque", "ru", "phone", "seat"),
    ("corruption", "en", "phone", "seat"),
    ("chicago_poker", "fr", "phone", "seat"),
    ("reglement", "fr", "phone", "seat"),
)


@dataclass(frozen=True)
class Scene:
    """One game's prepared room: the board's room and the seat whose phone is photographed."""

    game: str
    room: str
    seat: int
    seat_token: str
    #: a name the page must show before it counts as drawn (the seat's own name on its phone)
    board_text: str
    seat_text: str


@dataclass(frozen=True)
class Shot:
    """One picture: a page of the server opened on a device of its own, in a language and a size,
    waited for, maybe acted on (`then`), then photographed."""

    path: Path
    lang: str
    size: str
    #: the page's path on the server (its query: the language, and the host token if `host`)
    route: str
    host: bool = False
    #: the page counts as drawn once its accessibility tree shows this text / this identifier
    wait_text: str | None = None
    wait_ident: str | None = None
    #: taps made once it is drawn, before the picture (the handover's double tap)
    then: Callable[[Any], Awaitable[None]] | None = None
    #: identifiers the page must still show once photographed (else the picture is refused)
    shows: tuple[str, ...] = ()


def shot_path(out: Path, game: str, lang: str, size: str, page: str) -> Path:
    return out / game / f"{lang}-{size}-{page}.png"


def game_shots(scenes: dict[str, tuple[Scene, Scene]], langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """The `games` scene: every board, then every phone (a board shows which phones are
    connected: photographed before any phone joins)."""
    boards, seats = [], []
    for game, (board, seat) in scenes.items():
        for lang in langs:
            for size in sizes:
                boards.append(Shot(shot_path(out, game, lang, size, "board"), lang, size, f"/room/{board.room}", host=True, wait_text=board.board_text))
                seats.append(Shot(shot_path(out, game, lang, size, "seat"), lang, size, f"/join/{seat.room}/{seat.seat_token}", wait_text=seat.seat_text))
    return [boards, seats]


# --- the scripted games --------------------------------------------------------------------------


async def submit(room: Any, raw: dict[str, Any]) -> None:
    """Through the channel a real table uses: public actions on the board, secret ones on the
    owner's phone."""
    action = room.parse(raw)
    if room.game.is_public(action):
        await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
    else:
        await room.submit(raw, channel="seat", seat=action.by, based_on_version=room.version)


async def play_randomly_until(room: Any, done: Callable[[], bool], seed: int, limit: int = 500) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if done():
            return
        action = room.game.random_action(room.state, rng)
        if action is None:
            break
        await submit(room, action.model_dump(mode="json"))
    if not done():
        raise RuntimeError(f"{room.game_id}: the scripted state was not reached")


def scene(game: str, room: Any, seat: int) -> Scene:
    names = room.names
    return Scene(game, room.id, seat, room.seats[seat].token, board_text=names[0], seat_text=names[seat])


async def vabanque(host: Any) -> tuple[Scene, Scene]:
    """The payout of round 1 on the board (cards placed, pawns paid); the phone, in a second room
    with the same deal: Carlotta's pawn to move."""
    players = [("Adriano", "red"), ("Benedetta", "blue"), ("Carlotta", "green"), ("Дмитрий", "yellow")]
    setup = {"players": [{"name": n, "colour": c} for n, c in players], "first_player": 0}
    payout = await host.create_room("vabanque", setup, seed=7)
    await play_randomly_until(payout, lambda: payout.view().phase == "payout", seed=5)
    moves = await host.create_room("vabanque", setup, seed=7)
    carlotta = 2
    await play_randomly_until(moves, lambda: moves.view().phase == "moves" and moves.game.waiting_for(moves.state) == (carlotta,), seed=5)
    return scene("vabanque", payout, 0), scene("vabanque", moves, carlotta)


async def corruption(host: Any) -> tuple[Scene, Scene]:
    """Round 1, six contracts dealt, nine of eighteen cards placed: first cards face up."""
    players = [("Alice", "red"), ("Bruno", "blue"), ("Chloé", "green")]
    room = await host.create_room("corruption", {"players": [{"name": n, "colour": c} for n, c in players], "first_player": 0}, seed=4242)
    contracts = [
        ("city_hall", "Monument", 300_000), ("city_hall", "Opera House", 600_000),
        ("county_seat", "Stadium", 500_000), ("county_seat", "Subway", 800_000),
        ("capitol", "University", 400_000), ("capitol", "Airport", 700_000),
    ]  # fmt: skip
    deal = [{"body": body, "name": name, "value": value} for body, name, value in contracts]
    await submit(room, {"type": "deal_contracts", "by": 0, "contracts": deal})
    monument, opera, stadium, subway, university, airport = range(1, 7)
    plays = [
        (10000, subway), (10000, airport), (10000, university),
        ("hitman", airport), (8000, "city_hall"), ("da", airport),
        (8000, monument), ("reporter", subway), (8000, subway),
        (6000, stadium),
    ]  # fmt: skip
    for turn, (card, location) in enumerate(plays):
        seat = turn % len(players)
        face_up = room.view(seat_audience(seat)).my_legal.face_up
        await submit(room, {"type": "play_card", "by": seat, "card": card, "location": location, "face_up": face_up})
    seat = room.game.waiting_for(room.state)[0]
    return scene("corruption", room, seat), scene("corruption", room, seat)


async def chicago_poker(host: Any) -> tuple[Scene, Scene]:
    """A shootout at the jazz club ends tied; Ada has sent her reinforcement, Bea is to choose."""
    room = await host.create_room("chicago_poker", {"players": [{"name": "Ada", "colour": "red"}, {"name": "Беатриса", "colour": "blue"}], "first_player": 0}, seed=4242)

    def up(seat: int, value: int, colour: str) -> dict[str, Any]:
        return {"type": "play_face_up", "by": seat, "business": 1, "card": {"value": value, "colour": colour}}

    def down(seat: int, value: int, colour: str) -> dict[str, Any]:
        return {"type": "play_face_down", "by": seat, "business": 1, "card": {"value": value, "colour": colour}}

    a, b = 0, 1
    script = [
        {"type": "reveal_tile", "by": a, "kind": "jazz_club"},
        {"type": "reveal_tile", "by": a, "kind": "speakeasy"},
        up(a, 9, "c1"), {"type": "end_turn", "by": a},
        up(b, 9, "c3"), {"type": "draw", "by": b}, {"type": "end_turn", "by": b},
        up(a, 9, "c2"), up(a, 2, "c1"), {"type": "draw", "by": a}, {"type": "end_turn", "by": a},
        up(b, 9, "c4"), up(b, 2, "c2"), {"type": "draw", "by": b}, {"type": "end_turn", "by": b},
        down(a, 3, "c1"), down(a, 4, "c1"), {"type": "draw", "by": a}, {"type": "end_turn", "by": a},
        down(b, 3, "c2"), down(b, 4, "c2"), {"type": "draw", "by": b}, {"type": "end_turn", "by": b},
        {"type": "reveal", "by": None},  # the host board reveals the shootout (log format 2)
        {"type": "reinforce", "by": a, "card": {"value": 13, "colour": "c1"}},
    ]  # fmt: skip
    for raw in script:
        await submit(room, raw)
    assert room.view().phase == "reinforce", room.view().phase
    return scene("chicago_poker", room, b), scene("chicago_poker", room, b)


async def reglement(host: Any) -> tuple[Scene, Scene]:
    """Yvette's cake explodes at the restaurant (three killed), then her income; her turn."""
    from companion.games.reglement import GANG_BY_PLAYERS, KINDS
    from companion.games.reglement_board import default_board

    players = [("Yvette", "yellow"), ("Raoul", "red"), ("Bianca", "blue"), ("Gaston", "green")]
    yellow, red, blue, green = range(4)
    # the gangsters on the board's seats in ring order, players taking turns
    kinds = {p: [k for k, n in zip(KINDS, GANG_BY_PLAYERS[4], strict=True) for _ in range(n)] for p in range(4)}
    ids = default_board().ids
    preset = [{"player": i % 4, "kind": kinds[i % 4].pop(0), "seat": ids[i]} for i in range(4 * sum(GANG_BY_PLAYERS[4]))]
    setup = {"players": [{"name": n, "colour": c} for n, c in players], "seating": "preset", "preset": preset}
    room = await host.create_room("reglement", setup, seed=5150)
    script = [
        {"type": "order_cake", "by": yellow, "seat": "G"}, {"type": "end_turn", "by": yellow},
        {"type": "discard", "by": red}, {"type": "end_turn", "by": red},
        {"type": "discard", "by": blue}, {"type": "end_turn", "by": blue},
        {"type": "discard", "by": green}, {"type": "end_turn", "by": green},
    ]  # fmt: skip
    for raw in script:
        await submit(room, raw)
    assert room.view().turn == yellow
    return scene("reglement", room, yellow), scene("reglement", room, yellow)


SCRIPTS: dict[str, Callable[[Any], Awaitable[tuple[Scene, Scene]]]] = {
    "vabanque": vabanque,
    "corruption": corruption,
    "chicago_poker": chicago_poker,
    "reglement": reglement,
}


async def prepare(host: Any, games: list[str]) -> dict[str, tuple[Scene, Scene]]:
    """Per game: (the board's scene, the seat's scene); one room, or two for Vabanque."""
    return {game: await SCRIPTS[game](host) for game in games}


# --- the scenes: the table's moments that are not one game's ----------------------------------

VABANQUE_PLAYERS = [("Adriano", "red"), ("Benedetta", "blue"), ("Carlotta", "green"), ("Дмитрий", "yellow")]


def vabanque_setup() -> dict[str, Any]:
    return {"players": [{"name": n, "colour": c} for n, c in VABANQUE_PLAYERS], "first_player": 0}


#: the centre of the first node (in drawing order) whose identifier starts with the prefix and
#: that lies wholly on screen, skipping the identifiers given; null if none
ON_SCREEN_JS = """([prefix, skip]) => {
    for (const e of document.querySelectorAll('[flt-semantics-identifier]')) {
        const id = e.getAttribute('flt-semantics-identifier');
        if (!id.startsWith(prefix) || skip.includes(id)) continue;
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth)
            return [id, r.left + r.width / 2, r.top + r.height / 2];
    }
    return null;
}"""
#: True once a node with this identifier is in the accessibility tree
IDENT_JS = """(id) => document.querySelector(`[flt-semantics-identifier="${id}"]`) !== null"""
#: True once at least n of the deal's slots say which card they hold
#: slots holding a card: their title says it ("City Hall 1 · Monument · 100,000"; a tablet's
#: board shows no slot's "picked" line until the slot is opened)
PICKED_JS = """(n) => [...document.querySelectorAll('[flt-semantics-identifier^="deal-slot-"]')]
    .filter(e => ((e.getAttribute('aria-label') || '') + (e.textContent || '')).includes('·')).length >= n"""


async def on_screen(page: Any, prefix: str, skip: tuple[str, ...] = ()) -> tuple[str, float, float]:
    found = await page.evaluate(ON_SCREEN_JS, [prefix, list(skip)])
    if found is None:
        raise RuntimeError(f"{page.url}: no {prefix}* control on screen")
    return found[0], found[1], found[2]


async def double_tap_a_table(page: Any) -> None:
    """A chip entered for the player to place (a tap on a table), then the same spot again, as a
    hurried finger would: the board now acts for the next player, so it refuses the tap."""
    _, x, y = await on_screen(page, "table-")
    await page.mouse.click(x, y)
    await page.wait_for_function(IDENT_JS, arg="handover-now", timeout=WAIT_MS)
    await page.mouse.click(x, y)
    await page.wait_for_function(IDENT_JS, arg="banner", timeout=WAIT_MS)


async def pick_two_contracts(page: Any) -> None:
    """Two taps on the deal's catalogue cards: two slots filled, the cards dimmed where they were."""
    tapped: tuple[str, ...] = ()
    for count in (1, 2):
        identifier, x, y = await on_screen(page, "deal-card-", tapped)
        await page.mouse.click(x, y)
        tapped += (identifier,)
        await page.wait_for_function(PICKED_JS, arg=count, timeout=WAIT_MS)


def every(out: Path, scene: str, langs: list[str], sizes: list[str], page: str, route: str, **options: Any) -> list[Shot]:
    return [Shot(shot_path(out, scene, lang, size, page), lang, size, route, **options) for lang in langs for size in sizes]


async def handover_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """A fresh Vabanque room per picture, at its first chip: the double tap acts once."""
    shots = []
    for lang in langs:
        for size in sizes:
            room = await host.create_room("vabanque", vabanque_setup(), seed=7)
            shots.append(
                Shot(shot_path(out, "handover", lang, size, "board"), lang, size, f"/room/{room.id}", host=True, wait_ident="table-1", then=double_tap_a_table, shows=("handover-now", "banner"))
            )
    return [shots]


async def take_back_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """Vabanque's cards: the first player to place a card has placed it (their phone offers to
    take it back); in a second room with the same deal they took it back (the board says so)."""
    rooms = []
    for _ in range(2):
        room = await host.create_room("vabanque", vabanque_setup(), seed=7)
        await play_randomly_until(room, lambda room=room: room.view().phase == "cards", seed=5)
        action = room.game.random_action(room.state, random.Random(5))
        assert action is not None and not room.game.is_public(action), action
        await submit(room, action.model_dump(mode="json"))
        rooms.append((room, action.by))
    (placed, seat), (taken, again) = rooms
    await taken.take_back(again, based_on_version=taken.version)
    return [
        every(out, "take-back", langs, sizes, "board", f"/room/{taken.id}", host=True, wait_text=taken.names[0]),
        every(out, "take-back", langs, sizes, "seat", f"/join/{placed.id}/{placed.seats[seat].token}", wait_ident="take-back", shows=("take-back",)),
    ]


async def standings_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """A Vabanque game played to its end at random: the board, then a phone that did not win."""
    room = await host.create_room("vabanque", vabanque_setup(), seed=8)
    rng = random.Random(5)
    while (action := room.game.random_action(room.state, rng)) is not None:
        await submit(room, action.model_dump(mode="json"))
    rows = room.game.standings(room.state)
    assert rows is not None, "the game did not end"
    seat = next(row.seat for row in rows if not row.winner)
    return [
        every(out, "standings", langs, sizes, "board", f"/room/{room.id}", host=True, wait_ident="final-standings", shows=("final-standings",)),
        every(out, "standings", langs, sizes, "seat", f"/join/{room.id}/{room.seats[seat].token}", wait_ident="my-place", shows=("my-place",)),
    ]


async def free_seat_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """A new Vabanque room: the page its table QR code opens, every seat free."""
    room = await host.create_room("vabanque", vabanque_setup(), seed=7)
    assert room.table.free_seats
    return [every(out, "free-seat", langs, sizes, "seat", f"/table/{room.id}/{room.table.secret}", wait_ident="claim-0", shows=("claim-0",))]


async def deal_picker_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """Corruption's first deal on the host board (each picture's own device: its own form)."""
    players = [("Alice", "red"), ("Bruno", "blue"), ("Chloé", "green")]
    room = await host.create_room("corruption", {"players": [{"name": n, "colour": c} for n, c in players], "first_player": 0}, seed=4242)
    return [every(out, "deal-picker", langs, sizes, "board", f"/room/{room.id}", host=True, wait_ident="deal-form", then=pick_two_contracts, shows=("deal-form",))]


async def seating_scene(host: Any, langs: list[str], sizes: list[str], out: Path) -> list[list[Shot]]:
    """Règlement's free seating, two gangsters placed by hand: the board offers the rest at random;
    the next placer's phone keeps the seats taken in their places."""
    players = [("Yvette", "yellow"), ("Raoul", "red"), ("Bianca", "blue"), ("Gaston", "green")]
    room = await host.create_room("reglement", {"players": [{"name": n, "colour": c} for n, c in players], "first_placer": 2}, seed=5150)
    await play_randomly_until(room, lambda: len(room.log_entries) >= 2, seed=3)
    assert room.view().phase == "seating", room.view().phase
    placer = room.view().placer
    assert placer is not None
    empty = next(s.id for s in room.view().seats if s.gangster is None)
    return [
        every(out, "seating", langs, sizes, "board", f"/room/{room.id}", host=True, wait_ident="seat-random", shows=("seat-random",)),
        every(out, "seating", langs, [s for s in sizes if s == "phone"], "seat", f"/join/{room.id}/{room.seats[placer].token}", wait_ident=f"pick-{empty}", shows=(f"pick-{empty}",)),
    ]


EXTRA_SCENES: dict[str, Callable[[Any, list[str], list[str], Path], Awaitable[list[list[Shot]]]]] = {
    "handover": handover_scene,
    "take-back": take_back_scene,
    "standings": standings_scene,
    "free-seat": free_seat_scene,
    "deal-picker": deal_picker_scene,
    "seating": seating_scene,
}
#: what a scene's server needs in its environment besides the caller's (one server per setting)
SCENE_ENV = {"handover": {"REFEREE_HANDOVER_SECONDS": f"{HANDOVER_SHOT_SECONDS:g}"}}


async def prepare_scenes(host: Any, scenes: list[str], games: list[str], langs: list[str], sizes: list[str], out: Path) -> dict[str, list[list[Shot]]]:
    """Per scene: its pictures, in batches taken one after another."""
    prepared = {}
    for name in scenes:
        if name == "games":
            prepared[name] = game_shots(await prepare(host, games), langs, sizes, out)
        else:
            prepared[name] = await EXTRA_SCENES[name](host, langs, sizes, out)
    return prepared


# --- the pictures ----------------------------------------------------------------------------------

#: True once the semantics tree holds `text` (in a node's text or in the label Flutter folds a
#: group's texts into).
SHOWS_JS = """(text) => [...document.querySelectorAll('flt-semantics')]
    .some(e => ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')).includes(text))"""


def blank(png: bytes) -> bool:
    """Nearly one colour all over: a page not painted yet, or Flet's "Working..." screen (a
    spinner and a word on white, shown while the server is slow to answer). The emptiest real
    page here is about 90% its background colour."""
    with Image.open(io.BytesIO(png)) as image:
        return dominant_share(image) > 0.97


def dominant_share(image: Any) -> float:
    """The share of the picture's pixels that have its commonest colour."""
    rgb = image.convert("RGB")
    colours = rgb.getcolors(rgb.width * rgb.height)
    return max(count for count, _ in colours) / (rgb.width * rgb.height)


#: the page's words, for the .txt beside its picture, if Playwright's snapshot fails
TEXTS_JS = """() => [...document.querySelectorAll('flt-semantics')]
    .map(e => (e.getAttribute('aria-label') || '') + ' ' + ([...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' ')))
    .map(t => t.trim()).filter(t => t).join('\\n')"""


def url_of(server: RefereeServer, shot: Shot) -> str:
    query = {"k": server.host_token or ""} if shot.host else {}
    return server.url(shot.route, **query, lang=shot.lang)


#: consecutive equal frames, PAUSE_MS apart, before a page counts as painted
STILL_FRAMES = 3
PAUSE_MS = 400


async def settled_picture(page: Any, path: Path, differs_from: bytes | None = None) -> bytes:
    """The page's picture once it stopped changing: STILL_FRAMES equal frames in a row, not blank
    (the canvas paints after the semantics tree, and fonts arrive later still) and, if given,
    not `differs_from` (the taps made are drawn)."""
    frames: list[bytes] = []
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        picture = await page.screenshot()
        frames = [*frames[-(STILL_FRAMES - 1):], picture]
        if len(frames) == STILL_FRAMES and len(set(frames)) == 1 and not blank(picture) and picture != differs_from:
            return picture
        if time.monotonic() > deadline:
            if blank(picture):
                raise RuntimeError(f"{path}: the page was still blank after {SETTLE_SECONDS:.0f} s")
            if picture == differs_from:
                raise RuntimeError(f"{path}: the taps were never drawn in {SETTLE_SECONDS:.0f} s")
            print(f"warning: {path} never settled", file=sys.stderr)
            return picture
        await page.wait_for_timeout(PAUSE_MS)


async def photograph(browser: Any, server: RefereeServer, shot: Shot) -> None:
    width, height = SIZES[shot.size]
    path = shot.path
    # a device of its own: the language a link names is remembered per device
    context = await browser.new_context(viewport={"width": width, "height": height})
    url = url_of(server, shot)
    if "/join/" in url:
        # a seat answers the one device that claimed it: every size and language is that phone
        await context.add_init_script(phone_device_script(url.split("/join/", 1)[1].split("?")[0]))
    try:
        page = await context.new_page()
        await page.goto(url_of(server, shot))
        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=WAIT_MS * 2)
        await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        if shot.wait_text is not None:
            await page.wait_for_function(SHOWS_JS, arg=shot.wait_text, timeout=WAIT_MS)
        if shot.wait_ident is not None:
            await page.wait_for_function(IDENT_JS, arg=shot.wait_ident, timeout=WAIT_MS)
        if shot.then is None:
            picture = await settled_picture(page, path)
        else:
            # The canvas is rasterised after the accessibility tree changes, and on a busy
            # machine more than a second later: the taps' picture is the first settled one that
            # differs from the page before them.
            before = await settled_picture(page, path)
            await shot.then(page)
            picture = await settled_picture(page, path, differs_from=before)
        try:
            words = await page.locator("body").aria_snapshot(timeout=WAIT_MS)
        except Exception:  # noqa: BLE001 - the words are a by-product: the picture counts
            words = await page.evaluate(TEXTS_JS)
        # checked after the picture: a state that ended meanwhile (the handover window) is refused
        for identifier in shot.shows:
            if not await page.evaluate(IDENT_JS, identifier):
                raise RuntimeError(f"{path}: {identifier!r} was gone when the picture was taken")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(picture)
        path.with_suffix(".txt").write_text(words + "\n", encoding="utf-8")
    finally:
        await context.close()


async def shoot(server: RefereeServer, batches: list[list[Shot]], jobs: int) -> list[Path]:
    from playwright.async_api import async_playwright

    written = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=require_chromium(), args=LAUNCH_ARGS)
        pages_at_once = asyncio.Semaphore(jobs)

        async def take(shot: Shot) -> None:
            from playwright.async_api import TimeoutError as PlaywrightTimeout

            async with pages_at_once:
                try:
                    await photograph(browser, server, shot)
                except PlaywrightTimeout:
                    # A renderer that stalls for 30 s (seen on a loaded machine) is given one
                    # more try on a fresh page; a second stall is a real failure.
                    print(f"{shot.path}: timed out, taken again", file=sys.stderr, flush=True)
                    await photograph(browser, server, shot)
                written.append(shot.path)

        try:
            for batch in batches:  # one batch after another (the games: boards before phones)
                await asyncio.gather(*(take(shot) for shot in batch))
        finally:
            await browser.close()
    return sorted(written)


def select(out: Path) -> list[Path]:
    sources = [shot_path(out, *chosen) for chosen in SELECTION]
    missing = [str(source) for source in sources if not source.exists()]
    if missing:
        raise SystemExit(f"--select needs {', '.join(missing)}: run it without --game/--lang/--size")
    SELECTED_DIR.mkdir(parents=True, exist_ok=True)
    copied = []
    for (game, lang, size, page), source in zip(SELECTION, sources, strict=True):
        target = SELECTED_DIR / f"{game}-{lang}-{size}-{page}.png"
        shutil.copyfile(source, target)
        copied.append(target)
    return copied


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT.relative_to(ROOT)})")
    parser.add_argument("--scene", action="append", choices=(*SCENES, "all"), help="a scene (repeatable; default: games; all: every scene)")
    parser.add_argument("--game", action="append", choices=GAMES, help="a game of the games scene (repeatable; default: all)")
    parser.add_argument("--lang", action="append", choices=LANGS, help="a language (repeatable; default: all)")
    parser.add_argument("--size", action="append", choices=tuple(SIZES), help="phone (360x780) or tablet (1280x800); default both")
    parser.add_argument("--jobs", type=int, default=1, help="pages photographed at once (default 1: on a busy machine more only slows the server)")
    parser.add_argument("--select", action="store_true", help="copy the README's selection into docs/screenshots/")
    args = parser.parse_args(argv)
    args.scene = list(SCENES) if "all" in (args.scene or []) else list(dict.fromkeys(args.scene or ["games"]))
    if args.select and (args.game or args.lang or args.size or "games" not in args.scene):
        parser.error("--select copies from a full run of the games scene: leave out --game, --lang and --size")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    games, langs, sizes = args.game or list(GAMES), args.lang or list(LANGS), args.size or list(SIZES)
    started = time.monotonic()
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp:
        data_dir = Path(tmp) / "data"
        data_dir.mkdir()
        # the deal's value memory writes to the contract catalogue: a copy, never the shipped one
        from companion.games.corruption import CATALOGUE_PATH

        catalogue = Path(tmp) / "contracts.json"
        shutil.copyfile(CATALOGUE_PATH, catalogue)
        prepared = prepare_rooms(data_dir, lambda host: prepare_scenes(host, args.scene, games, langs, sizes, args.out))
        # one server per environment the scenes need, one after another on the same data
        by_env: dict[tuple[tuple[str, str], ...], list[list[Shot]]] = {}
        for name, batches in prepared.items():
            by_env.setdefault(tuple(sorted(SCENE_ENV.get(name, {}).items())), []).extend(batches)
        for env, batches in by_env.items():
            server = RefereeServer(data_dir, env={"CORRUPTION_CATALOGUE": str(catalogue), **dict(env)})
            server.start()
            try:
                written += asyncio.run(shoot(server, batches, max(1, args.jobs)))
            finally:
                server.stop()
    written.sort()
    print(f"{len(written)} screenshots in {args.out} ({time.monotonic() - started:.0f} s)")
    for path in written:
        print(f"  {path}")
    if args.select:
        for path in select(args.out):
            print(f"selected: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
