"""Actions a seat takes in a deal — bids and plays — and their record notation (RECORDS.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import CARDS, Card
from .errors import BadRecord


class Call(StrEnum):
    """Everything a player can say in the bidding, spelled as records spell it."""

    PASS = "pass"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    NO_TRUMPS = "no_trumps"
    ALL_TRUMPS = "all_trumps"
    CONTRA = "contra"
    RECONTRA = "recontra"
    SURCONTRA = "surcontra"
    """SUR-1: the third level of doubling, with the house rule `sur_contra`."""
    TAKE = "take"


Declared = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    call: Call

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": self.call.value}


@dataclass(frozen=True, slots=True)
class Play:
    """A card played, with what is announced along with it.

    `declare` holds each declaration as its exact cards, in a canonical order (cards ascending,
    declarations by their first card) so that equal announcements compare equal.
    """

    seat: int
    card: Card
    declare: Declared = ()
    belote: bool = False
    rebelote: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "play": str(self.card)}
        if self.declare:
            out["declare"] = [[str(c) for c in sorted(d, reverse=True)] for d in self.declare]
        if self.belote:
            out["belote"] = True
        if self.rebelote:
            out["rebelote"] = True
        return out


Action = Bid | Play


def canonical_declarations(declarations: Any) -> Declared:
    """Sort declarations into the canonical order used by `Play.declare`."""
    return tuple(sorted((tuple(sorted(d)) for d in declarations), key=lambda d: (d[0], len(d))))


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise BadRecord(f"{key} must be true or false")
    return value


def action_from_dict(data: Any, seats: int = 4, exact: bool = False) -> Action:
    """Read one action of a record; raise BadRecord if it is malformed (not if it is illegal).
    ``exact``: cards only in C-2 as written (``Card.parse``), as a record holds them."""
    if not isinstance(data, dict):
        raise BadRecord("an action must be an object")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise BadRecord(f"seat must be a number 0..{seats - 1}")
    if ("bid" in data) == ("play" in data):
        raise BadRecord("an action has exactly one of bid or play")
    if "bid" in data:
        extra = set(data) - {"seat", "bid"}
        if extra:
            raise BadRecord(f"unexpected fields in a bid: {', '.join(sorted(extra))}")
        try:
            return Bid(seat, Call(data["bid"]))
        except ValueError:
            raise BadRecord(f"unknown bid {data['bid']!r}") from None
    if not _PLAY_KEYS.issuperset(data):
        extra = set(data) - _PLAY_KEYS
        raise BadRecord(f"unexpected fields in a play: {', '.join(sorted(extra))}")
    card = _card(data["play"], exact)
    declare_raw = data.get("declare", [])
    if not isinstance(declare_raw, list) or not all(isinstance(d, list) for d in declare_raw):
        raise BadRecord("declare must be a list of lists of cards")
    if any(not d for d in declare_raw):
        raise BadRecord("a declaration cannot be empty")
    declare = (
        canonical_declarations([_card(c, exact) for c in d] for d in declare_raw)
        if declare_raw
        else ()
    )
    belote, rebelote = _flag(data, "belote"), _flag(data, "rebelote")
    if not (declare or belote or rebelote) and seat < len(PLAIN_PLAYS):
        return PLAIN_PLAYS[seat][card]  # most plays: no new object (a frozen one is slow to make)
    return Play(seat, card, declare, belote, rebelote)


_PLAY_KEYS = frozenset({"seat", "play", "declare", "belote", "rebelote"})


def _card(text: Any, exact: bool = False) -> Card:
    if not isinstance(text, str):
        raise BadRecord(f"not a card: {text!r}")
    try:
        return Card.parse(text, exact)
    except ValueError as exc:
        raise BadRecord(str(exc)) from None


def action_to_dict(action: Action) -> dict[str, Any]:
    return action.to_dict()


PLAIN_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in CARDS) for seat in range(4)
)
"""Plays without announcements, made once: the hot path of the engine hands these out."""
