"""Cards, suits, ranks and the tables the engine computes with (RULES.md C-1..C-5).

A card is a small int `suit * 8 + rank`, ranks numbered 0..7 for 7 8 9 T J Q K A. That order is
also the sequence order of C-5, so a run of a declaration is a run of adjacent bits. Sets of
cards (hands, tricks taken) are bitmasks `1 << card`: the engine's hot paths are bit operations.
The public API speaks `Card` values, which print in the notation of C-2 (`TH`, `JS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

RANK_LETTERS = "789TJQKA"
SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)


class Suit(IntEnum):
    """The four suits, in the order of C-1 and of the Bulgarian contracts (BG-4)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def record_name(self) -> str:
        """The suit's name as records and bids spell it (`hearts`)."""
        return SUIT_NAMES[self]


class Card(int):
    """One card; an int in 0..31 so that it indexes the engine's tables directly."""

    __slots__ = ()

    @staticmethod
    def parse(text: str, exact: bool = False) -> Card:
        """Read the C-2 notation (`TH`; `js` is accepted too, from a player's client, unless
        ``exact``: a record writes C-2 as it is); raise ValueError otherwise."""
        if len(text) != 2 or (exact and text != text.upper()):
            raise ValueError(f"not a card: {text!r}")
        rank = RANK_LETTERS.find(text[0].upper())
        suit = SUIT_LETTERS.find(text[1].upper())
        if rank < 0 or suit < 0:
            raise ValueError(f"not a card: {text!r}")
        return CARDS[suit * 8 + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> int:
        """Rank index 0..7 for 7 8 9 T J Q K A."""
        return self & 7

    def __str__(self) -> str:
        return CARD_NAMES[self]  # every frame names dozens of cards: a lookup, not a join

    def __repr__(self) -> str:
        return f"Card({self})"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))
CARD_NAMES: tuple[str, ...] = tuple(RANK_LETTERS[i & 7] + SUIT_LETTERS[i >> 3] for i in range(32))
BIT: tuple[int, ...] = tuple(1 << i for i in range(32))
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

# C-3: strength inside a suit, higher wins. Trump order J 9 A 10 K Q 8 7, plain A 10 K Q J 9 8 7.
TRUMP_STRENGTH_BY_RANK = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH_BY_RANK = (0, 1, 2, 6, 3, 4, 5, 7)
# C-4: card points.
TRUMP_POINTS_BY_RANK = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS_BY_RANK = (0, 0, 0, 10, 2, 3, 4, 11)


def _beaten_by(strength_by_rank: tuple[int, ...]) -> tuple[int, ...]:
    """For each card, the mask of cards of its own suit that beat it in the given order."""
    out = []
    for card in range(32):
        suit, rank = card >> 3, card & 7
        mask = 0
        for other in range(8):
            if strength_by_rank[other] > strength_by_rank[rank]:
                mask |= 1 << (suit * 8 + other)
        out.append(mask)
    return tuple(out)


TRUMP_BEATERS = _beaten_by(TRUMP_STRENGTH_BY_RANK)
PLAIN_BEATERS = _beaten_by(PLAIN_STRENGTH_BY_RANK)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_bits(mask: int) -> Iterator[int]:
    """The card indices of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
