"""Load benchmark (not a test): N tables of 4 WebSocket clients playing random legal actions.

    python -m bench.load --tables 500 --seconds 30 --json

Starts ``python -m app`` on a fresh SQLite file (or ``DATABASE_URL``), seats four guests per
table, and lets every client act as soon as it is its turn (within the server's rate limit),
asking for a rematch when a match ends. Prints actions per second, the p50 / p99 time from a
client's ``act`` to its ``ack``, the server's peak resident memory and the errors seen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def peak_rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def seat_client(
    ws: ClientConnection, stats: Stats, stop: asyncio.Event, rng: random.Random
) -> None:
    """Play one seat: act on the newest deal frame when it offers something, measure to ack."""
    pending: tuple[str, float] | None = None
    latest: dict[str, Any] | None = None
    counter = 0
    asked = False
    await ws.send(json.dumps({"t": "hello", "id": "h", "d": {"token": ws.token}}))  # type: ignore[attr-defined]
    while not stop.is_set():
        frame = json.loads(await ws.recv())
        kind = frame["t"]
        if kind == "ack" and pending is not None and frame["d"]["id"] == pending[0]:
            stats.latencies.append(time.perf_counter() - pending[1])
            stats.actions += 1
            pending = None
        elif kind == "error":
            stats.error(frame["d"]["code"])
            if pending is not None and frame["d"]["id"] == pending[0]:
                pending = None
        elif kind == "room" and frame["d"]["status"] == "finished" and not asked:
            asked = True  # once per match: every vote is announced with the same status
            counter += 1
            await ws.send(json.dumps({"t": "rematch", "id": f"r{counter}", "d": {}}))
        if kind in ("deal", "action", "snapshot") and frame["d"].get("deal"):
            latest = frame
            asked = False
        if pending is None and latest is not None and latest["d"]["deal"]["legal"]:
            counter += 1
            command_id = f"a{counter}"
            action = rng.choice(latest["d"]["deal"]["legal"])
            pending = (command_id, time.perf_counter())
            await ws.send(json.dumps({"t": "act", "id": command_id, "v": latest["v"], "d": action}))
            latest = None


async def run(tables: int, seconds: float, base: str) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:

        async def table(i: int) -> list[tuple[str, str]]:
            guests = []
            for seat in range(4):
                guest = (await http.post("/api/players", json={"name": f"t{i}s{seat}"})).json()
                guests.append(guest)
            auth = [{"Authorization": f"Bearer {g['token']}"} for g in guests]
            room = (await http.post("/api/rooms", json={"turn_seconds": 0}, headers=auth[0])).json()
            code = room["room"]["code"]
            for seat in (1, 2, 3):
                await http.put(f"/api/rooms/{code}/seats/{seat}", headers=auth[seat])
            return [(code, g["token"]) for g in guests]

        seats = [s for t in await asyncio.gather(*(table(i) for i in range(tables))) for s in t]
        sockets = []
        for code, token in seats:
            ws = await connect(f"{ws_base}/ws/rooms/{code}", max_size=2**22)
            ws.token = token  # type: ignore[attr-defined]
            sockets.append(ws)
        rng = random.Random(1)
        tasks = [
            asyncio.create_task(seat_client(ws, stats, stop, random.Random(rng.random())))
            for ws in sockets
        ]
        starts = [seats[i] for i in range(0, len(seats), 4)]
        hosts = {code: token for code, token in starts}
        await asyncio.gather(
            *(
                http.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {t}"})
                for code, t in hosts.items()
            )
        )
        began = time.perf_counter()
        stats.latencies.clear()
        stats.actions = 0
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - began
        actions, latencies = stats.actions, sorted(stats.latencies)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for ws in sockets:
            await ws.close()

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2)

    return {
        "tables": tables,
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_sec": round(actions / elapsed, 1),
        "ack_ms_p50": pct(0.50),
        "ack_ms_p99": pct(0.99),
        "errors": stats.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DATABASE_URL": os.environ.get(
                "DATABASE_URL", f"sqlite+aiosqlite:///{scratch}/load.sqlite3"
            ),
            "BELOTE_PORT": str(port),
            "BELOTE_BOT_DELAY_SECONDS": "0",
            "BELOTE_LOG_LEVEL": "warning",
        }
        server = subprocess.Popen([sys.executable, "-m", "app"], env=env)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            result = asyncio.run(run(args.tables, args.seconds, base))
            result["server_peak_rss_mb"] = peak_rss_mb(server.pid)
            result["database"] = env["DATABASE_URL"].split(":", 1)[0]
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
