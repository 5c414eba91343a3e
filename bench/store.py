"""Store benchmark (not a test): the CPU the group-commit writer spends per stored action.

    python -m bench.store --rooms 12 --seconds 5
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test_x python -m bench.store

Without ``DATABASE_URL``: a fresh SQLite file. A PostgreSQL ``DATABASE_URL`` is scratch space
(its ``public`` schema is made anew, so the name must contain "bench" or "test"), and the store
writes behind a cluster node's fence (``RoomLeases``), as a node of ``bench.load`` does.

``--rooms`` rooms are created, each starts a match and a deal, then each commits one action per
batch as soon as the last was stored (and every ``--deal-actions`` actions finishes the deal and
starts the next, as a room does), so that a group holds about as many batches as there are rooms
(``bench.load`` at 100 tables saw about 12). Prints the process's CPU time (all its threads: the
event loop and SQLite's writer thread) per action, the batches per group, and actions per second.
Only the store runs here: no rooms, no rules, no sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.ownership import RoomLeases
from app.db.store import SqlStore
from app.rooms.ports import (
    ActionTaken,
    DealFinished,
    DealStarted,
    MatchProgress,
    MatchStarted,
    Op,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    ShuffleCommitted,
    StatusChanged,
)

DECK = tuple(f"{r}{s}" for s in "SHDC" for r in "789TJQKA")


async def prepare(url: str) -> None:
    """A migrated, empty database with the player every room is hosted by."""
    from sqlalchemy import text

    engine = make_engine(url)
    try:
        if url.startswith("postgresql"):
            async with engine.begin() as connection:
                await connection.execute(text("DROP SCHEMA public CASCADE"))
                await connection.execute(text("CREATE SCHEMA public"))
        await upgrade(engine)
        async with make_sessionmaker(engine).begin() as session:
            session.add(m.Player(id="host", name="Host", token_hash="h" * 64))
            for i in range(4):
                session.add(m.Player(id=f"p{i}", name=f"P{i}", token_hash=f"{i}" * 64))
    finally:
        await engine.dispose()


def deal(match_id: str, number: int) -> DealStarted:
    return DealStarted(match_id, number, number % 4, secrets.token_hex(32), 16, DECK, 0)


def busy(seconds: float) -> None:
    """Hold the event loop (and the GIL) like a room working out its action and its frames."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def play(
    store: SqlStore, code: str, deal_actions: int, work: float, until: list[float]
) -> None:
    """One room: create it, start a match, then store actions until ``until[0]``."""
    seats = tuple(SeatRecord(f"p{i}", f"P{i}", i > 0) for i in range(4))
    config = RoomConfig(code, "host", {"preset": "bulgarian"}, 151, True, 0)
    match_id = f"m{code}"
    version = 1
    await store.commit(code, version, [RoomCreated(config, seats)])
    start: list[Op] = [
        StatusChanged("playing"),
        MatchStarted(match_id, {"preset": "bulgarian"}, 151, 0, seats),
        deal(match_id, 1),
    ]
    version += 1
    await store.commit(code, version, start)
    number, seq = 1, 0
    while time.perf_counter() < until[0]:
        busy(work)
        action = {"play": DECK[seq % 32], "seat": seq % 4}
        ops: list[Op] = [ActionTaken(match_id, number, seq, action, seq % 7 == 0)]
        seq += 1
        if seq == deal_actions:
            ops += [
                DealFinished(match_id, number, "hearts", {"points": [80, 82]}),
                MatchProgress(match_id, {"deals": [[8, 8]] * number}, False, None),
                ShuffleCommitted(secrets.token_hex(32)),
                deal(match_id, number + 1),
            ]
            number, seq = number + 1, 0
        version += 1
        await store.commit(code, version, ops)


async def run(
    url: str, rooms: int, seconds: float, warmup: float, deal_actions: int, work: float
) -> dict[str, Any]:
    await prepare(url)
    engine = make_engine(url)
    leases = None
    if url.startswith("postgresql"):
        leases = RoomLeases(engine, "n1", ttl_seconds=60, idle_seconds=600)
        await leases.start()
    store = SqlStore(engine, fence=leases)
    store.start()
    until = [time.perf_counter() + 3600]
    codes = [f"R{i:04d}" for i in range(rooms)]
    tasks = [asyncio.create_task(play(store, c, deal_actions, work, until)) for c in codes]
    await asyncio.sleep(warmup)
    stats = store.stats
    groups, batches = stats.groups, stats.batches
    cpu, wall = time.process_time(), time.perf_counter()
    until[0] = wall + seconds
    await asyncio.gather(*tasks)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    groups, batches = stats.groups - groups, stats.batches - batches
    actions = batches  # after the warm-up every batch holds one action
    await store.close()
    if leases is not None:
        await leases.close()
    await engine.dispose()
    return {
        "database": engine.url.get_backend_name(),
        "rooms": rooms,
        "seconds": round(wall, 2),
        "actions": actions,
        "actions_per_sec": round(actions / wall, 1),
        "batches_per_group": round(batches / groups, 2),
        "room_work_us": round(1e6 * work, 1),
        "cpu_us_per_action": round(1e6 * cpu / actions, 1),
        "store_cpu_us_per_action": round(1e6 * cpu / actions - 1e6 * work, 1),
        "failed_batches": stats.failed_batches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--deal-actions", type=int, default=20, help="actions per deal")
    parser.add_argument(
        "--room-work-us",
        type=float,
        default=0.0,
        help="CPU each room spends on the event loop before each action (the rest of a server)",
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    with tempfile.TemporaryDirectory() as folder:
        if url is None:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        elif "bench" not in url.rsplit("/", 1)[-1] and "test" not in url.rsplit("/", 1)[-1]:
            raise SystemExit("bench.store wipes the database: use one named *bench* or *test*")
        result = asyncio.run(
            run(
                url,
                args.rooms,
                args.seconds,
                args.warmup,
                args.deal_actions,
                args.room_work_us / 1e6,
            )
        )
    print(orjson.dumps(result).decode())


if __name__ == "__main__":
    main()
