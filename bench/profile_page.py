"""What a player's profile (``GET /api/players/{id}``, ``Ratings.profile``) costs as their
history grows: a player with ``--matches`` finished matches over four presets, in a fresh
SQLite file; milliseconds per profile (median of several) and microseconds per match.

    python -m bench.profile_page --matches 100 --matches 10000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from typing import Any

from sqlalchemy import insert

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.ratings import Ratings

PRESETS = ("bulgarian", "french", "bulgarian3", "open_belot")


async def measure(matches: int, runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/profile.sqlite3"
        engine = make_engine(url)
        await upgrade(engine)
        sessions = make_sessionmaker(engine)
        async with sessions.begin() as session:
            session.add(m.Player(id="p", name="P", token_hash="x" * 16))
            await session.flush()
            room = {"preset": "bulgarian"}
            session.add(
                m.Room(
                    id=1,
                    code="R",
                    host_id="p",
                    rules=room,
                    target=None,
                    public=False,
                    turn_seconds=0,
                    status="finished",
                )
            )
            await session.flush()
            await session.execute(
                insert(m.Match),
                [
                    {
                        "id": f"m{i}",
                        "room_id": 1,
                        "target": 151,
                        "first_dealer": 0,
                        "rules": {"preset": PRESETS[i % 4], "house_rules": {}},
                        "finished": True,
                        "winner": i % 2,
                    }
                    for i in range(matches)
                ],
            )
            await session.execute(
                insert(m.MatchSeat),
                [{"match_id": f"m{i}", "seat": i % 2, "player_id": "p"} for i in range(matches)],
            )
        ratings = Ratings(sessions)
        took = []
        for _ in range(runs):
            start = time.perf_counter()
            profile = await ratings.profile("p")
            took.append(time.perf_counter() - start)
        await engine.dispose()
    assert profile is not None and profile["matches"] == matches
    median = statistics.median(took)
    return {
        "matches": matches,
        "profile_ms": round(median * 1000, 2),
        "us_per_match": round(median / max(matches, 1) * 1e6, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, action="append")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    results = [asyncio.run(measure(n, args.runs)) for n in args.matches or [100, 10_000]]
    print(json.dumps({"profile": results}, indent=2))


if __name__ == "__main__":
    main()
