"""Screenshots of every game: its board and a seat's phone page, at phone and tablet sizes, in
each language.

    uv run python tools/screenshots.py [--out DIR] [--game G ...] [--lang L ...]
                                       [--size phone|tablet ...] [--jobs N] [--select]

Each game is scripted into a mid-game state that shows its main mechanic, through the engines'
real actions and the room layer (Host/Room.submit) in a temporary data directory: Vabanque in
the payout of round 1 (the seat page: a player's move), Corruption halfway through a round of
contracts, Chicago Poker in a shootout's reinforcement round, Règlement de comptes after a cake
explosion and the income. The seat page is the page of a player the game waits for, as it looks
on their phone without any secret revealed on screen. One server (`main.py` on loopback) and
one Chromium (Debian's, through Playwright) take every picture.

Files: DIR/<game>/<lang>-<size>-<page>.png (default DIR: build/screenshots, not committed).
--select also copies the README's selection (SELECTION below) into docs/screenshots/.
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
from tests.harness.server import RefereeServer, prepare_rooms  # noqa: E402

GAMES = ("vabanque", "corruption", "chicago_poker", "reglement")
LANGS = ("en", "fr", "ru")
SIZES = {"phone": (360, 780), "tablet": (1280, 800)}
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


def shot_path(out: Path, game: str, lang: str, size: str, page: str) -> Path:
    return out / game / f"{lang}-{size}-{page}.png"


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


async def photograph(browser: Any, url: str, size: str, wait_text: str, path: Path) -> None:
    width, height = SIZES[size]
    # a device of its own: the language a link names is remembered per device
    context = await browser.new_context(viewport={"width": width, "height": height})
    try:
        page = await context.new_page()
        await page.goto(url)
        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=WAIT_MS * 2)
        await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        await page.wait_for_function(SHOWS_JS, arg=wait_text, timeout=WAIT_MS)
        # The canvas paints after the semantics tree, and fonts arrive later still: the picture
        # is taken once two consecutive frames, a moment apart, are the same and not blank.
        previous = b""
        deadline = time.monotonic() + SETTLE_SECONDS
        while True:
            picture = await page.screenshot()
            if picture == previous and not blank(picture):
                break
            if time.monotonic() > deadline:
                if blank(picture):
                    raise RuntimeError(f"{path}: the page was still blank after {SETTLE_SECONDS:.0f} s")
                print(f"warning: {path} never settled", file=sys.stderr)
                break
            previous = picture
            await page.wait_for_timeout(400)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(picture)
    finally:
        await context.close()


async def shoot(server: RefereeServer, scenes: dict[str, tuple[Scene, Scene]], langs: list[str], sizes: list[str], out: Path, jobs: int) -> list[Path]:
    from playwright.async_api import async_playwright

    boards, seats = [], []
    for game, (board, seat) in scenes.items():
        for lang in langs:
            for size in sizes:
                boards.append((server.url(f"/room/{board.room}", k=server.host_token or "", lang=lang), size, board.board_text, shot_path(out, game, lang, size, "board")))
                seats.append((server.url(f"/join/{seat.room}/{seat.seat_token}", lang=lang), size, seat.seat_text, shot_path(out, game, lang, size, "seat")))
    written = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=require_chromium(), args=LAUNCH_ARGS)
        pages_at_once = asyncio.Semaphore(jobs)

        async def take(url: str, size: str, text: str, path: Path) -> None:
            async with pages_at_once:
                await photograph(browser, url, size, text, path)
                written.append(path)

        try:
            # Every board before any phone joins: a board shows which phones are connected.
            for batch in (boards, seats):
                await asyncio.gather(*(take(*job) for job in batch))
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
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all)")
    parser.add_argument("--lang", action="append", choices=LANGS, help="a language (repeatable; default: all)")
    parser.add_argument("--size", action="append", choices=tuple(SIZES), help="phone (360x780) or tablet (1280x800); default both")
    parser.add_argument("--jobs", type=int, default=1, help="pages photographed at once (default 1: on a busy machine more only slows the server)")
    parser.add_argument("--select", action="store_true", help="copy the README's selection into docs/screenshots/")
    args = parser.parse_args(argv)
    if args.select and (args.game or args.lang or args.size):
        parser.error("--select copies from a full run: leave out --game, --lang and --size")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    games, langs, sizes = args.game or list(GAMES), args.lang or list(LANGS), args.size or list(SIZES)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp:
        data_dir = Path(tmp)
        scenes = prepare_rooms(data_dir, lambda host: prepare(host, games))
        server = RefereeServer(data_dir)
        server.start()
        try:
            written = asyncio.run(shoot(server, scenes, langs, sizes, args.out, max(1, args.jobs)))
        finally:
            server.stop()
    print(f"{len(written)} screenshots in {args.out} ({time.monotonic() - started:.0f} s)")
    for path in written:
        print(f"  {path}")
    if args.select:
        for path in select(args.out):
            print(f"selected: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
