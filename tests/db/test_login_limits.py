"""Failed logins are counted atomically for the whole cluster (PostgreSQL): guesses sent in
parallel, to two nodes, get no more tries than the cap.

The count used to be checked first and raised after the password hash (tens of milliseconds by
design), so every guess that overlapped another passed the check: ten parallel guesses were ten
guesses whatever the cap. Now each try is counted before the hash, in one locked upsert.
"""

from __future__ import annotations

import asyncio

import pytest

from app.db.accounts import Accounts, LoginLimits
from app.db.engine import make_engine, make_sessionmaker
from app.rooms.errors import RoomError


async def test_parallel_guesses_on_two_nodes_get_no_more_tries_than_the_cap(
    postgres_url: str,
) -> None:
    engines = [make_engine(postgres_url) for _ in range(2)]
    limits = LoginLimits(per_account=3, per_address=100, window_seconds=600)
    nodes = [Accounts(make_sessionmaker(engine), limits) for engine in engines]
    try:

        async def guess(i: int) -> str:
            with pytest.raises(RoomError) as refused:
                await nodes[i % 2].login("victim", f"guess {i}", f"10.0.0.{i}", "test")
            return refused.value.code

        codes = await asyncio.gather(*(guess(i) for i in range(10)))
        assert sorted(codes) == ["bad_login"] * 3 + ["login_limited"] * 7
    finally:
        for engine in engines:
            await engine.dispose()
