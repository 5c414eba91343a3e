"""Contracts (BG-4) and the per-contract tables of strength and points the engine plays with."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from .cards import (
    PLAIN_BEATERS,
    PLAIN_POINTS_BY_RANK,
    PLAIN_STRENGTH_BY_RANK,
    RK,
    RQ,
    SUIT_MASK,
    SUIT_NAMES,
    TRUMP_BEATERS,
    TRUMP_POINTS_BY_RANK,
    TRUMP_STRENGTH_BY_RANK,
)


class Contract(IntEnum):
    """Contracts low→high (BG-4); a suit contract's value is its trump suit."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMPS = 4
    ALL_TRUMPS = 5

    @property
    def record_name(self) -> str:
        return CONTRACT_NAMES[self]

    @property
    def is_suit(self) -> bool:
        return self <= Contract.SPADES

    @staticmethod
    def parse(name: str) -> Contract:
        return Contract(CONTRACT_NAMES.index(name))


CONTRACT_NAMES = (*SUIT_NAMES, "no_trumps", "all_trumps")


class Table:
    """What a contract makes of each card: trump mask, points, strength, the cards beating it.

    `strength[c]` is comparable across the trick: trumps rank above every plain card, so the
    trick's winner is the card of highest strength among the trumps and the suit led.
    """

    __slots__ = ("beaters", "belote_pairs", "contract", "points", "ruffs", "strength", "trumps")

    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        if contract.is_suit:
            self.trumps = SUIT_MASK[contract]
        elif contract == Contract.ALL_TRUMPS:
            self.trumps = (1 << 32) - 1
        else:
            self.trumps = 0
        self.ruffs = self.trumps if contract.is_suit else 0
        """Cards that win a trick of another suit: trumps of a suit contract only."""
        suits = (
            [] if contract == Contract.NO_TRUMPS else [contract] if contract.is_suit else range(4)
        )
        self.belote_pairs: tuple[int, ...] = tuple(
            (1 << (s * 8 + RK)) | (1 << (s * 8 + RQ)) for s in suits
        )
        points, strength, beaters = [], [], []
        for card in range(32):
            rank = card & 7
            if self.trumps >> card & 1:
                points.append(TRUMP_POINTS_BY_RANK[rank])
                strength.append(8 + TRUMP_STRENGTH_BY_RANK[rank])
                beaters.append(TRUMP_BEATERS[card])
            else:
                points.append(PLAIN_POINTS_BY_RANK[rank])
                strength.append(PLAIN_STRENGTH_BY_RANK[rank])
                beaters.append(PLAIN_BEATERS[card])
        self.points: tuple[int, ...] = tuple(points)
        self.strength: tuple[int, ...] = tuple(strength)
        self.beaters: tuple[int, ...] = tuple(beaters)
        """For each card, the mask of the cards of its own suit that rank above it."""

    def wins_over(self, card: int, best: int, led: int) -> bool:
        """Does `card` take the trick from `best`, the trick's best so far, suit `led` led (C-7)?"""
        if card >> 3 != led and not self.ruffs >> card & 1:
            return False
        return self.strength[card] > self.strength[best]

    def best_of(self, trick: Sequence[int]) -> tuple[int, int]:
        """The position in the trick and the card that is winning it so far (C-7)."""
        pos = 0
        led = trick[0] >> 3
        for i in range(1, len(trick)):
            if self.wins_over(trick[i], trick[pos], led):
                pos = i
        return pos, trick[pos]


TABLES: tuple[Table, ...] = tuple(Table(c) for c in Contract)
