"""Bot rooms benchmark (not a test): does a server full of bots stay responsive?

    python -m bench.bot_rooms --level strong --rooms 20 --seconds 15 --json

Starts ``python -m app`` (``bench.load.running_server``), opens ``--rooms`` rooms of four bots of
``--level`` with a watching host and a huge target, starts them, and while they play (the
default bot delay, 0.6 s a move) times ``GET /healthz`` every 20 ms. Prints its p50 / p99 / max
in ms and the room batches the store committed: the first say how long anyone else waits while
bots think, the second how far the bots got. Strong bots think in worker processes
(``app/rooms/thinking.py``); in threads of the server they held its GIL.
"""

from __future__ import annotations

import argparse
import time

import httpx
import orjson

from bench.load import running_server


def metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise SystemExit(f"{name} is not in /metrics")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="strong", choices=["random", "basic", "strong"])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with (
        running_server({}) as (_server, base, database),
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        guest = http.post("/api/players", json={"name": "Watcher"}).json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        room = {"bots": [0, 1, 2, 3], "seat": None, "bot_level": args.level, "target": 100_000}
        for _ in range(args.rooms):
            code = http.post("/api/rooms", json=room, headers=auth).json()["room"]["code"]
            http.post(f"/api/rooms/{code}/start", headers=auth)
        time.sleep(3)  # let the first moves start
        before = metric(http.get("/metrics").text, "belote_store_batches_total")
        latencies: list[float] = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            began = time.perf_counter()
            http.get("/healthz")
            latencies.append((time.perf_counter() - began) * 1000)
            time.sleep(0.02)
        batches = metric(http.get("/metrics").text, "belote_store_batches_total") - before
    latencies.sort()
    result = {
        "level": args.level,
        "rooms": args.rooms,
        "seconds": args.seconds,
        "healthz_ms_p50": round(latencies[len(latencies) // 2], 2),
        "healthz_ms_p99": round(latencies[int(len(latencies) * 0.99)], 2),
        "healthz_ms_max": round(latencies[-1], 2),
        "batches_per_sec": round(batches / args.seconds, 1),
        "database": database,
    }
    if args.json:
        print(orjson.dumps(result).decode())
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value}")


if __name__ == "__main__":
    main()
