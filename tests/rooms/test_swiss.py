"""A Swiss tournament's standings and pairings (app/rooms/swiss.py, docs/protocol.md §9): the
standings' order, the first round, a bye to the lowest unit that had the fewest, and — for any
field from 2 to 32 units and any results — every unit at one table a round, and no two units
meeting twice while the rounds leave a pairing without it (a round robin for four units in
three rounds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rooms.swiss import Result, pairings, standings


def test_the_standings_rank_by_wins_then_the_opponents_wins_then_the_points() -> None:
    results = [
        Result(0, 1, 0, (151, 80)),
        Result(2, 3, 3, (100, 151)),
        Result(0, 3, 3, (120, 151)),
        Result(1, 2, 1, (160, 10)),
    ]
    table = standings(4, results)
    # 3 won twice; 0 and 1 once each (0 met 1 and 3: 1 + 2 opponents' wins = 3; 1 met 0 and
    # 2: 1 + 0 = 1); 2 never.
    assert [(s.unit, s.wins, s.buchholz) for s in table] == [
        (3, 2, 1),
        (0, 1, 3),
        (1, 1, 1),
        (2, 0, 3),
    ]
    one = table[2]
    assert (one.points_for, one.points_against, one.difference) == (240, 161, 79)
    level = standings(2, [Result(0, 1, 0, (151, 0)), Result(0, 1, 1, (0, 200))])
    assert [s.unit for s in level] == [1, 0]  # a win each, met each other: the points decide


def test_the_first_round_pairs_in_the_draw_s_order_and_an_odd_one_rests() -> None:
    first = pairings(0, standings(5, []), [])
    assert [(p.slot, p.a, p.b) for p in first] == [(0, 0, 1), (1, 2, 3), (2, 4, None)]


def test_a_bye_goes_to_the_lowest_unit_that_had_the_fewest() -> None:
    results = [Result(0, 1, 0, (151, 0)), Result(2, None, 2, None)]
    second = pairings(1, standings(3, results), results)
    assert second[-1].b is None and second[-1].a == 1  # 2 rested already; 1 is below 0
    assert {second[0].a, second[0].b} == {0, 2}


def test_four_units_in_three_rounds_play_a_round_robin() -> None:
    results: list[Result] = []
    for round_ in range(3):
        for p in pairings(round_, standings(4, results), results):
            assert p.b is not None
            results.append(Result(p.a, p.b, min(p.a, p.b), (151, 100)))
    assert sorted(tuple(sorted((r.a, r.b or 0))) for r in results) == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]


@settings(max_examples=60, deadline=None)
@given(units=st.integers(2, 32), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_every_unit_plays_once_a_round_and_meets_nobody_twice_while_it_can(
    units: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    results: list[Result] = []
    for round_ in range(rounds):
        table = standings(units, results)
        made = pairings(round_, table, results)
        seen = [u for p in made for u in (p.a, p.b) if u is not None]
        assert sorted(seen) == list(range(units))  # each unit at one table
        assert [p.slot for p in made] == list(range(len(made)))
        assert sum(p.b is None for p in made) == units % 2  # a bye only for an odd field
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        even = units - units % 2
        if round_ < even // 2:  # a pairing without a rematch exists (Dirac's theorem)
            assert not [p for p in made if p.b is not None and frozenset((p.a, p.b)) in met]
        byes = {s.unit: s.byes for s in table}
        for p in made:
            if p.b is None:  # nobody rests twice before everyone rested once
                assert byes[p.a] == min(byes.values())
        for p in made:
            winner = p.a if p.b is None else rng.choice((p.a, p.b))
            scores = None if p.b is None else (rng.randrange(200), rng.randrange(200))
            results.append(Result(p.a, p.b, winner, scores))
    final = standings(units, results)
    assert sum(s.wins for s in final) == len(results)
    assert [s.wins for s in final] == sorted((s.wins for s in final), reverse=True)
