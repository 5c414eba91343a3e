"""Quick play: who is seated together, when bots fill in, and that the queue lives in the
database, where two matchmakers (two nodes) share it without seating anyone twice (issue 13)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.quickplay import SqlQuickPlayQueue
from app.db.store import SqlStore
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.matchmaking import CLAIM_SECONDS, Matchmaker, Ticket, pick_table
from app.rooms.ports import Player
from app.rooms.room import PLAYING, RoomTimings
from app.rooms.suspensions import Suspension

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def ticket(name: str, rating: float = 0.0, age: float = 0.0, wait: float = 30.0) -> Ticket:
    return Ticket(name, name, "bulgarian", False, rating, wait, T0 - timedelta(seconds=age))


def test_four_near_ratings_make_a_table_at_once() -> None:
    waiting = [ticket("a", 0), ticket("b", 3), ticket("c", -2), ticket("d", 4)]
    picked = pick_table(waiting, 4, T0)
    assert picked is not None
    assert [t.player_id for t in picked[0]] == ["a", "c", "b", "d"] and picked[1] is False


def test_a_far_rating_waits_until_the_window_has_widened() -> None:
    waiting = [ticket("a", 0), ticket("b", 1), ticket("c", 2), ticket("far", 40)]
    assert pick_table(waiting, 4, T0) is None
    later = T0 + timedelta(seconds=25)  # window 5 + 0.5 * 25 = 17.5: still too far
    assert pick_table(waiting, 4, later) is None
    much_later = T0 + timedelta(seconds=29)  # 19.5 ... and at 30 s their wait is over
    assert pick_table(waiting, 4, much_later) is None
    picked = pick_table(waiting, 4, T0 + timedelta(seconds=30))
    assert picked is not None and len(picked[0]) == 4 and picked[1] is False


def test_when_the_wait_is_over_bots_fill_the_seats() -> None:
    waiting = [ticket("a", age=9, wait=10), ticket("b")]
    assert pick_table(waiting, 4, T0) is None
    picked = pick_table(waiting, 4, T0 + timedelta(seconds=1))
    assert picked is not None
    assert [t.player_id for t in picked[0]] == ["a", "b"] and picked[1] is True


@dataclass
class Clock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Node:
    matchmaker: Matchmaker
    manager: RoomManager


@pytest.fixture
async def nodes(database_url: str) -> AsyncIterator[tuple[Node, Node, Clock]]:
    """Two matchmakers on one database, each with its own room manager: two server nodes."""
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as session:
        for name in "abcdefgh":
            session.add(m.Player(id=name, name=name.upper(), token_hash=name * 16))
    store = SqlStore(engine)
    store.start()
    clock = Clock()

    async def rating_of(player_id: str, preset: str) -> float:
        return 0.0

    made = []
    for _ in range(2):
        manager = RoomManager(store, RoomTimings(bot_delay_seconds=3600))
        queue = SqlQuickPlayQueue(sessions)
        made.append(
            Node(
                # A quick-play table's clock, as the server's settings make it (a rated room
                # needs one); a long one, so that it never runs out during a test.
                Matchmaker(
                    queue, manager, rating_of, turn_seconds=600, forget_seconds=20, clock=clock
                ),
                manager,
            )
        )
    try:
        yield made[0], made[1], clock
    finally:
        for node in made:
            await node.manager.close()
        await store.close()
        await engine.dispose()


def player(name: str) -> Player:
    """Someone with an account: rated tables take nobody else (§8.2)."""
    return Player(name, name.upper(), account=True)


async def test_players_on_two_nodes_land_at_one_table(nodes: tuple[Node, Node, Clock]) -> None:
    one, two, _clock = nodes
    assert (await one.matchmaker.join(player("a"), "bulgarian", True, 30))["state"] == "waiting"
    assert (await two.matchmaker.join(player("b"), "bulgarian", True, 30))["state"] == "waiting"
    await one.matchmaker.join(player("c"), "bulgarian", True, 30)
    # A casual request of the same preset is another queue.
    await one.matchmaker.join(player("e"), "bulgarian", False, 30)
    last = await two.matchmaker.join(player("d"), "bulgarian", True, 30)
    assert last["state"] == "seated"
    code = last["room"]
    for name, node in (("a", one), ("b", two), ("c", one)):
        assert await node.matchmaker.status(player(name)) == {**last, "waited": 0.0}
    room = await two.manager.get(code)
    assert room is not None and room.status == PLAYING and room.config.rated
    assert sorted(s.player_id or "" for s in room.seats) == ["a", "b", "c", "d"]
    assert (await one.matchmaker.status(player("e")))["state"] == "waiting"


async def test_after_the_chosen_wait_bots_fill_a_casual_table(
    nodes: tuple[Node, Node, Clock],
) -> None:
    one, two, clock = nodes
    await one.matchmaker.join(player("a"), "french", True, 10)
    await two.matchmaker.join(player("b"), "french", True, 60)
    clock.now = T0 + timedelta(seconds=9)
    assert (await two.matchmaker.status(player("b")))["state"] == "waiting"
    clock.now = T0 + timedelta(seconds=10)
    seated = await two.matchmaker.status(player("b"))
    assert seated["state"] == "seated"
    room = await two.manager.get(seated["room"])
    assert room is not None and room.status == PLAYING
    assert [s.bot for s in room.seats] == [False, False, True, True]
    assert room.config.rated is False  # a table with bots is never rated
    # ... and the answer says what the table is, not what was asked for.
    assert seated["rated"] is False
    assert (await one.matchmaker.status(player("a")))["rated"] is False


async def test_a_player_who_stopped_asking_leaves_the_queue(
    nodes: tuple[Node, Node, Clock],
) -> None:
    one, _two, clock = nodes
    await one.matchmaker.join(player("a"), "bulgarian", False, 300)
    clock.now = T0 + timedelta(seconds=25)
    await one.matchmaker.join(player("b"), "bulgarian", False, 300)  # forgets a
    with pytest.raises(RoomError) as refused:
        await one.matchmaker.status(player("a"))
    assert refused.value.code == "not_queued"
    await one.matchmaker.leave(player("b"))
    with pytest.raises(RoomError):
        await one.matchmaker.status(player("b"))


async def test_bad_requests_are_refused(nodes: tuple[Node, Node, Clock]) -> None:
    one, _two, _clock = nodes
    for preset, wait in (("chess", 30), ("bulgarian", 1), ("bulgarian", 10_000)):
        with pytest.raises(RoomError):
            await one.matchmaker.join(player("a"), preset, False, wait)


async def test_a_ticket_is_claimed_for_one_table_only(database_url: str) -> None:
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions.begin() as session:
            for name in "abc":
                session.add(m.Player(id=name, name=name, token_hash=name * 16))
        queue = SqlQuickPlayQueue(sessions)
        for name in "abc":
            await queue.put(ticket(name))
        assert await queue.claim([ticket("a"), ticket("b")], "first", T0) is True
        assert await queue.claim([ticket("b"), ticket("c")], "second", T0) is False
        # The failed claim took nothing: c is still free.
        assert [t.player_id for t in await queue.waiting("bulgarian", False, T0, T0)] == ["c"]
        await queue.release("first")
        assert len(await queue.waiting("bulgarian", False, T0, T0)) == 3
    finally:
        await engine.dispose()


async def test_players_claimed_by_a_node_that_died_forming_their_table_are_seated_again(
    nodes: tuple[Node, Node, Clock], database_url: str
) -> None:
    """A node claims the tickets of a table, then makes the room, then writes its code to the
    tickets. One that died in between left them claimed for ever: their players were told
    "waiting" at every poll and never seated. A claim older than ``CLAIM_SECONDS`` with no
    table is given back, and the next poll seats them."""
    one, two, clock = nodes
    for name in "abc":
        await one.matchmaker.join(player(name), "bulgarian", False, 300)
    engine = make_engine(database_url)
    try:  # the dead node's claim of a table of four: the last one, then nothing more
        dead = SqlQuickPlayQueue(make_sessionmaker(engine))
        await one.matchmaker.join(player("d"), "bulgarian", False, 300)  # a table: seated
        await dead.put(ticket("e"))
        for name in "fgh":
            await dead.put(Ticket(name, name, "bulgarian", False, 0.0, 300.0, T0))
        tickets = await dead.waiting("bulgarian", False, T0, T0)
        assert [t.player_id for t in tickets] == ["e", "f", "g", "h"]
        assert await dead.claim(tickets, "dead-node", T0) is True
    finally:
        await engine.dispose()
    for second in range(10, int(CLAIM_SECONDS), 10):  # still forming, maybe: they wait, asking
        clock.now = T0 + timedelta(seconds=second)
        states = [(await two.matchmaker.status(player(n)))["state"] for n in "efgh"]
        assert states == ["waiting"] * 4
    clock.now = T0 + timedelta(seconds=CLAIM_SECONDS + 1)
    seated = await two.matchmaker.status(player("e"))
    assert seated["state"] == "seated"
    for name in "fgh":
        assert (await two.matchmaker.status(player(name)))["room"] == seated["room"]
    room = await two.manager.get(seated["room"])
    assert room is not None and [s.player_id for s in room.seats] == ["e", "f", "g", "h"]


class StallsBeforeSeating(SqlQuickPlayQueue):
    """A node's queue that stalls (a freeze, a long pause of its process) after making the
    table and before writing its code to the tickets: ``stalled`` runs in between."""

    stalled: Callable[[], Awaitable[None]]
    made: list[str]

    async def seat(self, claim: str, room_code: str, rated: bool) -> bool:
        self.made.append(room_code)
        await self.stalled()
        return await super().seat(claim, room_code, rated)


async def test_a_table_made_after_its_claim_was_given_back_never_begins(
    nodes: tuple[Node, Node, Clock], database_url: str
) -> None:
    """Before, the stalled node began its match anyway: its players, seated meanwhile at the
    other node's table, had a second match played in their names by stand-ins — a rated one
    when four people were claimed, which moved their ratings."""
    one, two, clock = nodes
    engine = make_engine(database_url)
    queue = StallsBeforeSeating(make_sessionmaker(engine))
    queue.made = []
    stalling = Matchmaker(
        queue,
        one.manager,
        lambda _p, _s: _zero(),
        turn_seconds=30,
        forget_seconds=600,
        clock=clock,
    )

    async def stall() -> None:  # past CLAIM_SECONDS: the other node seats them first
        for second in range(10, int(CLAIM_SECONDS) + 10, 10):  # they wait, asking
            clock.now = T0 + timedelta(seconds=second + 1)
            states = {(await two.matchmaker.status(player(n)))["state"] for n in "abcd"}
        assert states == {"seated"}

    queue.stalled = stall
    try:
        for name in "abc":
            await two.matchmaker.join(player(name), "bulgarian", True, 300)
        assert (await stalling.join(player("d"), "bulgarian", True, 300))["state"] == "seated"
    finally:
        await engine.dispose()
    seated = await two.matchmaker.status(player("d"))
    assert [await two.matchmaker.status(player(n)) for n in "abc"] == [seated] * 3
    assert seated["room"] not in queue.made
    table = await two.manager.get(seated["room"])
    assert table is not None and table.status == PLAYING and table.config.rated
    (orphan_code,) = queue.made
    orphan = await one.manager.get(orphan_code)
    assert orphan is not None and orphan.status == "waiting" and orphan.match is None
    assert all(s.player_id is None for s in orphan.seats)


async def _zero() -> float:
    return 0.0


async def test_a_player_suspended_while_waiting_is_taken_out_of_the_queue(
    nodes: tuple[Node, Node, Clock],
) -> None:
    """The operator's suspension (``app.rooms.suspensions``) reached the nodes after the player
    asked: nobody is seated with them, and their ticket goes. Before, the table was formed with
    them and their seat refused, so nobody of that queue was seated."""
    one, two, _clock = nodes
    for name in "abc":
        await one.matchmaker.join(player(name), "bulgarian", True, 30)
    for node in (one, two):
        node.manager.suspensions.set("b", Suspension("Cheating", None))
    assert (await two.matchmaker.join(player("d"), "bulgarian", True, 30))["state"] == "waiting"
    with pytest.raises(RoomError) as error:
        await one.matchmaker.status(player("b"))
    assert error.value.code == "not_queued"
    seated = await one.matchmaker.join(player("e"), "bulgarian", True, 30)
    assert seated["state"] == "seated"
    room = await one.manager.get(seated["room"])
    assert room is not None and sorted(s.player_id or "" for s in room.seats) == list("acde")
