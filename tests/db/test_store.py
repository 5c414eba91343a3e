"""The SQL store: commits are durable, and a room comes back from them exactly where it was."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.store import SqlStore
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ChatPosted
from app.rooms.room import PLAYING, Room, RoomTimings
from app.rules import PRESETS, Ruleset, view
from tests.rooms.fakes import Inbox


@asynccontextmanager
async def running(url: str) -> AsyncIterator[tuple[RoomManager, SqlStore]]:
    """A store and a room manager on ``url``: one server's life."""
    engine = make_engine(url)
    store = SqlStore(engine)
    store.start()
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0))
    try:
        yield manager, store
    finally:
        await manager.close()
        await store.close()
        await engine.dispose()


async def add_player(url: str, player_id: str) -> None:
    engine = make_engine(url)
    async with make_sessionmaker(engine).begin() as session:
        session.add(m.Player(id=player_id, name=player_id, token_hash=player_id * 4))
    await engine.dispose()


async def host_and_bots(
    manager: RoomManager, preset: str, *, target: int | None, public: bool
) -> Room:
    """A room of the host and random bots in the preset's other seats, not begun."""
    return await manager.create(
        "host",
        "Host",
        {"preset": preset},
        target=target,
        public=public,
        turn_seconds=0,
        bot_level="random",
        bots=tuple(range(1, Ruleset.of(preset).seats)),
    )


async def host_and_bots_mid_deal(
    manager: RoomManager, preset: str = "bulgarian"
) -> tuple[Room, Inbox]:
    """A room of the host and random bots in the preset's other seats, a few tricks into its
    first deal, with the host to act (so that nothing moves until the host does: there is no
    turn timer)."""
    room = await host_and_bots(manager, preset, target=None, public=True)
    inbox = Inbox("host")
    await room.connect(inbox, None)
    await room.say("host", "Host", None, "hello")
    await room.begin("host", fill_with_bots=False)

    async def host_to_act() -> dict[str, Any]:
        return await inbox.wait(
            lambda f: (
                bool(f.get("d", {}).get("deal") and f["d"]["deal"]["legal"])
                and f["v"] == room.game_version
            )
        )

    # Play as the host until a few tricks are down (the bots answer at once).
    while room.match is None or room.match.deal is None or len(room.match.deal.tricks) < 3:
        frame = await host_to_act()
        await room.act("host", None, room.version, frame["d"]["deal"]["legal"][-1])
    await host_to_act()
    return room, inbox


async def host_and_bots_finished(
    manager: RoomManager,
    preset: str = "bulgarian",
    *,
    target: int = 1,
    choose: Callable[[list[Any]], Any] = lambda legal: legal[0],
) -> Room:
    """A room of the host and random bots in the preset's other seats, whose match to
    ``target`` points (1: the first deal that is not void) the host played to its end,
    ``choose`` picking each move among the legal ones (the first by default)."""
    room = await host_and_bots(manager, preset, target=target, public=False)
    inbox = Inbox("host")
    await room.connect(inbox, None)
    await room.begin("host", fill_with_bots=False)

    def over_or_mine(frame: dict[str, Any]) -> bool:
        over = frame["t"] == "room" and frame["d"]["status"] == "finished"
        deal = frame.get("d", {}).get("deal")
        return over or (bool(deal and deal["legal"]) and frame["v"] == room.game_version)

    while (frame := await inbox.wait(over_or_mine))["t"] != "room":
        await room.act("host", None, room.version, choose(frame["d"]["deal"]["legal"]))
    return room


def where(room: Room) -> tuple[object, ...]:
    """Everything that says where a room's game stands."""
    assert room.match is not None and room.match.deal is not None
    return (room.version, room.match.match_id, room.match.number, room.match.deal.actions)


@pytest.mark.parametrize("preset", PRESETS)
async def test_a_room_is_restored_at_the_same_card(database_url: str, preset: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, _inbox = await host_and_bots_mid_deal(manager, preset)
        before = where(room)
        assert room.match is not None and room.match.deal is not None
        seen = view(room.match.deal, 0).to_dict()
        code = room.config.code

    async with running(database_url) as (manager, store):
        assert code in await store.active_room_codes()
        assert await manager.restore_all() == 1
        again = await manager.get(code)
        assert again is not None and again.status == PLAYING
        assert where(again) == before
        assert again.match is not None and again.match.deal is not None
        assert view(again.match.deal, 0).to_dict() == seen
        assert [c["text"] for c in again.chat] == ["hello"]
        assert again.seats[0].player_id == "host" and all(s.bot for s in again.seats[1:])
        assert again.config.bot_level == "random"
        # ... and play goes on from there.
        inbox = Inbox("host")
        await again.connect(inbox, before[0])
        frame = await inbox.wait(lambda f: f["t"] == "room")
        assert frame["v"] == before[0] + 1  # gapless across the restart


@pytest.mark.parametrize("preset", PRESETS)
async def test_an_idle_room_is_put_away_and_loaded_again_at_the_same_card(
    database_url: str, preset: str
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, inbox = await host_and_bots_mid_deal(manager, preset)
        code = room.config.code
        much_later = time.monotonic() + 3600
        assert await manager.evict_idle(much_later) == []  # the host is watching
        await room.disconnect(inbox)
        before = where(room)
        assert await manager.evict_idle(time.monotonic() + 1) == []  # not idle for long enough
        assert code in manager
        assert await manager.evict_idle(much_later) == [code]
        assert code not in manager
        with pytest.raises(RoomError) as closed:
            await room.say("host", "Host", None, "anyone?")
        assert closed.value.code == "room_closed"

        again = await manager.get(code)
        assert again is not None and again is not room and code in manager
        assert again.status == PLAYING and where(again) == before
        inbox = Inbox("host")
        await again.connect(inbox, before[0])  # missed nothing: the next event, no gap
        assert [(f["t"], f["v"]) for f in inbox.frames] == [("room", before[0] + 1)]
        assert again.match is not None and again.match.deal is not None
        legal = view(again.match.deal, 0).to_dict()["legal"]
        if legal:  # and play goes on
            await again.act("host", None, again.version, legal[0])
            assert again.match.deal is None or len(again.match.deal.actions) == len(before[3]) + 1


async def test_a_start_restores_played_and_recent_rooms_and_leaves_old_waiting_ones(
    database_url: str,
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        played, _inbox = await host_and_bots_mid_deal(manager)
        rooms = [
            await manager.create(
                "host", "Host", {"preset": "french"}, target=None, public=True, turn_seconds=0
            )
            for _ in range(2)
        ]
    old, recent = (room.config.code for room in rooms)
    engine = make_engine(database_url)
    async with engine.begin() as connection:  # nobody has touched these two for two days
        long_ago = datetime.now(UTC) - timedelta(days=2)
        await connection.execute(
            update(m.Room)
            .where(m.Room.code.in_([old, played.config.code]))
            .values(updated_at=long_ago)
        )
    await engine.dispose()

    async with running(database_url) as (manager, _store):
        assert await manager.restore_all() == 2
        assert played.config.code in manager and recent in manager and old not in manager
        again = await manager.get(old)  # still there for whoever opens its link
        assert again is not None and again.status == "waiting" and old in manager


async def test_group_commit_writes_every_room_s_batch(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        rooms = await asyncio.gather(
            *(
                manager.create(
                    "host",
                    "Host",
                    {"preset": "french"},
                    target=None,
                    public=False,
                    turn_seconds=0,
                    bots=(1, 2, 3),
                )
                for _ in range(20)
            )
        )
        await asyncio.gather(*(room.say("host", "Host", None, room.config.code) for room in rooms))
    engine = make_engine(database_url)
    async with make_sessionmaker(engine)() as session:
        assert await session.scalar(select(func.count()).select_from(m.Room)) == 20
        chats = set(await session.scalars(select(m.ChatMessage.text)))
        versions = set(await session.scalars(select(m.Room.version)))
    await engine.dispose()
    assert chats == {room.config.code for room in rooms}
    assert versions == {1}


async def test_a_bad_batch_does_not_fail_the_others_of_its_group(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, store):
        rooms = [
            await manager.create(
                "host",
                "Host",
                {"preset": "french"},
                target=None,
                public=False,
                turn_seconds=0,
                bots=(1, 2, 3),
            )
            for _ in range(3)
        ]
        codes = [room.config.code for room in rooms]
        good = [ChatPosted(None, "host", "Host", "kept", 0.0)]
        orphan = [ChatPosted(None, "nobody", "Nobody", "lost", 0.0)]  # no such player: FK
        # Queued together, the three batches land in one group and its bulk insert fails.
        results = await asyncio.gather(
            store.commit(codes[0], 5, good),
            store.commit(codes[1], 5, orphan),
            store.commit(codes[2], 5, good),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Exception)
    engine = make_engine(database_url)
    async with make_sessionmaker(engine)() as session:
        chats = list(await session.scalars(select(m.ChatMessage.text)))
        rows = await session.execute(select(m.Room.code, m.Room.version))
        versions = {code: version for code, version in rows}
    await engine.dispose()
    assert chats == ["kept", "kept"]
    assert versions == {codes[0]: 5, codes[1]: 0, codes[2]: 5}
