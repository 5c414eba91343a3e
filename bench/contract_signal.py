"""What scoring a contract double-dummy would cost the bidding search, against a play-out.

The expert's bidding search (`app/bots/contract_search.py`) scores each ending of the bidding
over sampled deals. Two signals exist: the deal played out by the basic rules (`play_out`) and
the double-dummy solver's value at the start of play (`Solver(nodes).solve`). This prints, for
deals bid by the basic rules, the CPU time of each, and how deep the solver gets within its node
budget (tricks searched; `exact` when it reached the end of the deal, without its estimate).

    python -m bench.contract_signal --preset bulgarian --deals 20 --nodes 1000 5000 20000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from app.bots.simulate import play_out, policy_action
from app.bots.solver import Solver
from app.rules import DealState, Phase, Ruleset, apply, full_deck, new_deal


def bid_deal(ruleset: Ruleset, rng: random.Random) -> DealState:
    """A deal bid by the basic rules to a contract (void deals are dealt again)."""
    while True:
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        state = new_deal(ruleset, rng.randrange(ruleset.seats), deck)
        while state.phase is Phase.BIDDING and state.turn is not None:
            state = apply(state, policy_action(state))
        if state.phase is Phase.PLAYING:
            return state


def play_out_ms(deal: DealState, repeat: int = 5) -> float:
    start = time.process_time()
    for _ in range(repeat):
        play_out(deal)
    return (time.process_time() - start) / repeat * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=("bulgarian", "french"), default="bulgarian")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ruleset = Ruleset.of(args.preset)
    rng = random.Random(args.seed)
    deals = [bid_deal(ruleset, rng) for _ in range(args.deals)]
    report: dict[str, object] = {
        "preset": args.preset,
        "deals": args.deals,
        "play_out_ms": round(statistics.fmean(play_out_ms(d) for d in deals), 2),
    }
    for nodes in args.nodes:
        times, depths, exact = [], [], 0
        for deal in deals:
            start = time.process_time()
            solution = Solver(nodes).solve(deal)
            times.append((time.process_time() - start) * 1000)
            depths.append(solution.depth)
            exact += solution.exact
        report[f"solve_{nodes}"] = {
            "mean_ms": round(statistics.fmean(times), 1),
            "depth_tricks": {str(d): depths.count(d) for d in sorted(set(depths))},
            "exact": exact,
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
