"""`bench.bots`' `by_contract`: the deal groups split by what the seatings' biddings reached
(issue 14's question whether a level wins or loses its margin in the bidding or in the play).
Pure arithmetic on labelled deals, plus one real deal group classified from its results."""

from __future__ import annotations

import math

from app.rules import Contract
from bench.bots import contract_kind, contract_split, play_pair

HEARTS_BY_0 = (Contract.HEARTS, 0, 1)


def test_a_deal_group_is_labelled_by_its_contracts_and_their_fates() -> None:
    assert contract_kind([(HEARTS_BY_0, "made"), (HEARTS_BY_0, "made")]) == "same_fate"
    assert contract_kind([(HEARTS_BY_0, "made"), (HEARTS_BY_0, "inside")]) == "other_fate"
    doubled = (Contract.HEARTS, 0, 2)
    assert contract_kind([(HEARTS_BY_0, "made"), (doubled, "made")]) == "other_contract"
    other_side = (Contract.HEARTS, 1, 1)
    assert contract_kind([(HEARTS_BY_0, "made"), (other_side, "made")]) == "other_contract"
    assert contract_kind([(None, "void"), (HEARTS_BY_0, "made")]) == "other_contract"
    assert contract_kind([(None, "void"), (None, "void")]) == "void"


def test_the_shares_add_up_to_the_mean_margin() -> None:
    diffs = [10.0, -4.0, 0.0, 2.0, -30.0, 50.0]
    kinds = ["same_fate", "same_fate", "void", "other_contract", "other_fate", "other_fate"]
    split = contract_split(diffs, kinds)
    assert split["same_fate"] == {"deals": 2, "mean_diff": 3.0, "share": 1.0}
    assert split["other_fate"]["a_ahead"] == 1
    assert split["other_fate"]["a_behind"] == 1
    assert split["other_fate"]["mean_diff"] == 10.0
    total = sum(part["share"] for part in split.values())
    assert math.isclose(total, sum(diffs) / len(diffs), abs_tol=1e-3)
    assert sum(part["deals"] for part in split.values()) == len(diffs)


def test_the_seatings_of_a_real_match_are_labelled_per_deal() -> None:
    rules = {"preset": "french", "house_rules": {}}
    out = play_pair((rules, "basic", "basic", None, 3, 0, None))
    assert len(out.kinds) == len(out.diffs) > 0
    # The same level on both sides bids and plays the same cards alike in both seatings.
    assert set(out.kinds) <= {"same_fate", "void"}
    assert all(d == 0 for d in out.diffs)
    mixed = play_pair((rules, "basic", "random", None, 3, 0, None))
    assert "other_contract" in mixed.kinds
