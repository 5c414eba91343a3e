"""Every action a bot returns is legal, across many random deals of both presets.

`decisions` applies each returned action with the engine, which raises on an illegal one; the
membership check names the failing view more clearly.
"""

from __future__ import annotations

import random

import pytest

from app.bots import StrongBot, make_bot
from app.rules import Bid, Phase, Play, legal_actions

from .deals import RULESETS, decisions


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("level", ["random", "basic"])
def test_random_and_basic_bots_always_act_legally(preset: str, level: str) -> None:
    rng = random.Random(f"{preset}/{level}")
    bot = make_bot(level, rng)
    count = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 120, bot.choose):
        assert bot.choose(seat_view) in legal_actions(state)
        count += 1
    assert count > 2000


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_strong_bot_acts_legally_in_bidding_and_play(preset: str) -> None:
    """A small search budget keeps this quick; legality does not depend on the budget."""
    rng = random.Random(7)
    bot = StrongBot(rng, budget=400)
    bids = plays = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 3, bot.choose):
        action = bot.choose(seat_view)
        assert action in legal_actions(state)
        bids += isinstance(action, Bid)
        plays += isinstance(action, Play) and state.phase is Phase.PLAYING
    assert bids > 0 and plays > 0


def test_a_bot_answers_from_the_legal_list_it_is_given() -> None:
    """The rooms pass the legal actions alongside the view (their BotPolicy)."""
    rng = random.Random(4)
    bot = make_bot("basic", rng)
    for _, seat_view in decisions(RULESETS["bulgarian"], rng, 5, bot.choose):
        only = seat_view.legal[-1:]
        assert bot.choose(seat_view, only) == only[0]


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", random.Random(0))


def test_a_strong_bot_out_of_time_still_answers_legally() -> None:
    """With no time at all it searches its minimum number of sampled deals and answers."""
    rng = random.Random(12)
    bot = StrongBot(rng, time_limit=0.0)
    for state, seat_view in decisions(RULESETS["bulgarian"], rng, 1, bot.choose):
        assert bot.choose(seat_view) in legal_actions(state)


def test_the_strong_bot_acts_legally_under_the_croatian_deal() -> None:
    """CRO-1 (house rule `croatian_deal` of `bulgarian`): the sampler deals its worlds by the
    ruleset's packets (3, 3, then the face-down pair), so they hold the bot's own hand."""
    from app.rules import Ruleset

    rng = random.Random(3)
    bot = StrongBot(rng, budget=200)
    count = 0
    for state, seat_view in decisions(Ruleset.bulgarian(croatian_deal=True), rng, 2, bot.choose):
        assert bot.choose(seat_view) in legal_actions(state)
        count += 1
    assert count > 0
