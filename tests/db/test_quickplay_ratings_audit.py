"""Audit of quick play and ratings: two joins of one player at once, the seating order of a
table, and a rated quick-play table that someone leaves and the other team concedes."""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, select

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.quickplay import SqlQuickPlayQueue
from app.db.ratings import Ratings
from app.db.store import SqlStore
from app.rooms.manager import RoomManager
from app.rooms.matchmaking import Matchmaker, Ticket
from app.rooms.room import RoomTimings
from tests.db.test_quickplay import T0, Clock, Node, nodes, player, ticket
from tests.db.test_ratings import accounts_of
from tests.rooms.fakes import Inbox
from tests.rooms.test_room import finished

__all__ = ["nodes"]  # the fixture of two nodes on one database, from tests/db/test_quickplay.py


async def test_two_joins_of_one_player_at_once_are_both_answered(postgres_url: str) -> None:
    """PostgreSQL runs two joins of one player side by side (a double click): each deleted the
    ticket it saw (none), then both inserted one, and the second failed on the key: a 500."""
    engine = make_engine(postgres_url)
    sessions = make_sessionmaker(engine)
    ran_other = False

    async def other_join() -> None:
        other = make_engine(postgres_url)
        try:
            await SqlQuickPlayQueue(make_sessionmaker(other)).put(ticket("a", rating=1.0))
        finally:
            await other.dispose()

    def before_insert(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """Run the other request's whole join just before this one inserts its ticket."""
        nonlocal ran_other
        if ran_other or not statement.startswith("INSERT INTO quickplay_tickets"):
            return
        ran_other = True
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=lambda: loop.run_until_complete(other_join()))
        thread.start()
        thread.join()
        loop.close()

    try:
        async with sessions.begin() as session:
            session.add(m.Player(id="a", name="a", token_hash="a" * 16))
        event.listen(engine.sync_engine, "before_cursor_execute", before_insert)
        later = Ticket("a", "a", "bulgarian", False, 2.0, 30.0, T0 + timedelta(seconds=1))
        await SqlQuickPlayQueue(sessions).put(later)
        assert ran_other
        async with sessions() as session:
            assert await session.scalar(select(func.count()).select_from(m.QuickPlayTicket)) == 1
            row = await session.get(m.QuickPlayTicket, "a")
            assert row is not None and row.rating == 2.0  # the last join's request stands
    finally:
        await engine.dispose()


async def test_a_table_seats_its_players_in_the_order_they_came(database_url: str) -> None:
    """docs/protocol.md §8.3: "the players seated in the order they came (the first one is its
    host)". They were seated in the order ``pick_table`` offers them, nearest rating first: the
    third to come sat in seat 1 and the second in seat 3, which also chose the partners."""
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    ratings = {"a": 0.0, "b": 4.0, "c": 1.0, "d": 2.0}  # all within 5 of a, b the farthest
    async with sessions.begin() as session:
        for name in ratings:
            session.add(m.Player(id=name, name=name.upper(), token_hash=name * 16))
    store = SqlStore(engine)
    store.start()
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=3600))
    clock = Clock()

    async def rating_of(player_id: str, _preset: str) -> float:
        return ratings[player_id]

    matchmaker = Matchmaker(
        SqlQuickPlayQueue(sessions),
        manager,
        rating_of,
        turn_seconds=600,  # a quick-play table's clock (a rated room needs one), never run out
        forget_seconds=20,
        clock=clock,
    )
    try:
        for i, name in enumerate(ratings):
            clock.now = T0 + timedelta(seconds=i)
            last = await matchmaker.join(player(name), "bulgarian", False, 300)
        assert last["state"] == "seated"
        room = await manager.get(last["room"])
        assert room is not None
        assert [s.player_id for s in room.seats] == ["a", "b", "c", "d"]
        assert room.config.host_id == "a"
    finally:
        await manager.close()
        await store.close()
        await engine.dispose()


async def test_a_rated_quick_play_table_is_rated_after_a_leave_and_a_concession(
    database_url: str,
) -> None:
    """docs/protocol.md §8.2 end to end: four people who asked for a rated table get a rated
    room; one of them leaves during the match (a stand-in plays on) and the other team
    concedes: the match is rated once, the conceding team lost, the one who left won."""
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as session:
        for name in "abcd":
            session.add(m.Player(id=name, name=name.upper(), token_hash=name * 16))
        await session.flush()
        session.add_all(accounts_of("abcd"))
    store = SqlStore(engine)
    store.start()
    ratings = Ratings(sessions)
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), on_match_end=ratings.schedule)
    matchmaker = Matchmaker(
        SqlQuickPlayQueue(sessions),
        manager,
        ratings.rating_of,
        turn_seconds=600,  # a quick-play table's clock (a rated room needs one), never run out
        forget_seconds=20,
        clock=Clock(),
    )
    try:
        for name in "abcd":
            last = await matchmaker.join(player(name), "bulgarian", True, 30)
        room = await manager.get(last["room"])
        assert room is not None and room.config.rated
        inboxes = {name: Inbox(name) for name in "abcd"}
        for inbox in inboxes.values():
            await room.connect(inbox, None)
        await room.leave("b")  # seat 1, team 1: a stand-in plays on
        await room.concede("a")
        await room.concede("c")  # team 0 (seats 0 and 2) gives the match away
        await inboxes["a"].wait(finished)
        await ratings.settled()
        board = {row["player"]: row for row in await ratings.leaderboard("bulgarian")}
        assert {p: (row["matches"], row["wins"]) for p, row in board.items()} == {
            "a": (1, 0),
            "b": (1, 1),
            "c": (1, 0),
            "d": (1, 1),
        }
        assert board["b"]["rating"] > board["a"]["rating"]
        assert await ratings.catch_up() == 0  # rated once
    finally:
        await manager.close()
        await store.close()
        await engine.dispose()


async def test_a_request_changed_after_it_was_read_is_not_taken_for_the_old_queue(
    nodes: tuple[Node, Node, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node one reads the casual Bulgarian queue (a, b, c, d); before it claims them, d asks
    on node two for a rated French table instead. The claim took d's new request all the same:
    d was seated at a casual Bulgarian table and told so as the answer to the rated French
    request. Seated after changing their mind would be fair; a table of another game, or
    rated when they asked for casual (or the reverse), is not what they asked for."""
    one, two, _clock = nodes
    for name in "abc":
        await one.matchmaker.join(player(name), "bulgarian", False, 300)
    queue = one.matchmaker._queue
    read_queue = queue.waiting

    async def d_changes_their_mind(
        preset: str, rated: bool, seen_since: datetime, claimed_before: datetime
    ) -> list[Ticket]:
        found = await read_queue(preset, rated, seen_since, claimed_before)
        monkeypatch.setattr(queue, "waiting", read_queue)  # once
        await two.matchmaker.join(player("d"), "french", True, 300)
        return found

    monkeypatch.setattr(queue, "waiting", d_changes_their_mind)
    answer = await one.matchmaker.join(player("d"), "bulgarian", False, 300)
    assert (answer["state"], answer["preset"], answer["rated"]) == ("waiting", "french", True)
    for name in "abc":
        assert (await one.matchmaker.status(player(name)))["state"] == "waiting"
