"""Deal and match records (RECORDS.md, docs/records.md): writing them and replaying them.

A record is the portable form of a deal — rules, dealer, deck, actions — like PGN for chess.
Replaying validates every action through the engine and recomputes the result, so a record is
also the crash-recovery log and the export format.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from .actions import action_from_dict
from .cards import Card
from .deal import DealState, apply, new_deal
from .errors import BadRecord, RuleError
from .match import MatchState, new_match, record_deal
from .ruleset import Ruleset

DEAL_FORMAT = "belote-deal/1"
MATCH_FORMAT = "belote-match/1"


class ReplayError(ValueError):
    """A record that does not replay: which action (or None for the whole record), and why."""

    def __init__(
        self,
        message: str,
        rule: str,
        index: int | None = None,
        seat: int | None = None,
        deal: int | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.index = index
        self.seat = seat
        self.deal = deal

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "seat": self.seat,
            "rule": self.rule,
            "message": str(self),
        }
        if self.deal is not None:
            out["deal"] = self.deal
        return out


def deal_record(state: DealState) -> dict[str, Any]:
    """The record of a deal so far (finished or not): the core fields of RECORDS.md."""
    return {
        "format": DEAL_FORMAT,
        "rules": state.ruleset.to_dict(),
        "dealer": state.dealer,
        "deck": [str(c) for c in state.deck],
        "hanging_in": state.hanging_in,
        "actions": [a.to_dict() for a in state.actions],
    }


def _deck(data: Any) -> list[Card]:
    if not isinstance(data, list) or not all(isinstance(c, str) for c in data):
        raise BadRecord("deck must be a list of cards")
    try:
        return [Card.parse(c, exact=True) for c in data]
    except ValueError as exc:
        raise BadRecord(str(exc)) from None


def _seat_of(raw: Any) -> int | None:
    """The seat an error line names: the action's seat if it is one, else null (never the raw
    value, which may be anything a JSON document holds, NaN included)."""
    seat = raw.get("seat") if isinstance(raw, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def _rules(data: Any) -> Ruleset:
    """The `rules` object: `house_rules`, when given, is an object (absent = every default)."""
    if isinstance(data, dict) and not isinstance(data.get("house_rules", {}), dict | None):
        raise BadRecord("house_rules must be an object")
    return Ruleset.from_dict(data)


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def replay_deal(record: Any, ruleset: Ruleset | None = None) -> DealState:
    """Replay a deal record to its state; raise ReplayError naming the action and the rule."""
    try:
        if not isinstance(record, dict):
            raise BadRecord("a deal record is a JSON object")
        if record.get("format") != DEAL_FORMAT:
            raise BadRecord(f"format must be {DEAL_FORMAT!r}")
        rules = _rules(record.get("rules"))
        if ruleset is not None and rules != ruleset:
            raise BadRecord("this deal's rules differ from its match's")
        dealer = record.get("dealer")
        hanging_in = record.get("hanging_in", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise BadRecord("dealer must be a seat number")
        if not isinstance(hanging_in, int) or isinstance(hanging_in, bool):
            raise BadRecord("hanging_in must be a whole number")
        state = new_deal(rules, dealer, _deck(record.get("deck")), hanging_in)
        actions = record.get("actions")
        if not isinstance(actions, list):
            raise BadRecord("actions must be a list")
    except BadRecord as exc:
        raise ReplayError(str(exc), exc.rule) from None
    for index, raw in enumerate(actions):
        seat = _seat_of(raw)
        try:
            state = apply(state, action_from_dict(raw, rules.seats, exact=True))
        except BadRecord as exc:
            raise ReplayError(str(exc), exc.rule, index, seat) from None
        except RuleError as exc:
            raise ReplayError(str(exc), exc.rule, index, seat) from None
    return state


def match_record(match: MatchState, deals: Sequence[DealState]) -> dict[str, Any]:
    """A match record: its settings, every deal's record and the scoresheet."""
    return {
        "format": MATCH_FORMAT,
        "rules": match.ruleset.to_dict(),
        "target": match.target,
        "first_dealer": match.first_dealer,
        "deals": [deal_record(d) for d in deals],
        "scoresheet": scoresheet(match),
    }


def scoresheet(match: MatchState) -> dict[str, Any]:
    """The scoresheet part of a match record (and of its replay output)."""
    return {
        "lines": [line.to_dict() for line in match.lines],
        "scores": list(match.scores),
        "hanging": match.hanging,
        "finished": match.finished,
        "winner": match.winner,
    }


def replay_match(record: Any) -> tuple[MatchState, list[DealState]]:
    """Replay a match record deal by deal; the scoresheet is recomputed and checked if given."""
    try:
        if not isinstance(record, dict) or record.get("format") != MATCH_FORMAT:
            raise BadRecord(f"format must be {MATCH_FORMAT!r}")
        rules = _rules(record.get("rules"))
        first_dealer, target = record.get("first_dealer"), record.get("target")
        if not _whole(first_dealer):
            raise BadRecord("first_dealer must be a seat number")
        if target is not None and not _whole(target):
            raise BadRecord("the target must be a positive whole number")
        match = new_match(rules, first_dealer, target)
        deals_raw = record.get("deals")
        if not isinstance(deals_raw, list):
            raise BadRecord("deals must be a list")
    except BadRecord as exc:
        raise ReplayError(str(exc), exc.rule) from None
    deals: list[DealState] = []
    for number, raw in enumerate(deals_raw):
        try:
            deal = replay_deal(raw, rules)
            if deal.result is None:
                raise ReplayError("the deal is not finished", "record")
            match = record_deal(match, deal)
        except ReplayError as exc:
            exc.deal = number
            raise
        except ValueError as exc:
            raise ReplayError(str(exc), "record", deal=number) from None
        deals.append(deal)
    stored = record.get("scoresheet")
    if stored is not None and stored != scoresheet(match):
        raise ReplayError("the stored scoresheet differs from the replayed one", "record")
    return match, deals
