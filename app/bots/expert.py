"""The `expert` level: information-set double-dummy search (IS-DD) for the card play.

For a card in the last DD_TRICKS tricks, it draws deals consistent with its seat's view (the
`Sampler` the strong level uses, which also rejects deals the bidding makes implausible), solves
each one with every hand open (`Solver`, on every table: to the end of the deal when the
world's share of the budget allows, else as deep as it allows), and
plays the card with the best average card points over the worlds. Each world gives a value to
every legal card, so the cards are compared on the same deals. The work is a number of solver
nodes per decision, not of worlds: worlds are drawn until it is spent (at least MIN_WORLDS, at
most `worlds`), so an easy endgame is judged on many deals and a hard one on a few. Earlier in
the deal it plays as the strong level does. With the native solver built (app/bots/native;
`make run` and `make test` build it when there is a C compiler) the same search starts at
NATIVE_DD_TRICKS with NATIVE_NODES; without it, the pure one at DD_TRICKS with NODES.

The bidding, contra and re-contra included, is the contract search (`contract_search.py`):
every legal call valued over sampled deals, each ending of the bidding played out once by the
basic rules. Solving every world of every bid double-dummy is too slow for a decision within the
time budget in pure Python (bench/contract_signal.py).

The effort is counted (worlds, solver nodes), never timed, so a seed and a view always give the
same choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules import Action, Phase, Play, SeatView

from .announce import play_with_card
from .base import legal_of
from .basic import card_from_view
from .contract_search import ContractSearch
from .deal_score import DealScore
from .native import available
from .sampler import Sampler
from .solver import Solver
from .strong import StrongBot

WORLDS = 40
"""At most this many sampled deals per card decision."""
MIN_WORLDS = 4
"""At least this many, whatever they cost."""
NODES = 50_000
"""Solver nodes per card decision, over all its worlds: worlds are drawn and solved until the
budget is spent, so an easy endgame gets many worlds and a hard one a few (counted work: the
same view and seed give the same card)."""
DD_TRICKS = 5
"""From this many tricks left (the current one counted) the worlds are solved to the end of
the deal; before, a world's search would not fit its share of the budget, and a shallow search
with a static estimate plays worse than the strong level's play-outs to the end of the deal
(measured, bench.duel)."""
NATIVE_NODES = 3_000_000
"""With the native solver (app/bots/native): solver nodes per card decision,
about 150 ms of one core (20 million nodes per second on big searches)."""
NATIVE_DD_TRICKS = 7
"""With the native solver, IS-DD from this many tricks left: a whole world from the second
trick costs 0.3-0.8 million nodes, so about six worlds fit (from the first, 2.6 million: one)."""


class ExpertBot:
    """IS-DD card play over sampled deals, `nodes` solver nodes per decision in all; the strong
    level's search for the cards before the last DD_TRICKS tricks and the contract search for
    the calls (`strong_budget` simulated actions each, default the preset's); `soft=False`
    plays on uniformly sampled deals, and `depth` searches each world that many tricks deep
    (the current one counted) instead of to the end: benchmarks' comparisons (bench/dd_loss.py:
    more worlds searched a few tricks deep lose no fewer points than the default); `by_score`
    values a card by the deal's score of each world's card points (`deal_score.py`, two sides
    only), measured level with the default in whole French games."""

    def __init__(
        self,
        rng: random.Random,
        worlds: int = WORLDS,
        nodes: int | None = None,
        strong_budget: int | None = None,
        dd_tricks: int | None = None,
        soft: bool = True,
        depth: int | None = None,
        by_score: bool = False,
    ) -> None:
        native = available()
        self._soft = soft
        self._rng = rng
        self._worlds = worlds
        self._nodes = nodes if nodes is not None else NATIVE_NODES if native else NODES
        if dd_tricks is None:
            dd_tricks = NATIVE_DD_TRICKS if native else DD_TRICKS
        self._dd_tricks = dd_tricks
        self._depth = depth
        self._by_score = by_score
        self._strong = StrongBot(rng, budget=strong_budget, soft=soft)
        self._bidding = ContractSearch(rng, budget=strong_budget)

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        if seat_view.phase is Phase.BIDDING:
            return self._bidding.choose(seat_view, actions)
        cards = sorted({int(a.card) for a in actions if isinstance(a, Play)})
        if len(cards) == 1:
            return play_with_card(cards[0], actions)
        if tricks_to_play(seat_view) > self._dd_tricks:
            return self._strong.choose(seat_view, actions)
        return play_with_card(self._card(seat_view, actions, cards), actions)

    def _card(self, seat_view: SeatView, actions: Sequence[Action], cards: list[int]) -> int:
        """The card with the best mean over the solved worlds; the basic card when no world
        could be drawn, or to break a tie (it is the safer of equals). Each world may spend
        what is left of the decision's nodes, but no more than an even share of MIN_WORLDS."""
        sampler = Sampler(seat_view, soft=self._soft)
        totals = dict.fromkeys(cards, 0.0)
        solved = spent = 0
        share = max(1, self._nodes // MIN_WORLDS)
        by_score = self._by_score and len(sampler.ruleset.sides) == 2
        for _ in range(self._worlds):
            if solved >= MIN_WORLDS and spent >= self._nodes:
                break
            world = sampler.sample(self._rng)
            if world is None:
                continue
            solver = Solver(min(share, max(1, self._nodes - spent)))
            solution = solver.solve(world, self._depth)
            spent += solution.nodes
            score = DealScore(world) if by_score else None
            for card in cards:
                points = solution.values[card]
                totals[card] += points if score is None else score(points)
            solved += 1
        default = card_from_view(seat_view, actions)
        if not solved:
            return default
        return max(cards, key=lambda c: (totals[c], c == default))


def tricks_to_play(seat_view: SeatView) -> int:
    """Tricks still to play, the current one counted, from the view of the seat to play: it
    holds one card for each (in hand, face up or down on its table stacks, in its pair)."""
    seat = seat_view.seat
    assert seat is not None and seat_view.hand is not None
    held = len(seat_view.hand)
    if seat_view.stacks is not None:
        held += sum((up is not None) + down for up, down in seat_view.stacks[seat])
    if seat_view.pairs is not None:
        held += seat_view.pairs[seat]
    return held
