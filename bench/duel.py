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

Level B may also be colver's IS-DD bot with uniform worlds (`--b colver-isdd20`,
`colver-isdd40`; the optional extra `pip install .[bench]`). colver lets a player discard when
they cannot overtrump, so run those with `--no-undertrump`; the report counts the cards where
colver's legal set differed from ours (`legal_mismatches`), which should be 0. colver's rule
bot is not offered: its spec format is undocumented, and no key tried selected it.

Either side may also be a bench-only variant of the expert (`bench.bots.VARIANTS`):
`--a expert --b expert-uniform` measures what soft inference is worth to the card play, and
`expert-score` is the expert valuing its cards by the deal's score rather than by card points.
`native_solver` in the report says whether the native search (`_dd.so`, which `make run` builds)
was in use.

The duel is deterministic for a seed (the bots' budgets are counted work, colver is seeded), so
two builds compare deal by deal: run the old one with `--per-deal > old.json`, the new one with
`--baseline old.json`, and `paired` gives the mean change per deal with its 95% interval,
narrower than a run's own as far as the deals a change does not touch cancel exactly. A change
redraws the worlds of the deals it touches, and variants measured against one baseline share
its luck: judge one beside a control, a neutral change (say, other nodes) on the same baseline
(`docs/architecture.md`, issue 14).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from app.bots import LEVELS, Bot
from app.bots.native import available as native_solver
from app.bots.simulate import policy_action
from app.rules import (
    CARDS,
    DealState,
    Phase,
    Play,
    Ruleset,
    apply,
    full_deck,
    legal_actions,
    new_deal,
    view,
)

from .bots import VARIANTS, _percentiles, bot_of
from .solver import compiled

LAST_TRICK = 10
_ISDD = '[play]\ndeterminizations = {}\n[worlds]\nsource = "uniform"\n'
COLVER = {"colver-isdd20": 20, "colver-isdd40": 40}
"""colver's IS-DD bot (its TOML spec `_ISDD`) by the name `--b` takes, and its worlds."""
_RANK_TO_COLVER = (0, 1, 2, 6, 3, 4, 5, 7)
"""colver orders suits S H D C and ranks 7 8 9 J Q K 10 A; ours are C D H S and 7 8 9 10 J Q K A."""


def to_colver(card: int) -> int:
    return (3 - (card >> 3)) * 8 + _RANK_TO_COLVER[card & 7]


FROM_COLVER = {to_colver(c): c for c in range(32)}


class ColverTable:
    """colver's engine and bots following one of our deals in its play phase, card by card."""

    def __init__(self, state: DealState, worlds: int, seats: list[int], seed: int) -> None:
        import colver  # the optional bench extra; imported only when asked for

        hands = [[to_colver(c) for c in state.hand(s)] for s in range(4)]
        self.env = colver.Env.deal_with_hands(state.dealer, hands)
        assert state.contract is not None and state.contracting_team is not None
        self.env.set_contract(3 - int(state.contract), 80, state.contracting_team, 0)
        self.env.set_phase_playing()
        self.agents = {s: colver.Agent(_ISDD.format(worlds), s, seed) for s in seats}
        for agent in self.agents.values():  # colver ignores keys it does not know: check
            assert f"isdd:{worlds}d+unif" in agent.label, agent.label
        for agent in self.agents.values():
            agent.init_deal(self.env)
        self.mismatches = 0

    def choose(self, state: DealState) -> Play:
        """The colver bot's card for the seat to play; counts a legal set unlike ours."""
        seat = state.turn
        assert seat is not None and self.env.current_player() == seat
        ours = {to_colver(a.card) for a in legal_actions(state) if isinstance(a, Play)}
        self.mismatches += set(self.env.legal_actions()) != ours
        return Play(seat, CARDS[FROM_COLVER[self.agents[seat].action(self.env)]])

    def played(self, card: int) -> None:
        for agent in self.agents.values():
            agent.observe(self.env, to_colver(card))
        self.env.step(to_colver(card))


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
    state: DealState,
    bots: list[Bot | None],
    levels: list[str],
    times: dict[str, list[float]],
    colver: ColverTable | None,
) -> DealState:
    """The deal played to its end; a seat without a bot of ours is colver's."""
    while state.turn is not None:
        seat_view = view(state, state.turn)
        bot = bots[state.turn]
        start = time.process_time()
        if bot is not None:
            action = bot.choose(seat_view)
        else:
            assert colver is not None
            action = colver.choose(state)
        if len(seat_view.legal) > 1:
            times.setdefault(levels[state.turn], []).append(time.process_time() - start)
        state = apply(state, action)
        if colver is not None:
            assert isinstance(action, Play)
            colver.played(action.card)
    return state


def run(
    level_a: str,
    level_b: str,
    deals: int,
    seed: int,
    must_undertrump: bool,
    progress: int = 0,
    per_deal: bool = False,
) -> dict[str, Any]:
    """The duel's report (module doc); every `progress` deals (0: never) the report so far
    goes to stderr, so that a long run stopped early still tells what it found. `per_deal`
    adds each deal's difference (`diffs`): the duel is deterministic for a seed, so two builds
    run on the same seed can be compared deal by deal (`paired`)."""
    ruleset = Ruleset.french(must_undertrump=must_undertrump)
    diffs: list[float] = []
    times: dict[str, list[float]] = {}
    mismatches = 0
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
            bots: list[Bot | None] = [
                None if lv in COLVER else bot_of(lv, random.Random(f"{seed}/{number}/{s}"))
                for s, lv in enumerate(levels)
            ]
            colver = None
            if level_b in COLVER:
                seats = [s for s in range(4) if bots[s] is None]
                colver = ColverTable(state, COLVER[level_b], seats, seed * 100_003 + number)
            end = play(state, bots, levels, times, colver)
            mismatches += 0 if colver is None else colver.mismatches
            diff += card_points(end, a_team) - card_points(end, 1 - a_team)
        diffs.append(diff / 2)
        if progress and len(diffs) % progress == 0 and len(diffs) < deals:
            partial = _report(level_a, level_b, must_undertrump, diffs, times, mismatches, start)
            print(json.dumps(partial), file=sys.stderr, flush=True)
    report = _report(level_a, level_b, must_undertrump, diffs, times, mismatches, start)
    report["seed"] = seed
    if per_deal:
        report["diffs"] = diffs
    return report


def _report(
    level_a: str,
    level_b: str,
    must_undertrump: bool,
    diffs: list[float],
    times: dict[str, list[float]],
    mismatches: int,
    start: float,
) -> dict[str, Any]:
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {
        "a": level_a,
        "b": level_b,
        "preset": "french",
        "must_undertrump": must_undertrump,
        "compiled_solver": compiled(),
        "native_solver": native_solver(),
        "deals": len(diffs),
        "mean_diff": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "diff_sd": round(statistics.stdev(diffs), 2) if len(diffs) > 1 else None,
        "legal_mismatches": mismatches,
        "choice_time": {lv: _percentiles(t) for lv, t in sorted(times.items())},
        "seconds": round(time.perf_counter() - start, 1),
    }


def paired(report: dict[str, Any], baseline: dict[str, Any]) -> dict[str, Any]:
    """This run's per-deal differences against a baseline run's on the same deals (both with
    `diffs`, the same seed and deal count, typically another build of level A): the mean of
    the deal-by-deal change with its 95% interval, and how many deals changed at all. Deals
    a change does not touch cancel exactly, so this interval is narrower than either run's
    own when few deals change."""
    mine, theirs = report["diffs"], baseline["diffs"]
    if baseline.get("seed") != report["seed"] or len(mine) != len(theirs):
        raise SystemExit(
            f"the baseline played {len(theirs)} deals of seed {baseline.get('seed')}, "
            f"this run {len(mine)} of seed {report['seed']}: not the same deals"
        )
    change = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = statistics.fmean(change)
    half = 1.96 * statistics.stdev(change) / math.sqrt(len(change)) if len(change) > 1 else 0.0
    return {
        "mean": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "deals_changed": sum(c != 0 for c in change),
        "baseline_mean_diff": baseline["mean_diff"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", choices=(*LEVELS, *VARIANTS), default="expert")
    parser.add_argument("--b", choices=(*LEVELS, *VARIANTS, *COLVER), default="strong")
    parser.add_argument("--deals", type=int, default=100, help="deal pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--undertrump",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the must_undertrump house rule (off to compare with engines that allow discarding)",
    )
    parser.add_argument(
        "--progress", type=int, default=0, help="print the report so far every N deals to stderr"
    )
    parser.add_argument(
        "--per-deal", action="store_true", help="add each deal's difference to the report"
    )
    parser.add_argument(
        "--baseline",
        type=argparse.FileType(),
        help="a --per-deal report of the same seed and deals (another build): add `paired`",
    )
    args = parser.parse_args(argv)
    baseline = json.load(args.baseline) if args.baseline else None
    if baseline is not None and (
        baseline.get("seed") != args.seed or len(baseline.get("diffs", ())) != args.deals
    ):
        parser.error("--baseline: a --per-deal report of the same --seed and --deals is needed")
    report = run(
        args.a,
        args.b,
        args.deals,
        args.seed,
        args.undertrump,
        args.progress,
        args.per_deal or baseline is not None,
    )
    if baseline is not None:
        report["paired"] = paired(report, baseline)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
