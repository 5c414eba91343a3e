"""The `expert` level: information-set double-dummy search (IS-DD) for the card play.

For a card in the last DD_TRICKS tricks, it draws `worlds` deals consistent with its seat's view
(the `Sampler` the strong level uses), solves each one with every hand open (`Solver`, a node
budget per world), and plays the card with the best average card points over the worlds. Each
world gives a value to every legal card, so the cards are compared on the same deals. Earlier in
the deal it plays as the strong level does.

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

from app.rules import Action, Phase, Play, Ruleset, SeatView

from .announce import play_with_card
from .base import legal_of
from .basic import card_from_view
from .contract_search import ContractSearch
from .sampler import Sampler
from .solver import Solver
from .strong import StrongBot

WORLDS = 10
"""Sampled deals per card decision."""
NODES = 5000
"""Solver nodes per sampled deal: WORLDS * NODES is the card play's work per decision."""
DD_TRICKS = 4
"""From this many tricks left (the current one counted) the worlds are solved; before, the
budget would cut the search short of the end, and a shallow search with a static estimate
plays worse than the strong level's play-outs to the end of the deal (measured, bench.duel)."""


class ExpertBot:
    """IS-DD card play over `worlds` sampled deals, `nodes` solver nodes each; the strong
    level's search for the cards before the last DD_TRICKS tricks and the contract search for
    the calls (`strong_budget` simulated actions each, default the preset's)."""

    def __init__(
        self,
        rng: random.Random,
        worlds: int = WORLDS,
        nodes: int = NODES,
        strong_budget: int | None = None,
    ) -> None:
        self._rng = rng
        self._worlds = worlds
        self._solver = Solver(nodes)
        self._strong = StrongBot(rng, budget=strong_budget)
        self._bidding = ContractSearch(rng, budget=strong_budget)

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        if seat_view.phase is Phase.BIDDING:
            return self._bidding.choose(seat_view, actions)
        cards = sorted({int(a.card) for a in actions if isinstance(a, Play)})
        if len(cards) == 1:
            return play_with_card(cards[0], actions)
        hand = seat_view.hand
        assert hand is not None
        if len(hand) + (1 if seat_view.trick else 0) > DD_TRICKS or not _solvable(seat_view):
            return self._strong.choose(seat_view, actions)
        return play_with_card(self._card(seat_view, actions, cards), actions)

    def _card(self, seat_view: SeatView, actions: Sequence[Action], cards: list[int]) -> int:
        """The card with the best mean over the solved worlds; the basic card when no world
        could be drawn, or to break a tie (it is the safer of equals)."""
        sampler = Sampler(seat_view)
        totals = dict.fromkeys(cards, 0.0)
        solved = 0
        for _ in range(self._worlds):
            world = sampler.sample(self._rng)
            if world is None:
                continue
            values = self._solver.solve(world).values
            for card in cards:
                totals[card] += values[card]
            solved += 1
        default = card_from_view(seat_view, actions)
        if not solved:
            return default
        return max(cards, key=lambda c: (totals[c], c == default))


def _solvable(seat_view: SeatView) -> bool:
    """Whether the solver knows this table: it walks four seats of two partnerships and hands
    without table stacks; the small tables (BGN, OB) are played as the strong level plays."""
    ruleset = Ruleset.from_dict(seat_view.rules)
    return ruleset.seats == 4
