"""The `strong` level: determinized Monte Carlo search over the bids and the cards.

For one decision it draws deals consistent with its seat's view (`Sampler`), and in each drawn
deal tries every candidate action and plays the deal out with the basic rules (`play_out`).
The candidate with the best average outcome — match points won minus match points conceded —
is chosen, unless it beats the basic bot's own choice by too little to be trusted (SWITCH_Z).
Every candidate is tried on the same sampled deals, so the comparison between them is far less
noisy than their separate averages.

The effort is an action budget (simulated actions per decision), not a clock: a bot must be
deterministic given its random generator, so the same view and seed always give the same choice.
A server under load may add `time_limit` as a safety net; the search then stops early (after
MIN_WORLDS sampled deals) when the clock runs out, and only then depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from app.rules import Action, Phase, Play, SeatView, apply

from .announce import play_with_card
from .base import legal_of
from .basic import BasicBot
from .cards import cards_in_play, ruleset_of
from .sampler import MOVES, Sampler
from .simulate import outcome, play_out

BUDGETS = {
    "bulgarian": 8000,
    "french": 11000,
    "bulgarian3": 6000,
    "bulgarian2": 7000,
    "open_belot": 3500,
}
"""Simulated actions per decision, per preset: under 200 ms at p95 on the reference machine
(bench/bots.py). A French action is cheaper to simulate (no declarations, short bidding); the
small tables cost more per action (a sampled deal is replayed for fewer actions simulated, the
bidding reads a view per call, Open Belot's stacks are looked at on every card), so they get
fewer, scaled to take about the time of a `bulgarian` decision."""
SAMPLE_COST = 30 + MOVES
"""Drawing and replaying one sampled deal costs about as much as simulating this many actions:
30, and one for each move of the soft sampler's chain (each re-weighs two hands)."""
BIDDING_COST = 12
"""A deal simulated from the bidding costs its cards in play plus about this much for the rest
of the bidding, which costs more per call (each simulated bid reads a view)."""
MIN_WORLDS = 8
MAX_WORLDS = 250
SWITCH_Z = 1.0
"""How sure (in standard errors) the search must be that an action beats the basic choice before
it overrules it: bids are judged on few sampled deals, and a lucky average is not a better bid."""


class StrongBot:
    """Searches every decision; `budget` (simulated actions) defaults to the preset's BUDGETS,
    `time_limit` (seconds) is off unless given; `soft=False` samples the deals uniformly (no
    soft inference: a benchmark's comparison)."""

    def __init__(
        self,
        rng: random.Random,
        budget: int | None = None,
        time_limit: float | None = None,
        soft: bool = True,
    ) -> None:
        self._rng = rng
        self._budget = budget
        self._time_limit = time_limit
        self._soft = soft
        self._basic = BasicBot()

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        default = self._basic.choose(seat_view, actions)
        candidates = _candidates(seat_view, actions)
        if len(candidates) == 1:
            return candidates[0]
        assert seat_view.seat is not None
        side = ruleset_of(seat_view).team_of(seat_view.seat)
        sampler = Sampler(seat_view, soft=self._soft)
        values: list[list[float]] = [[] for _ in candidates]
        deadline = None if self._time_limit is None else time.perf_counter() + self._time_limit
        for n in range(self._worlds(seat_view, len(candidates))):
            if deadline is not None and n >= MIN_WORLDS and time.perf_counter() > deadline:
                break
            world = sampler.sample(self._rng)
            if world is None:
                continue
            for k, action in enumerate(candidates):
                values[k].append(outcome(play_out(apply(world, action)), side))
        if not values[0]:
            return default
        return pick(candidates, values, candidates.index(default))

    def _worlds(self, seat_view: SeatView, candidates: int) -> int:
        """How many deals to sample: the budget spread over candidates and remaining actions."""
        in_play = cards_in_play(ruleset_of(seat_view))
        if seat_view.phase is Phase.BIDDING:
            remaining = in_play + BIDDING_COST
        else:
            remaining = in_play - len(seat_view.trick) - sum(len(t.cards) for t in seat_view.tricks)
        cost = candidates * remaining + SAMPLE_COST
        budget = self._budget or BUDGETS[seat_view.rules["preset"]]
        return max(MIN_WORLDS, min(MAX_WORLDS, budget // cost))


def _candidates(seat_view: SeatView, legal: Sequence[Action]) -> list[Action]:
    """One action per distinct bid or card; a card goes with its richest announcements."""
    if seat_view.phase is Phase.BIDDING:
        return list(legal)
    cards = sorted({a.card for a in legal if isinstance(a, Play)})
    return [play_with_card(card, legal) for card in cards]


def pick(
    candidates: list[Action], values: list[list[float]], default: int, z: float = SWITCH_Z
) -> Action:
    """The candidate with the best mean, if it beats the default by more than `z` standard
    errors of their paired difference (same sampled deals); otherwise the default."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = max(range(len(candidates)), key=lambda k: (means[k], k == default))
    if best == default or n < 2:
        return candidates[best]
    diffs = [b - d for b, d in zip(values[best], values[default], strict=True)]
    mean = means[best] - means[default]
    variance = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return candidates[best] if mean > z * math.sqrt(variance / n) else candidates[default]
