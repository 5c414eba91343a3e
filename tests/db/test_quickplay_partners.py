"""Quick play with a friend (docs/protocol.md §8.3; ``app.rooms.matchmaking``): two tickets
that name each other are one unit of the queue, seated as partners across the table (BG-9)
against two others, another pair or bots; a ticket whose partner has not asked back waits for
them; a mute keeps a pair from others, not from each other."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from app.rooms.matchmaking import Ticket, pick_table, seat_plan
from tests.db.test_quickplay import T0, ticket

SIDES = ((0, 2), (1, 3))


def pair(a: str, b: str, **kwargs: float) -> list[Ticket]:
    return [replace(ticket(a, **kwargs), partner_id=b), replace(ticket(b, **kwargs), partner_id=a)]


def ids(tickets: list[Ticket | None] | list[Ticket]) -> list[str | None]:
    return [None if t is None else t.player_id for t in tickets]


def test_a_pair_and_two_players_make_a_table_with_the_pair_as_partners() -> None:
    waiting = [ticket("a", age=3), ticket("b", age=2), *pair("p", "q", age=1)]
    picked = pick_table(waiting, 4, T0)
    assert picked is not None and picked[1] is False
    assert sorted(ids(picked[0])) == ["a", "b", "p", "q"]
    plan = seat_plan(sorted(picked[0], key=lambda t: t.created_at), SIDES)
    assert ids(plan) == ["p", "a", "q", "b"]  # the pair across, seats 0 and 2


def test_two_pairs_play_each_other() -> None:
    waiting = [*pair("a", "b", age=2), *pair("c", "d", age=1)]
    picked = pick_table(waiting, 4, T0)
    assert picked is not None and picked[1] is False
    assert ids(seat_plan(picked[0], SIDES)) == ["a", "c", "b", "d"]


def test_a_half_pair_waits_for_its_partner_and_is_seated_with_nobody_else() -> None:
    alone = replace(ticket("p", age=100), partner_id="q")  # q has not asked back
    waiting = [alone, ticket("a"), ticket("b"), ticket("c")]
    assert pick_table(waiting, 4, T0) is None  # three players, not four
    picked = pick_table(waiting, 4, T0 + timedelta(seconds=30))  # their waits are over
    assert picked is not None and ids(picked[0]) == ["a", "b", "c"] and picked[1] is True
    # One named by another who names someone else is no pair either.
    crossed = [alone, replace(ticket("q"), partner_id="x"), ticket("a"), ticket("b")]
    assert pick_table(crossed, 4, T0) is None


def test_a_pair_whose_wait_is_over_gets_bots_and_a_pair_never_splits() -> None:
    waiting = [*pair("p", "q", age=40), ticket("a")]
    picked = pick_table(waiting, 4, T0)
    assert picked is not None and picked[1] is True
    assert ids(seat_plan(picked[0], SIDES)) == ["p", "a", "q", None]  # a bot in seat 3
    # Three players and a pair: the pair is not split to make up a table of four; it and the
    # two who came first are one.
    waiting = [ticket("a", age=3), ticket("b", age=2), ticket("c", age=1), *pair("p", "q")]
    picked = pick_table(waiting, 4, T0)
    assert picked is not None and picked[1] is False
    assert ids(picked[0]) == ["p", "q", "a", "b"]


def test_a_mute_keeps_a_pair_from_others_not_from_each_other() -> None:
    """Quick play never chooses for someone a player they muted (or who muted them); two who
    named each other chose each other."""
    waiting = [*pair("p", "q", age=40), ticket("a", age=40), ticket("b", age=40)]
    picked = pick_table(waiting, 4, T0, {frozenset(("p", "q"))})
    assert picked is not None and sorted(ids(picked[0])) == ["a", "b", "p", "q"]
    # q muted a: a (first in the queue) plays b and bots, and the pair waits for others.
    picked = pick_table(waiting, 4, T0, {frozenset(("q", "a"))})
    assert picked is not None and ids(picked[0]) == ["a", "b"] and picked[1] is True
