"""What a player's profile (``GET /api/players/{id}``, ``Ratings.profile``) costs as their
history grows: a player with ``--matches`` finished matches over four presets, in a fresh
SQLite file; milliseconds per profile (median of several) and microseconds per match. With
``--ranked N``, N more accounts are rated in French and so is the player, in the middle of
them: the profile then counts its rank on the board's index, and the French leaderboard's
first page is timed too.

    python -m bench.profile_page --matches 100 --matches 10000 [--ranked 100000]
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


async def measure(matches: int, runs: int, ranked: int = 0) -> dict[str, Any]:
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
            if ranked:
                await rank(session, ranked)
        ratings = Ratings(sessions)
        took, boards = [], []
        for _ in range(runs):
            start = time.perf_counter()
            profile = await ratings.profile("p")
            took.append(time.perf_counter() - start)
            if ranked:
                start = time.perf_counter()
                await ratings.leaderboard("french")
                boards.append(time.perf_counter() - start)
        await engine.dispose()
    assert profile is not None and profile["matches"] == matches
    median = statistics.median(took)
    out = {
        "matches": matches,
        "profile_ms": round(median * 1000, 2),
        "us_per_match": round(median / max(matches, 1) * 1e6, 2),
    }
    if ranked:
        (french,) = profile["ratings"]
        assert (french["rank"], french["ranked"]) == (ranked // 2 + 1, ranked + 1), french
        out |= {"ranked": ranked, "leaderboard_ms": round(statistics.median(boards) * 1000, 2)}
    return out


async def rank(session: Any, ranked: int) -> None:
    """``ranked`` accounts rated in French at evenly spaced ratings, and the player, an account
    too, in their middle."""
    ids = [f"r{i}" for i in range(ranked)]
    await session.execute(
        insert(m.Player), [{"id": i, "name": i, "token_hash": i.ljust(16, "x")} for i in ids]
    )
    await session.execute(
        insert(m.Account),
        [
            {"player_id": i, "username": i, "username_key": i, "password_hash": "-"}
            for i in [*ids, "p"]
        ],
    )
    spread = [{"player_id": i, "mu": 100.0 - n * 50 / ranked} for n, i in enumerate(ids)]
    middle = {"player_id": "p", "mu": 100.0 - (ranked // 2 - 0.5) * 50 / ranked}
    await session.execute(
        insert(m.Rating),
        [{**row, "preset": "french", "sigma": 5.0} for row in [*spread, middle]],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, action="append")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--ranked", type=int, default=0, help="other accounts rated in French")
    args = parser.parse_args()
    results = [
        asyncio.run(measure(n, args.runs, args.ranked)) for n in args.matches or [100, 10_000]
    ]
    print(json.dumps({"profile": results}, indent=2))


if __name__ == "__main__":
    main()
