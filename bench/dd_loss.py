"""The double-dummy loss of card-play variants, paired over the same positions, by tricks left.

A decision's DD loss is the value of the best card with every hand known minus the value of the
card the variant played (card points, last trick included, from the native or pure solver on the
true deal, to the end): 0 for a card as good as the best, whatever the other hands. It measures
the card play itself, without the luck of the cards that makes a duel need hundreds of deals, so
two ways of choosing a card can be told apart on a few hundred decisions. It is not the whole
story (the DD value assumes the opponents play perfectly afterwards, and a hidden-information
player cannot), but lower is better for every sensible player.

Positions are the duel's (bench/duel.py): French deals bid by the basic rules, `must_undertrump`
off as against colver (`--undertrump`: on, the French default, which colver does not play);
played by `--lead-in` (a level, default `basic`, every seat) to the start of the trick with
`--tricks` left, then every decision in that trick with more than one legal card is a position
(the trick goes on with the lead-in's card). Every variant chooses in the same position with the
same random seed. Reported as JSON per tricks left: positions, each variant's mean loss and
decision CPU time p50/p95 (this process), and each variant's paired difference against the first
(`diff`, negative: fewer points lost) with its standard error.

A variant is a level (`basic`, `strong`, `expert`), `strong:B` (the strong level with B simulated
actions per decision), `expert:N` (the expert with N solver nodes per IS-DD decision), or
`isdd:W:D:N`, the expert's IS-DD search from any trick: at most W worlds, each searched D tricks
deep (the current one counted; 0: to the end of the deal, as the expert), N solver nodes per
decision in all; or colver's IS-DD bot (`colver-isdd20`, `colver-isdd40`, the optional bench
extra), which follows the deal card by card from the start of the play as in bench/duel.py, so
that the loss of our card play and of colver's can be compared trick by trick (its CPU time
includes being told the play so far).

    python -m bench.dd_loss --tricks 8 7 --positions 300 --variants expert isdd:40:3:3000000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any, NamedTuple

from app.bots import Bot, ExpertBot, StrongBot
from app.bots.native import available as native_solver
from app.bots.simulate import policy_action
from app.bots.solver import Solver, tricks_left
from app.rules import DealState, Play, Ruleset, apply, view

from .bots import _percentiles
from .duel import COLVER, ColverTable, bot_of, taken_deal

TRUTH_NODES = 1 << 40
"""Nodes for the true deal's solve: enough to reach the end of any deal."""


def variant(name: str, rng: random.Random) -> Bot:
    """The bot a variant name stands for (module doc)."""
    level, _, args = name.partition(":")
    if not args:
        return bot_of(name, rng)
    numbers = [int(x) for x in args.split(":")]
    if level == "strong":
        return StrongBot(rng, budget=numbers[0])
    if level == "expert":
        return ExpertBot(rng, nodes=numbers[0])
    if level == "isdd":
        worlds, depth, nodes = numbers
        return ExpertBot(rng, worlds=worlds, nodes=nodes, dd_tricks=8, depth=depth or None)
    raise ValueError(f"unknown variant {name!r}")


class Position(NamedTuple):
    """A decision: its state, the state when the play began and the cards played since."""

    state: DealState
    start: DealState
    played: tuple[int, ...]


def positions(
    seed: int, tricks: int, count: int, lead_in: str, undertrump: bool = False
) -> list[Position]:
    """`count` decisions with a choice in the trick with `tricks` left (module doc)."""
    ruleset = Ruleset.french(must_undertrump=undertrump)
    found: list[Position] = []
    number = 0
    while len(found) < count:
        state = taken_deal(ruleset, seed, number)
        number += 1
        if state is None:
            continue
        start, played = state, []
        bots = [lead_in_bot(lead_in, seed, number, s) for s in range(4)]
        while state.turn is not None and tricks_left(state) >= tricks:
            seat_view = view(state, state.turn)
            if tricks_left(state) == tricks and len(seat_view.legal) > 1:
                found.append(Position(state, start, tuple(played)))
                if len(found) == count:
                    break
            bot = bots[state.turn]
            action = policy_action(state) if bot is None else bot.choose(seat_view)
            assert isinstance(action, Play)
            played.append(int(action.card))
            state = apply(state, action)
    return found


def colver_card(name: str, position: Position, seed: int) -> int:
    """colver's card in a position: its bot at the seat to play, told the play so far."""
    seat = position.state.turn
    assert seat is not None
    table = ColverTable(position.start, COLVER[name], [seat], seed)
    for card in position.played:
        table.played(card)
    return int(table.choose(position.state).card)


def lead_in_bot(level: str, seed: int, number: int, seat: int) -> Bot | None:
    """The lead-in's bot for a seat, or None for the basic rules (`policy_action`, the
    cheapest)."""
    return None if level == "basic" else bot_of(level, random.Random(f"{seed}/{number}/{seat}"))


def run(
    tricks: list[int],
    count: int,
    variants: list[str],
    seed: int,
    lead_in: str,
    undertrump: bool = False,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "native_solver": native_solver(),
        "seed": seed,
        "lead_in": lead_in,
        "must_undertrump": undertrump,
        "variants": variants,
        "by_tricks_left": {},
    }
    for left in tricks:
        start = time.perf_counter()
        losses: dict[str, list[float]] = {name: [] for name in variants}
        times: dict[str, list[float]] = {name: [] for name in variants}
        for k, position in enumerate(positions(seed, left, count, lead_in, undertrump)):
            state = position.state
            truth = Solver(TRUTH_NODES).solve(state)
            assert truth.exact
            best = max(truth.values.values())
            seat_view = view(state, state.turn)
            for name in variants:
                if name in COLVER:
                    clock = time.process_time()
                    card = colver_card(name, position, seed * 100_003 + k)
                else:
                    bot = variant(name, random.Random(f"dd_loss/{seed}/{left}/{k}"))
                    clock = time.process_time()
                    action = bot.choose(seat_view)
                    assert isinstance(action, Play)
                    card = int(action.card)
                times[name].append(time.process_time() - clock)
                losses[name].append(best - truth.values[card])
        base = losses[variants[0]]
        report: dict[str, Any] = {"positions": len(base)}
        for name in variants:
            diffs = [a - b for a, b in zip(losses[name], base, strict=True)]
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
            report[name] = {
                "loss": round(statistics.fmean(losses[name]), 3),
                "diff": round(statistics.fmean(diffs), 3),
                "diff_se": round(se, 3),
                "cpu": _percentiles(times[name]),
            }
        report["seconds"] = round(time.perf_counter() - start, 1)
        out["by_tricks_left"][left] = report
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tricks", type=int, nargs="+", default=[8, 7])
    parser.add_argument("--positions", type=int, default=300, help="decisions per tricks left")
    parser.add_argument("--variants", nargs="+", default=["expert", "strong"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lead-in", default="basic", help="the level that plays to the position")
    parser.add_argument(
        "--undertrump", action="store_true", help="must_undertrump on (no colver variant then)"
    )
    args = parser.parse_args(argv)
    if args.undertrump and any(name in COLVER for name in args.variants):
        parser.error("colver does not play must_undertrump")
    report = run(
        args.tricks, args.positions, args.variants, args.seed, args.lead_in, args.undertrump
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
