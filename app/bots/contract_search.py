"""Bidding by search, the expert level's: the value of every legal call over sampled deals.

For one bidding decision it draws deals consistent with the seat's view (`Sampler`, with the
soft inference from the calls so far), and in each deal tries every legal call — contracts,
pass, contra, re-contra, sur-contra (BG-5, FR-3, SUR-2) —, lets the bidding run on by the basic
rules, and scores the contract it ends in by playing the deal out by the basic rules (`play_out`,
match points for the seat's side minus the others', `outcome`). A void deal scores 0.

What it adds to the strong level's search of the bids:

- One play-out per distinct ending, not per call: several calls often end in the same contract
  (a pass and a bid partner would have made anyway, a contra left standing…), and the play after
  the bidding depends only on the deal and the contract, its bidder and its multiplier. The
  saved play-outs buy more sampled deals for the same counted work.
- The work is counted as it is done (simulated bids and cards, and SAMPLE_COST per deal drawn)
  against the preset's budget, so the deal count adapts to how often the endings repeat.
- The call with the best mean is chosen when it beats the basic bot's call by SEARCH_Z standard
  errors of their paired difference, on more deals than the strong level gets.

A double-dummy value at the start of play (`Solver`) was weighed as the score of an ending and
not taken: see docs/architecture.md (Bots) for the measurement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules import Action, DealState, Phase, SeatView, apply

from .base import legal_of
from .basic import BasicBot
from .cards import cards_in_play, ruleset_of
from .sampler import Sampler
from .simulate import outcome, play_out, policy_action
from .strong import BUDGETS, MAX_WORLDS, MIN_WORLDS, SAMPLE_COST, pick

BID_COST = 4
"""A simulated call costs about as much as this many simulated cards (it reads a view)."""
SEARCH_Z = 1.0
"""How sure (in standard errors) the search must be that a call beats the basic one: at 0.5 it
bid worse than the strong level (bench.bots, docs/architecture.md), switching on noise."""
BUDGET_SHARE = 0.85
"""The share of the preset's strong budget a call gets: a call searched costs more per counted
action than the strong level's (every ending's bookkeeping), and this keeps p95 under 200 ms."""
WORLD_CAP = 2 * MAX_WORLDS
"""Sampled deals per decision at most, whatever the budget left."""

Ending = tuple[object, ...]


class ContractSearch:
    """Values every legal call over sampled deals within `budget` simulated actions (default
    the preset's strong.BUDGETS) and on `min_worlds` deals at least, deterministic for a given
    generator."""

    def __init__(
        self, rng: random.Random, budget: int | None = None, min_worlds: int = MIN_WORLDS
    ) -> None:
        self._rng = rng
        self._budget = budget
        self._min_worlds = min_worlds
        self._basic = BasicBot()

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = list(legal_of(seat_view, legal))
        if seat_view.phase is not Phase.BIDDING:
            raise ValueError("the contract search chooses calls, not cards")
        default = self._basic.choose(seat_view, actions)
        if len(actions) == 1:
            return actions[0]
        assert seat_view.seat is not None
        side = ruleset_of(seat_view).team_of(seat_view.seat)
        budget = self._budget or int(BUDGETS[seat_view.rules["preset"]] * BUDGET_SHARE)
        in_play = cards_in_play(ruleset_of(seat_view))
        sampler = Sampler(seat_view)
        values: list[list[float]] = [[] for _ in actions]
        spent = worlds = 0
        while worlds < WORLD_CAP and (spent < budget or worlds < self._min_worlds):
            spent += SAMPLE_COST
            worlds += 1
            world = sampler.sample(self._rng)
            if world is None:
                continue
            scored: dict[Ending, float] = {}
            for k, action in enumerate(actions):
                end, bids = _bid_out(apply(world, action))
                spent += bids * BID_COST
                key = _ending(end)
                if key not in scored:
                    if end.phase is Phase.PLAYING:
                        scored[key] = outcome(play_out(end), side)
                        spent += in_play
                    else:
                        scored[key] = 0.0  # all passed: a void deal (BG-7, FR-3)
                values[k].append(scored[key])
        if not values[0]:
            return default
        return pick(actions, values, actions.index(default), SEARCH_Z)


def _bid_out(state: DealState) -> tuple[DealState, int]:
    """The bidding run on by the basic rules to its end, and the number of calls it took."""
    calls = 0
    while state.phase is Phase.BIDDING and state.turn is not None:
        state = apply(state, policy_action(state))
        calls += 1
    return state, calls


def _ending(state: DealState) -> Ending:
    """What the play after the bidding depends on: the contract, who holds it, its
    multiplier (contra, re-contra, sur-contra), or the void deal."""
    if state.phase is not Phase.PLAYING:
        return ("void",)
    return (state.contract, state.bidder, state.auction.multiplier)
