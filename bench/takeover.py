"""Take-over benchmark (not a test): how long the rooms of a killed node are away.

    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test_bench \
    BELOTE_REDIS_URL=redis://127.0.0.1:6379/9 \
    python -m bench.takeover --rooms 500 --nodes 3 --json

Starts ``--nodes`` nodes on PostgreSQL and Redis (``bench.load.running_cluster``, no proxy: the
rooms are all created on the first node, so it owns them), opens ``--rooms`` rooms of four
random bots with a huge target and starts them; once every room has moved, kills the first node
with SIGKILL and reads the database every ``--poll`` seconds. For each room: when a live node
claimed it (its ``room_leases`` row names another node) and when it was playing again (its stored
version rose above the version it had at the kill: the new owner restored it and its bots moved).
Prints p50 / p99 / max of both, in seconds after the kill, and the rooms that never came back
within ``--timeout``. The lease is ``BELOTE_NODE_LEASE_SECONDS`` (5 s by default), so no room can
be claimed sooner than that; what comes after it is the take-over's own cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from typing import Any

import httpx
import orjson
from sqlalchemy import text

from app.db.engine import make_engine
from bench.load import running_cluster

_STATE = text(
    "SELECT r.code, r.version, coalesce(l.node, '') FROM rooms r "
    "LEFT JOIN room_leases l ON l.room_code = r.code"
)


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None, "max": None}
    ordered = sorted(values)
    return {
        "p50": round(ordered[len(ordered) // 2], 2),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "max": round(ordered[-1], 2),
    }


def open_rooms(base: str, rooms: int) -> list[str]:
    """``rooms`` rooms of four random bots on the node at ``base``, started."""
    with httpx.Client(base_url=base, timeout=30) as http:
        guest = http.post("/api/players", json={"name": "Watcher"}).json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        body = {"bots": [0, 1, 2, 3], "seat": None, "bot_level": "random", "target": 100_000}
        codes = []
        for _ in range(rooms):
            code = http.post("/api/rooms", json=body, headers=auth).json()["room"]["code"]
            started = http.post(f"/api/rooms/{code}/start", headers=auth)
            if started.status_code >= 400:
                raise SystemExit(f"could not start room {code}: {started.text}")
            codes.append(code)
        return codes


async def rows(engine: Any) -> dict[str, tuple[int, str]]:
    async with engine.connect() as connection:
        return {code: (version, node) for code, version, node in await connection.execute(_STATE)}


async def watch(
    url: str, codes: list[str], kill: Any, dead: str, poll: float, timeout: float
) -> dict[str, Any]:
    """Wait until every room moved, kill, then time each room's claim and resumption."""
    engine = make_engine(url)
    try:
        first = await rows(engine)
        while True:  # every room has been played a little: it is being played when killed
            await asyncio.sleep(poll)
            now = await rows(engine)
            if all(now[c][0] > first[c][0] for c in codes):
                break
        killed = time.monotonic()
        kill()
        await asyncio.sleep(0.5)  # a commit in flight at the kill has landed or never will
        at_kill = await rows(engine)
        claimed: dict[str, float] = {}
        resumed: dict[str, float] = {}
        while len(resumed) < len(codes) and time.monotonic() - killed < timeout:
            await asyncio.sleep(poll)
            now = await rows(engine)
            moment = time.monotonic() - killed
            for code in codes:
                version, node = now[code]
                if code not in claimed and node not in ("", dead):
                    claimed[code] = moment
                if code not in resumed and version > at_kill[code][0]:
                    resumed[code] = moment
        owners: dict[str, int] = {}
        for code in codes:
            owners[now[code][1]] = owners.get(now[code][1], 0) + 1
        return {
            "claimed_s": percentiles(list(claimed.values())),
            "resumed_s": percentiles(list(resumed.values())),
            "not_resumed": len(codes) - len(resumed),
            "owners_after": owners,
        }
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--bot-delay", type=float, default=2.0, help="seconds before a bot moves")
    parser.add_argument("--poll", type=float, default=0.1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgresql"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (postgresql+asyncpg://…)")
    settings = {"BELOTE_BOT_DELAY_SECONDS": str(args.bot_delay)}
    with running_cluster(args.nodes, proxy=False, settings=settings) as servers:
        began = time.monotonic()
        codes = open_rooms(servers.base, args.rooms)
        opened = time.monotonic() - began
        victim = servers.pids[0]
        survivors = " ".join(str(pid) for pid in servers.pids[1:])
        print(f"{len(codes)} rooms on n1 (pid {victim}); others {survivors}", file=sys.stderr)
        result = asyncio.run(
            watch(
                url,
                codes,
                lambda: os.kill(victim, signal.SIGKILL),
                "n1",
                args.poll,
                args.timeout,
            )
        )
    out = {
        "rooms": args.rooms,
        "nodes": args.nodes,
        "bot_delay_s": args.bot_delay,
        "opening_s": round(opened, 1),
        **result,
        "load_avg": os.getloadavg(),
    }
    if args.json:
        print(orjson.dumps(out).decode())
    else:
        for key, value in out.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
