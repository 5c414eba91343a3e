"""`bench.duel --baseline`: two builds' runs on the same deals compared deal by deal (issue 14's
A/B measurements). The comparison is pure arithmetic on two reports; no duel is played here."""

from __future__ import annotations

import math
import statistics

import pytest

from bench.duel import paired


def test_the_paired_change_is_the_mean_of_the_deal_by_deal_differences() -> None:
    old = {"seed": 7, "mean_diff": 2.0, "diffs": [10.0, -4.0, 0.0, 2.0]}
    new = {"seed": 7, "mean_diff": 3.5, "diffs": [10.0, -4.0, 6.0, 2.0]}
    result = paired(new, old)
    assert result["mean"] == 1.5
    assert result["deals_changed"] == 1
    assert result["baseline_mean_diff"] == 2.0
    low, high = result["ci95"]
    assert low < 1.5 < high
    # Untouched deals cancel: the interval is about half the new run's own.
    assert high - low < 6.0
    own = 2 * 1.96 * statistics.stdev(new["diffs"]) / math.sqrt(len(new["diffs"]))
    assert high - low < own * 0.6


def test_a_baseline_of_other_deals_is_refused() -> None:
    mine = {"seed": 7, "diffs": [1.0, 2.0]}
    with pytest.raises(SystemExit, match="not the same deals"):
        paired(mine, {"seed": 7, "mean_diff": 0.0, "diffs": [1.0, 2.0, 3.0]})
    with pytest.raises(SystemExit, match="seed 8"):
        paired(mine, {"seed": 8, "mean_diff": 0.0, "diffs": [1.0, 2.0]})
