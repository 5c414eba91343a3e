"""Decks as data: the full deck of a ruleset, the cut, the gathered deck, the first dealer's draw.

Randomness never enters the engine: the room draws shuffles and cuts from `secrets` and passes
the result in, so every deal is a pure function of its record (C-8).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, Card, iter_bits
from .deal import DealState
from .ruleset import Ruleset

MIN_CUT = 3  # BG-2, FR-1: at least 3 cards in each part


def full_deck(ruleset: Ruleset) -> list[Card]:
    """The ruleset's cards in a fixed order (suit by suit, 7 up to A)."""
    return [CARDS[s * 8 + r] for s in range(4) for r in ruleset.deck_ranks]


def cut_deck(deck: Sequence[Card], at: int) -> list[Card]:
    """Cut: the top `at` cards go under the rest; each part keeps at least 3 cards."""
    if not MIN_CUT <= at <= len(deck) - MIN_CUT:
        raise ValueError(f"a cut leaves at least {MIN_CUT} cards in each part")
    return [*deck[at:], *deck[:at]]


def gathered_deck(previous: DealState) -> list[Card]:
    """BG-2 house rule `gather_not_shuffle`: the last deal's cards picked up without shuffling.

    Tricks are stacked in the order they were played; a void deal gives back what each seat
    was dealt (hand, Croatian pair, table stacks) in seat order from `dealer+1`. Either way the
    cards that were never dealt follow in deck order (after a played `bulgarian2` deal, the six
    out of play, BG2-3).
    """
    out: list[Card] = [c for trick in previous.tricks for c in trick.cards]
    if not out:
        seats = previous.ruleset.seats
        for i in range(seats):
            out.extend(
                CARDS[c] for c in iter_bits(previous.holding((previous.dealer + 1 + i) % seats))
            )
    gathered = set(out)
    out.extend(c for c in previous.deck if c not in gathered)
    return out


def first_dealer_from_draw(draws: Sequence[Card]) -> int | None:
    """FR-1: the seat that drew the lowest card deals (order A K Q J 10 9 8 7); None on a tie."""
    keys = [c & 7 for c in draws]  # rank index: 7 is lowest, the ace highest
    lowest = min(keys)
    if keys.count(lowest) > 1:
        return None
    return keys.index(lowest)
