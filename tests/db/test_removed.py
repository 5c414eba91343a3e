"""Those the host removed stay out of the room after a restart or a take-over: the list is
stored with the room (``rooms.removed``) and read back with it, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.rooms.errors import RoomError
from tests.db.test_store import add_player, running


async def test_a_removed_player_stays_out_of_a_restored_room(database_url: str) -> None:
    for player in ("host", "guest", "other"):
        await add_player(database_url, player)
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=True, turn_seconds=0
        )
        await room.sit("guest", "Guest", 1)
        await room.sit("other", "Other", 2)
        await room.remove("host", 1)
        code = room.config.code
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        assert list(restored.removed) == ["guest"]
        assert restored.summary()["removed"] == [{"id": "guest", "name": "Guest"}]
        assert [s.player_id for s in restored.seats] == ["host", None, "other", None]
        with pytest.raises(RoomError) as error:
            await restored.sit("guest", "Guest", 3)
        assert error.value.code == "removed"
        await restored.remove("host", 2)  # the list grows from what was stored
    async with running(database_url) as (manager, _store):
        again = await manager.get(code)
        assert again is not None and list(again.removed) == ["guest", "other"]
        await again.readmit("host", "guest")  # and shrinks: the host let one back in
    async with running(database_url) as (manager, _store):
        last = await manager.get(code)
        assert last is not None and last.removed == {"other": "Other"}
        await last.sit("guest", "Guest", 3)
        assert last.seat_of("guest") == 3


async def test_a_list_stored_before_names_were_kept_is_read_as_ids(database_url: str) -> None:
    """Rooms stored before the names were kept hold bare ids: they still keep those players
    out, with no name to show the host."""
    for player in ("host", "guest"):
        await add_player(database_url, player)
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
        )
        code = room.config.code
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            await session.execute(
                update(m.Room).where(m.Room.code == code).values(removed=["guest"])
            )
    finally:
        await engine.dispose()
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None and restored.removed == {"guest": None}
        with pytest.raises(RoomError) as error:
            await restored.sit("guest", "Guest", 1)
        assert error.value.code == "removed"
