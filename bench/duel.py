"""Card play only: duplicate French deals from a fixed take, level against level.

Each deal is bid once by the basic rules (deals nobody takes are skipped), so both seatings play
the same contract from the same hands; then level A plays it from seats 0 and 2 against level B,
and again with the seats swapped. Reported, as JSON:

- `mean_diff`: A's card points (last trick's 10 included, declarations and belote left out)
  minus B's per deal, averaged over the two seatings, with its 95% confidence interval over the
  deals (each deal's 162 points are split between the sides, so the difference is zero-sum);
- each level's decision time, p50/p95 over the cards with a real choice (more than one legal),
  in CPU time of this process: on a shared machine that is what one free core would take.

    python -m bench.duel --a expert --b strong --deals 100

colver (an optional benchmark extra, `pip install .[bench]`) is not driven yet: see
docs/architecture.md, "Bots".
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from app.bots import LEVELS, Bot, make_bot
from app.bots.simulate import policy_action
from app.rules import DealState, Phase, Ruleset, apply, full_deck, new_deal, view

from .bots import _percentiles

LAST_TRICK = 10


def taken_deal(ruleset: Ruleset, seed: int, number: int) -> DealState | None:
    """Deal `number`'s state once the basic rules have bid it, or None if nobody took."""
    rng = random.Random(f"duel/{seed}/{number}")
    deck = full_deck(ruleset)
    rng.shuffle(deck)
    state = new_deal(ruleset, rng.randrange(4), deck)
    while state.phase is Phase.BIDDING:
        state = apply(state, policy_action(state))
    return None if state.turn is None else state


def card_points(state: DealState, team: int) -> int:
    """A team's card points at the end of the deal, the last trick's bonus included."""
    last = state.tricks[-1].winner
    return state.points[team] + (LAST_TRICK if state.ruleset.team_of(last) == team else 0)


def play(
    state: DealState, bots: list[Bot], levels: list[str], times: dict[str, list[float]]
) -> DealState:
    while state.turn is not None:
        seat_view = view(state, state.turn)
        start = time.process_time()
        action = bots[state.turn].choose(seat_view)
        if len(seat_view.legal) > 1:
            times.setdefault(levels[state.turn], []).append(time.process_time() - start)
        state = apply(state, action)
    return state


def run(level_a: str, level_b: str, deals: int, seed: int, must_undertrump: bool) -> dict[str, Any]:
    ruleset = Ruleset.french(must_undertrump=must_undertrump)
    diffs: list[float] = []
    times: dict[str, list[float]] = {}
    number = 0
    start = time.perf_counter()
    while len(diffs) < deals:
        state = taken_deal(ruleset, seed, number)
        number += 1
        if state is None:
            continue
        diff = 0.0
        for a_team in (0, 1):
            levels = [level_a if s % 2 == a_team else level_b for s in range(4)]
            bots = [
                make_bot(lv, random.Random(f"{seed}/{number}/{s}")) for s, lv in enumerate(levels)
            ]
            end = play(state, bots, levels, times)
            diff += card_points(end, a_team) - card_points(end, 1 - a_team)
        diffs.append(diff / 2)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {
        "a": level_a,
        "b": level_b,
        "preset": "french",
        "must_undertrump": must_undertrump,
        "deals": len(diffs),
        "mean_diff": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "choice_time": {lv: _percentiles(t) for lv, t in sorted(times.items())},
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", choices=LEVELS, default="expert")
    parser.add_argument("--b", choices=LEVELS, default="strong")
    parser.add_argument("--deals", type=int, default=100, help="deal pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--undertrump",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the must_undertrump house rule (off to compare with engines that allow discarding)",
    )
    args = parser.parse_args(argv)
    print(json.dumps(run(args.a, args.b, args.deals, args.seed, args.undertrump)))


if __name__ == "__main__":
    main()
