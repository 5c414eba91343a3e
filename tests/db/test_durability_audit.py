"""Durability checks at the database level: a commit whose outcome is unknown is settled by what
was stored, also when it does not raise the room's version (a room's own seed for its next deal,
``_commit_next_seed``, is stored with no event); and what a restored room rebuilds, including
which chat commands it already applied."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.rooms.errors import RoomError
from app.rooms.ports import ShuffleCommitted
from tests.db.test_store import add_player, running
from tests.db.test_store_faults import Faulty, some_rooms
from tests.rooms.fakes import Inbox


async def next_seed(url: str, code: str) -> str | None:
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as session:
        seed = await session.scalar(select(m.Room.next_seed).where(m.Room.code == code))
    await engine.dispose()
    return seed


@pytest.mark.parametrize("how", ["after_commit", "at_commit"])
async def test_a_seed_whose_commit_outcome_was_unknown_is_settled_by_the_seed(
    database_url: str, how: str
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, store):
        (code,) = await some_rooms(manager, 1)
        before = await next_seed(database_url, code)
        faulty = Faulty(store._transactions)
        store._transactions = faulty
        faulty.failing, faulty.how = 1, how
        if how == "after_commit":
            await store.commit(code, 0, [ShuffleCommitted("a" * 64)])
        else:  # rolled back: the room must not be told its seed is stored (it would show it)
            with pytest.raises(OperationalError):
                await store.commit(code, 0, [ShuffleCommitted("a" * 64)])
    assert await next_seed(database_url, code) == ("a" * 64 if how == "after_commit" else before)


async def test_a_stand_in_is_still_there_after_a_restart(database_url: str) -> None:
    """Stand-ins were not stored: a restored room gave a player who left the match a new grace
    period, and the seat's turn waited for it instead of the stand-in playing at once. Stored
    now, and cleared again when the player is back."""
    await add_player(database_url, "host")
    await add_player(database_url, "guest")
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host",
            "Host",
            {"preset": "bulgarian"},
            target=None,
            public=False,
            turn_seconds=0,
            bots=(1, 3),
        )
        await room.sit("guest", "Guest", 2)
        await room.connect(Inbox("host"), None)
        await room.connect(Inbox("guest"), None)
        await room.begin("host", fill_with_bots=False)
        await room.leave("guest")  # during a match: a stand-in plays seat 2 at once
        assert room.summary()["seats"][2]["standin"]
        code = room.config.code
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        assert restored.summary()["seats"][2]["standin"]
        await restored.connect(Inbox("guest"), None)  # back: the seat is the player's again
        assert not restored.summary()["seats"][2]["standin"]
    async with running(database_url) as (manager, _store):
        again = await manager.get(code)
        assert again is not None
        assert [s["standin"] for s in again.summary()["seats"]] == [False] * 4


async def test_a_chat_line_sent_again_after_a_restart_is_a_duplicate(database_url: str) -> None:
    """The room remembered the ids of the commands it applied in memory only: a line sent
    again with its id after a restart or a take-over (its ack lost with the old node) was
    stored and shown twice. The ids of the lines it keeps are stored with them now."""
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
        )
        await room.say("host", "Host", "c1", "hello")
        await room.say("host", "Host", 7, "seven")
        code = room.config.code
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        for command_id, text in (("c1", "hello"), (7, "seven")):
            with pytest.raises(RoomError) as refused:
                await restored.say("host", "Host", command_id, text)
            assert refused.value.code == "duplicate"
        await restored.say("host", "Host", "7", "a string id is another id")
        assert [line["text"] for line in restored.chat] == [
            "hello",
            "seven",
            "a string id is another id",
        ]
