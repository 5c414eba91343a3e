"""Tournaments in the database, on SQLite and PostgreSQL (app/db/tournaments.py,
app/rooms/tournaments.py): two directors on one database — two server nodes — move one
tournament on at once, and each match still gets one table, its players seated there alone; a
node that stalls after opening a table finds it named by the other and lets its own go; a table
whose node failed between naming it and beginning it begins on the next pass; a second start,
or a result recorded twice, changes nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.store import SqlStore
from app.db.tournaments import SHOWN_DAYS, SqlTournaments
from app.rooms.bracket import first_round
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import Player
from app.rooms.room import PLAYING, WAITING, RoomTimings
from app.rooms.tournaments import (
    Director,
    Game,
    Played,
    Tournament,
    drawer,
    due,
    first_swiss_round,
)

NAMES = "abcdefgh"


@dataclass
class Node:
    director: Director
    manager: RoomManager
    book: SqlTournaments


class Nodes:
    def __init__(self, database_url: str) -> None:
        self.engine = make_engine(database_url)
        self.sessions = make_sessionmaker(self.engine)
        self.store = SqlStore(self.engine)
        self.made: list[Node] = []

    def node(self, book: SqlTournaments | None = None) -> Node:
        manager = RoomManager(self.store, RoomTimings(bot_delay_seconds=3600))
        book = book or SqlTournaments(self.sessions)
        director = Director(book, manager, turn_seconds=600, sweep_seconds=3600)
        self.made.append(Node(director, manager, book))
        return self.made[-1]


@pytest.fixture
async def nodes(database_url: str) -> AsyncIterator[Nodes]:
    made = Nodes(database_url)
    async with made.sessions.begin() as session:
        for name in NAMES:
            session.add(m.Player(id=name, name=name.upper(), token_hash=name * 16))
    made.store.start()
    try:
        yield made
    finally:
        for node in made.made:
            await node.manager.close()
        await made.store.close()
        await made.engine.dispose()


def player(name: str) -> Player:
    return Player(name, name.upper())


async def entered(node: Node, size: int, swiss_rounds: int | None = None) -> str:
    """A tournament of Belot for two with ``size`` entrants, drawn in their order, not begun
    (``swiss_rounds``: a Swiss one)."""
    made = await node.director.create(player("a"), "Cup", Game("bulgarian2"), size, swiss_rounds)
    for name in NAMES[1:size]:
        await node.director.enter(made.id, player(name))
    first = first_round if swiss_rounds is None else first_swiss_round
    await node.book.start(made.id, "a", drawer(1, _Ordered(), first))
    return made.id


class _Ordered(random.Random):
    """A draw that keeps the entrants in the order they came: unit i is the i-th entrant."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


async def tables(nodes: Nodes, tournament_id: str) -> dict[tuple[int, int], str | None]:
    async with nodes.sessions() as session:
        rows = await session.scalars(
            select(m.TournamentMatch).where(m.TournamentMatch.tournament_id == tournament_id)
        )
        return {(r.round, r.slot): r.room_code for r in rows}


async def test_two_nodes_moving_a_tournament_on_at_once_open_each_table_once(
    nodes: Nodes,
) -> None:
    one, two = nodes.node(), nodes.node()
    tid = await entered(one, 8)
    await asyncio.gather(one.director.advance(tid), two.director.advance(tid))
    named = await tables(nodes, tid)
    assert len(named) == 4 and all(named.values())
    for node in (one, two):
        for code in node.manager.held_codes():
            room = await node.manager.get(code)
            assert room is not None
            if code in named.values():
                assert room.status == PLAYING
            else:  # the loser of a race: never begun, nobody left in it
                assert room.status == WAITING and room.match is None
                assert all(seat.player_id is None for seat in room.seats)
    seated: list[str] = []
    for code in named.values():
        holder = one if code in one.manager.held_codes() else two
        room = await holder.manager.get(code)
        assert room is not None
        seated += [s.player_id for s in room.seats if s.player_id is not None]
    assert sorted(seated) == list(NAMES)  # each at one table


async def test_two_nodes_making_a_swiss_round_at_once_make_it_once(nodes: Nodes) -> None:
    """A Swiss round is paired from the standings with no chance in it, so two nodes that
    read the same results make the same matches: one of them stores the round, each match gets
    one table, and nobody meets an opponent twice."""
    one, two = nodes.node(), nodes.node()
    tid = await entered(one, 4, swiss_rounds=2)
    await one.director.advance(tid)
    codes = await tables(nodes, tid)
    for slot in (0, 1):
        room = await one.manager.get(codes[(0, slot)] or "")
        assert room is not None and room.seats[1].player_id is not None
        await room.concede(room.seats[1].player_id)
    await asyncio.gather(one.director.advance(tid), two.director.advance(tid))
    loaded = await one.book.load(tid)
    assert loaded is not None
    second = [t for t in loaded.matches if t.round == 1]
    assert [(t.a, t.b) for t in second] == [(0, 2), (1, 3)]  # the winners, then the losers
    named = await tables(nodes, tid)
    assert len(named) == 4 and all(named.values())
    assert len(set(named.values())) == 4


class StallsBeforeNaming(SqlTournaments):
    """A node's book that stalls after making a table and before naming it on its match (a
    freeze, a long pause): ``stalled`` runs in between."""

    stalled: Callable[[], Awaitable[None]]

    async def seat(self, tournament_id: str, round_: int, slot: int, room_code: str) -> bool:
        await self.stalled()
        return await super().seat(tournament_id, round_, slot, room_code)


async def test_a_node_that_stalls_after_opening_a_table_lets_it_go(nodes: Nodes) -> None:
    book = StallsBeforeNaming(nodes.sessions)
    slow, quick = nodes.node(book), nodes.node()
    tid = await entered(quick, 2)

    async def meanwhile() -> None:
        book.stalled = _nothing
        await quick.director.advance(tid)  # the other node opens the final's table

    book.stalled = meanwhile
    await slow.director.advance(tid)
    (code,) = (await tables(nodes, tid)).values()
    assert code is not None and code in quick.manager.held_codes()
    (mine,) = slow.manager.held_codes()
    room = await slow.manager.get(mine)
    assert room is not None and room.match is None
    assert [s.player_id for s in room.seats] == [None, None]


async def _nothing() -> None:
    return None


class FailsAfterNaming(SqlTournaments):
    """A node's book whose process fails once just after naming a table, before beginning it."""

    failed = False

    async def seat(self, tournament_id: str, round_: int, slot: int, room_code: str) -> bool:
        named = await super().seat(tournament_id, round_, slot, room_code)
        if not self.failed:
            self.failed = True
            raise ConnectionError("the database went away")
        return named


async def test_a_table_named_but_not_begun_begins_on_the_next_pass(nodes: Nodes) -> None:
    node = nodes.node(FailsAfterNaming(nodes.sessions))
    tid = await entered(node, 2)
    with pytest.raises(ConnectionError):
        await node.director.advance(tid)
    (code,) = (await tables(nodes, tid)).values()
    assert code is not None
    room = await node.manager.get(code)
    assert room is not None and room.status == WAITING  # nobody began it
    await node.director.sweep()  # the next pass finds it due
    assert room.status == PLAYING
    assert (await tables(nodes, tid)) == {(0, 0): code}  # the same table, not another


async def test_a_second_start_and_a_result_recorded_twice_change_nothing(nodes: Nodes) -> None:
    node = nodes.node()
    tid = await entered(node, 2)
    with pytest.raises(RoomError) as refused:
        await node.book.start(tid, "a", drawer(1, random.Random(1)))
    assert refused.value.code == "tournament_closed"
    await node.book.decide(tid, Played(0, 0, "m1", 0, (151, 40), False), 0)
    await node.book.decide(tid, Played(0, 0, "m2", 1, (3, 151), True), 1)
    loaded = await node.book.load(tid)
    assert loaded is not None
    (final,) = loaded.matches
    assert (final.winner, final.match_id, final.scores) == (0, "m1", (151, 40))
    await node.director.sweep()  # the champion to name: due
    finished = await node.book.load(tid)
    assert finished is not None and (finished.status, finished.champion) == ("finished", 0)


async def test_a_sweep_moves_on_only_what_has_something_to_do(nodes: Nodes) -> None:
    """A node's sweep reads the matches of every tournament being played in one query and
    moves on only those with something to do; a match's end moves its own tournament on (and
    costs one query when it was no tournament's). A sweep was a whole pass per tournament, and
    every match's end on the node a sweep (``bench.tournaments``: 101 queries and 60 ms for 20
    tournaments, against 1 query)."""
    node = nodes.node()
    tid = await entered(node, 4)
    await node.director.advance(tid)  # the two tables of the first round open and begin
    playing = await node.book.tables_in_play()
    assert [(t.begun, t.over) for t in playing[tid].tables] == [(True, False), (True, False)]
    assert not due(playing[tid])
    codes = await tables(nodes, tid)
    for slot in (0, 1):
        room = await node.manager.get(codes[(0, slot)] or "")
        assert room is not None
        loser = room.seats[1].player_id
        assert loser is not None
        await room.concede(loser)
    first, _second = sorted(await node.book.played(tid), key=lambda p: p.slot)
    assert await node.book.of_match(first.match_id) == tid
    assert await node.book.of_match("0" * 32) is None
    playing = await node.book.tables_in_play()
    assert [t.over for t in playing[tid].tables] == [True, True] and due(playing[tid])
    await node.director.after_match(first.match_id)  # both results read, the final opened
    assert await node.book.of_match(first.match_id) is None  # decided
    loaded = await node.book.load(tid)
    assert loaded is not None
    assert {(t.round, t.slot): t.winner for t in loaded.matches} == {
        (0, 0): 0,
        (0, 1): 1,
        (1, 0): None,
    }
    final = next(t for t in loaded.matches if t.round == 1)
    assert final.room_code is not None
    assert not due((await node.book.tables_in_play())[tid])


async def test_a_tournament_starts_at_its_time_once_enough_have_entered(nodes: Nodes) -> None:
    """A start time set, the sweep of any node starts it when the time has come — with two
    entrants at least; with fewer it waits for them (its host may still start it or call it
    off), and one whose time has not come stays as it is."""
    node, other = nodes.node(), nodes.node()
    past = datetime.now(UTC) - timedelta(seconds=1)
    later = (
        await node.director.create(
            player("c"), "Later", Game("bulgarian2"), 4, starts_at=past + timedelta(hours=1)
        )
    ).id
    await node.director.enter(later, player("d"))
    due_now = (
        await node.director.create(player("a"), "Now", Game("bulgarian2"), 4, starts_at=past)
    ).id
    await other.director.sweep()  # its host alone: too few
    waiting = await node.book.load(due_now)
    assert waiting is not None and waiting.status == "registering"
    await node.director.enter(due_now, player("b"))
    await asyncio.gather(node.director.sweep(), other.director.sweep())  # two nodes, one start
    started = await node.book.load(due_now)
    assert started is not None and started.status == "playing"
    assert [t.room_code is not None for t in started.matches] == [True]  # its final, open
    assert (await node.book.load(later)).status == "registering"  # type: ignore[union-attr]
    assert len(await tables(nodes, due_now)) == 1


async def test_the_listing_keeps_a_week_but_every_tournament_being_played(nodes: Nodes) -> None:
    """A tournament whose host never started it, or that ended, leaves the listing a week after
    it was made (still readable at its address); one being played stays however old."""
    node = nodes.node()
    stale = (await node.director.create(player("a"), "Stale", Game("bulgarian2"), 4)).id
    fresh = (await node.director.create(player("b"), "Fresh", Game("bulgarian2"), 4)).id
    long_played = await entered(node, 2)
    async with nodes.sessions.begin() as session:
        await session.execute(
            update(m.Tournament)
            .where(m.Tournament.id.in_([stale, long_played]))
            .values(created_at=datetime.now(UTC) - timedelta(days=SHOWN_DAYS, hours=1))
        )
    assert {t.id for t in await node.director.listing()} == {fresh, long_played}
    # One made long ago for a start time to come stays listed until a week after that time.
    soon = datetime.now(UTC) + timedelta(days=2)
    ahead = (await node.director.create(player("c"), "Ahead", Game("bulgarian2"), 4, None, soon)).id
    async with nodes.sessions.begin() as session:
        await session.execute(
            update(m.Tournament)
            .where(m.Tournament.id == ahead)
            .values(created_at=datetime.now(UTC) - timedelta(days=SHOWN_DAYS + 20))
        )
    assert ahead in {t.id for t in await node.director.listing()}
    assert (await node.director.view(stale)).name == "Stale"


async def with_check_in(node: Node, name: str, minutes: int) -> Tournament:
    """A tournament of Belot for two made by ``a``, an hour ahead, with a check-in."""
    return await node.director.create(
        player("a"),
        name,
        Game("bulgarian2"),
        8,
        starts_at=datetime.now(UTC) + timedelta(hours=1),
        check_in_minutes=minutes,
    )


async def _starting_in(nodes: Nodes, tournament_id: str, delta: timedelta) -> None:
    """Move the tournament's start time to ``delta`` from now (the clock cannot be)."""
    async with nodes.sessions.begin() as session:
        await session.execute(
            update(m.Tournament)
            .where(m.Tournament.id == tournament_id)
            .values(starts_at=datetime.now(UTC) + delta)
        )


async def refused(call: Awaitable[object]) -> str:
    with pytest.raises(RoomError) as caught:
        await call
    return caught.value.code


async def test_check_in_opens_before_the_start_and_entering_then_checks_in(nodes: Nodes) -> None:
    """A tournament with a check-in of 10 minutes: before it opens, entering does not check
    in and checking in is refused (``check_in_not_open``); once open, an entrant checks in
    (twice changes nothing), one who enters then is checked in, one who has not entered is
    refused (``not_entered``), and a player's reminders list it until they check in. A
    tournament without check-in refuses it (``no_check_in``)."""
    node = nodes.node()
    book = node.book
    made = await with_check_in(node, "Evening", 10)
    assert made.check_in_minutes == 10 and made.starts_at is not None
    assert made.check_in_opens == made.starts_at - timedelta(minutes=10)
    await node.director.enter(made.id, player("b"))
    assert await refused(node.director.check_in(made.id, "b")) == "check_in_not_open"
    assert await book.check_ins_of("b") == []
    assert not any(e.checked_in for e in (await node.director.view(made.id)).entries)

    await _starting_in(nodes, made.id, timedelta(minutes=9))  # open
    assert [c.tournament_id for c in await book.check_ins_of("a")] == [made.id]
    assert [c.tournament_id for c in await book.check_ins_of("b")] == [made.id]
    await node.director.check_in(made.id, "b")
    await node.director.check_in(made.id, "b")
    await node.director.enter(made.id, player("c"))  # entering now: here, so checked in
    assert await refused(node.director.check_in(made.id, "d")) == "not_entered"
    view = await node.director.view(made.id)
    assert {e.player_id: e.checked_in for e in view.entries} == {"a": False, "b": True, "c": True}
    assert await book.check_ins_of("b") == [] and await book.check_ins_of("c") == []
    assert [c.name for c in await book.check_ins_of("a")] == ["Evening"]

    plain = await node.director.create(player("e"), "Plain", Game("bulgarian2"), 4)
    assert await refused(node.director.check_in(plain.id, "e")) == "no_check_in"
    assert plain.check_in_opens is None and await book.check_ins_of("e") == []


async def test_the_start_draws_only_those_who_checked_in(nodes: Nodes) -> None:
    """At its time, the sweep counts only the entrants who checked in: with one, it waits (the
    host's own start is refused ``too_few_checked_in``; another's ``not_host``); with two, it
    starts and draws them alone, the entries of those who did not check in gone."""
    node = nodes.node()
    made = await with_check_in(node, "Late", 30)
    for name in "bcd":
        await node.director.enter(made.id, player(name))
    await _starting_in(nodes, made.id, timedelta(minutes=5))
    await node.director.check_in(made.id, "c")
    assert await refused(node.director.start(made.id, "a")) == "too_few_checked_in"
    assert await refused(node.director.start(made.id, "b")) == "not_host"
    await _starting_in(nodes, made.id, -timedelta(seconds=1))  # its time has come
    await node.director.sweep()
    assert (await node.director.view(made.id)).status == "registering"  # one checked in: waits
    await node.director.check_in(made.id, "a")
    await node.director.sweep()
    started = await node.director.view(made.id)
    assert started.status == "playing"
    assert sorted(e.player_id for e in started.entries) == ["a", "c"]
    assert all(e.unit is not None for e in started.entries)
    assert await node.book.check_ins_of("b") == []


async def test_a_check_in_needs_a_start_time_and_a_length_within_bounds(nodes: Nodes) -> None:
    node = nodes.node()
    soon = datetime.now(UTC) + timedelta(hours=1)
    for starts_at, minutes in ((None, 10), (soon, 4), (soon, 61)):
        call = node.director.create(
            player("a"), "Bad", Game("bulgarian2"), 4, starts_at=starts_at, check_in_minutes=minutes
        )
        assert await refused(call) == "bad_request"
    # A start time within the check-in's length: open at once, its host checked in.
    near = await node.director.create(
        player("a"), "Near", Game("bulgarian2"), 4, starts_at=soon, check_in_minutes=60
    )
    assert [e.checked_in for e in near.entries] == [True]
