"""The expert level (IS-DD): legal in every preset, repeatable, and it uses its solver."""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, ExpertBot, make_bot
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
