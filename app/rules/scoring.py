"""Scoring a finished deal, itemised (BG-21..BG-26, FR-7..FR-13, BGN-11, BG3-12..BG3-21,
SUR-4, KIR-1..KIR-7).

Players dispute scores, so the result carries the arithmetic: card points, last trick, each
declaration and belote with its holder, valat, multiplier, rounding and hanging points.
The totals are the same sum for every preset, one per side; how they are compared is the
ruleset's `contest`: `bulgarian_points` (two sides), `three_player_points` (BG3) and
`french_points` are the pure table functions the golden cases and the RULES.md tables pin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import declarations
from .cards import SUIT_NAMES
from .contracts import Contract
from .ruleset import CONTEST_FRENCH, CONTEST_THREE_PLAYERS, HouseRules

if TYPE_CHECKING:
    from .deal import DealState, Trick

LAST_TRICK = 10
VALAT_MP = 9  # BG-22: 90 points, never multiplied
BELOTE_POINTS = 20
FRENCH_DEAL_POINTS = 162
FRENCH_CAPOT_POINTS = 252

KIRTIK_MP = -10  # KIR-1
SUR_CONTRA = 8  # SUR-1

MP = tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the scoresheet gets from one deal's totals."""

    mp: MP
    hanging_out: int
    winner: int | None
    """The team that wins the deal and so collects hanging points (BG-26, FR-12); None on a tie."""
    outcome: str
    rounding: dict[str, Any] = field(default_factory=dict)
    kirtik: tuple[int, ...] = ()
    """The sides that lost 10 MP to a kirtik (KIR-1)."""


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
    kirtik: tuple[int, ...] = (),
) -> Settlement:
    """BG-26 / FR-12 / BG3-21: the deal's winner collects what was hanging; without one
    everything hangs on. KIR-5: a kirtik is added last, a dash counting as 0."""
    if winner is not None:
        mp[winner] = (mp[winner] or 0) + hanging_in
        hanging_out = new_hanging
    else:
        hanging_out = hanging_in + new_hanging
    for side in kirtik:
        mp[side] = (mp[side] or 0) + KIRTIK_MP
    return Settlement(tuple(mp), hanging_out, winner, outcome, rounding, kirtik)


def _kirtik(
    house: HouseRules,
    contracting: int,
    mp: list[int | None],
    multiplier: int,
    winner: int | None,
    outcome: str,
    valat_side: int | None,
) -> tuple[int, ...]:
    """KIR-2..KIR-4, KIR-6: the sides committed and lost, or valat; one kirtik each."""
    if not house.kirtik:
        return ()
    hit: set[int] = set()
    if multiplier == 1:
        if outcome == "inside":
            hit.add(contracting)
    elif winner is not None:
        hit.update(s for s, m in enumerate(mp) if m is None)
    if valat_side is not None:
        hit.update(s for s in range(len(mp)) if s != valat_side)
    return tuple(sorted(hit))


def bulgarian_points(
    contract: Contract,
    contracting_team: int,
    totals: tuple[int, ...],
    multiplier: int,
    valat_team: int | None,
    house: HouseRules,
    hanging_in: int = 0,
) -> Settlement:
    """BG-22..BG-26 (BG2-11, OB-17 with player for team; SUR-4, KIR): match points for the
    scoresheet from the two sides' totals."""
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
    kirtik = _kirtik(house, c, mp, multiplier, winner, outcome, valat_team)
    if valat_team is not None:
        mp[valat_team] = (mp[valat_team] or 0) + VALAT_MP
    return _settle(mp, winner, outcome, rounding, hanging_in, new_hanging, kirtik)


def three_player_points(
    contract: Contract,
    contractor: int,
    totals: tuple[int, ...],
    multiplier: int,
    valat_seat: int | None,
    house: HouseRules,
    hanging_in: int = 0,
) -> Settlement:
    """BG3-13..BG3-21 (with SUR-4 and KIR): match points for three players each for himself.

    Every amount is rounded on its own (BG3-13). Undoubled, the contractor's total C is
    compared with the best defender's (or, `bg3_goal=beat_both`, with both defenders' summed);
    doubled, the strictly highest total takes the whole deal (BG3-20)."""
    seats = len(totals)
    defenders = [s for s in range(seats) if s != contractor]
    mp: list[int | None] = [None] * seats
    new_hanging = 0
    rounding: dict[str, Any] = {"totals": list(totals)}
    winner: int | None
    if multiplier > 1:
        whole = round_one(contract, sum(totals)) * multiplier
        rounding["sum"] = sum(totals)
        top = max(totals)
        leaders = [s for s in range(seats) if totals[s] == top]
        if len(leaders) > 1:
            new_hanging, winner, outcome = whole, None, "tie"
        else:
            winner = leaders[0]
            mp[winner] = whole
            outcome = "made" if winner == contractor else "inside"
    else:
        own = totals[contractor]
        against = [totals[d] for d in defenders]
        goal = sum(against) if house.bg3_goal == "beat_both" else max(against)
        if own > goal:  # BG3-14, BG3-15
            mp = [round_one(contract, t) for t in totals]
            winner, outcome = contractor, "made"
        else:
            for d in defenders:
                mp[d] = round_one(contract, totals[d])
            best = max(against)
            tops = [d for d in defenders if totals[d] == best]
            if own == goal:  # BG3-17: C hangs
                new_hanging = round_one(contract, own)
                winner, outcome = None, "tie"
            else:  # BG3-16, BG3-19: inside
                outcome = "inside"
                winner = tops[0] if len(tops) == 1 else None
                if house.bg3_inside == "each":
                    for d in defenders:
                        mp[d] = round_one(contract, totals[d] + own)
                elif house.bg3_inside == "best":
                    if winner is None:
                        new_hanging = round_one(contract, own)
                    else:
                        mp[winner] = round_one(contract, totals[winner] + own)
    rounding["match_points"] = list(mp)
    kirtik = _kirtik(house, contractor, mp, multiplier, winner, outcome, valat_seat)
    if valat_seat is not None:
        mp[valat_seat] = (mp[valat_seat] or 0) + VALAT_MP
    return _settle(mp, winner, outcome, rounding, hanging_in, new_hanging, kirtik)


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
    cards: tuple[int, ...]
    last: tuple[int, ...]
    doubled: bool
    tricks_by_team: tuple[int, ...]
    totals: tuple[int, ...]
    declared: tuple[declarations.Announced, ...]
    belotes: tuple[tuple[int, int], ...]
    seat_teams: tuple[int, ...]
    multiplier: int
    valat_team: int | None
    settlement: Settlement
    hanging_in: int
    kirtik_rule: bool = False
    """Whether the house rule `kirtik` is on (the breakdown then lists each kirtik)."""

    def to_dict(self) -> dict[str, Any]:
        team = self.seat_teams
        out = {
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
                for t in range(len(self.totals))
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
        if self.kirtik_rule:
            out["kirtik"] = [
                {"team": side, "match_points": KIRTIK_MP} for side in self.settlement.kirtik
            ]
        return out


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a deal, in the shape of RECORDS.md's replay output (one entry per side
    in `totals` and `mp`: a team, or a seat in the small presets)."""

    void: bool
    contract: Contract | None
    contracting_team: int | None
    multiplier: int
    tricks: tuple[Trick, ...]
    totals: tuple[int, ...]
    valat_team: int | None
    mp: MP
    hanging_out: int
    winner: int | None
    """The side that won the deal and collected the hanging points, if any (BG-26, FR-12)."""
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
    """The declarations that score at the end of the deal (BG-20 leaves out sides with no trick).

    `as_shown=True` gives the resolution shown to all when the first trick ends (BG-16; the
    second with TWO-3), when no side can yet be known to take no trick.
    """
    assert state.contract is not None
    if not state.declared:
        return []
    if as_shown:
        with_tricks = set(range(len(state.ruleset.sides)))
    else:
        with_tricks = {state.ruleset.team_of(t.winner) for t in state.tricks}
    return declarations.scoring(state.ruleset, state.contract, state.declared, with_tricks)


def settle_taken(
    state: DealState,
    taken: tuple[int, ...],
    belote: tuple[int, ...],
    announces: tuple[int, ...],
    valat_team: int | None,
) -> tuple[tuple[int, ...], Settlement]:
    """Each side's total and the scoresheet's settlement of `state`'s contract when the sides
    took `taken` card points (the last trick's included) and score `belote` and `announces`.

    `score_deal` settles a finished deal with it; a bot's search settles an ending it has
    only foreseen (how many card points each side would take), so that it values the ending
    by its score rather than its card points."""
    ruleset = state.ruleset
    contract, house = state.contract, ruleset.house_rules
    assert contract is not None and state.bidder is not None
    contracting = ruleset.seat_sides[state.bidder]
    if ruleset.contest == CONTEST_FRENCH:
        if valat_team is None:
            base = (taken[0], taken[1])
        else:
            base = (FRENCH_CAPOT_POINTS, 0) if valat_team == 0 else (0, FRENCH_CAPOT_POINTS)
        settle = french_points(
            contracting,
            base,
            (belote[0], belote[1]),
            (announces[0], announces[1]),
            valat_team,
            house,
            state.hanging_in,
        )
        return (base[0] + belote[0] + announces[0], base[1] + belote[1] + announces[1]), settle
    factor = 2 if contract == Contract.NO_TRUMPS else 1
    totals = tuple([taken[s] * factor + announces[s] + belote[s] for s in range(len(taken))])
    points = three_player_points if ruleset.contest == CONTEST_THREE_PLAYERS else bulgarian_points
    settle = points(
        contract, contracting, totals, state.multiplier, valat_team, house, state.hanging_in
    )
    return totals, settle


def score_deal(state: DealState) -> DealResult:
    """Score a finished deal (the engine calls this when the last card or the last pass falls)."""
    ruleset = state.ruleset
    n = len(ruleset.sides)
    if state.contract is None:
        zeros = (0,) * n
        return DealResult(True, None, None, 1, (), zeros, None, zeros, state.hanging_in, None, None)
    contract = state.contract
    assert state.bidder is not None
    team = ruleset.seat_sides
    contracting = team[state.bidder]
    won = [0] * n
    for trick in state.tricks:
        won[team[trick.winner]] += 1
    valat_team = won.index(len(state.tricks)) if len(state.tricks) in won else None
    decl = tuple(scoring_declarations(state))
    ann = [0] * n
    for a in decl:
        ann[team[a.seat]] += a.declaration.points
    bel = [0] * n
    for seat, _suit in state.belotes:
        bel[team[seat]] += BELOTE_POINTS
    last_side = team[state.tricks[-1].winner]
    last = tuple([LAST_TRICK if s == last_side else 0 for s in range(n)])
    cards = state.points
    taken = tuple([cards[s] + last[s] for s in range(n)])
    totals, settle = settle_taken(state, taken, tuple(bel), tuple(ann), valat_team)
    itemised = Itemised(
        ruleset.is_french,
        cards,
        last,
        contract == Contract.NO_TRUMPS,
        tuple(won),
        totals,
        decl,
        state.belotes,
        team,
        state.multiplier,
        valat_team,
        settle,
        state.hanging_in,
        ruleset.house_rules.kirtik and not ruleset.is_french,
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
