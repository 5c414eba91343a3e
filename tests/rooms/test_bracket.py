"""A knockout's bracket (app/rooms/bracket.py, docs/protocol.md §9): the seeding order, where the
byes fall, and — for every field from 2 to 64 units and any winners — a bracket that plays
exactly one match fewer than it has units and names one champion who never lost."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from app.rooms.bracket import (
    bracket_size,
    draw_units,
    first_round,
    mutual_partners,
    next_pairings,
    rounds_of,
    seed_order,
)


def test_the_seeding_order_keeps_the_best_seeds_apart() -> None:
    assert seed_order(2) == [0, 1]
    assert seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    for size in (2, 4, 8, 16, 32, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(size))
        # Seeds 0..k-1 (k a power of two) sit in k different blocks of size/k: they can meet
        # only once k remain.
        k = 2
        while k <= size:
            block = size // k
            assert sorted(order.index(s) // block for s in range(k)) == list(range(k))
            k *= 2


def test_the_byes_fall_to_the_first_seeds_and_are_spread() -> None:
    pairings = first_round(5)
    assert [(p.a, p.b) for p in pairings] == [(0, None), (3, 4), (1, None), (2, None)]
    assert rounds_of(5) == 3 and bracket_size(5) == 8
    assert [(p.a, p.b) for p in first_round(2)] == [(0, 1)] and rounds_of(2) == 1
    assert [(p.a, p.b) for p in first_round(3)] == [(0, None), (1, 2)]


def test_partners_are_drawn_in_pairs_and_an_odd_one_is_alone() -> None:
    units = draw_units([f"p{i}" for i in range(7)], 2, random.Random(3))
    assert [len(u) for u in units] == [2, 2, 2, 1]
    assert sorted(p for u in units for p in u) == [f"p{i}" for i in range(7)]


def test_two_who_asked_for_each_other_are_one_unit_the_rest_drawn() -> None:
    named = {"p0": "p3", "p1": None, "p2": "p0", "p3": "p0", "p4": "p5", "p5": "p4", "p6": "p1"}
    # p0 and p3 asked for each other, p4 and p5 too; p2's and p6's asks were not answered.
    assert mutual_partners(named) == [("p0", "p3"), ("p4", "p5")]
    assert mutual_partners({"a": "b", "b": "c", "c": "b"}) == [("b", "c")]
    for seed in range(50):
        units = draw_units(list(named), 2, random.Random(seed), mutual_partners(named))
        assert ["p0", "p3"] in units and ["p4", "p5"] in units
        assert sorted(len(u) for u in units) == [1, 2, 2, 2]
        assert sorted(p for u in units for p in u) == sorted(named)
    # The pairs' places in the seeding are drawn, not first by rule.
    firsts = {draw_units(list(named), 2, random.Random(s), [("p0", "p3")])[0][0] for s in range(50)}
    assert len(firsts) > 2


@given(units=st.integers(min_value=2, max_value=64), seed=st.integers(0, 2**32))
def test_every_bracket_plays_to_one_champion(units: int, seed: int) -> None:
    rng = random.Random(seed)
    winners: dict[tuple[int, int], int] = {}
    made: set[tuple[int, int]] = set()
    played = 0
    lost: set[int] = set()
    pending = first_round(units)
    while pending:
        for p in pending:
            made.add((p.round, p.slot))
            assert p.a not in lost and p.b not in lost  # nobody plays on after a loss
            assert p.round == 0 or p.b is not None  # a bye only in the first round
            if p.b is None:
                winners[p.round, p.slot] = p.a
                continue
            played += 1
            winner, loser = (p.a, p.b) if rng.random() < 0.5 else (p.b, p.a)
            winners[p.round, p.slot] = winner
            lost.add(loser)
        pending = next_pairings(winners, made)
    final = (rounds_of(units) - 1, 0)
    assert final in winners and set(winners) == made
    assert played == units - 1  # each match puts one unit out; a bye none
    assert lost == set(range(units)) - {winners[final]}
