"""The expert may value a card by the deal's score its ending gives (`by_score`) rather than by
its card points (`app/bots/deal_score.py`): the score it foresees must be the rules' own."""

from __future__ import annotations

import random

import pytest

from app.bots import ExpertBot
from app.bots.deal_score import DealScore
from app.bots.simulate import play_out, policy_action
from app.bots.solver import tricks_left
from app.rules import Contract, Phase, apply, view

from .deals import RULESETS, fresh_deal

TWO_SIDED = sorted(p for p, r in RULESETS.items() if len(r.sides) == 2)


@pytest.mark.parametrize("preset", TWO_SIDED)
def test_the_foreseen_score_of_an_ending_is_the_score_the_deal_gets(preset: str) -> None:
    """From any card after the declarations are shown, the card points the mover's side goes
    on to take, settled by DealScore, give the margin the finished deal's result gives that
    side (FR-9..FR-13, BG-21..BG-26 and their house rules): made, inside, tied, valat."""
    ruleset = RULESETS[preset]
    rng = random.Random(f"deal-score-{preset}")
    checked = inside = 0
    for _ in range(150):
        state = fresh_deal(ruleset, rng)
        while state.turn is not None and (
            state.phase is not Phase.PLAYING or len(state.tricks) < ruleset.declaration_tricks
        ):
            state = apply(state, policy_action(state))
        if state.turn is None:  # nobody took
            continue
        for _ in range(rng.randrange(ruleset.seats * 3)):  # somewhere in the play
            if state.turn is None:
                break
            state = apply(state, policy_action(state))
        if state.turn is None:
            continue
        side = ruleset.seat_sides[state.turn]
        end = play_out(state)
        result = end.result
        assert result is not None and result.itemised is not None
        taken = end.points[side] + result.itemised.last[side] - state.points[side]
        if taken in (0, sum(end.points) + 10 - sum(state.points)):
            continue
        if state.contract == Contract.ALL_TRUMPS and end.belotes != state.belotes:
            continue  # a pair announced later in all trumps: not foreseen (BG-19)
        mp = result.mp
        assert DealScore(state)(taken) == (mp[side] or 0) - (mp[1 - side] or 0), preset
        checked += 1
        inside += result.winner is not None and result.winner != ruleset.seat_sides[end.bidder]
    assert checked > 30 and inside > 3


@pytest.mark.parametrize("preset", ["french", "bulgarian"])
def test_the_expert_valuing_by_score_plays_whole_deals_legally(preset: str) -> None:
    """`ExpertBot(by_score=True)` (bench variant `expert-score`) through whole deals: every card
    it picks is applied by the engine (an illegal one raises), and it solved worlds."""
    rng = random.Random(f"by-score-{preset}")
    bot = ExpertBot(rng, worlds=2, nodes=2_000, strong_budget=60, dd_tricks=4, by_score=True)
    solved = 0
    for _ in range(4):
        state = fresh_deal(RULESETS[preset], rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            solved += state.phase is Phase.PLAYING and tricks_left(state) <= 4
            state = apply(state, bot.choose(seat_view))
    assert solved > 4
