"""Tournament upkeep benchmark (not a test): what the tournaments being played cost a node.

    python -m bench.tournaments --tournaments 50 --entrants 16 --passes 20
    DATABASE_URL=postgresql+asyncpg://… python -m bench.tournaments …

One node (``Director`` over ``SqlTournaments`` and a ``RoomManager``) holds ``--tournaments``
knockouts of Belot for two, each started with ``--entrants`` entrants, so each has its first
round's tables open and being played. Then it runs ``--passes`` of what the node does every
``BELOTE_TOURNAMENT_SWEEP_SECONDS`` and at every match-end poke (``Director.sweep``), with no
table's match over: nothing to do, which is the usual state. Prints per pass the SQL statements
sent and the CPU and wall time; and what the end of a match that was no tournament's table costs
(``Director.after_match``) and
a player's "where is my match" (``tables_of``, asked by every page every 15 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from typing import Any

import orjson
from sqlalchemy import delete, event

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.store import SqlStore
from app.db.tournaments import SqlTournaments
from app.rooms.manager import RoomManager
from app.rooms.ports import Player
from app.rooms.room import RoomTimings
from app.rooms.tournaments import Director, Game


async def run(url: str, tournaments: int, entrants: int, passes: int) -> dict[str, Any]:
    engine = make_engine(url)
    await upgrade(engine)
    sessions = make_sessionmaker(engine)
    store = SqlStore(engine)
    store.start()
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=3600))
    book = SqlTournaments(sessions)
    director = Director(book, manager, turn_seconds=600, sweep_seconds=3600)
    prefix = f"b{time.monotonic_ns() % 10**9}"
    players = [Player(f"{prefix}p{i}", f"P{i}") for i in range(tournaments * entrants)]
    async with sessions.begin() as session:
        for p in players:
            session.add(m.Player(id=p.id, name=p.name, token_hash=p.id))
    made_ids: list[str] = []
    began = time.monotonic()
    for t in range(tournaments):
        field = players[t * entrants : (t + 1) * entrants]
        made = await director.create(field[0], f"Cup {t}", Game("bulgarian2"), entrants)
        for p in field[1:]:
            await director.enter(made.id, p)
        await director.start(made.id, field[0].id)
        made_ids.append(made.id)
    set_up = time.monotonic() - began
    statements = 0

    def count(*_args: Any) -> None:
        nonlocal statements
        statements += 1

    event.listen(engine.sync_engine, "before_cursor_execute", count)

    async def timed(work: Any) -> tuple[int, float, float]:
        nonlocal statements
        statements = 0
        cpu, wall = time.process_time(), time.perf_counter()
        await work()
        return statements, time.process_time() - cpu, time.perf_counter() - wall

    sweeps = [await timed(director.sweep) for _ in range(passes)]
    asker = players[1]
    asks = [await timed(lambda: book.tables_of(asker.id)) for _ in range(passes)]
    # A match that was no tournament's table (most are) ends on the node.
    ends = [await timed(lambda: director.after_match("0" * 32)) for _ in range(passes)]
    await director.close()
    await manager.close()
    async with sessions.begin() as session:  # a shared database's next run counts its own
        await session.execute(delete(m.Tournament).where(m.Tournament.id.in_(made_ids)))
    await store.close()
    await engine.dispose()

    def summary(runs: list[tuple[int, float, float]]) -> dict[str, float]:
        return {
            "statements": statistics.median(r[0] for r in runs),
            "cpu_ms": round(statistics.median(r[1] for r in runs) * 1000, 2),
            "wall_ms": round(statistics.median(r[2] for r in runs) * 1000, 2),
        }

    return {
        "database": url.split(":", 1)[0],
        "tournaments": tournaments,
        "entrants": entrants,
        "tables_open": tournaments * entrants // 2,
        "set_up_seconds": round(set_up, 1),
        "sweep": summary(sweeps),
        "match_end": summary(ends),
        "tables_of": summary(asks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--passes", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = os.environ.get("DATABASE_URL") or f"sqlite+aiosqlite:///{folder}/bench.db"
        result = asyncio.run(run(url, args.tournaments, args.entrants, args.passes))
    print(orjson.dumps(result).decode())


if __name__ == "__main__":
    main()
