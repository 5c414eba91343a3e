"""The shuffle and cut of a deal, committed before and checkable after (C-8).

Nobody may choose the deck: not the server, not any one player. So:

- the server draws a 256-bit seed from ``secrets`` for the room's *next* deal and publishes its
  commitment, SHA-256(seed), before any player can send entropy for that deal (``new_seed``,
  ``commitment``);
- each seated player may send 32 bytes of entropy naming that commitment; bots send nothing;
- the deck and the cut are a fixed function of (seed, every contribution in seat order)
  (``draw_deck``): a key K = SHA-256("belote-shuffle/1" ‖ seed ‖ (seat ‖ entropy)…) drives a
  Fisher–Yates shuffle and then the cut, from the byte stream SHA-256(K ‖ counter);
- the seed is revealed when the deal ends, so anyone can check the record (``verify_record``,
  ``python -m app.rooms.shuffle verify FILE``; docs/protocol.md §3 states the procedure).

The seed is fixed before the contributions are known, so the server cannot grind it against
them; a player knows neither the seed nor the others' contributions when sending, so whatever
it sends (or withholds) leaves the deck unpredictable to it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from app.rules import (
    DEAL_FORMAT,
    MATCH_FORMAT,
    Card,
    DealState,
    ReplayError,
    Ruleset,
    cut_deck,
    full_deck,
    gathered_deck,
    replay_deal,
)

DOMAIN = b"belote-shuffle/1"
SEED_BYTES = ENTROPY_BYTES = 32
MIN_CUT = 3  # BG-2 / FR-1: at least 3 cards in each part

VERIFIED, MISMATCH, UNCOMMITTED = "verified", "mismatch", "uncommitted"


def new_seed() -> str:
    """A server seed for a deal to come: 256 bits from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """What binds the server to ``seed`` before the deal: SHA-256 of its bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


@dataclass(frozen=True, slots=True)
class Contribution:
    """A seated player's entropy for one deal (32 bytes as 64 lowercase hex digits)."""

    seat: int
    entropy: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "entropy": self.entropy}

    @classmethod
    def from_dict(cls, data: Any) -> Contribution:
        """Read one stored or recorded contribution (raises ValueError when malformed)."""
        if not isinstance(data, dict):
            raise ValueError("a contribution is an object")
        seat, entropy = data.get("seat"), data.get("entropy")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 255:
            raise ValueError("a contribution's seat is a seat number")
        if not is_hex(entropy, ENTROPY_BYTES):
            raise ValueError("a contribution's entropy is 64 lowercase hex digits")
        return cls(seat, entropy)


def is_hex(value: object, size: int) -> TypeGuard[str]:
    """``value`` is exactly ``size`` bytes written as lowercase hex."""
    return (
        isinstance(value, str)
        and len(value) == 2 * size
        and all(c in "0123456789abcdef" for c in value)
    )


def shuffle_key(seed: str, contributions: Sequence[Contribution]) -> bytes:
    """K = SHA-256(DOMAIN ‖ seed ‖ for each contribution in seat order: seat byte ‖ entropy).
    Every part has a fixed length, so the input can be read back in one way only."""
    digest = hashlib.sha256(DOMAIN + bytes.fromhex(seed))
    for c in sorted(contributions, key=lambda c: c.seat):
        digest.update(bytes([c.seat]) + bytes.fromhex(c.entropy))
    return digest.digest()


class _HashStream:
    """Uniform integers from the bits of SHA-256(key ‖ counter) for counter = 0, 1, …, read
    most significant bit first, ``w`` bits per draw, rejection-sampled (no modulo bias)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _refill(self) -> None:
        digest = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
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


@dataclass(frozen=True, slots=True)
class DrawnDeck:
    """A deal's deck and what it was drawn from (stored with the deal, revealed at its end)."""

    seed: str
    cut: int
    deck: tuple[Card, ...]
    contributions: tuple[Contribution, ...] = ()
    commitment: str | None = None  # None: a deal from before commitments (nothing to check)

    def published(self) -> dict[str, Any]:
        """What every viewer may know while the deal is played."""
        return {
            "commitment": self.commitment,
            "contributions": [c.to_dict() for c in self.contributions],
        }

    def revealed(self) -> dict[str, Any]:
        """Everything needed to check the deal, once it is over."""
        return {**self.published(), "seed": self.seed, "cut": self.cut}


def draw_deck(
    ruleset: Ruleset,
    previous: DealState | None,
    seed: str,
    contributions: Sequence[Contribution] = (),
) -> DrawnDeck:
    """The deck of a deal, a pure function of its inputs: shuffled (Fisher–Yates from the last
    position down) and cut, or — house rule ``gather_not_shuffle`` after a first deal (BG-2) —
    the previous deal's cards gathered without shuffling, and only cut."""
    ordered = tuple(sorted(contributions, key=lambda c: c.seat))
    stream = _HashStream(shuffle_key(seed, ordered))
    if previous is not None and ruleset.house_rules.gather_not_shuffle:
        cards = gathered_deck(previous)
    else:
        cards = full_deck(ruleset)
        for i in range(len(cards) - 1, 0, -1):
            j = stream.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
    cut = MIN_CUT + stream.below(len(cards) - 2 * MIN_CUT + 1)  # 3 <= cut <= size - 3
    deck = tuple(cut_deck(cards, cut))
    return DrawnDeck(seed, cut, deck, ordered, commitment(seed))


# ---- verification ------------------------------------------------------------------------


def verify_deal(record: dict[str, Any], previous: DealState | None = None) -> str:
    """``verified`` when the record's seed matches its commitment and its deck and cut are the
    ones the seed and contributions give; ``mismatch`` otherwise; ``uncommitted`` for a deal
    stored before commitments existed. A gathered deal (BG-2) needs the ``previous`` deal's
    state (``verify_record`` on the match record passes it); raises ValueError without it."""
    if record.get("commitment") is None:
        return UNCOMMITTED
    seed = record.get("seed")
    try:
        contributions = [Contribution.from_dict(c) for c in record.get("contributions") or []]
        ruleset = Ruleset.from_dict(record.get("rules"))
    except (ValueError, TypeError, KeyError):
        return MISMATCH
    seats = [c.seat for c in contributions]
    if not is_hex(seed, SEED_BYTES) or seats != sorted(set(seats)):
        return MISMATCH
    if commitment(seed) != record["commitment"]:
        return MISMATCH
    gathered = ruleset.house_rules.gather_not_shuffle and record.get("number", 1) != 1
    if gathered and previous is None:
        raise ValueError("a gathered deal (BG-2) is checked from its match record")
    expected = draw_deck(ruleset, previous if gathered else None, seed, contributions)
    if record.get("cut") != expected.cut or record.get("deck") != [str(c) for c in expected.deck]:
        return MISMATCH
    return VERIFIED


def verify_record(document: Any) -> list[dict[str, Any]]:
    """The verdict on each deal of a deal or match record: ``[{"number", "verdict"}, …]``."""
    if not isinstance(document, dict):
        raise ValueError("a record is a JSON object")
    if document.get("format") == DEAL_FORMAT:
        return [{"number": document.get("number"), "verdict": verify_deal(document)}]
    if document.get("format") != MATCH_FORMAT or not isinstance(document.get("deals"), list):
        raise ValueError(f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}")
    out: list[dict[str, Any]] = []
    previous: DealState | None = None
    for i, deal in enumerate(document["deals"]):
        if not isinstance(deal, dict):
            raise ValueError("a match record's deals are objects")
        deal = {"number": i + 1, **deal}
        out.append({"number": deal["number"], "verdict": verify_deal(deal, previous)})
        try:
            previous = replay_deal(deal)
        except ReplayError:
            previous = None
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m app.rooms.shuffle verify FILE [FILE …]``: one JSON line per file with each
    deal's verdict; exits 1 if a deal does not match or a file cannot be checked."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] != "verify":
        print("usage: python -m app.rooms.shuffle verify FILE [FILE ...]", file=sys.stderr)
        return 2
    failed = False
    for path in args[1:]:
        try:
            with open(path, encoding="utf-8") as handle:
                deals = verify_record(json.load(handle))
        except (OSError, ValueError) as error:
            failed = True
            print(json.dumps({"file": path, "error": str(error)}))
            continue
        failed |= any(d["verdict"] == MISMATCH for d in deals)
        print(json.dumps({"file": path, "deals": deals}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
