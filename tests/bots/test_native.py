"""The native double-dummy solver (app/bots/native/dd.c) against the pure one: the same value
for every legal card, on hundreds of positions of real deals in every preset it serves.

The pure solver is itself checked against brute force (test_solver.py), so equal values here
make the native one exact too. The library is built from the source by the fixture
(conftest.py), or the tests skip and say so.
"""

from __future__ import annotations

import random

import pytest

from app.bots.native import Native, priorities
from app.bots.simulate import policy_action
from app.bots.solver import Solution, Solver, tricks_left
from app.rules import TABLES, Contract, DealState, Phase, apply, playable

from .deals import RULESETS, fresh_deal

SERVED = sorted(p for p in RULESETS if not RULESETS[p].stacks)
"""The presets the native solver plays; Open Belot's stacks stay with the pure search."""


def test_legality_as_priority_masks_is_playable() -> None:
    """The masks probed from `playable` give its answer for random hands, in every contract,
    for every suit led, best card, partner master or not, must_undertrump on and off."""
    rng = random.Random("priorities")
    for table in TABLES:
        for undertrump in (False, True):
            for led in range(4):
                for best in range(32):
                    for free in (False, True):
                        masks = priorities(table, led, best, free, undertrump)
                        for _ in range(12):
                            hand = rng.getrandbits(32) & rng.getrandbits(32)
                            if not hand:
                                continue
                            first = next(hand & m for m in masks if hand & m)
                            assert first == playable(table, hand, led, best, free, undertrump)


def same(native: Solution, pure: Solution) -> bool:
    """The same values, exactness and depth. The node counts may differ a little: the native
    transposition table is an array where one position may overwrite another."""
    return (native.values, native.exact, native.depth) == (pure.values, pure.exact, pure.depth)


def position(state: DealState, rng: random.Random, tricks: int) -> DealState | None:
    """The deal played by the basic rules to `tricks` tricks left and a random number of
    cards into that trick, or None if it ended first."""
    while state.turn is not None and (state.phase is Phase.BIDDING or tricks_left(state) > tricks):
        state = apply(state, policy_action(state))
    for _ in range(rng.randrange(state.ruleset.seats)):
        if state.turn is None:
            break
        state = apply(state, policy_action(state))
    return None if state.turn is None else state


def test_native_values_equal_the_pure_values(native_library: Native) -> None:
    """Hundreds of positions (1 to 5 tricks left at four and three seats, up to 7 at two,
    mid-trick or not, every contract kind): each legal card's exact value is the pure
    solver's, and so is every value of a search stopped after two tricks (static estimate)."""
    rng = random.Random("native")
    pure = Native(None)
    contracts: set[Contract] = set()
    checked = 0
    for preset in SERVED:
        ruleset = RULESETS[preset]
        most = 5 if ruleset.seats > 2 else 7
        for n in range(36):
            state = position(fresh_deal(ruleset, rng), rng, 1 + n % most)
            if state is None:
                continue
            fast = Solver(budget=10**8, native=native_library)
            native = fast.solve(state)
            assert fast.native
            assert same(native, Solver(budget=10**8, native=pure).solve(state))
            assert native.exact
            shallow = Solver(budget=10**8, native=native_library).solve(state, max_depth=2)
            assert same(shallow, Solver(budget=10**8, native=pure).solve(state, max_depth=2))
            assert state.contract is not None
            contracts.add(state.contract)
            checked += 1
    assert checked > 300
    assert contracts == set(Contract)


def test_native_solver_on_the_expert_deal_sizes(native_library: Native) -> None:
    """French and Bulgarian positions with six and seven tricks left (where the expert starts
    solving with the native build) agree with the pure solver too."""
    rng = random.Random("native-big")
    pure = Native(None)
    for preset in ("french", "bulgarian"):
        for tricks in (6, 7):
            state = position(fresh_deal(RULESETS[preset], rng), rng, tricks)
            assert state is not None
            native = Solver(budget=10**9, native=native_library).solve(state)
            assert same(native, Solver(budget=10**9, native=pure).solve(state))


def test_native_budget_is_counted_and_repeatable(native_library: Native) -> None:
    """A budget far too small for the whole deal still answers every legal card, inexact, and
    twice the same (the node count, not time, stops it)."""
    rng = random.Random("native-budget")
    state = position(fresh_deal(RULESETS["bulgarian"], rng), rng, 8)
    assert state is not None
    first = Solver(budget=500, native=native_library).solve(state)
    assert not first.exact
    assert first == Solver(budget=500, native=native_library).solve(state)


@pytest.mark.parametrize("preset", ["open_belot", "open_belot-house"])
def test_open_belot_stays_with_the_pure_search(native_library: Native, preset: str) -> None:
    """Face-down cards that turn (OB-11) are the pure search's alone; once none is left, the
    native search plays the rest."""
    rng = random.Random(preset)
    seen = set()
    for _ in range(20):
        state = position(fresh_deal(RULESETS[preset], rng), rng, rng.choice((1, 5)))
        if state is None:
            continue
        down = any(state.holding(s) != state.hands[s] for s in range(2))
        solver = Solver(budget=10**6, native=native_library)
        solver.solve(state)
        assert solver.native is not down
        seen.add(down)
    assert seen == {False, True}
