"""The card tables the bots reason with, taken from the engine.

Cards are the engine's ints (`suit * 8 + rank`, ranks 7 8 9 T J Q K A) and sets of cards are
bitmasks, so a bot can judge a trick or the cards still out with a few bit operations. The
strength, points and "cards that beat it" tables are the engine's own (`app.rules.TABLES`), so
the bots cannot disagree with the rules they play by.
"""

from __future__ import annotations

from app.rules import CARDS, SUIT_MASK, TABLES, Contract, Table, iter_bits, mask_of

CARD = CARDS
"""`CARD[i]` is the engine's `Card` with index i."""
bits = iter_bits

ALL = (1 << 32) - 1
NO_TRUMPS = int(Contract.NO_TRUMPS)
ALL_TRUMPS = int(Contract.ALL_TRUMPS)
R9, RT, RJ, RQ, RK, RA = 2, 3, 4, 5, 6, 7


def contract_index(name: str) -> int:
    """The contract of a view (`hearts`, `no_trumps`…) as an index into TABLES."""
    return int(Contract.parse(name))


__all__ = [
    "ALL",
    "ALL_TRUMPS",
    "CARD",
    "NO_TRUMPS",
    "R9",
    "RA",
    "RJ",
    "RK",
    "RQ",
    "RT",
    "SUIT_MASK",
    "TABLES",
    "Table",
    "bits",
    "contract_index",
    "mask_of",
]
