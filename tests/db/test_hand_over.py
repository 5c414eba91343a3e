"""The host a room was handed over to hosts it after a restart or a take-over: the room's
``host_id`` is stored (``HostChanged``), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from app.rooms.errors import RoomError
from tests.db.test_store import add_player, running


async def test_a_handed_over_room_keeps_its_new_host(database_url: str) -> None:
    for player in ("host", "guest"):
        await add_player(database_url, player)
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
        )
        await room.sit("guest", "Guest", 2)
        await room.hand_over("host", 2)
        code = room.config.code
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        assert restored.config.host_id == "guest" and restored.summary()["host"] == "guest"
        with pytest.raises(RoomError) as error:
            await restored.configure("host", {"target": 501})
        assert error.value.code == "not_host"
        await restored.configure("guest", {"target": 501})
