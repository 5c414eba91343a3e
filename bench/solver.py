"""The double-dummy solver's speed: nodes, nodes per second and time per solve, by tricks left.

Positions are French deals bid and played by the basic rules down to a trick start with
`tricks` tricks left (the mover's side to lead); each is solved with every hand open, to the
end of the deal when `--budget` allows (`exact` counts those). Reported as JSON per tricks left:
solves, exact solves, mean and p95 nodes, mean and p95 CPU milliseconds, nodes per second; and
whether the solver was the compiled build (`make compiled`) or the pure module, and whether its
searches ran in the native library (`native`; `--no-native` keeps them in Python).

    python -m bench.solver --positions 30 --tricks 4 5 6 7 --budget 2000000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from app.bots import solver as solver_module
from app.bots.native import NATIVE, Native
from app.bots.simulate import policy_action
from app.bots.solver import Solver
from app.rules import DealState, Phase, Ruleset, apply, full_deck, new_deal


def position(ruleset: Ruleset, rng: random.Random, tricks: int) -> DealState:
    """A deal bid and played by the basic rules to the start of a trick with `tricks` left."""
    while True:
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        state = new_deal(ruleset, rng.randrange(ruleset.seats), deck)
        while state.turn is not None and (
            state.phase is Phase.BIDDING or state.trick or len(state.tricks) < 8 - tricks
        ):
            state = apply(state, policy_action(state))
        if state.turn is not None:
            return state


def compiled() -> bool:
    """Whether the solver in use is the mypyc build (`make compiled`), not the pure module."""
    return not (solver_module.__file__ or "").endswith(".py")


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def run(
    positions: int, tricks: list[int], budget: int, seed: int, native: bool = True
) -> dict[str, Any]:
    ruleset = Ruleset.french()
    backend = NATIVE if native else Native(None)
    out: dict[str, Any] = {
        "compiled": compiled(),
        "native": backend.lib is not None,
        "budget": budget,
        "positions": positions,
        "by_tricks_left": {},
    }
    for left in tricks:
        rng = random.Random(f"bench.solver/{seed}/{left}")
        nodes: list[float] = []
        times: list[float] = []
        exact = 0
        for _ in range(positions):
            state = position(ruleset, rng, left)
            solver = Solver(budget, native=backend)
            start = time.process_time()
            solution = solver.solve(state)
            times.append(time.process_time() - start)
            nodes.append(solution.nodes)
            exact += solution.exact
        out["by_tricks_left"][left] = {
            "exact": exact,
            "nodes_mean": round(statistics.fmean(nodes)),
            "nodes_p95": round(_p95(nodes)),
            "ms_mean": round(1000 * statistics.fmean(times), 1),
            "ms_p95": round(1000 * _p95(times), 1),
            "nodes_per_s": round(sum(nodes) / sum(times)),
        }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--tricks", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--budget", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--native",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the native search when built (make run/test); --no-native: the Python one",
    )
    args = parser.parse_args(argv)
    print(json.dumps(run(args.positions, args.tricks, args.budget, args.seed, args.native)))


if __name__ == "__main__":
    main()
