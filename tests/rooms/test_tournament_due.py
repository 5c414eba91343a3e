"""Which tournaments a sweep moves on (``app.rooms.tournaments.due``): only those with
something to do — a table's result to read, a match to make, a table to open or begin, the
champion to name — so that a node's upkeep of the tournaments in play is one query when they
are all being played."""

from __future__ import annotations

from app.rooms.tournaments import InPlay, TableState
from app.rooms.tournaments import due as due_of


def due(tables: list[TableState], swiss_rounds: int | None = None) -> bool:
    return due_of(InPlay(swiss_rounds, tables))


def table(
    round_: int,
    slot: int,
    *,
    b: int | None = 9,
    winner: int | None = None,
    code: str | None = "ROOM",
    begun: bool = True,
    over: bool = False,
) -> TableState:
    return TableState(round_, slot, b, winner, code, begun, over)


def test_tables_being_played_leave_nothing_to_do() -> None:
    assert not due([table(0, 0), table(0, 1)])


def test_a_finished_match_an_unopened_table_or_one_not_begun_is_something_to_do() -> None:
    assert due([table(0, 0, over=True), table(0, 1)])
    assert due([table(0, 0, code=None), table(0, 1)])
    assert due([table(0, 0, begun=False), table(0, 1)])


def test_two_decided_slots_without_their_next_match_are_something_to_do() -> None:
    decided = [table(0, 0, winner=0, over=True), table(0, 1, b=None, winner=1, code=None)]
    assert due(decided)  # the semi-final's two winners: the final to make
    assert not due([*decided, table(1, 0)])  # made and being played
    assert not due([table(0, 0, winner=0, over=True), table(0, 1)])  # one still playing


def test_a_decided_final_is_its_champion_to_name() -> None:
    assert due([table(0, 0, winner=0, over=True)])  # two units: round 0 is the final
    first = [table(0, 0, winner=0), table(0, 1, winner=1)]
    assert due([*first, table(1, 0, winner=1, over=True)])
    assert not due([*first, table(1, 0)])


def test_a_swiss_round_over_is_the_next_round_or_the_champion_to_come() -> None:
    over = [table(0, 0, winner=0, over=True), table(0, 1, b=None, winner=2, code=None)]
    assert due(over, swiss_rounds=3)
    assert not due([*over, table(1, 0), table(1, 1, b=None, winner=1, code=None)], 3)
    assert not due([table(0, 0, winner=0, over=True), table(0, 1)], swiss_rounds=3)
    assert due([table(0, 0, over=True), table(0, 1)], swiss_rounds=3)  # a result to read


def test_a_tournament_without_matches_is_looked_at() -> None:
    assert due([])
    assert due([], swiss_rounds=3)
