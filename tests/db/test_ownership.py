"""Room leases of a cluster (PostgreSQL): one owner per room, take-over, and the fence on writes.

Two nodes run here in one process, each with its own engine, store, leases and manager, as two
``python -m app`` would. "Time passing" past a lease is the node's ``expires_at`` moved into the
past by the test (the database's clock decides expiry), not a sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Connection, select, text
from sqlalchemy.exc import DBAPIError, OperationalError

from app.db import models as m
from app.db.engine import IDLE_IN_TRANSACTION_SECONDS, make_engine
from app.db.ownership import RoomLeases, session_name
from app.db.store import LeaseLost, SqlStore
from app.rooms.errors import RoomElsewhere, RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ChatPosted
from app.rooms.room import RoomTimings
from app.rules import view
from tests.db.test_store import add_player, host_and_bots_mid_deal


@dataclass
class Node:
    leases: RoomLeases
    store: SqlStore
    manager: RoomManager


@asynccontextmanager
async def node(url: str, node_id: str) -> AsyncIterator[Node]:
    engine = make_engine(url, session_name=session_name(node_id))  # as app.main names them
    leases = RoomLeases(engine, node_id, ttl_seconds=60, idle_seconds=600)
    store = SqlStore(engine, fence=leases)
    store.start()
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), ownership=leases)
    try:
        await leases.start()
        yield Node(leases, store, manager)
    finally:
        await manager.close()
        await store.close()
        await engine.dispose()


async def expire(url: str, code: str) -> None:
    """The room's owner stopped renewing long enough: its lease (all its rooms') is over."""
    engine = make_engine(url)
    async with engine.begin() as connection:
        await connection.execute(
            text(
                "UPDATE node_leases SET expires_at = now() - interval '1 second' "
                "WHERE node = (SELECT node FROM room_leases WHERE room_code = :c)"
            ),
            {"c": code},
        )
    await engine.dispose()


async def lease_of(url: str, code: str) -> tuple[str, int] | None:
    engine = make_engine(url)
    async with engine.connect() as connection:
        row = (
            await connection.execute(
                select(m.RoomLease.node, m.RoomLease.epoch).where(m.RoomLease.room_code == code)
            )
        ).first()
    await engine.dispose()
    return None if row is None else (row[0], row[1])


async def stored_version(url: str, code: str) -> int:
    engine = make_engine(url)
    async with engine.connect() as connection:
        version = await connection.scalar(select(m.Room.version).where(m.Room.code == code))
    await engine.dispose()
    assert version is not None
    return int(version)


async def two_nodes(stack: AsyncExitStack, url: str) -> tuple[Node, Node]:
    await add_player(url, "host")
    return (
        await stack.enter_async_context(node(url, "a")),
        await stack.enter_async_context(node(url, "b")),
    )


async def test_a_room_is_served_by_one_node_and_the_others_point_to_it(postgres_url: str) -> None:
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, _ = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        assert await lease_of(postgres_url, code) == ("a", 1)
        assert await a.manager.get(code) is room
        with pytest.raises(RoomElsewhere) as elsewhere:
            await b.manager.get(code)
        assert elsewhere.value.node == "a"
        assert code not in b.manager
        assert await b.leases.claim("no-such-room") is None  # unknown: nothing is leased
        assert await lease_of(postgres_url, "no-such-room") is None


async def test_a_paused_node_s_late_write_is_refused_and_its_room_dropped(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The owner freezes past its lease, another node takes the room over from the action log
    at the same card; when the first one wakes up, the database refuses its write (fence), the
    player's command is refused (nothing was acknowledged) and its clients are sent away."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, inbox = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        version = room.version
        await expire(postgres_url, code)
        assert await b.manager.restore_all() == 1  # the take-over
        assert await lease_of(postgres_url, code) == ("b", 2)
        taken = await b.manager.get(code)
        assert taken is not None and taken.version == version

        assert room.match is not None and room.match.deal is not None
        legal = view(room.match.deal, 0).to_dict()["legal"]
        with pytest.raises(RoomError) as refused:
            await room.act("host", "late", room.game_version, legal[0])
        assert refused.value.code == "server_error"
        assert await stored_version(postgres_url, code) == version

        async def dropped() -> None:
            while code in a.manager or not inbox.gone:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(dropped(), 5)
        assert a.store.stats.fenced_batches == 1
        # One warning that names the room and the node, no traceback: nothing went wrong here.
        said = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert all(r.exc_info is None for r in said), [r.getMessage() for r in said]
        about = [r.getMessage() for r in said if code in r.getMessage()]
        assert len(about) == 1 and "node a" in about[0], about

        # The new owner plays on from the same card.
        assert await taken.act("host", "on b", taken.game_version, legal[0]) == version + 1
        assert await stored_version(postgres_url, code) > version  # its bots play on too


def chat_line(text: str) -> ChatPosted:
    return ChatPosted(None, "host", "Host", text, 0.0)


@pytest.mark.parametrize("single", [True, False], ids=["one-statement", "transaction"])
async def test_a_fenced_room_does_not_fail_the_rest_of_its_group(
    postgres_url: str, single: bool
) -> None:
    """The fence in both ways a group is stored: actions alone as one statement whose first
    part checks the leases (``_PG_FENCED_LOG``), anything else in a transaction that locks
    them first (``RoomLeases.fence``)."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        kept, _ = await host_and_bots_mid_deal(a.manager)
        lost, _ = await host_and_bots_mid_deal(a.manager)
        await expire(postgres_url, lost.config.code)
        assert await b.leases.claim(lost.config.code) is None  # b opens it: b's now
        ops = [] if single else [chat_line("hello")]
        before = a.store.stats.single_statement_groups
        # Both queued before the writer runs: one group.
        results = await asyncio.gather(
            a.store.commit(kept.config.code, kept.version + 1, ops),
            a.store.commit(lost.config.code, lost.version + 1, ops),
            return_exceptions=True,
        )
        assert results[0] is None
        assert isinstance(results[1], LeaseLost)
        assert a.store.stats.single_statement_groups - before == int(single)
        assert await stored_version(postgres_url, kept.config.code) == kept.version + 1
        assert await stored_version(postgres_url, lost.config.code) == lost.version


async def test_a_one_statement_group_whose_answer_was_lost_asks_the_fence_again(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statement ran (stored, or refused by the fence) but its answer was lost: which
    rooms it refused is not known either, so the writer asks the leases again before it tells
    anyone, and the room it still holds hears "stored", the one it lost "another node's"."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        kept, _ = await host_and_bots_mid_deal(a.manager)
        lost, _ = await host_and_bots_mid_deal(a.manager)
        await expire(postgres_url, lost.config.code)
        assert await b.leases.claim(lost.config.code) is None
        statements = a.store._statements
        assert statements is not None and statements.fenced_log is not None
        statement = statements.fenced_log
        run = statement.one

        def answer_lost(connection: Connection, **values: Any) -> Any:
            run(connection, **values)  # done, committed: then the connection drops
            raise OperationalError(statement.sql, {}, ConnectionResetError("lost"))

        monkeypatch.setattr(statement, "one", answer_lost)
        results = await asyncio.gather(
            a.store.commit(kept.config.code, kept.version + 1, []),
            a.store.commit(lost.config.code, lost.version + 1, []),
            return_exceptions=True,
        )
        assert results[0] is None
        assert isinstance(results[1], LeaseLost)
        assert a.store.stats.fenced_batches == 1
        assert await stored_version(postgres_url, kept.config.code) == kept.version + 1
        assert await stored_version(postgres_url, lost.config.code) == lost.version


async def test_renewal_tells_a_node_which_rooms_it_lost(postgres_url: str) -> None:
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        kept, _ = await host_and_bots_mid_deal(a.manager)
        lost, _ = await host_and_bots_mid_deal(a.manager)
        await expire(postgres_url, lost.config.code)
        assert await a.leases.renew() == []  # expired but nobody took them: still a's
        await expire(postgres_url, lost.config.code)
        taken = await b.leases.take_over()
        assert sorted(taken) == sorted([kept.config.code, lost.config.code])
        assert sorted(await a.leases.renew()) == sorted(taken)
        assert await a.leases.renew() == []


async def test_a_stopping_node_hands_its_rooms_over_and_an_idle_room_lets_go(
    postgres_url: str,
) -> None:
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, inbox = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        await a.manager.close()  # SIGTERM: the rooms stop, each is handed to a live node
        assert inbox.gone and inbox.sent_to == "b"  # the client is sent there directly
        assert await lease_of(postgres_url, code) == ("b", 2)
        assert await b.manager.restore_all() == 1  # b picks up what it was handed
        assert await lease_of(postgres_url, code) == ("b", 2)
        taken = await b.manager.get(code)
        assert taken is not None
        assert await b.manager.evict_idle(now=taken.last_active + 10_000) == [code]
        assert await lease_of(postgres_url, code) is None  # the next node to open it claims it


async def test_a_room_being_created_is_not_lost_to_a_renewal_meanwhile(postgres_url: str) -> None:
    """The lease row of a new room is inserted in the room's first transaction; a renewal that
    runs before that transaction commits does not see the row, and must not count the room as
    lost (it was: the room just created was dropped at once)."""
    engine = make_engine(postgres_url)
    leases = RoomLeases(engine, "a", ttl_seconds=60, idle_seconds=600)
    try:
        await leases.start()
        async with engine.begin() as connection:
            refused = await connection.run_sync(lambda c: leases.fence(c, [], ["newroom"]))
            assert refused == set()
            assert await leases.renew() == []  # the row is not committed yet
        leases.settled(["newroom"], [])
        assert await leases.renew() == []
        assert await lease_of(postgres_url, "newroom") == ("a", 1)
    finally:
        await engine.dispose()


async def test_a_room_s_clocks_move_with_it_to_the_node_that_takes_it_over(
    postgres_url: str,
) -> None:
    """Nobody acts in the room: only its clocks (the bots' moves, the absent host's turn clock)
    move it. Its node dies (its actor and timers stop, its lease runs out); the node that takes
    it over restores the clocks with the room, and the room plays on there by itself."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room = await a.manager.create(
            "host",
            "Host",
            {"preset": "bulgarian"},
            target=None,
            public=False,
            turn_seconds=0.2,
            bot_level="random",
            bots=(1, 2, 3),
        )
        code = room.config.code
        await room.begin("host", fill_with_bots=False)
        await room.stop()  # a dies: nothing of it runs any more
        await expire(postgres_url, code)
        version = await stored_version(postgres_url, code)
        assert await b.manager.restore_all() == 1
        seats = 4

        async def played_a_round() -> None:  # the host's turn included: its clock ran on b
            while await stored_version(postgres_url, code) < version + seats + 1:
                await asyncio.sleep(0.05)

        await asyncio.wait_for(played_a_round(), 20)
        assert await lease_of(postgres_url, code) == ("b", 2)


async def row_versions(url: str, table: str) -> dict[str, str]:
    """Each row's ``xmin``: the transaction that wrote its current version."""
    key = "room_code" if table == "room_leases" else "node"
    engine = make_engine(url)
    async with engine.connect() as connection:
        rows = await connection.execute(text(f"SELECT {key}, xmin::text FROM {table}"))
        versions = {str(k): str(x) for k, x in rows}
    await engine.dispose()
    return versions


async def test_renewing_rewrites_the_node_s_row_only_whatever_its_rooms(postgres_url: str) -> None:
    """The steady state's cost does not grow with the rooms: a renewal and a look for rooms
    to take over write one row (the node's lease), and no room's row."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        for _ in range(3):
            await host_and_bots_mid_deal(a.manager)  # the host to act: nothing is written
        rooms_before = await row_versions(postgres_url, "room_leases")
        nodes_before = await row_versions(postgres_url, "node_leases")
        assert len(rooms_before) == 3
        assert await a.leases.renew() == [] and await a.leases.take_over() == []
        assert await b.leases.renew() == [] and await b.leases.take_over() == []
        assert await row_versions(postgres_url, "room_leases") == rooms_before
        nodes_after = await row_versions(postgres_url, "node_leases")
        assert all(nodes_after[n] != nodes_before[n] for n in ("a", "b"))


async def test_a_node_frozen_inside_a_commit_does_not_keep_its_rooms(postgres_url: str) -> None:
    """A node stopped (SIGSTOP) between its group commit's row locks and its COMMIT holds the
    room's lease row locked; the take-over skips locked rows, so without PostgreSQL ending such a
    session (``IDLE_IN_TRANSACTION_SECONDS``) the room would never move (seen: the frozen-node
    test of tests/test_nodes.py timing out now and then)."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, _ = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        frozen = make_engine(postgres_url)  # a's engine, as a frozen process leaves it
        stack.push_async_callback(frozen.dispose)
        connection = await frozen.connect()
        await connection.execute(
            text("SELECT 1 FROM room_leases WHERE room_code = :c FOR UPDATE"), {"c": code}
        )
        await expire(postgres_url, code)

        async def taken() -> None:
            while code not in await b.leases.take_over():
                await asyncio.sleep(0.2)

        await asyncio.wait_for(taken(), 5 * IDLE_IN_TRANSACTION_SECONDS)
        assert await lease_of(postgres_url, code) == ("b", 2)
        with pytest.raises(DBAPIError):  # the server ended the frozen session
            await connection.rollback()
        await connection.close()


async def test_a_node_frozen_inside_a_statement_has_its_sessions_ended(postgres_url: str) -> None:
    """A node stopped while its session runs a statement (or waits in a pipeline for the rest
    of it, or writes a result the frozen process does not read) holds its rows locked with no
    idle-in-transaction timeout to end it: the node taking over ends the sessions the dead node
    opened while its lease ran, and takes the room at its first look."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, _ = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        frozen = make_engine(postgres_url, session_name=session_name("a"))  # a's, frozen
        stack.push_async_callback(frozen.dispose)
        connection = await frozen.connect()
        await connection.execute(
            text("SELECT 1 FROM room_leases WHERE room_code = :c FOR UPDATE"), {"c": code}
        )
        running = asyncio.ensure_future(connection.execute(text("SELECT pg_sleep(600)")))
        bystander = make_engine(postgres_url, session_name=session_name("a"))  # opened later
        stack.push_async_callback(bystander.dispose)
        await lapse(postgres_url, timedelta(0), "a")  # a's lease ends after its sessions began
        later = await bystander.connect()
        assert await b.leases.take_over() == [code]
        assert await lease_of(postgres_url, code) == ("b", 2)
        with pytest.raises(DBAPIError):  # the server ended the frozen session
            await running
        assert (await later.execute(text("SELECT 1"))).scalar_one() == 1  # not this one
        await later.close()
        with contextlib.suppress(DBAPIError):
            await connection.close()


async def test_a_node_whose_sessions_were_ended_reconnects_and_listens_again(
    postgres_url: str,
) -> None:
    """The node taking over ended the dead node's sessions, its listener's too: once the node
    is back, its renewal reconnects (the pool pings first), tells it which room it lost, and
    listens again, so that a room handed to it later wakes it up at once."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, _ = await host_and_bots_mid_deal(a.manager)
        code = room.config.code
        await lapse(postgres_url, timedelta(0), "a")
        assert await b.leases.take_over() == [code]
        assert await a.leases.renew() == [code]
        await b.leases.hand_over({code: "a"})
        await asyncio.wait_for(a.leases.wait(600), 30)  # NOTIFY, not the 600 s
        assert await lease_of(postgres_url, code) == ("a", 3)


async def node_rows(url: str) -> dict[str, int]:
    engine = make_engine(url)
    async with engine.connect() as connection:
        rows = await connection.execute(select(m.NodeLease.node, m.NodeLease.epoch))
        found = {node: int(epoch) for node, epoch in rows}
    await engine.dispose()
    return found


async def lapse(url: str, ago: timedelta, *nodes: str) -> None:
    """The leases of ``nodes`` lapsed ``ago``; a node not there gets a row."""
    engine = make_engine(url)
    async with engine.begin() as connection:
        for name in nodes:
            await connection.execute(
                text(
                    "INSERT INTO node_leases (node, epoch, expires_at) "
                    "VALUES (:n, 1, now() - CAST(:ago AS interval)) "
                    "ON CONFLICT (node) DO UPDATE SET expires_at = EXCLUDED.expires_at"
                ),
                {"n": name, "ago": ago},
            )
    await engine.dispose()


async def test_the_row_of_a_node_long_dead_is_deleted_once_it_holds_no_room(
    postgres_url: str,
) -> None:
    """Node names that never come back used to stay in ``node_leases`` for ever."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        room, _ = await host_and_bots_mid_deal(a.manager)
        first_epoch = (await node_rows(postgres_url))["a"]
        await lapse(postgres_url, timedelta(days=2), "gone", "a")  # a holds a room: its row stays
        await lapse(postgres_url, timedelta(hours=1), "lately")  # dead, but not for long enough
        assert await b.leases.take_over() == [room.config.code]
        assert set(await node_rows(postgres_url)) == {"a", "b", "lately"}
        assert await b.leases.take_over() == []  # a has no room left now
        assert set(await node_rows(postgres_url)) == {"b", "lately"}
        assert await a.leases.renew() == [room.config.code]  # back after all: it lost it
        async with node(postgres_url, "a"):  # a new process of that name: a new epoch
            assert (await node_rows(postgres_url))["a"] > first_epoch


async def test_nodes_taking_over_share_a_dead_node_s_rooms(postgres_url: str) -> None:
    """Each survivor takes at most its share of them per renewal period: the first one to look
    used to take them all (a batch is restored well within a period) while the others had not
    looked yet."""
    async with AsyncExitStack() as stack:
        a, b = await two_nodes(stack, postgres_url)
        c = await stack.enter_async_context(node(postgres_url, "c"))
        rooms = [
            await a.manager.create(
                "host", "Host", {"preset": "french"}, target=None, public=False, turn_seconds=0
            )
            for _ in range(5)
        ]
        await lapse(postgres_url, timedelta(seconds=1), "a")
        first = await b.leases.take_over()
        assert len(first) == 3  # 5 rooms, 2 live nodes
        assert await b.leases.take_over() == []  # its share for this period is taken
        second = await c.leases.take_over()
        assert sorted(first + second) == sorted(room.config.code for room in rooms)

        assert len(await a.leases.renew()) == 5  # a is back, without its rooms
        await lapse(postgres_url, timedelta(seconds=1), "b")  # b dies with its 3 rooms
        await c.leases.renew()
        assert len(await c.leases.take_over()) == 1  # up to the average: 5 rooms on a and c
        assert await c.leases.take_over() == []
        await c.leases.renew()  # a period later a did not take the rest: c takes it
        assert len(await c.leases.take_over()) == 2


async def test_nodes_whose_clocks_disagree_tell_the_time_by_the_database_s(
    postgres_url: str,
) -> None:
    """What the nodes stamp and age together — quick play's tickets — is by ``RoomLeases.now``:
    two nodes, one an hour behind and one an hour ahead, tell the database's time from their
    start; a node whose clock then jumps is off until its next renewal, and right again after
    it — but for a renewal that took too long (it waited for a lock) to tell the time by.
    Without it each told its own."""
    engine = make_engine(postgres_url)
    skews = {"n1": timedelta(hours=-1), "n2": timedelta(hours=1)}
    slow = dict.fromkeys(skews, timedelta(0))  # how much later each reading of a clock is
    drift = dict.fromkeys(skews, timedelta(0))

    def clock(n: str) -> datetime:
        drift[n] += slow[n]
        return datetime.now(UTC) + skews[n] + drift[n]

    nodes = {n: RoomLeases(engine, n, 60, 600, clock=lambda n=n: clock(n)) for n in skews}

    async def off(n: str) -> timedelta:
        async with engine.connect() as connection:
            now = await connection.scalar(text("SELECT clock_timestamp()"))
        assert isinstance(now, datetime)
        return nodes[n].now() - now

    try:
        for leases in nodes.values():
            await leases.start()
        for n in nodes:
            assert abs(await off(n)) < timedelta(seconds=1)
        skews["n2"] += timedelta(minutes=5)  # its clock jumps
        assert await off("n2") > timedelta(minutes=4)
        assert await nodes["n2"].renew() == []
        assert abs(await off("n2")) < timedelta(seconds=1)
        skews["n1"] += timedelta(minutes=5)
        slow["n1"] = timedelta(seconds=1)  # the renewal's statement takes a second
        assert await nodes["n1"].renew() == []
        slow["n1"] = timedelta(0)
        assert await off("n1") > timedelta(minutes=4)  # that reading was not used
        assert await nodes["n1"].renew() == []
        assert abs(await off("n1")) < timedelta(seconds=1)
    finally:
        for leases in nodes.values():
            await leases.close()
        await engine.dispose()
