"""The strong bot's determinization: sound deductions, and sampled deals that the seat could not
tell apart from the real one (same view), in both presets and mid-way through every phase."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.bots.knowledge import deduce
from app.bots.sampler import Sampler
from app.rules import Ruleset, view

from .deals import RULESETS, decisions


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("level", ["random", "basic"])
def test_the_true_hands_satisfy_every_deduction(preset: str, level: str) -> None:
    """What `deduce` calls impossible never happens, and what it calls certain always does."""
    rng = random.Random(5)
    bot = make_bot(level, rng)
    ruleset = RULESETS[preset]
    voids = 0
    for state, seat_view in decisions(ruleset, rng, 60, bot.choose):
        know = deduce(seat_view, ruleset)
        for seat in range(4):
            assert not state.hands[seat] & know.forbidden[seat]
            assert state.hands[seat] & know.holds[seat] == know.holds[seat]
            voids += bool(know.forbidden[seat])
    assert voids > 100


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_a_sampled_deal_looks_exactly_like_the_real_one_from_the_seat(preset: str) -> None:
    rng = random.Random(6)
    bot = make_bot("random", rng)
    ruleset: Ruleset = RULESETS[preset]
    sampled = 0
    for state, seat_view in decisions(ruleset, rng, 40, bot.choose):
        if rng.random() < 0.5:
            continue
        seat = seat_view.seat
        assert seat is not None
        world = Sampler(seat_view).sample(rng)
        assert world is not None
        assert view(world, seat) == seat_view
        assert world.hands[seat] == state.hands[seat]
        sampled += 1
    assert sampled > 300


def test_a_spectator_view_cannot_be_sampled() -> None:
    rng = random.Random(0)
    bot = make_bot("random", rng)
    state, _ = next(decisions(RULESETS["bulgarian"], rng, 1, bot.choose))
    with pytest.raises(ValueError, match="spectator"):
        Sampler(view(state, None))
