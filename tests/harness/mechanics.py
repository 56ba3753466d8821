"""The shared table mechanics' browser tests, per game: one table of adapters, so that each
mechanic is tested by one test parametrised over the four games (tests/test_pad_browser.py: the
hold-and-slide pad and "Show my cards"; tests/test_handover_browser.py: the handover guard).

Each game's adapter says how to prepare a room at the state the mechanic needs (scripted with
the room's own `submit`, as a table would play it, before the server starts: `prepare_rooms`),
which control to act on and what shows the result, and what of a seat is secret. The tests rely
only on the identifiers the shared mechanics give every game (`hold-private`, `show-private`,
`hide-private`, a choice's identifier such as `card-*`, `help-*`, `value-*`, the board's act-for
controls, `banner`, `handover-now`, `undo`), not on a game's layout.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import seat_audience
from companion.i18n import Translator
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup

GAMES = ("vabanque", "corruption", "chicago_poker", "reglement")
EN = Translator("en")

# --------------------------------------------------------------------------------------------
# the pad: a phone whose pad holds a first-step choice
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secrets:
    """What only one seat may receive: `idents`, identifiers of controls built only while its
    pad is open (found as whole strings); `texts`, words found anywhere in a string."""

    idents: tuple[str, ...]
    texts: tuple[str, ...] = ()

    def found(self, strings: list[str]) -> set[str]:
        whole = set(strings)
        return {s for s in self.idents if s in whole} | {t for t in self.texts if any(t in s for s in strings)}


@dataclass(frozen=True)
class PadRoom:
    """A prepared room: `seat`'s phone holds `choice` behind its pad; `other` is another seat."""

    room: str
    seat: int
    token: str
    other: int
    other_token: str
    #: the identifier of a first-step choice shown while the pad is held
    choice: str
    secrets: Secrets


@dataclass(frozen=True)
class Pad:
    """How a game's pad is tested."""

    prepare: Callable[[Any], Awaitable[PadRoom]]
    #: the lift on the choice leaves the cards shown with the choice marked (a first step whose
    #: next step comes in view: `choice_target(then_open=True)`); else the lift hides the cards
    #: and `picked_mark` shows that a choice was made
    then_open: bool
    picked_mark: str | None = None


def pad_room(room: Any, seat: int, other: int, choice: str, secrets: Secrets) -> PadRoom:
    return PadRoom(room.id, seat, room.seats[seat].token, other, room.seats[other].token, choice, secrets)


#: Vabanque: the chips of round 1 on the tables, in turn
VABANQUE_CHIPS = [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]


async def vabanque_pad(host: Any) -> PadRoom:
    """Round 1's chips placed: Bruno (seat 1) picks his first card."""
    seat = 1
    room = await host.create_room("vabanque", vabanque_setup(first_player=seat), seed=VABANQUE_SEED)
    for table in VABANQUE_CHIPS:
        await room.submit({"type": "place_chip", "by": room.view().waiting_for[0], "table": table}, channel="host", seat=None, based_on_version=room.version)
    assert room.view().phase == "cards" and room.view().waiting_for == (seat,)
    cards = room.view(seat_audience(seat)).my_legal.cards
    assert set(cards) == {"raise", "bluff", "cheat"}, cards
    # no card is public before the first payout: every name is this seat's secret
    secrets = Secrets(idents=("card-choices", *(f"card-{c}" for c in cards)), texts=tuple(EN.t(f"vabanque.card.{c}") for c in cards))
    return pad_room(room, seat, 0, "card-bluff", secrets)


async def corruption_pad(host: Any) -> PadRoom:
    """Round 1, ten of eighteen cards placed (tools/screenshots.py): the next seat places a card."""
    from tools.screenshots import corruption

    scene, _ = await corruption(host)
    room = host.rooms[scene.room]
    seat = scene.seat
    cards = room.view(seat_audience(seat)).my_legal.cards
    assert len(cards) >= 2, cards
    # the cards in this seat's hand, as its picker names them (the board's own cards are
    # `card-<place>`, its entry's `board-card-<card>`: other strings)
    secrets = Secrets(idents=("card-choices", *(f"card-{c}" for c in cards)))
    return pad_room(room, seat, (seat + 1) % len(room.seats), f"card-{cards[0]}", secrets)


async def chicago_pad(host: Any) -> PadRoom:
    """Ada's turn 5 (her cards at the jazz club go face down): one face-down card played, the
    value of the next picked from the pad."""
    from tests.test_chicago_poker_views import OPENING, SEED, A, B, cp_setup

    room = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
    for raw in OPENING:
        await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
    card = {"type": "play_face_down", "by": A, "business": 1, "card": {"value": 11, "colour": "c4"}}
    await room.submit(card, channel="seat", seat=A, based_on_version=room.version)
    view = room.view(seat_audience(A))
    assert view.phase == "actions" and view.current == A and view.me.face_down and view.my_legal.play, view
    # the card entry and the seat's face-down cards (the picker's values and colours are the
    # board's too: it enters face-up cards with them)
    secrets = Secrets(idents=("play-card", "my-face-down"))
    return pad_room(room, A, B, "value-5", secrets)


async def reglement_pad(host: Any) -> PadRoom:
    """Yvette's turn (tools/screenshots.py): the rules helper lists the cards she may play."""
    from tools.screenshots import reglement

    scene, _ = await reglement(host)
    room = host.rooms[scene.room]
    seat = scene.seat
    options = room.view(seat_audience(seat)).my_options
    assert options, "no card for the helper"
    secrets = Secrets(idents=("help-choices", *(f"help-{o.card}" for o in options)))
    return pad_room(room, seat, (seat + 1) % len(room.seats), f"help-{options[0].card}", secrets)


PADS: dict[str, Pad] = {
    # a card picked with a lift hides the cards; the tables to place it on show
    "vabanque": Pad(vabanque_pad, then_open=False, picked_mark="seat-table-1"),
    "corruption": Pad(corruption_pad, then_open=True),
    "chicago_poker": Pad(chicago_pad, then_open=True),
    "reglement": Pad(reglement_pad, then_open=True),
}

# --------------------------------------------------------------------------------------------
# the handover guard: the host board acts for one player, then for the next
# --------------------------------------------------------------------------------------------

#: Corruption's deal of tests/test_corruption_views.py (contract ids 1..6 left to right)
CORRUPTION_DEAL = [
    {"body": "city_hall", "name": "Monument", "value": 300000},
    {"body": "city_hall", "name": "Opera House", "value": 600000},
    {"body": "county_seat", "name": "Stadium", "value": 500000},
    {"body": "county_seat", "name": "Subway", "value": 800000},
    {"body": "capitol", "name": "University", "value": 400000},
    {"body": "capitol", "name": "Airport", "value": 700000},
]
#: Règlement free seating: chairs tapped on the board, one pair each (all empty at the start)
CHAIRS = ["A", "C", "E", "G", "I"]
#: tables tapped on the Vabanque board, one pair of taps each
CHIP_TABLES = [2, 4, 6, 1, 7]


@dataclass(frozen=True)
class Handover:
    """A game's act-for control on the host board whose action hands the turn to another player.

    `tap(i)` is the control tapped twice in the i-th pair. Either each pair taps another control
    (`undo=False`), or the host undoes the action after each pair (`undo=True`: the undo hands the
    turn back to the player the board showed before, which opens a window of its own). `then`,
    if given, is the next player's control drawn where the first one was (checked to be under the
    second tap). `opens`: taps that open the board's entry before the first pair."""

    room: str
    tap: Callable[[int], str]
    #: names of who may be named in the second tap's refusal ("Now Chloe: tap again")
    next_names: tuple[str, ...]
    undo: bool = False
    then: str | None = None
    opens: tuple[str, ...] = ()


def _corruption_handover() -> Handover:
    from tests.test_corruption_views import AIRPORT, OPERA

    # Bruno's Swiss 8k assigned on the board to the Opera House (City Hall's second contract);
    # Chloe's Swiss assignment is drawn there next (the Capitol's second contract, the Airport)
    return Handover("corruption_awards", lambda _i: f"board-swiss-to-{OPERA}", ("Chloe",), undo=True, then=f"board-swiss-to-{AIRPORT}", opens=("board-enter",))


def handovers() -> dict[str, Handover]:
    from tests.test_reglement_views import NAMES as REGLEMENT_NAMES

    return {
        # a chip for one player, the same table's target then the next player's
        "vabanque": Handover("vabanque", lambda i: f"table-{CHIP_TABLES[i]}", tuple(p["name"] for p in VABANQUE_PLAYERS)),
        "corruption": _corruption_handover(),
        # "End Ada's turn" (her actions spent), the same spot then Bea's
        "chicago_poker": Handover("chicago_end_turn", lambda _i: "end-turn", ("Bea",), undo=True),
        # free seating: a chair for the placer, the same chair then the next placer's
        "reglement": Handover("reglement", lambda i: f"chair-{CHAIRS[i]}", tuple(REGLEMENT_NAMES)),
    }


@dataclass(frozen=True)
class PhoneTwice:
    """A phone whose player acts twice in a row: the second tap of a double tap lands on the same
    player's next choice (`then`, if given, is checked to be under it). `ready`: the identifier
    (and text) that show the phone has drawn the undone action again."""

    room: str
    seat: int
    tap: str
    ready: tuple[str, str | None]
    then: str | None = None
    #: an act-for control the host board then taps for the same player: no handover cue ("Now
    #: ...") for a player who acts on
    board_then: str | None = None


def phone_twice() -> dict[str, PhoneTwice]:
    from tests.test_chicago_poker_views import A
    from tests.test_corruption_views import OPERA, SUBWAY, B

    return {
        # Ada's phone: a draw, then her next action drawn under the finger; then the board draws
        # for her
        "chicago_poker": PhoneTwice("chicago_poker", A, "draw", ready=("my-facts", "3 actions left"), board_then="draw"),
        # Bruno's Swiss 8k to the Opera House; his Swiss 2k on the County Seat (its second
        # contract, the Subway) drawn there next
        "corruption": PhoneTwice("corruption_twice", B, f"swiss-to-{OPERA}", ready=(f"swiss-to-{OPERA}", None), then=f"swiss-to-{SUBWAY}"),
    }


async def handover_rooms(host: Any) -> dict[str, Any]:
    """The rooms the handover tests tap in, by name (see `handovers`, `phone_twice`)."""
    from tests.test_chicago_poker_views import OPENING, SEED, A, cp_setup
    from tests.test_corruption_views import PLAYERS as CORRUPTION_PLAYERS
    from tests.test_corruption_views import ROUND as CORRUPTION_ROUND
    from tests.test_corruption_views import SEED as CORRUPTION_SEED
    from tests.test_reglement_views import PLAYERS as REGLEMENT_PLAYERS
    from tests.test_reglement_views import SEED as REGLEMENT_SEED

    async def public(room: Any, raw: dict[str, Any]) -> None:
        await room.submit(raw, channel="host", seat=None, based_on_version=room.version)

    rooms: dict[str, Any] = {"vabanque": await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)}
    # Chicago Poker at Ada's turn 5; and the same with her three actions spent (three draws)
    rooms["chicago_poker"] = chicago = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
    rooms["chicago_end_turn"] = spent = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
    for room in (chicago, spent):
        for raw in OPENING:
            await public(room, raw)
    for _ in range(3):
        await public(spent, {"type": "draw", "by": A})
    assert spent.view().current == A and spent.view().actions_left == 0, spent.view()
    rooms["reglement"] = await host.create_room("reglement", {"players": REGLEMENT_PLAYERS, "first_placer": 2}, seed=REGLEMENT_SEED)
    # a second Vabanque table at its pawn moves: chips and cards entered for every seat
    rooms["vabanque_moves"] = moves = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
    for table in VABANQUE_CHIPS:
        await public(moves, {"type": "place_chip", "by": moves.view().waiting_for[0], "table": table})
    hands: dict[int, list[tuple[str, int]]] = {1: [("raise", 1), ("bluff", 3), ("cheat", 5)], 2: [("bluff", 2), ("raise", 4), ("cheat", 6)], 0: [("cheat", 7), ("bluff", 6), ("raise", 2)]}
    while moves.view().phase == "cards":
        seat = moves.view().waiting_for[0]
        card, where = hands[seat].pop(0)
        await moves.submit({"type": "place_card", "by": seat, "table": where, "card": card}, channel="seat", seat=seat, based_on_version=moves.version)
    assert moves.view().phase == "moves"
    # Corruption, two tables with every card placed and revealed, at Bruno's first Swiss
    # assignment: the round of tests/test_corruption_views.py (Chloe's Swiss assignment next),
    # and the same with Bruno's last card on the County Seat's Swiss account (his own second
    # assignment next)
    rooms["corruption_awards"] = awards = await host.create_room("corruption", {"players": CORRUPTION_PLAYERS, "first_player": 0}, seed=CORRUPTION_SEED)
    rooms["corruption_twice"] = twice = await host.create_room("corruption", {"players": CORRUPTION_PLAYERS, "first_player": 0}, seed=CORRUPTION_SEED)
    # the 17th card, Bruno's last (2k on the Monument), goes to the County Seat's Swiss account
    round_twice = [*CORRUPTION_ROUND[:16], (2000, "county_seat"), CORRUPTION_ROUND[17]]
    for room, cards in ((awards, CORRUPTION_ROUND), (twice, round_twice)):
        await public(room, {"type": "deal_contracts", "by": 0, "contracts": CORRUPTION_DEAL})
        for card, location in cards:
            seat = room.view().waiting_for[0]
            face_up = room.view().cards_placed[seat] == 0 and not isinstance(location, str)
            await room.submit({"type": "play_card", "by": seat, "card": card, "location": location, "face_up": face_up}, channel="seat", seat=seat, based_on_version=room.version)
        await public(room, {"type": "reveal"})
        assert room.view().pending is not None and room.view().pending.seat == 1
    return rooms
