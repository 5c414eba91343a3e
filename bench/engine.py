"""Engine speed: random complete deals per second on one core (issue 2's benchmark).

French: shuffle, deal, the first player takes the turned card, the rest is dealt, 32 random legal
plays chosen from `legal_actions`, the deal scored. The Bulgarian family (`bulgarian`,
`bulgarian3`, `bulgarian2`, `open_belot`): random legal bidding (contra and re-contra included)
and random legal declarations and belotes, then the same play.

    python -m bench.engine --preset french --seconds 5 --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from app.rules import PRESETS, Bid, Call, Ruleset, apply, full_deck, legal_actions, new_deal
from app.rules.deal import DealState, Phase


def play_deal(ruleset: Ruleset, dealer: int, deck: list[Any], rng: random.Random) -> DealState:
    """One complete random deal through the public engine API."""
    state = new_deal(ruleset, dealer, deck)
    if ruleset.is_french:
        state = apply(state, Bid((dealer + 1) % ruleset.seats, Call.TAKE))
    draw = rng.random
    while state.phase is not Phase.FINISHED:
        actions = legal_actions(state)
        state = apply(state, actions[int(draw() * len(actions))])
    return state


def run(preset: str, seconds: float, seed: int) -> dict[str, Any]:
    ruleset = Ruleset.from_dict({"preset": preset, "house_rules": {}})
    rng = random.Random(seed)
    deck = full_deck(ruleset)
    deals = plays = void = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            rng.shuffle(deck)
            state = play_deal(ruleset, deals % ruleset.seats, deck, rng)
            deals += 1
            if state.tricks:
                plays += len(state.tricks) * ruleset.seats
            else:
                void += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "preset": preset,
        "deals": deals,
        "void_deals": void,
        "plays": plays,
        "seconds": round(elapsed, 3),
        "deals_per_sec": round(deals / elapsed, 1),
        "plays_per_sec": round(plays / elapsed, 1),
        "seed": seed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=PRESETS, default="french")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = run(args.preset, args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
