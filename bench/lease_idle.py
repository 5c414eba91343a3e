"""Lease upkeep benchmark (not a test): what an idle cluster node costs PostgreSQL.

    DATABASE_URL=postgresql+asyncpg://… python -m bench.lease_idle --rooms 1000 --seconds 10

One node (``RoomLeases``) holds ``--rooms`` rooms and does what its manager's lease loop does
every ``--renew`` seconds (renew, then look for rooms to take over), with no play at all. Prints
the statements it sent per second and the rows of the lease tables PostgreSQL wrote per second
(``pg_stat_user_tables``: inserted + updated + deleted, each a new row version and its WAL): the
steady-state price of ownership, which should not grow with the number of rooms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

import orjson
from sqlalchemy import event, text

from app.db.engine import make_engine
from app.db.migrate import upgrade
from app.db.ownership import RoomLeases

_WRITTEN = text(
    "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables "
    "WHERE relname LIKE '%leases'"
)


async def rows_written(engine: Any) -> int:
    """The lease tables' written rows so far (the statistics are flushed by each backend at the
    end of its transactions, at most once a second: read after a pause)."""
    async with engine.connect() as connection:
        await connection.execute(text("SELECT pg_stat_clear_snapshot()"))
        return int((await connection.execute(_WRITTEN)).scalar_one())


async def run(url: str, rooms: int, seconds: float, renew: float) -> dict[str, Any]:
    engine = make_engine(url)
    await upgrade(engine)
    async with engine.begin() as connection:
        await connection.execute(text("DELETE FROM room_leases"))
    leases = RoomLeases(engine, "bench", ttl_seconds=5, idle_seconds=600)
    await leases.start()
    codes = [f"bench{i:05d}" for i in range(rooms)]
    async with engine.begin() as connection:
        await connection.run_sync(lambda c: leases.fence(c, [], codes))
    leases.settled(codes, [])
    statements = 0

    def count(*_args: Any) -> None:
        nonlocal statements
        statements += 1

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    await asyncio.sleep(1.5)  # the set-up's statistics are flushed
    written_before = await rows_written(engine)
    statements = 0
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        await leases.renew()
        await leases.take_over()
        await asyncio.sleep(renew)
    elapsed = time.monotonic() - began
    sent = statements
    await asyncio.sleep(1.5)
    written = await rows_written(engine) - written_before
    async with engine.begin() as connection:
        await connection.execute(text("DELETE FROM room_leases"))
    await engine.dispose()
    return {
        "rooms": rooms,
        "seconds": round(elapsed, 1),
        "statements_per_second": round(sent / elapsed, 1),
        "rows_written_per_second": round(written / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--renew", type=float, default=1.0)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgresql"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (postgresql+asyncpg://…)")
    print(orjson.dumps(asyncio.run(run(url, args.rooms, args.seconds, args.renew))).decode())


if __name__ == "__main__":
    main()
