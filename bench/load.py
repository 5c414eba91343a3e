"""Load benchmark (not a test): N tables of 4 WebSocket clients playing random legal actions.

    python -m bench.load --tables 500 --seconds 30 --json
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/bench_db \\
    BELOTE_REDIS_URL=redis://127.0.0.1:6379/0 python -m bench.load --nodes 2 --tables 500 --json

Without ``DATABASE_URL``: one ``python -m app`` on a fresh SQLite file, the clients talking to it
directly. With a PostgreSQL ``DATABASE_URL`` (its database is scratch space: its ``public``
schema is made anew, so the name must contain "bench" or "test"): a cluster of ``--nodes``
nodes (ids n1, n2, ...) sharing it and Redis (``BELOTE_REDIS_URL``, keys under a prefix of this
run), behind HAProxy with the shipped configuration (deploy/haproxy.cfg, given the addresses of
the nodes that run); the clients follow the cluster's routing (close 4307 names the owner,
``?node=`` reaches it) as the browser client does. ``--no-proxy`` (one node) skips the proxy.

Every client acts as soon as it is its turn (within the server's rate limit) and asks for a
rematch when a match ends. Prints actions per second, the p50 / p99 time from a client's ``act``
to its ``ack``, the errors seen, the CPU time the nodes (summed) and the clients spent per
action, and each node's peak resident memory. Then the floor of the same stack: the same client
code against a bare echo endpoint on the same uvicorn options (bench/echo_server.py), as many
connections as seats, each sending an act-sized frame as soon as the last came back; it prints
``echo_cpu_us_per_round_trip`` and ``server_cpu_us_per_action / echo_cpu_us_per_round_trip``.
Then the floor of an action's shape on the same stack: as many tables of four sockets as the
load had (up to 100), playing in turn through the echo server's ``/fanout`` relay (each frame
sent to the table's four, padded to an event's size, and an ack to its sender: one frame in and
five out, nothing else); it prints ``fanout_cpu_us_per_action``, ``fanout / echo`` (what the
protocol's socket work alone is worth in echo round trips) and ``server_cpu_us_per_action /
fanout_cpu_us_per_action`` (``--no-echo`` skips both floors).

The clients use picows (the ``bench`` extra), a WebSocket client written in Cython that hands
each frame to a callback: no task, no future and no copy per frame, so that one core of clients
outruns the server (they must spend less than half its CPU per action for the figures to be the
server's). They run in their own processes (``--client-processes``), not in this one, and
collect garbage as rarely as the server does, so the instrument adds no pauses of its own.
No permessage-deflate (off by default on the server, and picows does not offer it; it cost
about 30% more server CPU per action when measured with a client that did). The
window is driven from here: every client process resets its counters on ``measure`` and
reports on ``stop``.

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
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

import httpx
import orjson

try:
    from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
except ImportError:  # the bench extra is not installed: main() says so
    WSListener = object  # type: ignore[assignment,misc]

ROOT = Path(__file__).resolve().parents[1]
CLOSE_ELSEWHERE = 4307  # app/transport/ws.py: another node serves the room, the reason names it
SOCKETS_PER_ADDRESS = 200  # the proxy refuses a client address its 257th open connection
ECHO_SOCKETS = 400  # 100 tables' seats: with more the floor stays, only setting up takes longer
ECHO_FRAME = orjson.dumps({"t": "act", "id": "a12345", "v": 123, "d": {"play": "AS"}})
FANOUT_TABLES = 100


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
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- the client: a peer's logic, sans I/O, behind one picows listener -----------------------


class Peer(Protocol):
    """What runs on one client connection: told when it is open and of every text frame."""

    def opened(self, send: Callable[[bytes], None]) -> None: ...

    def received(self, frame: bytes) -> None: ...


class Seat:
    """Plays one seat: acts on the newest deal frame that offers something, times act to ack."""

    def __init__(self, token: str, stats: Stats, rng: random.Random, think: float) -> None:
        self.token = token
        self.stats = stats
        self.rng = rng
        self.think = think
        self.send: Callable[[bytes], None] = lambda frame: None
        self.pending: tuple[str, float] | None = None
        self.latest: dict[str, Any] | None = None
        self.counter = 0
        self.asked = False
        self.thinking = False

    def opened(self, send: Callable[[bytes], None]) -> None:
        self.send = send
        self.pending, self.latest, self.thinking = None, None, False  # a new connection
        send(orjson.dumps({"t": "hello", "id": "h", "d": {"token": self.token}}))

    def received(self, raw: bytes) -> None:
        frame = orjson.loads(raw)
        kind = frame["t"]
        pending = self.pending
        if kind == "ack" and pending is not None and frame["d"]["id"] == pending[0]:
            self.stats.latencies.append(time.perf_counter() - pending[1])
            self.stats.actions += 1
            self.pending = None
        elif kind == "error":
            self.stats.error(frame["d"]["code"])
            if pending is not None and frame["d"]["id"] == pending[0]:
                self.pending = None
        elif kind == "room" and frame["d"]["status"] == "finished" and not self.asked:
            self.asked = True  # once per match: every vote is announced with the same status
            self.counter += 1
            self.send(orjson.dumps({"t": "rematch", "id": f"r{self.counter}", "d": {}}))
        if kind in ("deal", "action", "snapshot") and frame["d"].get("deal"):
            self.latest = frame
            self.asked = False
        if self.pending is None and not self.thinking and self.latest is not None:
            if not self.latest["d"]["deal"]["legal"]:
                return
            if self.think:  # a person thinking, for T/2 to 3T/2: people are not in step
                self.thinking = True
                delay = self.think * (0.5 + self.rng.random())
                asyncio.get_running_loop().call_later(delay, self._act)
            else:
                self._act()

    def _act(self) -> None:
        self.thinking = False
        latest = self.latest
        if latest is None or self.pending is not None:
            return
        self.counter += 1
        command_id = f"a{self.counter}"
        action = self.rng.choice(latest["d"]["deal"]["legal"])
        self.pending = (command_id, time.perf_counter())
        self.send(orjson.dumps({"t": "act", "id": command_id, "v": latest["v"], "d": action}))
        self.latest = None


class Echo:
    """Sends an act-sized frame, and again each time it comes back: one round trip each."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.send: Callable[[bytes], None] = lambda frame: None

    def opened(self, send: Callable[[bytes], None]) -> None:
        self.send = send
        send(ECHO_FRAME)

    def received(self, frame: bytes) -> None:
        self.stats.actions += 1
        self.send(frame)


class Fanout:
    """One of a table's four seats on the ``/fanout`` relay: plays when the relayed frame names
    it next (or the relay says go), counts an action at each ack."""

    def __init__(self, stats: Stats, seat: int) -> None:
        self.stats = stats
        self.send: Callable[[bytes], None] = lambda frame: None
        self.mine = b'"next":%d' % seat
        self.frame = orjson.dumps(
            {"t": "act", "id": "a12345", "v": 123, "next": (seat + 1) % 4, "d": {"play": "AS"}}
        )

    def opened(self, send: Callable[[bytes], None]) -> None:
        self.send = send

    def received(self, frame: bytes) -> None:
        if frame.startswith(b'{"t":"ack"'):
            self.stats.actions += 1
        elif self.mine in frame or frame == b'{"t":"go"}':
            self.send(self.frame)


class Socket(WSListener):  # type: ignore[misc]
    """One picows connection of a ``Peer``: frames go to it as they are parsed."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.close_code: int | None = None
        self.close_reason = ""
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.peer.opened(lambda frame: transport.send(WSMsgType.TEXT, frame))

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is WSMsgType.TEXT:
            self.peer.received(frame.get_payload_as_bytes())
        elif frame.msg_type is WSMsgType.CLOSE:
            self.close_code = frame.get_close_code()
            self.close_reason = frame.get_close_reason()
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def keep_connected(
    url: str, peer: Peer, address: str, stats: Stats, up: asyncio.Event
) -> None:
    """Keep ``peer`` connected to ``url``: on close 4307 reconnect at once to the named node (as
    static/js/conn.js does), on any other drop after a short pause to any node; ``up`` is set
    once a connection is open (a 4307 close comes before anything else)."""
    node = ""
    while True:
        query = f"?node={node}" if node else ""
        try:
            transport, listener = await ws_connect(
                lambda: Socket(peer), url + query, local_addr=(address, 0)
            )
        except (TimeoutError, OSError) as error:
            stats.error(f"connect: {type(error).__name__}")
            await asyncio.sleep(0.5)
            continue
        await asyncio.sleep(0)  # the server closes at once when another node serves the room
        if listener.closed.done() and listener.close_code == CLOSE_ELSEWHERE:
            node = listener.close_reason
            continue
        up.set()
        await listener.closed
        if listener.close_code == CLOSE_ELSEWHERE:
            node = listener.close_reason
            continue
        stats.error(f"closed {listener.close_code}")
        transport.disconnect()
        node = ""
        await asyncio.sleep(0.2)


def client_address(index: int) -> str:
    """Loopback addresses (any 127.x.y.z is this machine) so that no address opens more
    sockets than the proxy allows one client (deploy/haproxy.cfg)."""
    block = index // SOCKETS_PER_ADDRESS
    return f"127.0.{1 + block // 250}.{2 + block % 250}"


# ---- a client process ------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """What one client process runs: ``tables`` tables against ``base`` (with ``floor``
    "echo", as many echo connections; "fanout", as many tables on the relay); ``first`` is the
    index of its first socket."""

    tables: range
    base: str
    think_seconds: float
    first: int
    floor: str = ""


async def seat_tables(http: httpx.AsyncClient, tables: range) -> list[tuple[str, str]]:
    """Create four guests and a room per table, seat them; (room code, token) per seat."""

    async def table(i: int) -> list[tuple[str, str]]:
        guests = []
        for seat in range(4):
            guest = (await http.post("/api/players", json={"name": f"t{i}s{seat}"})).json()
            guests.append(guest)
        auth = [{"Authorization": f"Bearer {g['token']}"} for g in guests]
        room = (await http.post("/api/rooms", json={"turn_seconds": 0}, headers=auth[0])).json()
        code = room["room"]["code"]
        for seat in (1, 2, 3):
            reply = await http.put(f"/api/rooms/{code}/seats/{seat}", headers=auth[seat])
            reply.raise_for_status()
        return [(code, g["token"]) for g in guests]

    return [s for t in await asyncio.gather(*(table(i) for i in tables)) for s in t]


async def run_job(job: Job, control: Connection) -> None:
    """Set up the job's sockets, then follow the parent's ready/start/measure/stop."""
    loop = asyncio.get_running_loop()

    async def order() -> str:
        message: str = await loop.run_in_executor(None, control.recv)
        return message

    stats = Stats()
    ws_base = job.base.replace("http://", "ws://")
    # Idle connections are dropped before uvicorn does (after 5 s): reusing one it is closing
    # is a ReadError, and the starts come after a long idle while the WebSockets connect.
    # A REST call to a node that does not own the room is redirected (307 + ?node=).
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2)
    async with httpx.AsyncClient(
        base_url=job.base, limits=limits, timeout=60, follow_redirects=True
    ) as http:
        peers: list[tuple[str, Peer]] = []
        if job.floor == "echo":
            peers = [(f"{ws_base}/echo", Echo(stats)) for _ in range(len(job.tables))]
        elif job.floor == "fanout":
            peers = [
                (f"{ws_base}/fanout?table={table}", Fanout(stats, seat))
                for table in job.tables
                for seat in range(4)
            ]
        else:
            seats = await seat_tables(http, job.tables)
            rng = random.Random(job.tables.start)
            peers = [
                (
                    f"{ws_base}/ws/rooms/{code}",
                    Seat(token, stats, random.Random(rng.random()), job.think_seconds),
                )
                for code, token in seats
            ]
        tasks = []
        for k, (url, peer) in enumerate(peers):
            up = asyncio.Event()
            address = client_address(job.first + k)
            tasks.append(asyncio.create_task(keep_connected(url, peer, address, stats, up)))
            await up.wait()
        gc.freeze()  # the connections live until the end: no collection needs to scan them
        control.send("ready")
        await order()  # start
        if not job.floor:
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


def client_process(job: Job, control: Connection) -> None:
    gc.set_threshold(10_000, 10, 100)  # as the server does (app.__main__.tune_gc): fewer pauses
    try:
        import uvloop
    except ImportError:
        asyncio.run(run_job(job, control))
    else:
        uvloop.run(run_job(job, control))


def measure(
    tables: int,
    seconds: float,
    base: str,
    processes: int,
    think_seconds: float,
    server_pids: list[int],
    floor: str = "",
) -> dict[str, Any]:
    """Run the client processes through one measured window and merge what they saw; with
    ``floor`` "echo", ``tables`` is the number of echo connections."""
    context = mp.get_context("spawn")
    controls, workers = [], []
    for k in range(processes):
        share = range(k * tables // processes, (k + 1) * tables // processes)
        job = Job(share, base, think_seconds, 4 * share.start, floor)
        ours, theirs = context.Pipe()
        worker = context.Process(target=client_process, args=(job, theirs), daemon=True)
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

    def server_cpu() -> float:
        return sum(cpu_seconds(pid) for pid in server_pids)

    all_say("ready")
    what = f"{tables} echo sockets" if floor == "echo" else f"{tables} tables seated and connected"
    print(f"{what}; starting", file=sys.stderr, flush=True)
    for control in controls:
        control.send("start")
    all_say("started")
    print(f"measuring for {seconds:g} s", file=sys.stderr, flush=True)
    for control in controls:
        control.send("measure")
    began, cpu = time.perf_counter(), server_cpu()
    time.sleep(seconds)
    for control in controls:
        control.send("stop")
    elapsed, cpu = time.perf_counter() - began, server_cpu() - cpu
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
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_sec": round(actions / elapsed, 1),
        "ack_ms_p50": pct(0.50),
        "ack_ms_p99": pct(0.99),
        "errors": errors,
        "server_cpu_util": round(cpu / elapsed, 2),
        "client_cpu_util": round(client_cpu / elapsed, 2),
        "server_cpu_us_per_action": per_action_us(cpu),
        "client_cpu_us_per_action": per_action_us(client_cpu),
    }


# ---- the servers -----------------------------------------------------------------------------


def wait_healthy(url: str, process: subprocess.Popen[bytes], path: str = "/healthz") -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}{path}").status_code < 500:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"{url} did not start")
        time.sleep(0.1)


@contextmanager
def started(argv: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A process, stopped with SIGTERM (then SIGKILL) on the way out."""
    process = subprocess.Popen(argv, env=env, cwd=ROOT)
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_env(database_url: str, port: int, settings: dict[str, str]) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "BELOTE_PORT": str(port),
        "BELOTE_CREATE_BURST": "1000000",  # thousands of guests and rooms from one address
        "BELOTE_HTTP_BURST": "1000000",  # and the requests that make and seat them
        "BELOTE_WS_PER_ADDRESS": "100000",  # and thousands of sockets
        "BELOTE_DEAL_PAUSE_SECONDS": "0",  # the load clients do not read the results
        # The clients play their last cards themselves, long before the server would: an action
        # is still one frame in, and the figures compare with those measured before it did.
        "BELOTE_LAST_CARD_SECONDS": "10",
        "BELOTE_LOG_LEVEL": "warning",
        **settings,
    }


@contextmanager
def running_server(settings: dict[str, str]) -> Iterator[tuple[subprocess.Popen[bytes], str, str]]:
    """``python -m app`` on a free port and a fresh SQLite file (or ``DATABASE_URL``), with
    ``settings`` added to its environment; yields the process, its base URL and the database
    kind, and stops it with SIGTERM."""
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        url = os.environ.get("DATABASE_URL", f"sqlite+aiosqlite:///{scratch}/load.sqlite3")
        with started([sys.executable, "-m", "app"], server_env(url, port, settings)) as server:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base, server)
            yield server, base, url.split(":", 1)[0]


HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"


def proxy_env(bind: str, nodes: dict[str, str]) -> dict[str, str]:
    """The environment the shipped HAProxy configuration reads: where it listens and each
    running node's address (it serves the nodes it is given an address for, and no other: none
    is inherited from this process's environment)."""
    names = re.findall(r"^\s*server (\w+) ", HAPROXY_CONFIG.read_text(), re.M)
    if not set(nodes) <= set(names):
        raise SystemExit(f"deploy/haproxy.cfg serves the nodes {', '.join(names)}: at most those")
    inherited = {
        k: v for k, v in os.environ.items() if not re.fullmatch(r"BELOTE_(NODE_N\d+|PROXY_\w+)", k)
    }
    addresses = {f"BELOTE_NODE_{node.upper()}": address for node, address in nodes.items()}
    return {**inherited, "BELOTE_PROXY_BIND": bind, **addresses}


async def fresh_schema(url: str) -> None:
    """Make the PostgreSQL database's schema anew and migrate it: every run starts empty."""
    from sqlalchemy import text

    from app.db.engine import make_engine
    from app.db.migrate import upgrade

    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
        await upgrade(engine)
    finally:
        await engine.dispose()


@dataclass
class Servers:
    base: str  # where clients connect: the proxy, or the only node
    pids: list[int]
    database: str
    proxy_pid: int | None


@contextmanager
def running_cluster(nodes: int, proxy: bool, settings: dict[str, str]) -> Iterator[Servers]:
    """``nodes`` nodes on the PostgreSQL ``DATABASE_URL`` and Redis, behind HAProxy."""
    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[-1].split("?")[0]
    if "bench" not in name and "test" not in name:
        raise SystemExit(f"bench.load wipes {name!r}: use a database named *bench* or *test*")
    redis_url = os.environ.get("BELOTE_REDIS_URL")
    if not redis_url:
        raise SystemExit("a cluster needs Redis: set BELOTE_REDIS_URL=redis://host:port/db")
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if proxy and not os.path.exists(haproxy):
        raise SystemExit("the proxy is HAProxy: apt-get install haproxy (or --no-proxy)")
    asyncio.run(fresh_schema(url))
    ids = [f"n{k}" for k in range(1, nodes + 1)]
    ports = {node: free_port() for node in ids}
    prefix = f"bench-{secrets.token_hex(4)}:"  # this run's keys only
    with ExitStack() as stack:
        processes = []
        for node, port in ports.items():
            cluster = {
                "BELOTE_NODE_ID": node,
                "BELOTE_REDIS_URL": redis_url,
                "BELOTE_REDIS_PREFIX": prefix,
                **settings,
            }
            env = server_env(url, port, cluster)
            processes.append(stack.enter_context(started([sys.executable, "-m", "app"], env)))
        for process, port in zip(processes, ports.values(), strict=True):
            wait_healthy(f"http://127.0.0.1:{port}", process)
        base, proxy_pid = f"http://127.0.0.1:{ports['n1']}", None
        if proxy:
            bind = free_port()
            nodes_at = {node: f"127.0.0.1:{port}" for node, port in ports.items()}
            env = proxy_env(f"127.0.0.1:{bind}", nodes_at)
            argv = [haproxy, "-q", "-f", str(HAPROXY_CONFIG)]
            haproxy_process = stack.enter_context(started(argv, env))
            base, proxy_pid = f"http://127.0.0.1:{bind}", haproxy_process.pid
            wait_healthy(base, haproxy_process)
            time.sleep(1.5)  # one health check of every node: the proxy sends to all of them
        yield Servers(base, [p.pid for p in processes], "postgresql", proxy_pid)


@contextmanager
def running_echo(settings: dict[str, str]) -> Iterator[tuple[int, str]]:
    """bench/echo_server.py on a free port with the nodes' settings; its pid and base URL."""
    port = free_port()
    env = {**os.environ, "BELOTE_PORT": str(port), "BELOTE_LOG_LEVEL": "warning", **settings}
    with started([sys.executable, "-m", "bench.echo_server"], env) as process:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, process, "/")
        yield process.pid, base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--nodes", type=int, default=1, help="nodes (PostgreSQL only beyond 1)")
    parser.add_argument(
        "--no-proxy", action="store_true", help="one node: clients connect to it directly"
    )
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients are spread over"
    )
    parser.add_argument(
        "--think-ms", type=float, default=0, help="mean wait before each action (a person)"
    )
    parser.add_argument("--echo-seconds", type=float, default=5, help="the echo's window")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo floor")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    if WSListener is object:
        raise SystemExit("bench.load's clients need picows: pip install -e '.[bench]'")
    clustered = os.environ.get("DATABASE_URL", "").startswith("postgresql")
    if args.nodes > 1 and (not clustered or args.no_proxy):
        raise SystemExit("several nodes need a PostgreSQL DATABASE_URL and the proxy")
    load_before = os.getloadavg()
    settings = {
        "BELOTE_BOT_DELAY_SECONDS": "0",
    }
    with ExitStack() as stack:
        if clustered:
            servers = stack.enter_context(running_cluster(args.nodes, not args.no_proxy, settings))
        else:
            server, base, database = stack.enter_context(running_server(settings))
            servers = Servers(base, [server.pid], database, None)
        result: dict[str, Any] = {
            "tables": args.tables,
            "nodes": args.nodes,
            "proxy": servers.proxy_pid is not None,
            "database": servers.database,
            "think_ms": round(args.think_ms),
            "client_processes": args.client_processes,
        }
        proxy_cpu = cpu_seconds(servers.proxy_pid) if servers.proxy_pid else 0.0
        result |= measure(
            args.tables,
            args.seconds,
            servers.base,
            args.client_processes,
            args.think_ms / 1000,
            servers.pids,
        )
        rss = [peak_rss_mb(pid) for pid in servers.pids]
        result["server_peak_rss_mb"] = rss
        result["server_peak_rss_mb_sum"] = round(sum(r or 0 for r in rss), 1)
        if servers.proxy_pid is not None and result["actions"]:
            proxy_cpu = cpu_seconds(servers.proxy_pid) - proxy_cpu
            result["proxy_cpu_us_per_action"] = round(proxy_cpu / result["actions"] * 1e6, 1)
    if not args.no_echo:
        with running_echo(settings) as (pid, base):
            sockets = min(4 * args.tables, ECHO_SOCKETS)
            echo = measure(
                sockets, args.echo_seconds, base, args.client_processes, 0, [pid], floor="echo"
            )
            tables = min(args.tables, FANOUT_TABLES)
            fanout = measure(
                tables, args.echo_seconds, base, args.client_processes, 0, [pid], floor="fanout"
            )
        result["echo_round_trips_per_sec"] = echo["actions_per_sec"]
        result["echo_cpu_us_per_round_trip"] = echo["server_cpu_us_per_action"]
        result["echo_client_cpu_us_per_round_trip"] = echo["client_cpu_us_per_action"]
        result["fanout_actions_per_sec"] = fanout["actions_per_sec"]
        result["fanout_cpu_us_per_action"] = fanout["server_cpu_us_per_action"]
        server, floors = result["server_cpu_us_per_action"], (echo, fanout)
        if server and all(f["server_cpu_us_per_action"] for f in floors):
            echo_us, fanout_us = (f["server_cpu_us_per_action"] for f in floors)
            result["server_cpu_us_per_action / echo_cpu_us_per_round_trip"] = round(
                server / echo_us, 2
            )
            result["fanout / echo"] = round(fanout_us / echo_us, 2)
            result["server_cpu_us_per_action / fanout_cpu_us_per_action"] = round(
                server / fanout_us, 2
            )
    if result["server_cpu_us_per_action"] and result["client_cpu_us_per_action"]:
        share = result["client_cpu_us_per_action"] / result["server_cpu_us_per_action"]
        result["client_to_server_cpu"] = round(share, 2)
        if share >= 0.5:
            print(
                "the clients spent half the server's CPU per action or more: add "
                "--client-processes, the figures may be the clients'",
                file=sys.stderr,
            )
    result["load_avg_before"] = [round(x, 2) for x in load_before]
    result["load_avg_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(orjson.dumps(result).decode())
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
