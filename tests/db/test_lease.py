"""One server per database: the second lease waits for the first and gives up in time."""

from __future__ import annotations

import pytest

from app.db.engine import make_engine
from app.db.lease import LeaseTaken, make_lease


async def test_a_second_server_waits_for_the_first_and_then_gets_the_database(
    database_url: str,
) -> None:
    first_engine, second_engine = make_engine(database_url), make_engine(database_url)
    first, second = make_lease(first_engine), make_lease(second_engine)
    try:
        await first.acquire(0)
        with pytest.raises(LeaseTaken, match="Another server is using"):
            await second.acquire(0.5)
        await first.release()
        await second.acquire(0)  # free again
        with pytest.raises(LeaseTaken):
            await first.acquire(0)
        await second.release()
    finally:
        await first.release()
        await second.release()
        await first_engine.dispose()
        await second_engine.dispose()
