"""Every case of ../shared/golden/ (scoring, legal cards, declarations), read at test time.

The golden files are the project's fixed table of facts (shared/golden/README.md): a failing
case here is an engine bug, never a reason to edit the case.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import Contract, Ruleset
from app.rules.declarations import Announced, classify, scoring
from app.rules.scoring import bulgarian_points

from .helpers import golden_dir, legal_cards, load_golden, oracle_legal, position_state

GOLDEN = golden_dir()
pytestmark = pytest.mark.skipif(
    GOLDEN is None,
    reason="shared/golden not found next to the repository (set BELOTE_GOLDEN_DIR)",
)


def _params(name: str) -> list[Any]:
    return [pytest.param(case, id=case["id"]) for case in load_golden(name)]


def _ruleset(case: dict[str, Any]) -> Ruleset:
    return Ruleset.from_dict(
        {"preset": case.get("preset", "bulgarian"), "house_rules": case.get("house_rules", {})}
    )


def test_golden_files_are_not_empty() -> None:
    """Guard against a parametrization that silently collects nothing."""
    for name in ("scoring.json", "legal.json", "declarations.json"):
        assert load_golden(name), name


@pytest.mark.parametrize("case", _params("scoring.json"))
def test_scoring(case: dict[str, Any]) -> None:
    """BG-21..BG-26: match points and hanging points from the two teams' totals."""
    settlement = bulgarian_points(
        Contract.parse(case["contract"]),
        case["contracting_team"],
        tuple(case["totals"]),
        case["multiplier"],
        case["valat_team"],
        _ruleset(case).house_rules,
    )
    assert list(settlement.mp) == case["mp"]
    assert settlement.hanging_out == case["hanging"]


@pytest.mark.parametrize("case", _params("legal.json"))
def test_legal(case: dict[str, Any]) -> None:
    """BG-8..BG-11, FR-6: the legal cards of a real deal in exactly the case's position."""
    ruleset = _ruleset(case)
    trick = [entry["card"] for entry in case["trick"]]
    assert [entry["seat"] for entry in case["trick"]] == list(range(len(trick)))
    assert case["seat"] == len(trick)
    state = position_state(ruleset, case["contract"], trick, case["hand"], seed=case["id"])
    assert [str(c) for c in state.trick] == trick
    assert sorted(str(c) for c in state.hand(case["seat"])) == sorted(case["hand"])
    assert state.contract is not None and state.contract.record_name == case["contract"]
    assert legal_cards(state) == set(case["legal"])


@pytest.mark.parametrize("case", _params("legal.json"))
def test_legal_oracle_agrees(case: dict[str, Any]) -> None:
    """The test suite's own reading of the rules (helpers.oracle_legal) passes the golden
    cases too, so that the property tests may trust it."""
    house = case.get("house_rules", {})
    trick = [entry["card"] for entry in case["trick"]]
    got = oracle_legal(
        case["contract"], trick, 0, case["seat"], case["hand"], house.get("must_undertrump", True)
    )
    assert got == set(case["legal"])


@pytest.mark.parametrize("case", _params("declarations.json"))
def test_declarations(case: dict[str, Any]) -> None:
    """BG-12..BG-20: which announced declarations score, as points per team."""
    ruleset = Ruleset.bulgarian()
    announced = []
    for order, seat in enumerate(sorted(case["declared"], key=int)):
        for cards_text in case["declared"][seat]:
            declaration = classify([_card(c) for c in cards_text])
            assert declaration is not None, cards_text
            announced.append(Announced(int(seat), declaration, order))
    scored = scoring(
        ruleset, Contract.parse(case["contract"]), announced, case["teams_with_tricks"]
    )
    points = [0, 0]
    for a in scored:
        points[ruleset.team_of(a.seat)] += a.declaration.points
    assert points == case["expected_points"]


def _card(text: str) -> Any:
    from app.rules import Card

    return Card.parse(text)
