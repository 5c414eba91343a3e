"""Load benchmark (not a test): N tables of 4 WebSocket clients playing random legal actions.

    python -m bench.load --tables 500 --seconds 30 --json

Starts ``python -m app`` on a fresh SQLite file (or ``DATABASE_URL``), seats four guests per
table, and lets every client act as soon as it is its turn (within the server's rate limit),
asking for a rematch when a match ends. Prints actions per second, the p50 / p99 time from a
client's ``act`` to its ``ack``, the server's peak resident memory, the errors seen, and the
CPU time the server and the clients spent per action.

The clients run in their own processes (``--client-processes``, default 1), not in this one:
on a small machine the server and the clients then each get a core, and the clients' frame
parsing does not queue behind the measurement; they collect garbage as rarely as the server
does, so that the instrument adds no pauses of its own. Neither side uses permessage-deflate unless
``--deflate`` turns it on for both, as a browser would ask for it. The window is driven from
here: every client process resets its counters on ``measure`` and reports on ``stop``.

``--think-ms T`` makes every client wait before it acts, like a person: T ms on average, drawn
evenly between T/2 and 3T/2 so that the tables, started together, do not act in lockstep (with
a fixed T all 500 acted within the same few milliseconds every T, and the last of each burst
waited for the whole burst). The saturation test (0, the default) measures the server's
ceiling, a think time a realistic crowd.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def reset(self) -> None:
        self.latencies.clear()
        self.actions = 0


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ClientOptions:
    deflate: bool
    think_seconds: float


async def seat_client(
    ws: ClientConnection, token: str, stats: Stats, rng: random.Random, think_seconds: float
) -> None:
    """Play one seat: act on the newest deal frame when it offers something, measure to ack."""
    pending: tuple[str, float] | None = None
    latest: dict[str, Any] | None = None
    counter = 0
    asked = False
    await ws.send(orjson.dumps({"t": "hello", "id": "h", "d": {"token": token}}), text=True)
    while True:
        frame = orjson.loads(await ws.recv(decode=False))
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
            await ws.send(orjson.dumps({"t": "rematch", "id": f"r{counter}", "d": {}}), text=True)
        if kind in ("deal", "action", "snapshot") and frame["d"].get("deal"):
            latest = frame
            asked = False
        if pending is None and latest is not None and latest["d"]["deal"]["legal"]:
            if think_seconds:  # a person thinking, for T/2 to 3T/2: people are not in step
                await asyncio.sleep(think_seconds * (0.5 + rng.random()))
            counter += 1
            command_id = f"a{counter}"
            action = rng.choice(latest["d"]["deal"]["legal"])
            pending = (command_id, time.perf_counter())
            act = {"t": "act", "id": command_id, "v": latest["v"], "d": action}
            await ws.send(orjson.dumps(act), text=True)
            latest = None


async def play_tables(
    tables: range, base: str, options: ClientOptions, control: Connection
) -> None:
    """One client process: set up ``tables``, then follow the parent's ready/measure/stop."""
    loop = asyncio.get_running_loop()

    async def order() -> str:
        message: str = await loop.run_in_executor(None, control.recv)
        return message

    stats = Stats()
    ws_base = base.replace("http://", "ws://")
    # Idle connections are dropped before uvicorn does (after 5 s): reusing one it is closing
    # is a ReadError, and the starts come after a long idle while the WebSockets connect.
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2)
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

        seats = [s for t in await asyncio.gather(*(table(i) for i in tables)) for s in t]
        sockets = [
            await connect(
                f"{ws_base}/ws/rooms/{code}",
                max_size=2**22,
                compression="deflate" if options.deflate else None,
            )
            for code, _token in seats
        ]
        rng = random.Random(tables.start)
        tasks = [
            asyncio.create_task(
                seat_client(ws, token, stats, random.Random(rng.random()), options.think_seconds)
            )
            for ws, (_code, token) in zip(sockets, seats, strict=True)
        ]
        gc.freeze()  # the connections live until the end: no collection needs to scan them
        control.send("ready")
        await order()  # start
        hosts = [seats[i] for i in range(0, len(seats), 4)]
        await asyncio.gather(
            *(
                http.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {t}"})
                for code, t in hosts
            )
        )
        control.send("started")
        await order()  # measure
        stats.reset()
        cpu = time.process_time()
        await order()  # stop
        cpu = time.process_time() - cpu
        control.send(
            {
                "actions": stats.actions,
                "latencies": stats.latencies,
                "errors": stats.errors,
                "cpu": cpu,
            }
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for ws in sockets:
            await ws.close()


def client_process(tables: range, base: str, options: ClientOptions, control: Connection) -> None:
    gc.set_threshold(10_000, 10, 100)  # as the server does (app.__main__.tune_gc): fewer pauses
    asyncio.run(play_tables(tables, base, options, control))


def measure(
    tables: int,
    seconds: float,
    base: str,
    processes: int,
    options: ClientOptions,
    server_pid: int,
) -> dict[str, Any]:
    """Run the client processes through one measured window and merge what they saw."""
    context = mp.get_context("spawn")
    controls, workers = [], []
    for k in range(processes):
        share = range(k * tables // processes, (k + 1) * tables // processes)
        ours, theirs = context.Pipe()
        worker = context.Process(
            target=client_process, args=(share, base, options, theirs), daemon=True
        )
        worker.start()
        theirs.close()  # so that a client process that dies is an EOFError here, not a hang
        controls.append(ours)
        workers.append(worker)

    def hear(control: Connection) -> Any:
        try:
            return control.recv()
        except EOFError:
            raise SystemExit("a client process died (its traceback is above)") from None

    def all_say(expected: str) -> None:
        for control in controls:
            if hear(control) != expected:
                raise SystemExit(f"a client process did not say {expected!r}")

    all_say("ready")
    print(f"{tables} tables seated and connected; starting", file=sys.stderr, flush=True)
    for control in controls:
        control.send("start")
    all_say("started")
    print(f"measuring for {seconds:g} s", file=sys.stderr, flush=True)
    for control in controls:
        control.send("measure")
    began, server_cpu = time.perf_counter(), cpu_seconds(server_pid)
    time.sleep(seconds)
    for control in controls:
        control.send("stop")
    elapsed, server_cpu = time.perf_counter() - began, cpu_seconds(server_pid) - server_cpu
    reports = [hear(control) for control in controls]
    for worker in workers:
        worker.join(timeout=30)

    actions = sum(r["actions"] for r in reports)
    latencies = sorted(x for r in reports for x in r["latencies"])
    errors: dict[str, int] = {}
    for report in reports:
        for code, count in report["errors"].items():
            errors[code] = errors.get(code, 0) + count
    client_cpu = sum(r["cpu"] for r in reports)

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2)

    def per_action_us(cpu: float) -> float | None:
        return round(cpu / actions * 1e6, 1) if actions else None

    return {
        "tables": tables,
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_sec": round(actions / elapsed, 1),
        "ack_ms_p50": pct(0.50),
        "ack_ms_p99": pct(0.99),
        "errors": errors,
        "client_processes": processes,
        "deflate": options.deflate,
        "think_ms": round(options.think_seconds * 1000),
        "server_cpu_util": round(server_cpu / elapsed, 2),
        "client_cpu_util": round(client_cpu / elapsed, 2),
        "server_cpu_us_per_action": per_action_us(server_cpu),
        "client_cpu_us_per_action": per_action_us(client_cpu),
    }


@contextmanager
def running_server(settings: dict[str, str]) -> Iterator[tuple[subprocess.Popen[bytes], str, str]]:
    """``python -m app`` on a free port and a fresh SQLite file (or ``DATABASE_URL``), with
    ``settings`` added to its environment; yields the process, its base URL and the database
    kind, and stops it with SIGTERM."""
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DATABASE_URL": os.environ.get(
                "DATABASE_URL", f"sqlite+aiosqlite:///{scratch}/load.sqlite3"
            ),
            "BELOTE_PORT": str(port),
            "BELOTE_CREATE_BURST": "1000000",  # thousands of guests and rooms from one address
            "BELOTE_WS_PER_ADDRESS": "100000",  # and thousands of sockets
            "BELOTE_DEAL_PAUSE_SECONDS": "0",  # the load clients do not read the results
            "BELOTE_LOG_LEVEL": "warning",
            **settings,
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
            yield server, base, env["DATABASE_URL"].split(":", 1)[0]
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients are spread over"
    )
    parser.add_argument(
        "--deflate", action="store_true", help="permessage-deflate on, as browsers ask for it"
    )
    parser.add_argument(
        "--think-ms", type=float, default=0, help="mean wait before each action (a person)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    options = ClientOptions(args.deflate, args.think_ms / 1000)
    load_before = os.getloadavg()[0]
    settings = {
        "BELOTE_BOT_DELAY_SECONDS": "0",
        "BELOTE_WS_PER_MESSAGE_DEFLATE": str(args.deflate).lower(),
    }
    with running_server(settings) as (server, base, database):
        result = measure(
            args.tables, args.seconds, base, args.client_processes, options, server.pid
        )
        result["server_peak_rss_mb"] = peak_rss_mb(server.pid)
        result["database"] = database
        result["load_avg_1m_before"] = round(load_before, 2)
    if args.json:
        print(orjson.dumps(result).decode())
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
