"""A match: the scoresheet, hanging points, the dealer's turn and the end (BG-26, BG-27, FR-13,
BGN-12, SUR-5). One column per side: a team, or a player in the small presets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card
from .deal import DealState, Phase, new_deal
from .errors import BadRecord
from .ruleset import Ruleset
from .scoring import MP, SUR_CONTRA


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the scoresheet: what each side wrote for one deal (None = a dash)."""

    dealer: int
    void: bool
    contract: str | None
    contracting_team: int | None
    multiplier: int
    mp: MP
    hanging_out: int
    valat_team: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "void": self.void,
            "contract": self.contract,
            "contracting_team": self.contracting_team,
            "multiplier": self.multiplier,
            "mp": list(self.mp),
            "hanging_out": self.hanging_out,
            "valat_team": self.valat_team,
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    """The scoresheet so far and what the next deal starts from."""

    ruleset: Ruleset
    target: int
    first_dealer: int
    lines: tuple[ScoreLine, ...]
    scores: tuple[int, ...]
    hanging: int
    next_dealer: int
    finished: bool
    winner: int | None

    def start_deal(self, deck: Sequence[Card]) -> DealState:
        """The next deal of this match, dealt from `deck` by `next_dealer`."""
        if self.finished:
            raise ValueError("the match is over")
        return new_deal(self.ruleset, self.next_dealer, deck, self.hanging)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.ruleset.to_dict(),
            "target": self.target,
            "first_dealer": self.first_dealer,
            "lines": [line.to_dict() for line in self.lines],
            "scores": list(self.scores),
            "hanging": self.hanging,
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "winner": self.winner,
        }


def new_match(ruleset: Ruleset, first_dealer: int, target: int | None = None) -> MatchState:
    """A match before its first deal; the target defaults to the preset's (151 / 1000)."""
    if not 0 <= first_dealer < ruleset.seats:
        raise BadRecord(f"first_dealer must be a seat 0..{ruleset.seats - 1}")
    goal = ruleset.default_target if target is None else target
    if not isinstance(goal, int) or goal <= 0:
        raise BadRecord("the target must be a positive whole number")
    zeros = (0,) * len(ruleset.sides)
    return MatchState(ruleset, goal, first_dealer, (), zeros, 0, first_dealer, False, None)


def record_deal(match: MatchState, deal: DealState) -> MatchState:
    """Write a finished deal on the scoresheet and decide whether the match is over."""
    if match.finished:
        raise ValueError("the match is over")
    if deal.phase is not Phase.FINISHED or deal.result is None:
        raise ValueError("only a finished deal goes on the scoresheet")
    if deal.dealer != match.next_dealer or deal.hanging_in != match.hanging:
        raise ValueError("this deal does not follow the match (dealer or hanging points differ)")
    if deal.ruleset != match.ruleset:
        raise ValueError("this deal was played under other rules")
    result = deal.result
    line = ScoreLine(
        deal.dealer,
        result.void,
        None if result.contract is None else result.contract.record_name,
        result.contracting_team,
        result.multiplier,
        result.mp,
        result.hanging_out,
        result.valat_team,
    )
    scores = tuple(score + (mp or 0) for score, mp in zip(match.scores, result.mp, strict=True))
    sur_contra = match.ruleset.house_rules.sur_contra
    if result.void or (result.multiplier == SUR_CONTRA and result.winner is None):
        # Nothing was scored, so nothing can end: this also keeps the deal owed after a valat
        # (BG-27: a void deal or a sur-contra deal that hangs is not that deal) or after equal
        # scores at the target (FR-13) a deal that is played out.
        finished, winner = False, None
    elif sur_contra == "wins_match" and result.multiplier == SUR_CONTRA:
        finished, winner = True, result.winner  # SUR-5
    else:
        finished, winner = _ends(match, scores, result.valat_team is not None)
    return replace(
        match,
        lines=(*match.lines, line),
        scores=scores,
        hanging=result.hanging_out,
        next_dealer=(deal.dealer + 1) % match.ruleset.seats,
        finished=finished,
        winner=winner,
    )


def _ends(match: MatchState, scores: tuple[int, ...], valat: bool) -> tuple[bool, int | None]:
    """BG-27 / BGN-12: a side at the target with no other side on the same score ends it,
    never on a valat deal. FR-13: reaching the target ends it unless the scores are equal."""
    top = max(scores)
    if top < match.target or scores.count(top) > 1:
        return False, None
    if valat and not match.ruleset.is_french:
        return False, None
    return True, scores.index(top)
