"""Card tables the bots reason with: strength and points of every card under every contract.

Cards are the engine's ints (`suit * 8 + rank`, ranks 7 8 9 T J Q K A) and sets of cards are
bitmasks, so a bot can judge a trick or the cards still out with a few bit operations. The engine
keeps equivalent tables private; these are derived from RULES.md C-3/C-4 so that the bots depend
only on the engine's public API.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from app.rules import Card, Contract, Ruleset, full_deck

CARD: tuple[Card, ...] = tuple(full_deck(Ruleset.bulgarian()))
"""`CARD[i]` is the engine's `Card` with index i (the full deck is listed in index order)."""
assert all(int(c) == i for i, c in enumerate(CARD))

ALL = (1 << 32) - 1
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
NO_TRUMPS = int(Contract.NO_TRUMPS)
ALL_TRUMPS = int(Contract.ALL_TRUMPS)
R9, RT, RJ, RQ, RK, RA = 2, 3, 4, 5, 6, 7

_TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # C-3: J 9 A 10 K Q 8 7
_PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # C-3: A 10 K Q J 9 8 7
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)  # C-4
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)


class Table:
    """What one contract makes of each card, for judging tricks from public information."""

    __slots__ = ("beaters", "contract", "points", "strength", "trumps")

    def __init__(self, contract: int) -> None:
        self.contract = contract
        if contract < NO_TRUMPS:
            self.trumps = SUIT_MASK[contract]
        else:
            self.trumps = ALL if contract == ALL_TRUMPS else 0
        strength = []
        points = []
        for card in range(32):
            trump = bool(self.trumps >> card & 1)
            order = _TRUMP_STRENGTH if trump else _PLAIN_STRENGTH
            strength.append((8 if trump else 0) + order[card & 7])
            points.append((_TRUMP_POINTS if trump else _PLAIN_POINTS)[card & 7])
        self.strength: tuple[int, ...] = tuple(strength)
        self.points: tuple[int, ...] = tuple(points)
        self.beaters: tuple[int, ...] = tuple(
            mask_of(
                other
                for other in range(32)
                if other >> 3 == card >> 3 and strength[other] > strength[card]
            )
            for card in range(32)
        )
        """For each card, the mask of the cards of its own suit that rank above it."""

    def wins_over(self, card: int, best: int, led: int) -> bool:
        """Does `card` take the trick from `best` (the trick's best so far, suit `led` led)?"""
        if card >> 3 != led and not (self.contract < NO_TRUMPS and self.trumps >> card & 1):
            return False
        return self.strength[card] > self.strength[best]

    def best_of(self, trick: Iterable[int]) -> tuple[int, int]:
        """The position in the trick and the card that is winning it so far (C-7)."""
        cards = list(trick)
        pos = 0
        for i in range(1, len(cards)):
            if self.wins_over(cards[i], cards[pos], cards[0] >> 3):
                pos = i
        return pos, cards[pos]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def bits(mask: int) -> Iterator[int]:
    """The card indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


TABLES: tuple[Table, ...] = tuple(Table(c) for c in range(6))


def contract_index(name: str) -> int:
    """The contract of a view (`hearts`, `no_trumps`…) as an index into TABLES."""
    return int(Contract.parse(name))
