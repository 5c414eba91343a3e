"""Random deals for the bot tests, through the public engine API only."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from app.rules import Action, DealState, Ruleset, SeatView, apply, full_deck, new_deal, view

RULESETS = {
    "bulgarian": Ruleset.bulgarian(),
    "bulgarian-variants": Ruleset.bulgarian(dealer_must_bid=True, must_undertrump=False),
    "french": Ruleset.french(),
    "french-announces": Ruleset.french(announces=True, deal_packets="2-3"),
}

Chooser = Callable[[SeatView], Action]


def fresh_deal(ruleset: Ruleset, rng: random.Random) -> DealState:
    deck = full_deck(ruleset)
    rng.shuffle(deck)
    return new_deal(ruleset, rng.randrange(4), deck)


def decisions(
    ruleset: Ruleset, rng: random.Random, deals: int, choose: Chooser
) -> Iterator[tuple[DealState, SeatView]]:
    """Every decision point of `deals` random deals played by `choose`, with its true state.

    The chooser's action is applied after the caller has looked at the yielded pair, so it is
    validated by the engine (an illegal action raises).
    """
    for _ in range(deals):
        state = fresh_deal(ruleset, rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            yield state, seat_view
            state = apply(state, choose(seat_view))
