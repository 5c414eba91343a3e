"""Scoring a finished deal, itemised (BG-21..BG-26, FR-7..FR-13).

Players dispute scores, so the result carries the arithmetic: card points, last trick, each
declaration and belote with its holder, valat, multiplier, rounding and hanging points.
`bulgarian_points` and `french_points` are the pure table functions the golden cases pin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import declarations
from .cards import SUIT_NAMES
from .contracts import Contract
from .ruleset import HouseRules

if TYPE_CHECKING:
    from .deal import DealState, Trick

LAST_TRICK = 10
VALAT_MP = 9  # BG-22: 90 points, never multiplied
BELOTE_POINTS = 20
FRENCH_DEAL_POINTS = 162
FRENCH_CAPOT_POINTS = 252

MP = tuple[int | None, int | None]


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the scoresheet gets from one deal's totals."""

    mp: MP
    hanging_out: int
    winner: int | None
    """The team that wins the deal and so collects hanging points (BG-26, FR-12); None on a tie."""
    outcome: str
    rounding: dict[str, Any] = field(default_factory=dict)


def round_one(contract: Contract, total: int) -> int:
    """BG-25 for a single total: suit 6 up, All Trumps and No Trumps 5 up."""
    tens, rest = divmod(total, 10)
    threshold = 6 if contract.is_suit else 5
    return tens + (rest >= threshold)


def round_pair(contract: Contract, a: int, b: int, house: HouseRules) -> tuple[int, int]:
    """BG-25 for two totals, with the rule for totals that both end in the tie digit."""
    ra, rb = round_one(contract, a), round_one(contract, b)
    if a == b:
        return ra, rb
    if contract.is_suit and a % 10 == 6 and b % 10 == 6:
        smaller_up = house.suit_tie_rounding == "smaller_up"
    elif contract == Contract.ALL_TRUMPS and a % 10 == 4 and b % 10 == 4:
        smaller_up = True
    else:
        return ra, rb
    small = min(a, b) // 10 + smaller_up
    large = max(a, b) // 10 + (not smaller_up)
    return (small, large) if a < b else (large, small)


def _tie_digit(contract: Contract) -> int | None:
    if contract.is_suit:
        return 6
    if contract == Contract.ALL_TRUMPS:
        return 4
    return None


def _settle(
    mp: list[int | None],
    winner: int | None,
    outcome: str,
    rounding: dict[str, Any],
    hanging_in: int,
    new_hanging: int,
) -> Settlement:
    """BG-26 / FR-12: the deal's winner collects what was hanging; on a tie everything hangs on."""
    if winner is not None:
        mp[winner] = (mp[winner] or 0) + hanging_in
        return Settlement((mp[0], mp[1]), new_hanging, winner, outcome, rounding)
    return Settlement((mp[0], mp[1]), hanging_in + new_hanging, winner, outcome, rounding)


def bulgarian_points(
    contract: Contract,
    contracting_team: int,
    totals: tuple[int, int],
    multiplier: int,
    valat_team: int | None,
    house: HouseRules,
    hanging_in: int = 0,
) -> Settlement:
    """BG-22..BG-26: match points for the scoresheet from the two teams' totals."""
    c, o = contracting_team, 1 - contracting_team
    mp: list[int | None] = [None, None]
    new_hanging = 0
    rounding: dict[str, Any] = {"totals": list(totals)}
    if multiplier == 1:
        if totals[c] > totals[o]:
            pair = round_pair(contract, totals[0], totals[1], house)
            mp = [pair[0], pair[1]]
            winner: int | None = c
            outcome = "made"
        elif totals[c] < totals[o]:
            mp[o] = round_one(contract, totals[0] + totals[1])
            winner, outcome = o, "inside"
            rounding["sum"] = totals[0] + totals[1]
        else:
            total = totals[c]
            if total % 10 == _tie_digit(contract):
                scored, new_hanging = total // 10, total // 10 + 1
            else:
                scored = new_hanging = round_one(contract, total)
            mp[o] = scored
            winner, outcome = None, "tie"
    else:
        whole = round_one(contract, totals[0] + totals[1]) * multiplier
        rounding["sum"] = totals[0] + totals[1]
        if totals[0] == totals[1]:
            new_hanging = whole
            winner, outcome = None, "tie"
        else:
            winner = 0 if totals[0] > totals[1] else 1
            mp[winner] = whole
            outcome = "made" if winner == c else "inside"
    rounding["match_points"] = list(mp)
    if valat_team is not None:
        mp[valat_team] = (mp[valat_team] or 0) + VALAT_MP
    return _settle(mp, winner, outcome, rounding, hanging_in, new_hanging)


def french_points(
    contracting_team: int,
    base: tuple[int, int],
    belote: tuple[int, int],
    announces: tuple[int, int],
    capot_team: int | None,
    house: HouseRules,
    hanging_in: int = 0,
) -> Settlement:
    """FR-9..FR-13: points for the scoresheet. `base` is cards + dix de der (252 on capot)."""
    t, d = contracting_team, 1 - contracting_team
    totals = [base[i] + belote[i] + announces[i] for i in range(2)]
    mp: list[int | None] = [None, None]
    new_hanging = 0
    if totals[t] > totals[d]:
        mp = [totals[0], totals[1]]
        winner: int | None = t
        outcome = "made"
    elif totals[t] < totals[d]:
        deal = FRENCH_CAPOT_POINTS if capot_team == d else FRENCH_DEAL_POINTS
        mp[t] = belote[t]
        mp[d] = deal + announces[0] + announces[1] + belote[d]
        winner, outcome = d, "inside"
    else:
        mp[d] = totals[d]
        new_hanging = totals[t]
        winner, outcome = None, "tie"
    rounding: dict[str, Any] = {"points": list(mp)}
    if house.round_to_tens:
        mp = [None if m is None else _to_tens(m) for m in mp]
        new_hanging = _to_tens(new_hanging)
        rounding["rounded_to_tens"] = list(mp)
    return _settle(mp, winner, outcome, rounding, hanging_in, new_hanging)


def _to_tens(points: int) -> int:
    """FR-13 house rule: nearest ten, 5 up (85 → 90, 84 → 80)."""
    return (points + 5) // 10 * 10


@dataclass(frozen=True, slots=True)
class Itemised:
    """The arithmetic behind a deal's result, kept as values and shown on demand."""

    ruleset_french: bool
    cards: tuple[int, int]
    last: tuple[int, int]
    doubled: bool
    tricks_by_team: tuple[int, int]
    totals: tuple[int, int]
    declared: tuple[declarations.Announced, ...]
    belotes: tuple[tuple[int, int], ...]
    seat_teams: tuple[int, ...]
    multiplier: int
    valat_team: int | None
    settlement: Settlement
    hanging_in: int

    def to_dict(self) -> dict[str, Any]:
        team = self.seat_teams
        return {
            "teams": [
                {
                    "card_points": self.cards[t],
                    "last_trick": self.last[t],
                    "doubled": self.doubled,
                    "capot": self.ruleset_french and self.valat_team == t,
                    "declarations": [
                        {
                            "seat": a.seat,
                            "kind": a.declaration.kind,
                            "cards": [str(c) for c in sorted(a.declaration.cards, reverse=True)],
                            "points": a.declaration.points,
                        }
                        for a in self.declared
                        if team[a.seat] == t
                    ],
                    "belote": [
                        {"seat": s, "suit": SUIT_NAMES[suit], "points": BELOTE_POINTS}
                        for s, suit in self.belotes
                        if team[s] == t
                    ],
                    "total": self.totals[t],
                    "tricks": self.tricks_by_team[t],
                }
                for t in (0, 1)
            ],
            "outcome": self.settlement.outcome,
            "multiplier": self.multiplier,
            "valat": None
            if self.valat_team is None
            else {
                "team": self.valat_team,
                "match_points": 0 if self.ruleset_french else VALAT_MP,
            },
            "rounding": self.settlement.rounding,
            "hanging_in": {"points": self.hanging_in, "awarded_to": self.settlement.winner},
            "hanging_out": self.settlement.hanging_out,
        }


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a deal, in the shape of RECORDS.md's replay output."""

    void: bool
    contract: Contract | None
    contracting_team: int | None
    multiplier: int
    tricks: tuple[Trick, ...]
    totals: tuple[int, int]
    valat_team: int | None
    mp: MP
    hanging_out: int
    winner: int | None
    """The team that won the deal and collected the hanging points, if any (BG-26, FR-12)."""
    itemised: Itemised | None

    @property
    def breakdown(self) -> dict[str, Any]:
        """Itemised: card points, last trick, declarations by holder, belote, valat, rounding."""
        if self.itemised is None:
            return {"void": True, "hanging_in": self.hanging_out, "hanging_out": self.hanging_out}
        return self.itemised.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "void": self.void,
            "contract": None if self.contract is None else self.contract.record_name,
            "contracting_team": self.contracting_team,
            "multiplier": self.multiplier,
            "tricks": [
                {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "totals": list(self.totals),
            "valat_team": self.valat_team,
            "mp": list(self.mp),
            "hanging_out": self.hanging_out,
            "breakdown": self.breakdown,
        }


def scoring_declarations(state: DealState, as_shown: bool = False) -> list[declarations.Announced]:
    """The declarations that score at the end of the deal (BG-20 leaves out teams with no trick).

    `as_shown=True` gives the resolution shown to all when the first trick ends (BG-16), when no
    team can yet be known to take no trick.
    """
    assert state.contract is not None
    if not state.declared:
        return []
    if as_shown:
        with_tricks = set(range(len(state.ruleset.teams)))
    else:
        with_tricks = {state.ruleset.team_of(t.winner) for t in state.tricks}
    return declarations.scoring(state.ruleset, state.contract, state.declared, with_tricks)


def score_deal(state: DealState) -> DealResult:
    """Score a finished deal (the engine calls this when the last card or the last pass falls)."""
    ruleset = state.ruleset
    if state.contract is None:
        return DealResult(
            True, None, None, 1, (), (0, 0), None, (0, 0), state.hanging_in, None, None
        )
    contract = state.contract
    assert state.bidder is not None
    team = ruleset.seat_teams
    contracting = team[state.bidder]
    won = [0, 0]
    for trick in state.tricks:
        won[team[trick.winner]] += 1
    valat_team = 0 if not won[1] else 1 if not won[0] else None
    decl = tuple(scoring_declarations(state))
    ann = [0, 0]
    for a in decl:
        ann[team[a.seat]] += a.declaration.points
    bel = [0, 0]
    for seat, _suit in state.belotes:
        bel[team[seat]] += BELOTE_POINTS
    last = (0, LAST_TRICK) if team[state.tricks[-1].winner] else (LAST_TRICK, 0)
    cards = state.points
    factor = 2 if contract == Contract.NO_TRUMPS else 1
    if ruleset.is_french:
        if valat_team is None:
            base = (cards[0] + last[0], cards[1] + last[1])
        else:
            base = (FRENCH_CAPOT_POINTS, 0) if valat_team == 0 else (0, FRENCH_CAPOT_POINTS)
        settle = french_points(
            contracting,
            base,
            (bel[0], bel[1]),
            (ann[0], ann[1]),
            valat_team,
            ruleset.house_rules,
            state.hanging_in,
        )
        totals = (base[0] + bel[0] + ann[0], base[1] + bel[1] + ann[1])
    else:
        totals = (
            (cards[0] + last[0]) * factor + ann[0] + bel[0],
            (cards[1] + last[1]) * factor + ann[1] + bel[1],
        )
        settle = bulgarian_points(
            contract,
            contracting,
            totals,
            state.multiplier,
            valat_team,
            ruleset.house_rules,
            state.hanging_in,
        )
    itemised = Itemised(
        ruleset.is_french,
        cards,
        last,
        factor == 2,
        (won[0], won[1]),
        totals,
        decl,
        state.belotes,
        team,
        state.multiplier,
        valat_team,
        settle,
        state.hanging_in,
    )
    return DealResult(
        False,
        contract,
        contracting,
        state.multiplier,
        state.tricks,
        totals,
        valat_team,
        settle.mp,
        settle.hanging_out,
        settle.winner,
        itemised,
    )
