"""The group-commit writer when the database fails (issue 9): an outage fails the waiting rooms
at once, and a commit whose outcome is unknown is settled before any room is told."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from sqlalchemy import Connection, select
from sqlalchemy.exc import OperationalError

from app.db import models as m
from app.db.engine import Transactions, make_engine, make_sessionmaker
from app.rooms.ports import ChatPosted
from tests.db.test_store import add_player, running

T = TypeVar("T")


def locked() -> OperationalError:
    return OperationalError("UPDATE rooms SET version=?", {}, Exception("database is locked"))


class Faulty:
    """Wraps the store's ``Transactions``: counts them, and fails the next ``failing`` ones as
    asked: ``before`` (nothing written), ``after_commit`` (written, but the answer was lost) or
    ``at_commit`` (every write sent, then the transaction failed and rolled back)."""

    def __init__(self, inner: Transactions) -> None:
        self.inner = inner
        self.runs = 0
        self.failing = 0
        self.how = "before"

    async def run(self, work: Callable[[Connection], T]) -> T:
        return await self._run(self.inner.run, work)

    async def run_single(self, work: Callable[[Connection], T]) -> T:
        return await self._run(self.inner.run_single, work)

    async def _run(
        self,
        run: Callable[[Callable[[Connection], T]], Awaitable[T]],
        work: Callable[[Connection], T],
    ) -> T:
        self.runs += 1
        if self.failing == 0:
            return await run(work)
        self.failing -= 1
        if self.how == "before":
            raise locked()
        if self.how == "after_commit":
            await run(work)
            raise locked()

        def then_fail(connection: Connection) -> T:
            work(connection)
            raise locked()

        return await run(then_fail)

    async def close(self) -> None:
        await self.inner.close()


async def stored(url: str) -> tuple[list[str], dict[str, int]]:
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as session:
        chats = list(await session.scalars(select(m.ChatMessage.text)))
        rows = await session.execute(select(m.Room.code, m.Room.version))
        versions = {code: version for code, version in rows}
    await engine.dispose()
    return chats, versions


async def some_rooms(manager: Any, count: int) -> list[str]:
    rooms = [
        await manager.create(
            "host", "Host", {"preset": "french"}, target=None, public=False, turn_seconds=0
        )
        for _ in range(count)
    ]
    return [room.config.code for room in rooms]


def chat(text: str) -> list[Any]:
    return [ChatPosted(None, "host", "Host", text, 0.0)]


async def test_an_outage_fails_the_whole_group_at_once(database_url: str) -> None:
    """A locked or unreachable database fails every batch alike: trying them one by one would
    only wait out the lock once per room (SQLite: the busy timeout each time)."""
    await add_player(database_url, "host")
    async with running(database_url) as (manager, store):
        codes = await some_rooms(manager, 3)
        faulty = Faulty(store._transactions)
        store._transactions = faulty
        faulty.failing = 10
        results = await asyncio.gather(
            *(store.commit(code, 1, chat(code)) for code in codes), return_exceptions=True
        )
        assert all(isinstance(r, OperationalError) for r in results)
        assert faulty.runs == 1
        assert store.stats.failed_batches == 3
        faulty.failing = 0
        await asyncio.gather(*(store.commit(code, 1, chat(code)) for code in codes))
    chats, versions = await stored(database_url)
    assert sorted(chats) == sorted(codes)
    assert set(versions.values()) == {1}


@pytest.mark.parametrize("how", ["after_commit", "at_commit"])
async def test_a_commit_whose_outcome_was_unknown_is_settled_before_the_room_is_told(
    database_url: str, how: str
) -> None:
    """A connection lost during COMMIT: stored or not, the room hears the truth, so that it
    neither retries what is stored (a line twice) nor takes for stored what is not."""
    await add_player(database_url, "host")
    async with running(database_url) as (manager, store):
        (code,) = await some_rooms(manager, 1)
        faulty = Faulty(store._transactions)
        store._transactions = faulty
        faulty.failing, faulty.how = 1, how
        if how == "after_commit":
            await store.commit(code, 1, chat("once"))
        else:
            with pytest.raises(OperationalError):
                await store.commit(code, 1, chat("never"))
    chats, versions = await stored(database_url)
    if how == "after_commit":
        assert (chats, versions) == (["once"], {code: 1})
    else:
        assert (chats, versions) == ([], {code: 0})
