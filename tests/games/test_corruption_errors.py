"""Corruption: every illegal action gets its own error code and leaves the state unchanged."""

from __future__ import annotations

import random
import string

import pytest
from pydantic import ValidationError

from companion.engine import RuleError
from companion.games.corruption import (
    ACTION_ADAPTER,
    BODIES,
    GAME,
    MESSAGES,
    AssignSwiss,
    ChooseFaceUp,
    DealContracts,
    HitTarget,
    NewContract,
    PeekCard,
    PlayCard,
    ReportBribe,
)
from tests.games.test_corruption import P1, P2, P3, P4, Table, play_rulebook_round


def template_fields(code: str) -> set[str]:
    return {field.split(".")[0] for _, field, _, _ in string.Formatter().parse(MESSAGES[code]) if field}


def rejected(table: Table, action: object, code: str) -> RuleError:
    """Apply must raise `code` (a known message whose fields it fills) and change nothing."""
    before = table.state
    dumped = before.model_dump_json()
    with pytest.raises(RuleError) as caught:
        GAME.apply(before, action)
    assert caught.value.code == code
    assert code in MESSAGES
    assert template_fields(code) <= set(caught.value.params), f"{code} lacks a parameter"
    assert table.state is before and before.model_dump_json() == dumped
    return caught.value


@pytest.fixture
def dealt() -> Table:
    table = Table(3)
    table.deal()
    return table


@pytest.fixture
def awarding() -> Table:
    """The rulebook round, stopped at the first award choice (P1's City Hall Swiss bribe)."""
    table = Table(4, filler=None)
    table.deal()
    play_rulebook_round(table)
    assert table.view().pending.seat == P1
    return table


def test_character_on_a_swiss_account(dealt: Table) -> None:
    for character in ("da", "reporter", "hitman"):
        rejected(dealt, PlayCard(by=P1, card=character, location="city_hall", face_up=False), "corruption.err.character_on_swiss")


def test_seventh_card(dealt: Table) -> None:
    """P1 leads, so P1 is the first to have placed six cards, while P2 and P3 still play."""
    for _ in range(6):
        dealt.play(P1, min(c for c in GAME.hand(dealt.state, P1) if isinstance(c, int)), "Monument")
    assert dealt.state.phase == "corruption" and GAME.current_seat(dealt.state) == P2
    rejected(dealt, PlayCard(by=P1, card="da", location=dealt.id("Monument"), face_up=False), "corruption.err.six_cards_placed")


def test_seventh_card_during_the_awards(awarding: Table) -> None:
    rejected(awarding, PlayCard(by=P2, card="da", location=awarding.id("Monument"), face_up=False), "corruption.err.six_cards_placed")


def test_card_not_held(dealt: Table) -> None:
    dealt.play(P1, 10000, "Monument")
    dealt.fill_until(P1)
    rejected(dealt, PlayCard(by=P1, card=10000, location=dealt.id("Opera House"), face_up=False), "corruption.err.card_not_held")


def test_a_card_that_does_not_exist_is_not_an_action() -> None:
    with pytest.raises(ValidationError):
        ACTION_ADAPTER.validate_python({"type": "play_card", "by": 0, "card": 3000, "location": 1, "face_up": True})
    with pytest.raises(ValidationError):
        ACTION_ADAPTER.validate_python({"type": "play_card", "by": 0, "card": "judge", "location": "city_hall", "face_up": False})
    with pytest.raises(ValidationError):
        ACTION_ADAPTER.validate_python({"type": "play_card", "by": 0, "card": 1000, "location": "zurich", "face_up": False})


def test_choice_by_the_wrong_player(awarding: Table) -> None:
    error = rejected(awarding, AssignSwiss(by=P3, contract=awarding.id("Monument")), "corruption.err.not_your_choice")
    assert error.params == {"expected": P1}


def test_choice_in_the_wrong_step(awarding: Table) -> None:
    rejected(awarding, HitTarget(by=P1, target=0), "corruption.err.wrong_step")
    rejected(awarding, ReportBribe(by=P1, bribe=None), "corruption.err.wrong_step")


def test_choice_outside_the_award_phase(dealt: Table) -> None:
    rejected(dealt, AssignSwiss(by=P1, contract=dealt.id("Monument")), "corruption.err.wrong_phase")
    rejected(dealt, ReportBribe(by=P1, bribe=None), "corruption.err.wrong_phase")


def test_swiss_assignment_to_another_bodys_contract(awarding: Table) -> None:
    rejected(awarding, AssignSwiss(by=P1, contract=awarding.id("Stadium")), "corruption.err.swiss_wrong_body")
    rejected(awarding, AssignSwiss(by=P1, contract=999), "corruption.err.unknown_contract")


def test_reporter_choices_outside_the_contract(awarding: Table) -> None:
    awarding.do(AssignSwiss(by=P1, contract=awarding.id("Monument")))
    awarding.do(AssignSwiss(by=P3, contract=awarding.id("Monument")))
    assert awarding.view().pending.seat == P3
    monument_bribe = next(p.index for p in awarding.state.placements if p.location == awarding.id("Monument"))
    rejected(awarding, ReportBribe(by=P3, bribe=monument_bribe), "corruption.err.bad_bribe")
    rejected(awarding, ReportBribe(by=P3, bribe=999), "corruption.err.bad_bribe")
    rejected(awarding, ReportBribe(by=P4, bribe=None), "corruption.err.not_your_choice")


def test_hit_man_target_elsewhere() -> None:
    table = Table(3)
    table.deal()
    table.play(P1, "hitman", "Monument")
    elsewhere = table.play(P2, "da", "Opera House")
    table.play(P3, "reporter", "Monument")
    table.finish_corruption()
    rejected(table, HitTarget(by=P1, target=elsewhere), "corruption.err.bad_target")
    rejected(table, HitTarget(by=P1, target=999), "corruption.err.bad_target")


def test_not_your_turn(dealt: Table) -> None:
    error = rejected(dealt, PlayCard(by=P2, card=1000, location=dealt.id("Monument"), face_up=True), "corruption.err.not_your_turn")
    assert error.params == {"expected": P1}


def test_wrong_face(dealt: Table) -> None:
    rejected(dealt, PlayCard(by=P1, card=1000, location=dealt.id("Monument"), face_up=False), "corruption.err.must_be_face_up")
    dealt.play(P1, 1000, "Monument")
    dealt.fill_until(P1)
    rejected(dealt, PlayCard(by=P1, card=2000, location=dealt.id("Monument"), face_up=True), "corruption.err.must_be_face_down")


def test_unknown_contract(dealt: Table) -> None:
    rejected(dealt, PlayCard(by=P1, card=1000, location=999, face_up=True), "corruption.err.unknown_contract")


def test_unknown_seat(dealt: Table) -> None:
    rejected(dealt, PlayCard(by=7, card=1000, location=dealt.id("Monument"), face_up=True), "corruption.err.unknown_seat")
    rejected(dealt, PeekCard(by=-1, placement=0), "corruption.err.unknown_seat")


def test_wrong_phase_before_and_after_the_deal() -> None:
    table = Table(3)
    rejected(table, PlayCard(by=P1, card=1000, location=1, face_up=True), "corruption.err.wrong_phase")
    rejected(table, ChooseFaceUp(by=P1, slots=(1,)), "corruption.err.wrong_phase")
    table.deal()
    contracts = tuple(NewContract(body=b, name="X", value=200_000) for b in BODIES for _ in range(2))
    rejected(table, DealContracts(by=P2, contracts=contracts), "corruption.err.wrong_phase")
    rejected(table, ChooseFaceUp(by=P1, slots=(1,)), "corruption.err.wrong_phase")


@pytest.mark.parametrize(
    ("contracts", "code"),
    [
        ([("city_hall", "A", 200_000)] * 2 + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)], "corruption.err.deal_count"),
        ([("city_hall", "A", 200_000)] * 3 + [("county_seat", "B", 200_000)] + [("capitol", "C", 200_000)] * 2, "corruption.err.deal_count"),
        ([("city_hall", "A", 200_000)] * 2 + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)] * 3, "corruption.err.deal_count"),
        ([("city_hall", "A", 50_000)] + [("city_hall", "A", 200_000)] + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)] * 2, "corruption.err.contract_value"),
        ([("city_hall", "A", 1_300_000)] + [("city_hall", "A", 200_000)] + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)] * 2, "corruption.err.contract_value"),
        ([("city_hall", "   ", 200_000)] + [("city_hall", "A", 200_000)] + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)] * 2, "corruption.err.contract_name"),
        ([("city_hall", "N" * 41, 200_000)] + [("city_hall", "A", 200_000)] + [("county_seat", "B", 200_000)] * 2 + [("capitol", "C", 200_000)] * 2, "corruption.err.contract_name"),
    ],
)
def test_bad_deal(contracts: list[tuple[str, str, int]], code: str) -> None:
    table = Table(3)
    action = DealContracts(by=P1, contracts=tuple(NewContract(body=b, name=n, value=v) for b, n, v in contracts))
    rejected(table, action, code)


def test_anything_after_the_game_is_over() -> None:
    table = Table(3, seed=5)
    rng = random.Random(5)
    while (action := GAME.random_action(table.state, rng)) is not None:
        table.do(action)
    assert table.state.phase == "over"
    contracts = tuple(NewContract(body=b, name="X", value=200_000) for b in BODIES for _ in range(2))
    rejected(table, DealContracts(by=P1, contracts=contracts), "corruption.err.game_over")
    rejected(table, ReportBribe(by=P1, bribe=None), "corruption.err.game_over")
