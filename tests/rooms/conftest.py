"""The room tests' in-memory ports: a store, and a manager of rooms whose bots, and last cards,
move at once."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.rooms.manager import RoomManager
from app.rooms.room import RoomTimings
from tests.rooms.fakes import MemoryStore


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
async def manager(store: MemoryStore) -> AsyncIterator[RoomManager]:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0, last_card_seconds=0))
    yield manager
    await manager.close()
