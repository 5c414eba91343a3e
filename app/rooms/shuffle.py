"""The shuffle and cut of a deal: drawn from ``secrets``, reproducible from what is stored.

RULES.md C-8 asks that the seed and the cut be stored so a deal can be verified after the match.
A 256-bit seed comes from the operating system's CSPRNG; the permutation is a Fisher–Yates
shuffle driven by SHA-256 of (seed, counter), so anyone holding the seed can recompute the same
order with a few lines in any language (see docs/protocol.md), while nobody can predict it.
The cut point (RULES.md BG-2/FR-1: at least 3 cards in each part) is drawn with ``secrets`` too.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from app.rules import Card, DealState, Ruleset, cut_deck, full_deck, gathered_deck


class _HashStream:
    """Uniform integers from SHA-256(seed || counter), rejection-sampled (no modulo bias)."""

    def __init__(self, seed: str) -> None:
        self._seed = bytes.fromhex(seed)
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _refill(self) -> None:
        digest = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool = (self._pool << 256) | int.from_bytes(digest, "big")
        self._bits += 256

    def below(self, n: int) -> int:
        width = max(1, (n - 1).bit_length())
        while True:
            if self._bits < width:
                self._refill()
            self._bits -= width
            value = (self._pool >> self._bits) & ((1 << width) - 1)
            self._pool &= (1 << self._bits) - 1
            if value < n:
                return value


def shuffled(cards: Sequence[Card], seed: str) -> list[Card]:
    """The cards in the order the seed gives (Fisher–Yates from the last position down)."""
    out = list(cards)
    stream = _HashStream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@dataclass(frozen=True, slots=True)
class DrawnDeck:
    seed: str
    cut: int
    deck: tuple[Card, ...]


def deck_from(ruleset: Ruleset, seed: str, cut: int) -> tuple[Card, ...]:
    """Recompute a deal's deck from its stored seed and cut (verification after the match)."""
    return tuple(cut_deck(shuffled(full_deck(ruleset), seed), cut))


def _random_cut(size: int) -> int:
    return 3 + secrets.randbelow(size - 5)  # 3 <= cut <= size - 3


def draw_deck(ruleset: Ruleset, previous: DealState | None = None) -> DrawnDeck:
    """The deck of the next deal: shuffled and cut, or (house rule ``gather_not_shuffle``, after
    a first deal) the previous deal's cards gathered without shuffling and only cut (BG-2).
    A gathered deck has an empty seed: its order follows from the previous deal's record."""
    size = len(full_deck(ruleset))
    cut = _random_cut(size)
    if previous is not None and ruleset.house_rules.gather_not_shuffle:
        return DrawnDeck("", cut, tuple(cut_deck(gathered_deck(previous), cut)))
    seed = secrets.token_hex(32)
    return DrawnDeck(seed, cut, deck_from(ruleset, seed, cut))
