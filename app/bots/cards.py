"""The card tables the bots reason with, taken from the engine.

Cards are the engine's ints (`suit * 8 + rank`, ranks 7 8 9 T J Q K A) and sets of cards are
bitmasks, so a bot can judge a trick or the cards still out with a few bit operations. The
strength, points and "cards that beat it" tables are the engine's own (`app.rules.TABLES`), so
the bots cannot disagree with the rules they play by.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from app.rules import (
    CARDS,
    SUIT_MASK,
    TABLES,
    Contract,
    Ruleset,
    SeatView,
    Table,
    full_deck,
    iter_bits,
    mask_of,
)

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


def ruleset_of(seat_view: SeatView) -> Ruleset:
    """The ruleset a view carries (its `rules`), read once per distinct set of rules."""
    rules = seat_view.rules
    return _ruleset(rules["preset"], tuple(sorted(rules.get("house_rules", {}).items())))


@lru_cache(maxsize=64)
def _ruleset(preset: str, house_rules: tuple[tuple[str, bool | str], ...]) -> Ruleset:
    return Ruleset.from_dict({"preset": preset, "house_rules": dict(house_rules)})


@lru_cache(maxsize=64)
def deck_mask(ruleset: Ruleset) -> int:
    """Every card of the preset's deck (32, or the 24 from nine up: BG3-1, BG2-1)."""
    return mask_of(full_deck(ruleset))


@lru_cache(maxsize=64)
def cards_in_play(ruleset: Ruleset) -> int:
    """Cards dealt and played in a deal: the deck less `bulgarian2`'s out-of-play six (BG2-3)."""
    return ruleset.seats * sum(size for size, _slot in (*ruleset.before, *ruleset.after))


def table_up(seat_view: SeatView, seat: int) -> int:
    """The face-up table cards of `seat` (Open Belot, OB-7): public, and playable by him."""
    if seat_view.stacks is None:
        return 0
    return mask_of(up for up, _down in seat_view.stacks[seat] if up is not None)


def all_table_up(seat_view: SeatView) -> int:
    """Every face-up table card of the deal (0 outside Open Belot)."""
    return sum_masks(table_up(seat_view, s) for s in range(len(seat_view.hand_sizes)))


def sum_masks(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


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
    "all_table_up",
    "bits",
    "cards_in_play",
    "contract_index",
    "deck_mask",
    "mask_of",
    "ruleset_of",
    "sum_masks",
    "table_up",
]
