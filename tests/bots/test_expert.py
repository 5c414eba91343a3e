"""The expert level (IS-DD): legal in every preset, repeatable, and it uses its solver."""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, ExpertBot, make_bot
from app.bots.sampler import Sampler
from app.rules import Bid, Phase, Play, apply, legal_actions, view

from .deals import RULESETS, fresh_deal


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_expert_bot_acts_legally_in_bidding_and_play(preset: str) -> None:
    """Whole deals with four small-budget experts, BG-5..BG-11 / FR-3..FR-6 enforced by the
    engine's apply (which raises on an illegal action) and checked against legal_actions."""
    rng = random.Random(f"expert-{preset}")
    bot = ExpertBot(rng, worlds=3, nodes=150, strong_budget=300)
    bids = plays = 0
    for _ in range(3):
        state = fresh_deal(RULESETS[preset], rng)
        while state.turn is not None:
            action = bot.choose(view(state, state.turn))
            assert action in legal_actions(state)
            bids += isinstance(action, Bid)
            plays += isinstance(action, Play)
            state = apply(state, action)
    assert bids > 0 and plays > 0


def test_the_expert_bot_is_repeatable() -> None:
    """The budget is counted work, so a seed and a view always give the same card (three tricks
    left: the worlds are solved)."""
    rng = random.Random("repeat")
    state = fresh_deal(RULESETS["french"], rng)
    while state.phase is Phase.BIDDING or len(state.tricks) < 5:
        assert state.turn is not None
        state = apply(state, make_bot("basic", rng).choose(view(state, state.turn)))
    assert state.turn is not None
    seat_view = view(state, state.turn)
    first = ExpertBot(random.Random(5), worlds=4, nodes=300).choose(seat_view)
    assert ExpertBot(random.Random(5), worlds=4, nodes=300).choose(seat_view) == first


def test_expert_is_a_level_the_rooms_accept() -> None:
    assert "expert" in LEVELS
    assert isinstance(make_bot("expert", random.Random(0)), ExpertBot)


def test_an_expert_card_is_the_same_in_any_deal_consistent_with_the_view() -> None:
    """In the solved tricks, a deal the sampler draws from the seat's view looks the same from
    that seat, and the expert plays the same card in it as in the true deal: its worlds come
    from the view, never from the hidden hands."""
    rng = random.Random("consistent")
    basic = make_bot("basic", rng)
    compared = 0
    for _ in range(6):
        state = fresh_deal(RULESETS["bulgarian"], rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            hand = seat_view.hand or ()
            if state.phase is Phase.PLAYING and len(seat_view.legal) > 1 and len(hand) <= 3:
                other = Sampler(seat_view).sample(rng)
                assert other is not None
                assert view(other, state.turn) == seat_view
                mine = ExpertBot(random.Random(9), worlds=3, nodes=400).choose(seat_view)
                theirs = ExpertBot(random.Random(9), worlds=3, nodes=400).choose(
                    view(other, state.turn)
                )
                assert mine == theirs
                compared += 1
            state = apply(state, basic.choose(seat_view))
    assert compared > 10
