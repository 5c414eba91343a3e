"""The strong bot's determinization: sound deductions, and sampled deals that the seat could not
tell apart from the real one (same view), in every preset and mid-way through every phase.

The view is everything public: Open Belot's face-up table cards and the count of face-down ones
(OB-7), the Croatian pairs not yet anybody's (CRO-3), three hands in `bulgarian3`, the bids
including sur-contra. A sampled deal that shows the seat the same view agrees with all of it."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.bots.knowledge import deduce
from app.bots.sampler import Sampler
from app.rules import CARDS, DealState, Phase, Ruleset, mask_of, view

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
        for seat in range(ruleset.seats):
            hand = state.hand_mask(seat)
            assert not hand & know.forbidden[seat]
            assert hand & know.holds[seat] == know.holds[seat]
            voids += bool(know.forbidden[seat])
    assert voids > 50


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_a_sampled_deal_looks_exactly_like_the_real_one_from_the_seat(preset: str) -> None:
    rng = random.Random(6)
    bot = make_bot("random", rng)
    ruleset: Ruleset = RULESETS[preset]
    sampled = missed = 0
    for state, seat_view in decisions(ruleset, rng, 40, bot.choose):
        if rng.random() < 0.5:
            continue
        seat = seat_view.seat
        assert seat is not None
        world = Sampler(seat_view).sample(rng)
        if world is None:
            missed += 1
            continue
        assert view(world, seat) == seat_view
        assert view(world, None) == view(state, None)  # what spectators see: everything public
        assert world.hands[seat] == state.hands[seat]
        assert sorted(world.deck) == sorted(state.deck)
        sampled += 1
    assert sampled > 150 and missed <= sampled // 50


def _nobodys(state: DealState, seat: int) -> tuple[int, int, int]:
    """The cards of a deal that `seat` cannot see and nobody else can either: its own
    face-down table cards (OB-7), its own Croatian pair (CRO-3), the cards out of play (BG2-4)."""
    layout = state.layout
    down = pair = 0
    if layout is not None:
        pair = layout.hidden[seat]
        stacks = layout.stacks[seat] if layout.stacks else ()
        down = mask_of(CARDS[d] for _up, d in stacks if d >= 0)
    held = mask_of(c for t in state.tricks for c in t.cards) | mask_of(state.trick)
    for s in range(state.ruleset.seats):
        held |= state.holding(s)
    out = mask_of(state.deck) & ~held if state.phase is Phase.PLAYING else 0
    return down, pair, out


@pytest.mark.parametrize("preset", ["open_belot", "bulgarian2", "bulgarian-croatian"])
def test_what_nobody_sees_is_sampled_not_copied(preset: str) -> None:
    """Even the seat's own face-down cards, its own unseen pair and the out-of-play cards are
    drawn afresh: sampled deals put other cards there than the real deal does."""
    rng = random.Random(8)
    bot = make_bot("basic", rng)
    checked = varied = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 30, bot.choose):
        seat = seat_view.seat
        assert seat is not None
        truth = _nobodys(state, seat)
        if not any(truth) or rng.random() < 0.7:
            continue
        sampler = Sampler(seat_view)
        worlds = [w for w in (sampler.sample(rng) for _ in range(4)) if w is not None]
        varied += any(_nobodys(w, seat) != truth for w in worlds)
        checked += 1
    assert checked > 10 and varied > checked * 0.8


def test_a_spectator_view_cannot_be_sampled() -> None:
    rng = random.Random(0)
    bot = make_bot("random", rng)
    state, _ = next(decisions(RULESETS["bulgarian"], rng, 1, bot.choose))
    with pytest.raises(ValueError, match="spectator"):
        Sampler(view(state, None))
