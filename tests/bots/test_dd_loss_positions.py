"""`bench.dd_loss`'s positions: the duel's French deals, with `must_undertrump` off as against
colver unless `--undertrump` asks for the French default (issue 14's measurements)."""

from __future__ import annotations

from app.bots.solver import tricks_left
from bench.dd_loss import positions


def test_positions_are_played_under_the_rule_asked_for() -> None:
    for undertrump in (False, True):
        found = positions(1, 7, 3, "basic", undertrump)
        assert len(found) == 3
        for position in found:
            assert position.state.ruleset.house_rules.must_undertrump is undertrump
            assert tricks_left(position.state) == 7
            assert position.state.turn is not None
