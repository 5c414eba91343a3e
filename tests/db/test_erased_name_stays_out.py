"""An erased account's name is not written back by a room that still held it in memory (one
another node serves: ``RoomManager.forget_player`` reaches only the node that erased). The
list of those removed is the only thing such a room writes whole with names in it."""

from __future__ import annotations

from sqlalchemy import select

from app.db import models as m
from app.db.accounts import Accounts, LoginLimits
from app.db.engine import make_engine, make_sessionmaker
from tests.db.test_store import add_player, running


async def test_a_room_holding_an_erased_name_does_not_store_it_again(database_url: str) -> None:
    for player in ("host", "zora", "other"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with running(database_url) as (manager, _store):
            room = await manager.create(
                "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
            )
            await room.sit("zora", "Zora", 1)
            await room.remove("host", 1)
            await Accounts(sessions, LoginLimits()).erase("zora")  # as another node would
            assert room.removed == {"zora": "Zora"}  # this room was not told
            await room.sit("other", "Other", 2)
            await room.remove("host", 2)  # the whole list is written again
            code = room.config.code
        async with sessions() as session:
            stored = await session.scalar(select(m.Room.removed).where(m.Room.code == code))
        assert stored == [{"id": "zora", "name": None}, {"id": "other", "name": "Other"}]
    finally:
        await engine.dispose()
