"""Ratings: what a finished match does to its players' OpenSkill ratings (Plackett-Luce).

The sides are read from the match's rules (``Ruleset.sides``: two teams of two in Bulgarian
and French Belote, one player per side in the games for three or two), so the same code rates
a 2 v 2 match and a free-for-all. The places come from the scoresheet: the winner first, the
others by their final score (equal scores share a place). Which matches are rated at all is
``rated_sides``: docs/protocol.md, "Ratings", states the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from app.rules import Ruleset

MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The number shown and ranked on: mu − 3σ, as OpenSkill defines it (0 at the start)."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


@dataclass(frozen=True, slots=True)
class MatchSeatInfo:
    seat: int
    player_id: str | None
    bot: bool
    account: bool = False
    """The seat's player has an account (``app.rooms.ports.Player``): guests are never rated."""


def rated_sides(rules: Mapping[str, Any], seats: Sequence[MatchSeatInfo]) -> list[list[str]] | None:
    """The player ids of each side, in the order of ``Ruleset.sides``; None when the match
    cannot be rated: a seat held by a bot (chosen at the start or filled in because it was
    empty), a seat without a person, a guest's seat (anyone can make guests, so one person
    could seat their own to lose to them), or one person in two seats."""
    ruleset = Ruleset.from_dict(dict(rules))
    by_seat = {s.seat: s for s in seats}
    sides: list[list[str]] = []
    for team in ruleset.sides:
        side = []
        for seat in team:
            info = by_seat.get(seat)
            if info is None or info.bot or info.player_id is None or not info.account:
                return None
            side.append(info.player_id)
        sides.append(side)
    players = [p for side in sides for p in side]
    return sides if len(set(players)) == len(players) else None


def places(scores: Sequence[int], winner: int | None) -> list[int]:
    """Each side's place (0 = first): the winner first, then by final score, ties shared."""

    def key(side: int) -> tuple[bool, int]:
        return (side != winner, -scores[side])

    return [
        sorted({key(s) for s in range(len(scores))}).index(key(side)) for side in range(len(scores))
    ]


def rate(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The sides' new skills after a match they finished in ``ranks`` (lower is better)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [[Skill(float(r.mu), float(r.sigma)) for r in side] for side in rated]
