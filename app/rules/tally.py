"""What one finished deal counts for each seat in a player's statistics (their profile).

Read from the deal's record notation — its calls and its replay result (RECORDS.md) — and not
from a live ``DealState``, so that a server counting a deal as it ends and a migration counting
the deals stored before statistics existed (from the stored actions and results) count alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .actions import Call
from .ruleset import Ruleset

DOUBLING = frozenset({Call.CONTRA.value, Call.RECONTRA.value, Call.SURCONTRA.value})
NOT_A_CONTRACT = DOUBLING | {Call.PASS.value}
OUTCOMES = {"made": "made", "inside": "inside", "tie": "hanging"}
"""The scoresheet's outcome of a contract (``Settlement.outcome``) → the counter it adds to."""


@dataclass(frozen=True, slots=True)
class Tally:
    """One seat's counts from one deal (each 0 or 1 but the declarations' count and points)."""

    deals: int = 0
    bids: int = 0
    """The seat made the contract that was played (Bulgarian: the last contract bid; French:
    took)."""
    made: int = 0
    inside: int = 0
    """Its contract failed (BG-23 "inside", FR-11 "dedans")."""
    hanging: int = 0
    """Its contract tied and its points hang (BG-23, BG-26, FR-12)."""
    defended: int = 0
    """Another side's contract was played (the seat's side defended it)."""
    beaten: int = 0
    """... and it failed: the defence won it."""
    contras: int = 0
    """The seat doubled the contract that was played (contra, re-contra or sur-contra)."""
    contras_won: int = 0
    """... and its side won the deal."""
    capots: int = 0
    """Its side took every trick (valat, BG-22; the French capot, FR-9)."""
    capots_lost: int = 0
    belotes: int = 0
    """Belotes the seat scored (BG-19, FR-7)."""
    declarations: int = 0
    """Declarations the seat scored (sequences and carrés; BG-12..BG-20, FR-8)."""
    declaration_points: int = 0


TALLY_COUNTERS: tuple[str, ...] = tuple(f.name for f in fields(Tally))
"""The names of ``Tally``'s counters: the columns of the statistics table, in order."""


def tally_deal(
    ruleset: Ruleset, calls: Iterable[tuple[int, str]], result: Mapping[str, Any]
) -> tuple[Tally, ...]:
    """Each seat's counts from a finished deal: ``calls`` are its bids as (seat, call) in
    the order made, ``result`` its replay output (``DealResult.to_dict()``)."""
    seats = ruleset.seats
    if result.get("void"):
        return tuple(Tally(deals=1) for _ in range(seats))
    calls = list(calls)
    last = max(i for i, (_, call) in enumerate(calls) if call not in NOT_A_CONTRACT)
    bidder = calls[last][0]
    doubled = {seat for seat, call in calls[last + 1 :] if call in DOUBLING}
    breakdown = result["breakdown"]
    outcome = OUTCOMES[breakdown["outcome"]]
    winner = breakdown["hanging_in"]["awarded_to"]
    contracting = result["contracting_team"]
    valat = result["valat_team"]
    scored: dict[int, list[int]] = {}  # seat → points of each declaration it scored
    belotes: dict[int, int] = {}
    for team in breakdown["teams"]:
        for declaration in team["declarations"]:
            scored.setdefault(declaration["seat"], []).append(declaration["points"])
        for belote in team["belote"]:
            belotes[belote["seat"]] = belotes.get(belote["seat"], 0) + 1
    tallies = []
    for seat in range(seats):
        side = ruleset.team_of(seat)
        defends = side != contracting
        tallies.append(
            Tally(
                deals=1,
                bids=int(seat == bidder),
                made=int(seat == bidder and outcome == "made"),
                inside=int(seat == bidder and outcome == "inside"),
                hanging=int(seat == bidder and outcome == "hanging"),
                defended=int(defends),
                beaten=int(defends and outcome == "inside"),
                contras=int(seat in doubled),
                contras_won=int(seat in doubled and winner == side),
                capots=int(valat is not None and valat == side),
                capots_lost=int(valat is not None and valat != side),
                belotes=belotes.get(seat, 0),
                declarations=len(scored.get(seat, ())),
                declaration_points=sum(scored.get(seat, ())),
            )
        )
    return tuple(tallies)


def record_calls(actions: Iterable[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """The (seat, call) of each bid among a deal record's ``actions``."""
    return [(action["seat"], action["bid"]) for action in actions if "bid" in action]
