"""Bot strength and speed: duplicate matches between two bot levels, in any preset.

Every match is played once per side on the same sequence of decks and dealers, level A playing
that side and level B every other seat, so the luck of the cards cancels out: twice at four
(teams) and at two (players), three times in `bulgarian3` (A against two B). Reported:

- `mean_diff`: level A's match points minus the average of the other sides' per deal, averaged
  over the seatings, with hanging points left out (they belong to the deal that collects them),
  and its 95% confidence interval over the deal groups;
- `win_rate_a`: the share of matches (to the preset's target or `--target`) that level A wins,
  with `fair_share` the rate of an equal level (1/2, or 1/3 in `bulgarian3`);
- each level's decision time, p50/p95 over all its decisions and over those with a real
  choice (more than one legal action), and for the latter the CPU time of the deciding process
  (`choice_cpu_time`): what a decision costs on a free core, however busy the machine is; the
  same for the calls with a choice alone (`bid_choice_cpu_time`);

- `by_contract`: the deal groups split by what the seatings' biddings reached (`contract_split`):
  the same contract (kind, taking side, multiplier) with the same fate (made, inside, tie) in
  every seating, so the margin is the card points beyond the fate; the same contract with
  another fate somewhere, so the play decided the contract (`a_ahead` / `a_behind`: in how
  many of them A's margin was positive / negative); other contracts, the bidding's doing; all
  void. Each part's `share` is its sum of margins over all the deal groups: the shares add up
  to `mean_diff`;
- with `--play LEVEL`, every seat plays its cards as that level and the two levels differ in
  their bidding only (contra and re-contra included): `--a expert --b strong --play basic`
  compares the expert's bidding by search with the strong level's, at a fraction of the cost
  of whole expert-against-strong matches.

    python -m bench.bots --preset bulgarian --deals 200 --a strong --b basic --json
    python -m bench.bots --preset open_belot --house open_reveal=at_once --deals 100
    python -m bench.bots --preset french --deals 100 --a expert --b strong --play basic --json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots import LEVELS, Bot, ExpertBot, make_bot
from app.rules import (
    PRESETS,
    Action,
    Card,
    DealState,
    Phase,
    Ruleset,
    apply,
    full_deck,
    new_deal,
    new_match,
    record_deal,
)
from app.rules import SeatView as View
from app.rules import view as seat_view

VARIANTS: dict[str, Callable[[random.Random], Bot]] = {
    "expert-uniform": lambda rng: ExpertBot(rng, soft=False),
    "expert-score": lambda rng: ExpertBot(rng, by_score=True),
}
"""Bench-only bots, by the name `--a`/`--b` take here and in bench.duel: the expert on
uniformly sampled deals (no soft inference), so that a match against `expert` measures what
the soft worlds are worth; the expert valuing a card by the deal's score its worlds give
(app/bots/deal_score.py) instead of their card points: measured level with the expert in
whole French games (docs/architecture.md), so not the default."""


def bot_of(level: str, rng: random.Random) -> Bot:
    """Our bot of a level or of a bench-only variant."""
    return VARIANTS[level](rng) if level in VARIANTS else make_bot(level, rng)


@dataclass
class Bidder:
    """A bot that bids as one level and plays its cards as another (`--play`)."""

    bidding: Bot
    play: Bot

    def choose(self, v: View, legal: Any = None) -> Action:
        bot = self.bidding if v.phase is Phase.BIDDING else self.play
        return bot.choose(v, legal)


@dataclass
class PairResult:
    """One duplicate match pair: per-deal differences, who won each match, decision times."""

    diffs: list[float] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    """Per deal group, as `diffs`: what the biddings reached (`contract_kind`)."""
    a_wins: int = 0
    matches: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)
    choice_times: dict[str, list[float]] = field(default_factory=dict)
    choice_cpu: dict[str, list[float]] = field(default_factory=dict)
    bid_cpu: dict[str, list[float]] = field(default_factory=dict)


def _deck(ruleset: Ruleset, seed: int, pair: int, number: int) -> list[Card]:
    deck = full_deck(ruleset)
    random.Random(f"{seed}/{pair}/{number}").shuffle(deck)
    return deck


def _play(state: DealState, bots: list[Bot], levels: list[str], out: PairResult) -> DealState:
    while state.turn is not None:
        seat = state.turn
        v = seat_view(state, seat)
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(v)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        out.times.setdefault(levels[seat], []).append(elapsed)
        if len(v.legal) > 1:
            out.choice_times.setdefault(levels[seat], []).append(elapsed)
            out.choice_cpu.setdefault(levels[seat], []).append(cpu)
            if v.phase is Phase.BIDDING:
                out.bid_cpu.setdefault(levels[seat], []).append(cpu)
        state = apply(state, action)
    return state


def _own_points(state: DealState, team: int) -> int:
    """A team's match points for the deal itself, without hanging points collected."""
    result = state.result
    assert result is not None
    points = result.mp[team] or 0
    return points - (state.hanging_in if result.winner == team else 0)


def _margin(state: DealState, side: int) -> float:
    """A side's own points for the deal minus the average of the other sides'."""
    sides = len(state.ruleset.sides)
    others = [_own_points(state, s) for s in range(sides) if s != side]
    return _own_points(state, side) - sum(others) / len(others)


def _contract(state: DealState) -> tuple[tuple[Any, ...] | None, str]:
    """The contract a deal was played in (kind, taking side, multiplier; None if void) and
    its fate (the scoresheet's outcome: made, inside, tie)."""
    result = state.result
    assert result is not None
    if result.void or result.itemised is None:
        return None, "void"
    key = (result.contract, result.contracting_team, result.multiplier)
    return key, result.itemised.settlement.outcome


def contract_kind(played: list[tuple[tuple[Any, ...] | None, str]]) -> str:
    """What the seatings of one deck reached: `same_fate`, `other_fate` (the same contract,
    another fate somewhere), `other_contract` or `void` (every seating)."""
    contracts = {key for key, _ in played}
    if contracts == {None}:
        return "void"
    if len(contracts) > 1:
        return "other_contract"
    return "same_fate" if len({fate for _, fate in played}) == 1 else "other_fate"


CONTRACT_KINDS = ("same_fate", "other_fate", "other_contract", "void")


def contract_split(diffs: list[float], kinds: list[str]) -> dict[str, dict[str, Any]]:
    """`by_contract` of the report: per kind of deal group, how many, A's mean margin in them,
    and their share of `mean_diff` (their margins summed over all groups)."""
    n = len(diffs)
    out: dict[str, dict[str, Any]] = {}
    for kind in CONTRACT_KINDS:
        mine = [d for d, k in zip(diffs, kinds, strict=True) if k == kind]
        part: dict[str, Any] = {
            "deals": len(mine),
            "mean_diff": round(statistics.fmean(mine), 3) if mine else None,
            "share": round(sum(mine) / n, 3) if n else None,
        }
        if kind == "other_fate":
            part["a_ahead"] = sum(d > 0 for d in mine)
            part["a_behind"] = sum(d < 0 for d in mine)
        out[kind] = part
    return out


Task = tuple[dict[str, Any], str, str, int | None, int, int, str | None]


def play_pair(args: Task) -> PairResult:
    """Every seating of one match (level A on each side in turn); deals continue until all the
    matches are over."""
    rules, level_a, level_b, target, seed, pair, play_level = args
    ruleset = Ruleset.from_dict(rules)
    seats = ruleset.seats
    first_dealer = random.Random(f"{seed}/{pair}").randrange(seats)
    out = PairResult()
    seatings = []
    for a_team in range(len(ruleset.sides)):
        levels = [level_a if ruleset.team_of(s) == a_team else level_b for s in range(seats)]
        bots = [_bot(lv, play_level, f"{seed}/{pair}/{s}") for s, lv in enumerate(levels)]
        seatings.append((a_team, levels, bots, new_match(ruleset, first_dealer, target)))
    number = 0
    while not all(m.finished for *_, m in seatings):
        deck = _deck(ruleset, seed, pair, number)
        diff = 0.0
        played = []
        for i, (a_team, levels, bots, match) in enumerate(seatings):
            if match.finished:
                state = new_deal(ruleset, (first_dealer + number) % seats, deck)
            else:
                state = match.start_deal(deck)
            state = _play(state, bots, levels, out)
            diff += _margin(state, a_team)
            played.append(_contract(state))
            if not match.finished:
                match = record_deal(match, state)
                seatings[i] = (a_team, levels, bots, match)
                if match.finished:
                    out.matches += 1
                    out.a_wins += match.winner == a_team
        out.diffs.append(diff / len(seatings))
        out.kinds.append(contract_kind(played))
        number += 1
    return out


def _bot(level: str, play_level: str | None, seed: str) -> Bot:
    """A bot of `level`, or one that only bids as `level` and plays as `play_level`."""
    bot = bot_of(level, random.Random(seed))
    if play_level is None:
        return bot
    return Bidder(bot, bot_of(play_level, random.Random(f"{seed}/play")))


def _wilson(successes: int, trials: int, z: float = 1.96) -> list[float]:
    """95% interval of a proportion; unlike the normal approximation it stays inside [0, 1]."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return [round(centre - half, 3), round(centre + half, 3)]


def _percentiles(times: list[float]) -> dict[str, float | int]:
    ordered = sorted(times)

    def ms(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"n": len(ordered), "p50_ms": ms(0.5), "p95_ms": ms(0.95)} if ordered else {"n": 0}


def run(
    rules: dict[str, Any],
    deals: int,
    level_a: str,
    level_b: str,
    target: int | None,
    seed: int,
    workers: int,
    play_level: str | None = None,
) -> dict[str, Any]:
    start = time.perf_counter()
    ruleset = Ruleset.from_dict(rules)
    total = PairResult()
    tasks: list[Task] = [
        (rules, level_a, level_b, target, seed, pair, play_level) for pair in range(deals)
    ]
    with multiprocessing.Pool(workers) as pool:
        for result in pool.imap(play_pair, tasks):
            total.diffs += result.diffs
            total.kinds += result.kinds
            total.a_wins += result.a_wins
            total.matches += result.matches
            for level, times in result.times.items():
                total.times.setdefault(level, []).extend(times)
            for level, times in result.choice_times.items():
                total.choice_times.setdefault(level, []).extend(times)
            for level, times in result.choice_cpu.items():
                total.choice_cpu.setdefault(level, []).extend(times)
            for level, times in result.bid_cpu.items():
                total.bid_cpu.setdefault(level, []).extend(times)
            if len(total.diffs) >= deals:
                pool.terminate()
                break
    n = len(total.diffs)
    mean = statistics.fmean(total.diffs)
    half = 1.96 * statistics.stdev(total.diffs) / math.sqrt(n) if n > 1 else math.inf
    wins = total.a_wins / total.matches
    return {
        "preset": ruleset.preset,
        "house_rules": ruleset.to_dict()["house_rules"],
        "a": level_a,
        "b": level_b,
        "play": play_level or "as bid",
        "target": target if target is not None else ruleset.default_target,
        "deals": n,
        "mean_diff": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "by_contract": contract_split(total.diffs, total.kinds),
        "matches": total.matches,
        "win_rate_a": round(wins, 3),
        "win_rate_ci95": _wilson(total.a_wins, total.matches),
        "fair_share": round(1 / len(ruleset.sides), 3),
        "decision_time": {lv: _percentiles(t) for lv, t in sorted(total.times.items())},
        "choice_time": {lv: _percentiles(t) for lv, t in sorted(total.choice_times.items())},
        "choice_cpu_time": {lv: _percentiles(t) for lv, t in sorted(total.choice_cpu.items())},
        "bid_choice_cpu_time": {lv: _percentiles(t) for lv, t in sorted(total.bid_cpu.items())},
        "workers": workers,
        "seconds": round(time.perf_counter() - start, 1),
    }


def _house_rule(text: str) -> tuple[str, bool | str]:
    """`kirtik=true` or `sur_contra=x8` as a house rule of a record (`true`/`false`: on/off)."""
    name, _, value = text.partition("=")
    return name, {"true": True, "false": False}.get(value.lower(), value)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=PRESETS, default="bulgarian")
    parser.add_argument(
        "--house", action="append", default=[], metavar="NAME=VALUE", help="house rule (repeat)"
    )
    parser.add_argument("--deals", type=int, default=200, help="deal groups, at least")
    levels = (*LEVELS, *VARIANTS)
    parser.add_argument("--a", choices=levels, default="strong")
    parser.add_argument("--b", choices=levels, default="basic")
    parser.add_argument(
        "--play", choices=levels, default=None, help="every seat plays its cards as this level"
    )
    parser.add_argument("--target", type=int, default=None, help="match target (preset's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes (timings are per core)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    rules = {"preset": args.preset, "house_rules": dict(_house_rule(h) for h in args.house)}
    report = run(rules, args.deals, args.a, args.b, args.target, args.seed, args.workers, args.play)
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
