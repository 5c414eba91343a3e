"""Shared fixtures: databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is set), a real
uvicorn serving the app on a free port, and small REST/WebSocket client helpers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from sqlalchemy import delete, text
from websockets.asyncio.client import ClientConnection, connect

from app.__main__ import server_options
from app.db.engine import make_engine
from app.db.migrate import upgrade
from app.db.models import Base
from app.main import create_app
from app.settings import Settings

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


_RESET: set[str] = set()
"""PostgreSQL test databases already emptied of every table in this session."""


async def _migrate(url: str) -> None:
    """Migrate ``url`` to head. A PostgreSQL test database is scratch space: the first time in a
    session its schema is dropped and made anew, so that tables left by another checkout (a
    branch with other migrations, an interrupted run) cannot stand in for this one's."""
    engine = make_engine(url)
    try:
        if url.startswith("postgresql") and url not in _RESET:
            async with engine.begin() as connection:
                await connection.execute(text("DROP SCHEMA public CASCADE"))
                await connection.execute(text("CREATE SCHEMA public"))
            _RESET.add(url)
        await upgrade(engine)
    finally:
        await engine.dispose()


async def _wipe(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # A node's session ends after 3 s idle in a transaction (fencing, app.db.engine);
                # a loaded machine once stalled this wipe that long between two deletes.
                await connection.execute(text("SET LOCAL idle_in_transaction_session_timeout = 0"))
            for table in reversed(Base.metadata.sorted_tables):
                await connection.execute(delete(table))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def migrated_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated database per backend, created once per session."""
    if request.param == "postgresql":
        url = os.environ["TEST_DATABASE_URL"]
    else:
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite3'}"
    asyncio.run(_migrate(url))
    return url


@pytest.fixture
def database_url(migrated_url: str) -> Iterator[str]:
    """The test's database, emptied after the test."""
    yield migrated_url
    asyncio.run(_wipe(migrated_url))


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The PostgreSQL test database alone, migrated and emptied after the test, for what only
    PostgreSQL does (a cluster of nodes); without TEST_DATABASE_URL the test is skipped."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url or not url.startswith("postgresql"):
        pytest.skip("SKIPPED: needs PostgreSQL: set TEST_DATABASE_URL=postgresql+asyncpg://...")
    asyncio.run(_migrate(url))
    yield url
    asyncio.run(_wipe(url))


HAPROXY = shutil.which("haproxy") or next(
    (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.path.exists(p)), None
)
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


@pytest.fixture
def cluster_url(postgres_url: str) -> str:
    """The PostgreSQL database of a cluster of nodes behind HAProxy (tests/test_nodes.py), once
    haproxy and Redis are known to be there."""
    if HAPROXY is None:
        pytest.skip("SKIPPED: the multi-node tests need haproxy (apt-get install haproxy)")
    if not redis_answers(REDIS_URL):
        pytest.skip(f"SKIPPED: the multi-node tests need Redis at {REDIS_URL} (TEST_REDIS_URL)")
    return postgres_url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return fast_settings(database_url)


def fast_settings(database_url: str) -> Settings:
    """Settings for fast tests: bots move at once, no turn timer unless a test asks."""
    return Settings(
        database_url=database_url,
        bot_delay_seconds=0,
        last_card_seconds=0,
        deal_pause_seconds=0,
        default_turn_seconds=0,
        grace_seconds=60,
        rate_per_second=1000,  # test clients play far faster than people; floods test their own
        rate_burst=1000,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    url: str
    settings: Settings
    app: FastAPI | None = None  # in-process servers only: lets a test reach the services

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")


@contextlib.asynccontextmanager
async def serve(settings: Settings) -> AsyncIterator[Server]:
    """A real uvicorn serving ``create_app(settings)`` in this event loop, on a free port, with
    the options ``python -m app`` gives it."""
    port = free_port()
    app = create_app(settings)
    options = {**server_options(settings), "host": "127.0.0.1", "port": port}
    config = uvicorn.Config(app, **options | {"log_level": "warning"}, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", settings, app)
    finally:
        server.should_exit = True
        await task


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[Server]:
    async with serve(settings) as running:
        yield running


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url) as client:
        yield client


@dataclass
class Guest:
    id: str
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def new_guest(http: httpx.AsyncClient, name: str) -> Guest:
    response = await http.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return Guest(body["id"], body["name"], body["token"])


async def new_account(http: httpx.AsyncClient, name: str) -> Guest:
    """A guest made an account (its token signed in), as rated play asks of every seat."""
    guest = await new_guest(http, name)
    body = {"username": f"{name}-{guest.id}"[:32], "password": "correct horse battery"}
    response = await http.post("/api/accounts", json=body, headers=guest.auth)
    assert response.status_code == 201, response.text
    return guest


@dataclass
class WsClient:
    """A test client that keeps every frame it received, for the leak scan."""

    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    _next_id: int = 0

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        if "v" in frame:
            self.version = frame["v"]
        return frame

    async def send(self, t: str, d: dict[str, Any] | None = None, **extra: Any) -> str:
        self._next_id += 1
        command_id = f"c{self._next_id}"
        await self.ws.send(json.dumps({"t": t, "id": command_id, "d": d or {}, **extra}))
        return command_id

    async def until(self, t: str, command_id: str | None = None) -> dict[str, Any]:
        """Receive frames until one of type ``t`` (with that id, for ack/error) arrives."""
        while True:
            frame = await self.recv()
            if frame["t"] == t and (command_id is None or frame["d"].get("id") == command_id):
                return frame

    async def reply(self, command_id: str) -> dict[str, Any]:
        """The ack or error for ``command_id``."""
        while True:
            frame = await self.recv()
            if frame["t"] in ("ack", "error") and frame["d"].get("id") == command_id:
                return frame


@contextlib.asynccontextmanager
async def ws_client(
    server: Server, code: str, token: str | None = None, version: int | None = None
) -> AsyncIterator[WsClient]:
    """Connected and greeted: the hello's ack has been received."""
    async with connect(f"{server.ws_url}/ws/rooms/{code}", max_size=2**22) as ws:
        client = WsClient(ws)
        data: dict[str, Any] = {}
        if token is not None:
            data["token"] = token
        if version is not None:
            data["v"] = version
        command_id = await client.send("hello", data)
        reply = await client.reply(command_id)
        assert reply["t"] == "ack", reply
        yield client
