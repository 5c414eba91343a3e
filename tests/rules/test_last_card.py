"""The last card plays itself (`forced_last_card`): at the last trick a player's one card, with
nothing to announce along with it, leaves no choice, so the server plays it (docs/protocol.md,
TURN's ``forced``). C-7 (the last trick is played like any other), FR-7 (a rebelote is a choice).
"""

from __future__ import annotations

import random

import pytest

from app.rules import (
    PRESETS,
    Card,
    DealState,
    Phase,
    Play,
    Ruleset,
    apply,
    forced_last_card,
    legal_actions,
    new_deal,
)

from .helpers import (
    ALL_CARD_TEXTS,
    ALL_TO_LEADER_TRUMP_FIRST,
    HEARTS_BELOTE_28,
    bids_for,
    cards,
    scripted_deal,
)
from .tables import preset_cards
from .test_small_tables import play_randomly_step

BG = Ruleset.bulgarian()
FR = Ruleset.french()


def test_c7_every_card_of_the_last_trick_plays_itself_and_none_before() -> None:
    """Seat 0 (dealer 3) leads and takes every trick: before the last trick nothing is forced,
    at it each of the four is, in turn, and what is forced is the card the seat holds."""
    tricks = ALL_TO_LEADER_TRUMP_FIRST
    bids = bids_for(3, 0, "hearts")
    last = {seat: [tricks[-1][seat]] for seat in range(4)}
    for played in range(7):
        rest = {seat: [t[seat] for t in tricks[played:]] for seat in range(4)}
        state = scripted_deal(BG, 3, bids, tricks[:played], unplayed=rest)
        assert state.phase is Phase.PLAYING and forced_last_card(state) is None, played
    state = scripted_deal(BG, 3, bids, tricks[:7], unplayed=last)
    for seat, card in enumerate(tricks[-1]):
        assert state.turn == seat
        forced = forced_last_card(state)
        assert forced == Play(seat, Card.parse(card))
        assert legal_actions(state) == (forced,)
        state = apply(state, forced)
    assert state.phase is Phase.FINISHED and forced_last_card(state) is None


def test_nothing_is_forced_while_bidding() -> None:
    state = new_deal(BG, 3, cards(*ALL_CARD_TEXTS))
    assert state.phase is Phase.BIDDING and forced_last_card(state) is None


def test_fr7_a_last_card_that_may_carry_rebelote_is_the_players_to_play() -> None:
    """HEARTS_BELOTE_28 with its last two tricks swapped: seat 1 announced belote with KH and
    leads its last card, QH, which it may play with rebelote or without (FR-7): not forced. The
    three who follow have no choice."""
    tricks = [*HEARTS_BELOTE_28[:6], HEARTS_BELOTE_28[7], HEARTS_BELOTE_28[6]]
    extras = {"KH": {"belote": True}}
    last = {1: ["QH"], 2: ["AH"], 3: ["TH"], 0: ["8H"]}
    state = scripted_deal(
        FR, 3, ["pass", "take"], tricks[:7], unplayed=last, turned="QH", extras=extras
    )
    assert state.turn == 1
    assert {a.rebelote for a in legal_actions(state) if isinstance(a, Play)} == {False, True}
    assert forced_last_card(state) is None
    state = apply(state, Play(1, Card.parse("QH"), rebelote=True))
    assert forced_last_card(state) == Play(2, Card.parse("AH"))


@pytest.mark.parametrize("preset", PRESETS)
def test_in_every_preset_only_the_last_trick_is_forced(preset: str) -> None:
    """Random deals of every preset (Open Belot's and the two-handed game's table cards
    included, BG2, OB-7): whatever is forced is legal, comes when every seat holds one card at
    most, and every seat's last card with a single legal action is forced."""
    ruleset = Ruleset.of(preset)
    rng = random.Random(preset)
    forced_seen = 0
    for _ in range(40):
        deck = cards(*preset_cards(ruleset))
        rng.shuffle(deck)
        state: DealState = new_deal(ruleset, rng.randrange(ruleset.seats), deck)
        while state.phase is not Phase.FINISHED:
            forced = forced_last_card(state)
            seat = state.turn
            assert seat is not None
            last = state.phase is Phase.PLAYING and state.holding(seat).bit_count() == 1
            if forced is not None:
                forced_seen += 1
                assert forced in legal_actions(state)
                assert all(state.holding(s).bit_count() <= 1 for s in range(ruleset.seats))
            assert (forced is not None) == (last and len(legal_actions(state)) == 1)
            state = play_randomly_step(state, rng)
    assert forced_seen >= 40
