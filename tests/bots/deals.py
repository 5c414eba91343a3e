"""Random deals for the bot tests, through the public engine API only."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from app.rules import Action, DealState, Ruleset, SeatView, apply, full_deck, new_deal, view

RULESETS = {
    "bulgarian": Ruleset.bulgarian(),
    "bulgarian-variants": Ruleset.bulgarian(dealer_must_bid=True, must_undertrump=False),
    "bulgarian-regional": Ruleset.bulgarian(
        sur_contra="x8", kirtik=True, dealer_must_bid=True, dealer_may_cancel=True
    ),
    "bulgarian-croatian": Ruleset.bulgarian(croatian_deal=True, declarations_in_two_tricks=True),
    "bulgarian-croatian-late": Ruleset.bulgarian(croatian_deal=True, croatian_reveal="bidding_end"),
    "french": Ruleset.french(),
    "french-announces": Ruleset.french(announces=True, deal_packets="2-3"),
    "bulgarian3": Ruleset.of("bulgarian3"),
    "bulgarian3-house": Ruleset.of(
        "bulgarian3",
        defenders_partners=True,
        bg3_goal="beat_both",
        bg3_inside="each",
        must_undertrump=False,
        sur_contra="wins_match",
        kirtik=True,
    ),
    "bulgarian3-croatian": Ruleset.of(
        "bulgarian3", croatian_deal=True, declarations_in_two_tricks=True, dealer_must_bid=True
    ),
    "bulgarian2": Ruleset.of("bulgarian2"),
    "bulgarian2-house": Ruleset.of(
        "bulgarian2",
        sur_contra="x8",
        kirtik=True,
        dealer_must_bid=True,
        dealer_may_cancel=True,
        declarations_in_two_tricks=True,
        card_in_two_declarations=True,
    ),
    "open_belot": Ruleset.of("open_belot"),
    "open_belot-house": Ruleset.of(
        "open_belot", open_reveal="at_once", sur_contra="x8", dealer_must_bid=True
    ),
    "open_belot-two": Ruleset.of("open_belot", declarations_in_two_tricks=True),
}
"""Every preset with its defaults, and each house rule on in at least one combination."""

Chooser = Callable[[SeatView], Action]


def fresh_deal(ruleset: Ruleset, rng: random.Random) -> DealState:
    deck = full_deck(ruleset)
    rng.shuffle(deck)
    return new_deal(ruleset, rng.randrange(ruleset.seats), deck)


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
