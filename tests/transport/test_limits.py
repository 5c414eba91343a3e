"""What one address, one guest or one connection may cost the server, through a real uvicorn:
connections per address and in total, the deadline for hello, flooding, chat per guest and per
room, and the chat a room keeps. Each refusal is an error frame with a stable code, then (for
connections) a close with the documented close code (docs/protocol.md §4)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.db import models as m
from app.db.engine import make_engine
from app.settings import Settings
from tests.conftest import Server, new_guest, serve, ws_client


@asynccontextmanager
async def serving(settings: Settings, **limits: Any) -> AsyncIterator[Server]:
    async with serve(settings.model_copy(update=limits)) as running:
        yield running


async def new_room(http: httpx.AsyncClient) -> tuple[str, str]:
    """A waiting room and its host's token."""
    host = await new_guest(http, "Host")
    created = await http.post("/api/rooms", json={"seat": 0}, headers=host.auth)
    return created.json()["room"]["code"], host.token


async def refused(
    ws: ClientConnection, seen: list[dict[str, Any]] | None = None
) -> tuple[str, int]:
    """The error code a refused client is sent, and the close code that follows it; the frames
    before it (a hello_first, say) are put in ``seen``."""
    frames = [] if seen is None else seen
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    assert closed.value.rcvd is not None
    last = frames[-1]
    assert last["t"] == "error" and last["d"]["id"] is None, last
    return last["d"]["code"], closed.value.rcvd.code


async def test_one_address_holds_at_most_its_share_of_connections(settings: Settings) -> None:
    async with (
        serving(settings, ws_per_address=2) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, _token = await new_room(http)
        url = f"{server.ws_url}/ws/rooms/{code}"
        async with connect(url), connect(url), connect(url) as third:
            assert await refused(third) == ("too_many_connections", 4429)


async def test_the_total_is_bounded_and_healthz_still_answers(settings: Settings) -> None:
    """With every WebSocket the server takes open, one more is refused, and HTTP still has
    its own connections (uvicorn's limit_concurrency is above the WebSocket bound)."""
    async with (
        serving(settings, ws_max_connections=2, http_concurrency=2) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, _token = await new_room(http)
        url = f"{server.ws_url}/ws/rooms/{code}"
        async with connect(url), connect(url), connect(url) as third:
            assert await refused(third) == ("server_busy", 1013)
            assert (await http.get("/healthz")).status_code == 200
            # Past both (2 WebSockets + 2 HTTP connections), uvicorn itself refuses: 503.
            assert await healthz_on_a_new_connection(server) == 503


async def healthz_on_a_new_connection(server: Server) -> int:
    """The status of GET /healthz on a connection of its own (counted before it is read)."""
    host, port = server.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        status_line = await asyncio.wait_for(reader.readline(), 10)
    finally:
        writer.close()
    return int(status_line.split()[1])


async def test_a_socket_that_does_not_say_hello_in_time_is_closed(settings: Settings) -> None:
    """Frames other than a successful hello do not hold the deadline off."""
    async with (
        serving(settings, hello_seconds=0.5) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, _token = await new_room(http)
        async with connect(f"{server.ws_url}/ws/rooms/{code}") as ws:
            await ws.send(json.dumps({"t": "ping", "id": 1, "d": {}}))
            await ws.send(json.dumps({"t": "hello", "id": 2, "d": {"token": "forged"}}))
            assert await refused(ws) == ("hello_timeout", 4408)
        async with ws_client(server, code) as greeted:  # who says hello in time stays
            assert (await greeted.reply(await greeted.send("ping")))["t"] == "ack"


async def test_a_connection_that_keeps_flooding_after_it_was_told_is_closed(
    settings: Settings,
) -> None:
    async with (
        serving(settings, rate_per_second=1.0, rate_burst=5, flood_refusals=10) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, token = await new_room(http)
        async with ws_client(server, code, token) as flooder:
            for _ in range(40):
                await flooder.send("ping")
            seen: list[dict[str, Any]] = []
            assert await refused(flooder.ws, seen) == ("flooding", 1008)
            told = [f for f in seen if f["t"] == "error"]
            assert len(told) == 12 and told[0]["d"]["code"] == "rate_limited"
        async with ws_client(server, code, token) as again:  # the guest may come back
            assert (await again.reply(await again.send("ping")))["t"] == "ack"


async def test_chat_is_limited_per_guest_across_sockets_and_per_room(settings: Settings) -> None:
    async with (
        serving(
            settings,
            chat_burst=3,
            chat_per_second=0.001,
            room_chat_burst=5,
            room_chat_per_second=0.001,
        ) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, token = await new_room(http)
        other = await new_guest(http, "Other")
        seated = await http.put(f"/api/rooms/{code}/seats/1", headers=other.auth)
        assert seated.status_code == 200  # spectators do not chat
        async with AsyncExitStack() as stack:
            one, two, three = [
                await stack.enter_async_context(ws_client(server, code, t))
                for t in (token, token, other.token)
            ]
            two._next_id = 100  # ids are the guest's: the second socket must not repeat them

            async def say(client: Any) -> str:
                reply = await client.reply(await client.send("chat", {"text": "hi"}))
                return "ack" if reply["t"] == "ack" else str(reply["d"]["code"])

            # The host's two sockets share one allowance of 3.
            host_lines = [await say(c) for c in (one, two, one, two)]
            assert host_lines == ["ack", "ack", "ack", "rate_limited"]
            # The room's allowance of 5 holds two more lines, whoever says them.
            assert [await say(three) for _ in range(3)] == ["ack", "ack", "rate_limited"]


async def test_a_room_keeps_only_its_last_chat_lines_in_the_database(settings: Settings) -> None:
    async with (
        serving(settings, chat_history=3, chat_burst=100, room_chat_burst=100) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, token = await new_room(http)
        async with ws_client(server, code, token) as client:
            for n in range(7):
                said = await client.reply(await client.send("chat", {"text": f"line {n}"}))
                assert said["t"] == "ack"
        async with ws_client(server, code, token) as later:
            shown = [c["text"] for c in later.frames[0]["d"]["chat"]]
        assert shown == ["line 4", "line 5", "line 6"]
    engine = make_engine(settings.database_url)
    try:
        async with engine.connect() as connection:
            stored = await connection.scalar(
                select(func.count())
                .select_from(m.ChatMessage)
                .join(m.Room, m.Room.id == m.ChatMessage.room_id)
                .where(m.Room.code == code)
            )
    finally:
        await engine.dispose()
    assert stored == 3


async def test_a_room_that_cannot_be_loaded_is_a_server_error_and_a_close_to_retry(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage down while a room is loaded for a new socket: the client is told `server_error`
    (nothing of the cause) and the close says "try again later" (1013), not a bare 1011."""
    async with serving(settings) as server, httpx.AsyncClient(base_url=server.url) as http:
        code, _token = await new_room(http)
        manager = server.app.state.services.rooms
        assert await manager.evict_idle(time.monotonic() + 3600) == [code]

        async def broken(_code: str) -> None:
            raise OSError("SELECT * FROM rooms WHERE code = 'secret': database is locked")

        monkeypatch.setattr(manager, "_load", broken)
        async with connect(f"{server.ws_url}/ws/rooms/{code}") as ws:
            seen: list[dict[str, Any]] = []
            error, close = await refused(ws, seen)
        assert (error, close) == ("server_error", 1013)
        assert "SELECT" not in json.dumps(seen)
