"""The `strong` level: determinized Monte Carlo search over the bids and the cards.

For one decision it draws deals consistent with its seat's view (`Sampler`), and in each drawn
deal tries every candidate action and plays the deal out with the basic rules (`play_out`).
The candidate with the best average outcome — match points won minus match points conceded —
is chosen. Every candidate is tried on the same sampled deals, so the comparison between them
is far less noisy than their separate averages.

The effort is an action budget (simulated actions per decision), not a clock: a bot must be
deterministic given its random generator, so the same view and seed always give the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules import Action, Phase, Play, SeatView, apply

from .announce import play_with_card
from .base import legal_of
from .basic import BasicBot
from .sampler import Sampler
from .simulate import outcome, play_out

DEFAULT_BUDGET = 9000
"""Simulated actions per decision; about 120 ms on the reference machine (see bench/bots.py)."""
MIN_WORLDS = 8
MAX_WORLDS = 250


class StrongBot:
    def __init__(self, rng: random.Random, budget: int = DEFAULT_BUDGET) -> None:
        self._rng = rng
        self._budget = budget
        self._basic = BasicBot()

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        default = self._basic.choose(seat_view, actions)
        candidates = _candidates(seat_view, actions)
        if len(candidates) == 1:
            return candidates[0]
        assert seat_view.seat is not None
        team = seat_view.seat % 2
        sampler = Sampler(seat_view)
        totals = [0.0] * len(candidates)
        worlds = 0
        for _ in range(self._worlds(seat_view, len(candidates))):
            world = sampler.sample(self._rng)
            if world is None:
                continue
            worlds += 1
            for k, action in enumerate(candidates):
                totals[k] += outcome(play_out(apply(world, action)), team)
        if not worlds:
            return default
        best = max(range(len(candidates)), key=lambda k: (totals[k], candidates[k] == default))
        return candidates[best]

    def _worlds(self, seat_view: SeatView, candidates: int) -> int:
        """How many deals to sample: the budget spread over candidates and remaining actions."""
        remaining = sum(seat_view.hand_sizes)
        if seat_view.phase is Phase.BIDDING:
            remaining = 32 + 4
        return max(MIN_WORLDS, min(MAX_WORLDS, self._budget // (candidates * remaining)))


def _candidates(seat_view: SeatView, legal: Sequence[Action]) -> list[Action]:
    """One action per distinct bid or card; a card goes with its richest announcements."""
    if seat_view.phase is Phase.BIDDING:
        return list(legal)
    cards = sorted({a.card for a in legal if isinstance(a, Play)})
    return [play_with_card(card, legal) for card in cards]
