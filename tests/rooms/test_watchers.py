"""The table knows how many watch it (ROOM's ``watchers``): a private link passed on shows,
without telling who watches. Each player counts once whatever their tabs, each socket without a
player once; the count is told ``watchers_seconds`` after it changed, so that a stream of
sockets opened and closed costs one ROOM, not one each."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from app.rooms.manager import RoomManager
from app.rooms.room import RoomTimings
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_remove import waiting_room
from tests.rooms.test_room import GUEST, HOST


@pytest.fixture
async def told_at_once(store: MemoryStore) -> AsyncIterator[RoomManager]:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0, watchers_seconds=0))
    yield manager
    await manager.close()


@pytest.fixture
async def told_much_later(store: MemoryStore) -> AsyncIterator[RoomManager]:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0, watchers_seconds=3600))
    yield manager
    await manager.close()


def watching(count: int) -> Callable[[dict[str, Any]], bool]:
    """A ROOM saying that ``count`` watch."""
    return lambda f: f["t"] == "room" and f["d"]["watchers"] == count


async def test_the_table_is_told_how_many_watch(told_at_once: RoomManager) -> None:
    room = await waiting_room(told_at_once)
    host = Inbox(HOST)
    await room.connect(host, None)
    assert room.summary()["watchers"] == 0
    stranger, same_in_another_tab, nobody = Inbox("stranger"), Inbox("stranger"), Inbox(None)
    for watcher in (stranger, same_in_another_tab, nobody):
        await room.connect(watcher, None)
    await host.wait(watching(2))  # the stranger once, the socket without a player once
    guest = Inbox(GUEST)  # seated: a player, not a watcher
    await room.connect(guest, None)
    assert room.summary()["watchers"] == 2
    for watcher in (stranger, same_in_another_tab, nobody):
        await room.disconnect(watcher)
    await host.wait(watching(0))


async def test_a_stream_of_sockets_costs_nothing_until_the_count_is_told(
    told_much_later: RoomManager,
) -> None:
    room = await waiting_room(told_much_later)
    host = Inbox(HOST)
    await room.connect(host, None)
    version, frames = room.version, len(host.frames)
    for _ in range(50):
        watcher = Inbox(None)
        await room.connect(watcher, None)
        await room.disconnect(watcher)
    await room.connect(Inbox("stranger"), None)
    assert room.version == version and len(host.frames) == frames  # nothing stored, nothing sent
    assert room.summary()["watchers"] == 1  # what a ROOM would say now
    await room.sit("stranger", "Stranger", 1)  # the ROOM of the seat says it: 0 watch now
    assert host.frames[-1]["d"]["watchers"] == 0
