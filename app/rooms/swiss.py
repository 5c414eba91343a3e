"""A Swiss tournament's standings and pairings, as pure functions of the results so far
(``app.rooms.tournaments`` stores them and opens the tables).

Every unit plays every round — nobody is knocked out — against a unit with the same record as
far as can be, and never the same one twice while another pairing exists; after the rounds the
host chose, the top of the standings wins. Where a club runs a "concours" over an evening, this
is what it plays: everyone plays to the end, and a bad first match does not send anyone home.

The standings rank by matches won; then by the opponents' wins (Buchholz: a win against strong
units is worth more than one against weak ones); then by the match points scored less those
conceded; then by the draw's order, so that every node ranks (and pairs) alike. A bye — an odd
field's unit left over — counts as a win and goes each round to the lowest-ranked unit that has
had the fewest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.rooms.bracket import Pairing

MAX_ROUNDS = 9
"""The most rounds a Swiss tournament plays (32 players in five rounds have one winner)."""
SEARCH_STEPS = 20_000
"""How far the pairing looks for a round without a rematch before it allows one."""


@dataclass(frozen=True, slots=True)
class Result:
    """A decided match: ``b`` None is a bye; ``scores`` the sides' match points, ``a``'s first
    (None: a bye, or a match given to ``a`` because nobody could sit)."""

    a: int
    b: int | None
    winner: int
    scores: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Standing:
    unit: int
    wins: int
    buchholz: int
    """The wins of the units it met, together."""
    points_for: int
    points_against: int
    byes: int

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


def standings(units: int, results: Sequence[Result]) -> list[Standing]:
    """Every unit's record, best first."""
    wins = [0] * units
    byes = [0] * units
    scored = [0] * units
    conceded = [0] * units
    met: list[list[int]] = [[] for _ in range(units)]
    for result in results:
        wins[result.winner] += 1
        if result.b is None:
            byes[result.a] += 1
            continue
        met[result.a].append(result.b)
        met[result.b].append(result.a)
        if result.scores is not None and len(result.scores) == 2:
            a_points, b_points = result.scores
            scored[result.a] += a_points
            conceded[result.a] += b_points
            scored[result.b] += b_points
            conceded[result.b] += a_points
    table = [
        Standing(u, wins[u], sum(wins[o] for o in met[u]), scored[u], conceded[u], byes[u])
        for u in range(units)
    ]
    table.sort(key=lambda s: (-s.wins, -s.buchholz, -s.difference, s.unit))
    return table


def pairings(round_: int, table: Sequence[Standing], results: Sequence[Result]) -> list[Pairing]:
    """Round ``round_``'s matches, the top table first (slot 0) and a bye last: each unit, in
    the order of ``table``, meets the highest-ranked unit below it that it has not met, going
    back on earlier choices when that leaves a unit with only opponents it has met; when no
    round without a rematch is found within ``SEARCH_STEPS`` (a small field after many rounds),
    the same top-down order with rematches."""
    order = [s.unit for s in table]
    made: list[Pairing] = []
    if len(order) % 2:
        fewest = min(s.byes for s in table)
        resting = next(s.unit for s in reversed(table) if s.byes == fewest)
        order.remove(resting)
        made.append(Pairing(round_, len(order) // 2, resting, None))
    met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
    pairs = _without_rematches(order, met) or [
        (order[i], order[i + 1]) for i in range(0, len(order), 2)
    ]
    return [Pairing(round_, slot, a, b) for slot, (a, b) in enumerate(pairs)] + made


def _without_rematches(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """A pairing of ``order`` (even) in which no two units meet again, found depth first in
    ranking order; None if there is none, or none within ``SEARCH_STEPS``."""
    steps = 0

    def pair(left: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not left:
            return []
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            steps += 1
            if steps > SEARCH_STEPS:
                return None
            if frozenset((first, other)) in met:
                continue
            found = pair(rest[:i] + rest[i + 1 :])
            if found is not None:
                return [(first, other), *found]
        return None

    return pair(order)
