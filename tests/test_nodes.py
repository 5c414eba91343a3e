"""Many nodes on one PostgreSQL, behind HAProxy (deploy/haproxy.cfg): rooms survive a node's death.

Three ``python -m app`` processes with their own node ids and ports share the test database; the
proxy in front of them is the shipped configuration. Every client goes through the proxy and
follows the cluster's routing (4307 + ``?node=``) like the browser client does. One test kills the
node owning most rooms with SIGKILL mid-deal, the other freezes a node past its lease (SIGSTOP)
and resumes it; both check what clients saw against what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import secrets
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme
from sqlalchemy import select, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.db import models as m
from app.db.engine import make_engine
from app.rules.replay import replay_match
from bench.load import HAPROXY_CONFIG, proxy_env
from tests.conftest import HAPROXY, REDIS_URL, Guest, free_port, new_guest
from tests.test_restart import wait_healthy

ROOT = Path(__file__).resolve().parents[1]
NODES = ("n1", "n2", "n3")
LEASE_SECONDS = 5.0  # the settings' defaults: what production runs
RENEW_SECONDS = 1.0
TAKEOVER_BOUND = 10.0  # lease + one renewal + restoring, with room to spare (docs/architecture.md)
CLOSE_ELSEWHERE = 4307
TARGET = 51
MAX_HOPS = 3  # redirects followed at once before the client backs off (static/js/conn.js)


@dataclass(frozen=True)
class Tls:
    """A certificate for 127.0.0.1 from an authority made for the test (trustme): the PEM file
    HAProxy serves (key and chain), and client contexts that trust that authority alone."""

    pem: Path
    authority: trustme.CA

    @classmethod
    def made_in(cls, directory: Path) -> Tls:
        authority = trustme.CA()
        pem = directory / "site.pem"
        authority.issue_cert("127.0.0.1").private_key_and_cert_chain_pem.write_to_path(str(pem))
        return cls(pem, authority)

    def client(self) -> ssl.SSLContext:
        """A context of its own for each client: httpx asking for HTTP/2 sets the context's
        protocols (ALPN), which a WebSocket client sharing it would then be offered."""
        context = ssl.create_default_context()
        self.authority.configure_trust(context)
        return context


@dataclass
class Cluster:
    url: str  # the proxy: over HTTPS when it was given a certificate
    database_url: str
    ports: dict[str, int]
    processes: dict[str, subprocess.Popen[bytes]]
    plain_url: str = ""  # the proxy's plain HTTP (with a certificate: sent on to HTTPS)
    verify: ssl.SSLContext | bool = True  # what a client of `url` trusts

    @property
    def ws_url(self) -> str:
        return self.url.replace("https://", "wss://").replace("http://", "ws://")

    def node_url(self, node: str) -> str:
        return f"http://127.0.0.1:{self.ports[node]}"

    async def owners(self, codes: list[str]) -> dict[str, str]:
        engine = make_engine(self.database_url)
        try:
            async with engine.connect() as connection:
                rows = await connection.execute(
                    select(m.RoomLease.room_code, m.RoomLease.node).where(
                        m.RoomLease.room_code.in_(codes)
                    )
                )
                return {code: node for code, node in rows}
        finally:
            await engine.dispose()

    async def until_none_owned_by(self, node: str, codes: list[str], timeout: float) -> None:
        async def wait() -> None:
            while node in (await self.owners(codes)).values():
                await asyncio.sleep(0.1)

        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            pytest.fail(f"{node} still owns rooms after {timeout} s: {await self.why(codes)}")

    async def why(self, codes: list[str]) -> str:
        """The database's side of a take-over that did not happen: the rooms' lease rows, the
        nodes' leases, and every session of the database with what it waits for and the locks
        it holds."""
        engine = make_engine(self.database_url)
        try:
            async with engine.connect() as connection:
                queries = {
                    "rooms": "SELECT l.room_code, l.node, l.epoch, l.handed, r.status, "
                    "now() - r.updated_at FROM room_leases l JOIN rooms r ON r.code = l.room_code "
                    "WHERE l.room_code = ANY(:codes)",
                    "nodes": "SELECT node, epoch, expires_at - now() FROM node_leases",
                    "sessions": "SELECT a.pid, a.state, a.wait_event_type, a.wait_event, "
                    "now() - a.xact_start, now() - a.state_change, left(a.query, 120), "
                    "(SELECT count(*) FROM pg_locks k WHERE k.pid = a.pid AND k.granted), "
                    "pg_blocking_pids(a.pid) FROM pg_stat_activity a "
                    "WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()",
                }
                asked = {"codes": codes}
                found = {
                    name: [tuple(row) for row in await connection.execute(text(q), asked)]
                    for name, q in queries.items()
                }
            return "\n".join(f"{name}: {rows}" for name, rows in found.items())
        finally:
            await engine.dispose()


def node_process(database_url: str, node: str, port: int, prefix: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BELOTE_PORT": str(port),
        "BELOTE_NODE_ID": node,
        "BELOTE_REDIS_URL": REDIS_URL,
        "BELOTE_REDIS_PREFIX": prefix,
        "BELOTE_NODE_LEASE_SECONDS": str(LEASE_SECONDS),
        "BELOTE_NODE_RENEW_SECONDS": str(RENEW_SECONDS),
        "BELOTE_BOT_DELAY_SECONDS": "0.02",
        # The clients play their last cards themselves, and the test holds each act a person's
        # client saw acknowledged to the stored log: the server waits far longer than they do.
        "BELOTE_LAST_CARD_SECONDS": "10",
        "BELOTE_DEFAULT_TURN_SECONDS": "0",
        "BELOTE_DEAL_PAUSE_SECONDS": "0",  # no pause to show each result: the test reads frames
        "BELOTE_BOT_PROCESSES": "1",
        "BELOTE_RATE_PER_SECOND": "1000",
        "BELOTE_RATE_BURST": "1000",
        "BELOTE_LOG_LEVEL": "warning",
    }
    return subprocess.Popen([sys.executable, "-m", "app"], env=env, cwd=ROOT)


async def all_up(url: str, verify: ssl.SSLContext | bool = True) -> None:
    """Until the proxy sends requests to every node (its health checks found them up)."""
    seen: set[str] = set()
    while seen != set(NODES):
        async with httpx.AsyncClient(base_url=url, verify=verify) as http:  # a new connection
            found = re.search(
                r'^belote_node\{node="(\w+)"\}', (await http.get("/metrics")).text, re.M
            )
        if found is not None:
            seen.add(found.group(1))
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def cluster(database_url: str, tls: Tls | None = None) -> AsyncIterator[Cluster]:
    """Three nodes behind the shipped proxy; with ``tls``, the proxy serves HTTPS (and HTTP/2)
    with its certificate, as a site on the internet would, and its plain port sends there."""
    ports = {node: free_port() for node in NODES}
    prefix = f"test-nodes-{secrets.token_hex(4)}:"  # this cluster's keys only
    proxy_port = free_port()
    processes: dict[str, subprocess.Popen[bytes]] = {}
    env = proxy_env(
        f"127.0.0.1:{proxy_port}", {node: f"127.0.0.1:{port}" for node, port in ports.items()}
    )
    plain_url = url = f"http://127.0.0.1:{proxy_port}"
    verify: ssl.SSLContext | bool = True
    if tls is not None:
        tls_port = free_port()
        env |= {"BELOTE_PROXY_TLS_BIND": f"127.0.0.1:{tls_port}", "BELOTE_PROXY_CERT": str(tls.pem)}
        url, verify = f"https://127.0.0.1:{tls_port}", tls.client()
    assert HAPROXY is not None
    proxy = subprocess.Popen([HAPROXY, "-q", "-f", str(HAPROXY_CONFIG)], env=env)
    try:
        for node, port in ports.items():
            processes[node] = node_process(database_url, node, port, prefix)
        for node, port in ports.items():
            await asyncio.wait_for(wait_healthy(f"http://127.0.0.1:{port}", processes[node]), 90)
        await asyncio.wait_for(wait_healthy(url, proxy, verify), 30)
        await asyncio.wait_for(all_up(url, verify), 90)
        yield Cluster(url, database_url, ports, processes, plain_url, verify)
    finally:
        for process in [*processes.values(), proxy]:
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.send_signal(signal.SIGKILL)
            process.wait()


@dataclass
class Client:
    """A client of one room through the proxy: follows 4307 to the owner, reconnects by itself
    with its last version, plays its seat (the first legal action), and checks that the versions
    it is sent have no gap (a snapshot starts again)."""

    cluster: Cluster
    code: str
    guest: Guest | None = None  # None: a spectator
    seat: int | None = None
    version: int | None = None
    gaps: list[tuple[int | None, int]] = field(default_factory=list)
    acked: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    unanswered: int = 0
    connections: int = 0
    redirects: int = 0
    finished: bool = False
    deal: dict[str, Any] | None = None
    last_frame_at: float = 0.0
    dropped_at: float | None = None  # the connection ended, and no frame came since
    # (when, how long): each time the client was without a room, until its next frame
    back_after: list[tuple[float, float]] = field(default_factory=list)
    go: asyncio.Event = field(default_factory=asyncio.Event)  # cleared: wait before acting
    to_act: asyncio.Event = field(default_factory=asyncio.Event)  # waiting at the gate
    sent_while_held: bool = False
    held_reply: str | None = "none yet"  # the reply to the act sent past the gate (None: none)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.go.set()

    async def run(self) -> None:
        node: str | None = None
        hops = 0
        while not self.finished:
            query = f"?node={node}" if node else ""
            try:
                async with connect(
                    f"{self.cluster.ws_url}/ws/rooms/{self.code}{query}",
                    max_size=2**22,
                    open_timeout=5,
                ) as ws:
                    self.connections += 1
                    await self._session(ws)
                node = None
                self._dropped()
            except ConnectionClosed as closed:
                self._dropped()
                frame = closed.rcvd
                if frame is not None and frame.code == CLOSE_ELSEWHERE:
                    self.redirects += 1
                    hops += 1
                    node = frame.reason
                    if hops <= MAX_HOPS:
                        continue  # at once, as static/js/conn.js
                    hops = 0
                else:
                    node = None
            except (OSError, TimeoutError, InvalidStatus):
                node = None
                self._dropped()
            await asyncio.sleep(0.1)  # the client's backoff before it reconnects

    def _dropped(self) -> None:
        if self.dropped_at is None:
            self.dropped_at = time.monotonic()

    async def _session(self, ws: Any) -> None:
        hello: dict[str, Any] = {}
        if self.guest is not None:
            hello["token"] = self.guest.token
        if self.version is not None:
            hello["v"] = self.version
        await ws.send(json.dumps({"t": "hello", "id": self._id(), "d": hello}))
        pending: str | None = None
        try:
            async for raw in ws:
                frame = json.loads(raw)
                self.last_frame_at = time.monotonic()
                if self.dropped_at is not None:
                    gap = self.last_frame_at - self.dropped_at
                    self.back_after.append((self.dropped_at, gap))
                    self.dropped_at = None
                if "v" in frame:
                    expected = None if self.version is None else self.version + 1
                    if frame["t"] != "snapshot" and frame["v"] != expected:
                        self.gaps.append((self.version, frame["v"]))
                    self.version = frame["v"]
                self._read(frame)
                if frame["t"] in ("ack", "error") and frame["d"].get("id") == pending:
                    if frame["t"] == "ack":
                        self.acked.append(self._action)
                    else:
                        self.refused.append(frame["d"]["code"])
                    if pending == self._held:
                        self.held_reply = "ack" if frame["t"] == "ack" else frame["d"]["code"]
                    pending = None
                if self.finished:
                    return
                legal = (self.deal or {}).get("legal") or []
                if self.guest is not None and pending is None and legal:
                    held = not self.go.is_set()
                    if held:
                        self.to_act.set()
                        await self.go.wait()
                    self._action = legal[0]
                    pending = self._id()
                    if held:
                        self._held, self.sent_while_held = pending, True
                    act = {"t": "act", "id": pending, "d": legal[0], "v": self.version}
                    await ws.send(json.dumps(act))
        finally:
            if pending is not None:
                self.unanswered += 1
                if pending == self._held:
                    self.held_reply = None

    def _read(self, frame: dict[str, Any]) -> None:
        d = frame.get("d") or {}
        if frame["t"] == "snapshot":
            self.finished = d["room"]["status"] == "finished"
            self.deal = d.get("deal")
        elif frame["t"] == "room":
            self.finished = d["status"] == "finished"
        elif frame["t"] in ("deal", "action", "deal_end"):
            self.deal = d.get("deal")

    def _id(self) -> str:
        return f"{self.seat}.{next(self._ids)}"

    _action: dict[str, Any] = field(default_factory=dict)
    _held: str | None = None


async def open_rooms(
    http: httpx.AsyncClient, cluster: Cluster, bot_rooms: int, people: int
) -> tuple[list[Client], list[Client]]:
    """Rooms of four bots, and rooms of a person (seat 0) and three bots, started through the
    proxy (the start call of a room reaches its owner: 307 + ?node=); a spectator in each."""
    players: list[Client] = []
    watchers: list[Client] = []
    host = await new_guest(http, "Host")
    for i in range(bot_rooms + people):
        person = i >= bot_rooms
        guest = await new_guest(http, f"Person {i}") if person else host
        # A short match (a few deals): long enough to be killed mid-deal, short to finish.
        body: dict[str, Any] = {"bots": [1, 2, 3], "seat": 0, "public": True, "target": TARGET}
        if not person:
            body = {**body, "bots": [0, 1, 2, 3], "seat": None}
        created = await http.post("/api/rooms", json=body, headers=guest.auth)
        assert created.status_code == 201, created.text
        code = created.json()["room"]["code"]
        started = await http.post(f"/api/rooms/{code}/start", headers=guest.auth)
        assert started.status_code == 200, started.text
        if person:
            players.append(Client(cluster, code, guest, seat=0))
        watchers.append(Client(cluster, code))
    return players, watchers


async def check_records(http: httpx.AsyncClient, players: list[Client], watchers: list[Client]):
    for client in [*players, *watchers]:
        assert client.finished, client.code
        assert client.gaps == [], (client.code, client.gaps)
    for player in players:
        assert player.guest is not None
        room = (await http.get(f"/api/rooms/{player.code}")).json()
        assert room["room"]["status"] == "finished"
        match_id = room["room"]["match_id"]
        response = await http.get(f"/api/matches/{match_id}/record", headers=player.guest.auth)
        assert response.status_code == 200, response.text
        record = response.json()
        replay_match(record)
        mine = [a for d in record["deals"] for a in d["actions"] if a["seat"] == player.seat]
        # Every acknowledged act is stored, in order; an act whose reply never came may be too.
        stored = iter(mine)
        assert all(any(a == s for s in stored) for a in player.acked), player.code
        assert len(player.acked) <= len(mine) <= len(player.acked) + player.unanswered


async def all_finish(
    http: httpx.AsyncClient, clients: list[Client], tasks: list[asyncio.Task[None]]
) -> None:
    """Every client's match ends; if not in time, say where each stuck one stands."""
    done, stuck = await asyncio.wait(tasks, timeout=60)
    for task in done:
        task.result()
    if stuck:
        report = []
        for client, task in zip(clients, tasks, strict=True):
            if task in stuck:
                room = (await http.get(f"/api/rooms/{client.code}")).json()
                report.append(
                    (
                        client.code,
                        client.seat,
                        client.version,
                        client.connections,
                        client.redirects,
                        room.get("v"),
                        room.get("room", {}).get("status"),
                    )
                )
        pytest.fail(f"matches did not finish: {report}")


async def until(condition: Any, timeout: float) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(wait(), timeout)


async def test_rooms_of_a_killed_node_are_taken_over_and_finish(cluster_url: str) -> None:
    async with (
        cluster(cluster_url) as nodes,
        httpx.AsyncClient(base_url=nodes.url, follow_redirects=True, timeout=20) as http,
    ):
        players, watchers = await open_rooms(http, nodes, bot_rooms=9, people=3)
        codes = [w.code for w in watchers]
        owners = await nodes.owners(codes)
        assert set(owners.values()) == set(NODES)  # round robin spread the rooms

        async def listed() -> None:  # the lobby lists every node's rooms, whichever answers
            while {r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]} != set(codes):
                await asyncio.sleep(0.1)

        await asyncio.wait_for(listed(), 10)
        tasks = [asyncio.create_task(c.run()) for c in [*players, *watchers]]
        try:
            await until(lambda: all((w.version or 0) >= 20 for w in watchers), 30)
            victim = max(NODES, key=lambda n: list(owners.values()).count(n))
            lost = [c for c, n in owners.items() if n == victim]
            mid_deal = [w for w in watchers if w.code in lost and w.deal and not w.finished]
            assert mid_deal, "no room of the victim was mid-deal"
            # A watcher whose match ended before the kill has stopped: nothing more comes to it.
            # (Waiting for it to hear again was this test's flake, about 1 run in 10 here.)
            back = [w for w in watchers if w.code in lost and not w.finished]
            killed_at = time.monotonic()
            nodes.processes[victim].send_signal(signal.SIGKILL)
            await nodes.until_none_owned_by(victim, lost, TAKEOVER_BOUND)
            takeover = time.monotonic() - killed_at
            await until(lambda: all(w.last_frame_at > killed_at for w in back), 15)
            resumed = max(w.last_frame_at for w in back) - killed_at
            print(
                json.dumps(
                    {
                        "rooms_lost": len(lost),
                        "takeover_s": round(takeover, 2),
                        "clients_back_s": round(resumed, 2),
                    }
                )
            )
            assert takeover <= TAKEOVER_BOUND

            # A rolling restart: SIGTERM hands a node's rooms over at once, nothing is lost.
            owners = await nodes.owners(codes)
            live = [c.code for c in watchers if not c.finished]
            leaving = max(
                (n for n in NODES if n != victim), key=lambda n: [owners[c] for c in live].count(n)
            )
            moving = [c for c in live if owners[c] == leaving]
            stopped_at = time.monotonic()
            nodes.processes[leaving].send_signal(signal.SIGTERM)
            await nodes.until_none_owned_by(leaving, moving, TAKEOVER_BOUND)
            handover = time.monotonic() - stopped_at
            assert handover < LEASE_SECONDS  # handed over, not left to expire
            # uvicorn ends by raising the signal again, after its graceful shutdown
            assert await asyncio.to_thread(nodes.processes[leaving].wait, 20) == -signal.SIGTERM
            await all_finish(http, [*players, *watchers], tasks)
            # How long each client of a moved room was without it (a measurement, not a bound).
            away = sorted(
                gap
                for c in [*players, *watchers]
                if c.code in moving
                for at, gap in c.back_after
                if at >= stopped_at
            )
            print(
                json.dumps(
                    {
                        "rooms_handed_over": len(moving),
                        "handover_s": round(handover, 2),
                        "client_gap_p50_s": round(away[len(away) // 2], 3) if away else None,
                        "client_gap_max_s": round(away[-1], 3) if away else None,
                        "redirects": sum(c.redirects for c in [*players, *watchers]),
                    }
                )
            )
        finally:
            for task in tasks:
                task.cancel()
        await check_records(http, players, watchers)


async def test_a_frozen_node_s_late_act_is_refused_and_its_clients_move(cluster_url: str) -> None:
    """SIGSTOP the owner of a person's room while the person is to act, and let the person act
    into the frozen node; once the room is taken over elsewhere, SIGCONT: the late act is refused
    (the node lost the room: the database fences its write, or the room is already dropped),
    and the node's clients reconnect to the new owner and finish their matches."""
    async with (
        cluster(cluster_url) as nodes,
        httpx.AsyncClient(base_url=nodes.url, follow_redirects=True, timeout=20) as http,
    ):
        players, watchers = await open_rooms(http, nodes, bot_rooms=2, people=1)
        (person,) = players
        owners = await nodes.owners([w.code for w in watchers])
        victim = owners[person.code]
        lost = [c for c, n in owners.items() if n == victim]
        person.go.clear()
        tasks = [asyncio.create_task(c.run()) for c in [*players, *watchers]]
        try:
            await asyncio.wait_for(person.to_act.wait(), 30)
            nodes.processes[victim].send_signal(signal.SIGSTOP)
            frozen_at = time.monotonic()
            person.go.set()  # its act reaches the frozen node's socket, unread
            await until(lambda: person.sent_while_held, 5)
            await nodes.until_none_owned_by(victim, lost, TAKEOVER_BOUND)
            takeover = time.monotonic() - frozen_at
            nodes.processes[victim].send_signal(signal.SIGCONT)
            await all_finish(http, [*players, *watchers], tasks)

        finally:
            for task in tasks:
                task.cancel()
        print(json.dumps({"rooms_lost": len(lost), "takeover_s": round(takeover, 2)}))
        assert takeover <= TAKEOVER_BOUND
        assert person.held_reply in ("server_error", "room_closed", None), person.held_reply
        assert person.connections >= 2  # it ended up on the new owner
        assert (await nodes.owners([person.code]))[person.code] != victim
        metrics = httpx.get(f"{nodes.node_url(victim)}/metrics").text
        print([line for line in metrics.splitlines() if "fenced" in line])
        await check_records(http, players, watchers)
