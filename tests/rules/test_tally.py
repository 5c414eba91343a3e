"""A deal's counts for each seat's statistics (app/rules/tally.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import (
    PRESETS,
    TALLY_COUNTERS,
    Bid,
    Phase,
    Ruleset,
    Tally,
    new_deal,
    record_calls,
    tally_deal,
)
from app.rules.deck import full_deck
from tests.rules.helpers import play_randomly


def _result(**overrides: Any) -> dict[str, Any]:
    """A Bulgarian replay result (RECORDS.md) with the fields the tally reads."""
    teams = [{"declarations": [], "belote": []}, {"declarations": [], "belote": []}]
    result: dict[str, Any] = {
        "void": False,
        "contracting_team": 1,
        "valat_team": None,
        "breakdown": {"teams": teams, "outcome": "made", "hanging_in": {"awarded_to": 1}},
    }
    result.update(overrides)
    return result


BULGARIAN = Ruleset.from_dict({"preset": "bulgarian"})


def test_a_void_deal_counts_as_played_and_nothing_else() -> None:
    """BG-7: four passes void the deal."""
    tallies = tally_deal(BULGARIAN, [(s, "pass") for s in range(4)], {"void": True})
    assert tallies == (Tally(deals=1),) * 4


def test_the_bidder_of_the_contract_played_and_its_contra_and_recontra() -> None:
    """BG-5: seat 1 bids hearts, seat 2 contras, seat 1 re-contras; the bidder's side wins."""
    calls = [(0, "pass"), (1, "hearts"), (2, "contra"), (3, "pass"), (0, "pass"), (1, "recontra")]
    calls += [(2, "pass"), (3, "pass"), (0, "pass")]
    seat0, seat1, seat2, seat3 = tally_deal(BULGARIAN, calls, _result())
    assert (seat1.bids, seat1.made, seat1.contras, seat1.contras_won) == (1, 1, 1, 1)
    assert (seat2.bids, seat2.defended, seat2.beaten, seat2.contras, seat2.contras_won) == (
        0,
        1,
        0,
        1,
        0,
    )
    assert (seat0.defended, seat0.contras, seat3.defended, seat3.contras) == (1, 0, 0, 0)


def test_a_contra_cancelled_by_a_higher_contract_does_not_count() -> None:
    """BG-6: seat 1's hearts is doubled, seat 3 bids spades over it; seat 3 is the bidder and
    the failed contract is beaten by seats 0 and 2."""
    calls = [(1, "hearts"), (2, "contra"), (3, "spades"), (0, "pass"), (1, "pass"), (2, "pass")]
    result = _result(
        breakdown={**_result()["breakdown"], "outcome": "inside", "hanging_in": {"awarded_to": 0}}
    )
    result["contracting_team"] = 1
    tallies = tally_deal(BULGARIAN, calls, result)
    assert [t.bids for t in tallies] == [0, 0, 0, 1]
    assert [t.contras for t in tallies] == [0, 0, 0, 0]
    assert tallies[3].inside == 1 and tallies[1].inside == 0
    assert [t.beaten for t in tallies] == [1, 0, 1, 0]


def test_a_tie_hangs_and_valat_counts_for_and_against() -> None:
    """BG-26 (a tie hangs) and BG-24 (valat), with declarations and belote by seat."""
    teams = [
        {"declarations": [{"seat": 0, "points": 20}, {"seat": 2, "points": 50}], "belote": []},
        {"declarations": [], "belote": [{"seat": 3, "points": 20}]},
    ]
    breakdown = {"teams": teams, "outcome": "tie", "hanging_in": {"awarded_to": None}}
    calls = [(0, "clubs"), (1, "pass"), (2, "pass"), (3, "pass")]
    tallies = tally_deal(
        BULGARIAN, calls, _result(contracting_team=0, valat_team=0, breakdown=breakdown)
    )
    assert tallies[0].hanging == 1 and tallies[0].made == tallies[0].inside == 0
    assert [t.capots for t in tallies] == [1, 0, 1, 0]
    assert [t.capots_lost for t in tallies] == [0, 1, 0, 1]
    assert [t.declarations for t in tallies] == [1, 0, 1, 0]
    assert [t.declaration_points for t in tallies] == [20, 0, 50, 0]
    assert [t.belotes for t in tallies] == [0, 0, 0, 1]


def test_record_calls_takes_the_bids_of_a_record() -> None:
    actions = [{"seat": 1, "bid": "take"}, {"seat": 1, "play": "AS"}, {"seat": 2, "play": "7S"}]
    assert record_calls(actions) == [(1, "take")]


@pytest.mark.parametrize("preset", PRESETS)
def test_tallies_agree_with_the_engine_over_random_deals(preset: str) -> None:
    """Over random legal deals of every preset (sur-contra on where it may be): one bidder, the
    engine's own; a doubler exactly when the contract stood doubled; each seat defends or bids;
    the declarations and belotes counted are the scored ones."""
    house = {"sur_contra": "x8"} if preset != "french" else {}
    ruleset = Ruleset.from_dict({"preset": preset, "house_rules": house})
    rng = random.Random(preset)
    for number in range(60):
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        state = play_randomly(new_deal(ruleset, number % ruleset.seats, deck), rng, pass_bias=0.6)
        assert state.phase is Phase.FINISHED and state.result is not None
        result = state.result.to_dict()
        calls = [(b.seat, b.call.value) for b in state.auction.bids if isinstance(b, Bid)]
        tallies = tally_deal(ruleset, calls, result)
        assert len(tallies) == ruleset.seats and all(t.deals == 1 for t in tallies)
        if result["void"]:
            assert all(t == Tally(deals=1) for t in tallies)
            continue
        assert [t.bids for t in tallies] == [int(s == state.bidder) for s in range(ruleset.seats)]
        assert sum(t.made + t.inside + t.hanging for t in tallies) == 1
        assert (sum(t.contras for t in tallies) > 0) == (state.multiplier > 1)
        contracting = ruleset.team_of(state.bidder)
        for seat, t in enumerate(tallies):
            assert t.defended == int(ruleset.team_of(seat) != contracting)
        breakdown = result["breakdown"]
        declared = [d for team in breakdown["teams"] for d in team["declarations"]]
        assert sum(t.declaration_points for t in tallies) == sum(d["points"] for d in declared)
        belotes = sum(len(team["belote"]) for team in breakdown["teams"])
        assert sum(t.belotes for t in tallies) == belotes
        assert set(TALLY_COUNTERS) == set(Tally.__dataclass_fields__)
