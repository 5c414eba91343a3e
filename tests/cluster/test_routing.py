"""Two nodes of a cluster in one process (PostgreSQL): the one that does not serve a room sends
its clients to the one that does, on the WebSocket (close 4307 + the node id) and on REST (307
to the same URL with ?node=), a player's rooms are listed by any node, and an address's
WebSockets are counted over both nodes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.main import create_app
from app.rooms.watching import watch_code
from app.settings import Settings
from tests.conftest import fast_settings, new_account, new_guest, serve, ws_client

CLOSE_ELSEWHERE = 4307
CLOSE_TOO_MANY = 4429
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def node_settings(postgres_url: str) -> Settings:
    """A cluster of nodes needs PostgreSQL: without it these tests skip once, saying so."""
    return fast_settings(postgres_url)


def test_a_node_id_needs_postgresql() -> None:
    sqlite = Settings(database_url="sqlite+aiosqlite:///./x.sqlite3", node_id="n1")
    with pytest.raises(ValueError, match="needs a PostgreSQL database"):
        create_app(sqlite)


async def test_the_other_node_sends_clients_to_the_owner(node_settings: Settings) -> None:
    a_settings = node_settings.model_copy(update={"node_id": "a"})
    b_settings = node_settings.model_copy(update={"node_id": "b"})
    async with serve(a_settings) as a, serve(b_settings) as b:
        async with httpx.AsyncClient(base_url=a.url) as http_a:
            host = await new_guest(http_a, "Host")
            created = await http_a.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=host.auth)
            code = created.json()["room"]["code"]
        async with httpx.AsyncClient(base_url=b.url) as http_b:
            moved = await http_b.post(f"/api/rooms/{code}/start", headers=host.auth)
            assert moved.status_code == 307
            assert moved.headers["location"] == f"{b.url}/api/rooms/{code}/start?node=a"
            assert (await http_b.get("/api/rooms/nosuchroom")).status_code == 404

        with pytest.raises(ConnectionClosed) as closed:
            async with connect(f"{b.ws_url}/ws/rooms/{code}") as ws:
                await ws.recv()  # no frame: the close comes first
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (CLOSE_ELSEWHERE, "a")

        async with ws_client(a, code, host.token) as client:  # the owner serves it
            assert client.frames[0]["t"] == "snapshot"

        # A watch code is sent to the owner the same way, and the way there names no code.
        watch = watch_code(code)
        async with httpx.AsyncClient(base_url=b.url) as http_b:
            moved = await http_b.get(f"/api/rooms/{watch}")
            assert moved.status_code == 307
            assert moved.headers["location"] == f"{b.url}/api/rooms/{watch}?node=a"
            assert code not in moved.text
        with pytest.raises(ConnectionClosed) as closed:
            async with connect(f"{b.ws_url}/ws/rooms/{watch}") as ws:
                await ws.recv()
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (CLOSE_ELSEWHERE, "a")
        async with ws_client(a, watch) as watcher:
            assert watcher.frames[0]["d"]["room"]["code"] == watch


async def test_a_player_s_rooms_are_listed_by_any_node(node_settings: Settings) -> None:
    """The player's open rooms are on several nodes: each node lists them all (it answered
    307 to the owner of the first room it did not serve, which could not list the others)."""
    a_settings = node_settings.model_copy(update={"node_id": "a"})
    b_settings = node_settings.model_copy(update={"node_id": "b"})
    async with serve(a_settings) as a, serve(b_settings) as b:
        async with httpx.AsyncClient(base_url=a.url) as http_a:
            host = await new_guest(http_a, "Host")
            body = {"bots": [1, 2, 3]}
            on_a = (await http_a.post("/api/rooms", json=body, headers=host.auth)).json()
        async with httpx.AsyncClient(base_url=b.url) as http_b:
            on_b = (await http_b.post("/api/rooms", json=body, headers=host.auth)).json()
            listed = await http_b.get("/api/players/me/rooms", headers=host.auth)
        assert listed.status_code == 200, listed.text
        codes = {room["code"]: room["your_seat"] for room in listed.json()}
        assert codes == {on_a["room"]["code"]: 0, on_b["room"]["code"]: 0}


async def test_an_address_s_websockets_are_bounded_over_every_node(node_settings: Settings) -> None:
    """Two nodes behind a round robin, one WebSocket allowed per address: the second socket,
    on the other node, is refused (it was admitted there, and only then redirected)."""
    redis = Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        await redis.ping()
    except (RedisError, OSError):
        pytest.skip(f"Redis is not reachable at {REDIS_URL} (TEST_REDIS_URL)")
    finally:
        await redis.aclose()
    shared = {
        "redis_url": REDIS_URL,
        "redis_prefix": f"test-{secrets.token_hex(4)}:",
        "ws_per_address": 1,
    }
    a_settings = node_settings.model_copy(update={**shared, "node_id": "a"})
    b_settings = node_settings.model_copy(update={**shared, "node_id": "b"})
    async with serve(a_settings) as a, serve(b_settings) as b:
        async with httpx.AsyncClient(base_url=a.url) as http_a:
            host = await new_guest(http_a, "Host")
            created = await http_a.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=host.auth)
            code = created.json()["room"]["code"]
        async with ws_client(a, code, host.token):
            with pytest.raises(ConnectionClosed) as closed:
                async with connect(f"{b.ws_url}/ws/rooms/{code}") as ws:
                    while True:
                        await ws.recv()
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == CLOSE_TOO_MANY


async def test_an_account_is_erased_across_the_nodes_serving_its_tables(
    node_settings: Settings,
) -> None:
    """Erasing stands the player up at every table first: the node asked leaves those it serves
    and sends the call on (307) to the node serving another, which finishes it."""
    a_settings = node_settings.model_copy(update={"node_id": "a"})
    b_settings = node_settings.model_copy(update={"node_id": "b"})
    async with serve(a_settings) as a, serve(b_settings) as b:
        async with httpx.AsyncClient(base_url=a.url) as http_a:
            zora = await new_account(http_a, "Zora")
            on_a = (await http_a.post("/api/rooms", json={}, headers=zora.auth)).json()
        async with httpx.AsyncClient(base_url=b.url) as http_b:
            on_b = (await http_b.post("/api/rooms", json={}, headers=zora.auth)).json()
            body = {"password": "correct horse battery"}
            moved = await http_b.request("DELETE", "/api/accounts/me", json=body, headers=zora.auth)
            assert moved.status_code == 307, moved.text
            assert moved.headers["location"] == f"{b.url}/api/accounts/me?node=a"
            # b has left its own table already; a's is still taken.
            room_b = (await http_b.get(f"/api/rooms/{on_b['room']['code']}")).json()["room"]
            assert room_b["seats"][0]["player"] is None
        async with httpx.AsyncClient(base_url=a.url) as http_a:  # where the proxy sends it
            done = await http_a.request(
                "DELETE", "/api/accounts/me?node=a", json=body, headers=zora.auth
            )
            assert done.status_code == 204, done.text
            room_a = (await http_a.get(f"/api/rooms/{on_a['room']['code']}")).json()["room"]
            assert room_a["seats"][0]["player"] is None
            gone = await http_a.get("/api/players/me", headers=zora.auth)
            assert gone.status_code == 401


@contextlib.asynccontextmanager
async def a_and_b(node_settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, ...]]:
    """Two nodes and a client of each; b reads the players changed through a every 50 ms."""
    a_settings = node_settings.model_copy(update={"node_id": "a"})
    b_settings = node_settings.model_copy(update={"node_id": "b", "token_check_seconds": 0.05})
    async with (
        serve(a_settings) as a,
        serve(b_settings) as b,
        httpx.AsyncClient(base_url=a.url) as http_a,
        httpx.AsyncClient(base_url=b.url) as http_b,
    ):
        yield http_a, http_b


async def b_comes_to_show(
    http_b: httpx.AsyncClient, code: str, shows: Callable[[Any], bool]
) -> None:
    """Wait, 10 s at most, for b's ROOM of ``code`` to be as ``shows`` asks (b's next round)."""
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        room = (await http_b.get(f"/api/rooms/{code}")).json()["room"]
        if shows(room):
            return
        assert asyncio.get_running_loop().time() < deadline, room
        await asyncio.sleep(0.05)  # a wait for b's round, not a race


async def test_a_node_forgets_a_player_erased_through_another(node_settings: Settings) -> None:
    """A table b serves, from which the host removed Zora, still named her in memory after she
    was erased through a (she held no seat there, so a had nothing to send on to b); b now
    forgets her at its next round (``app.db.player_news``: ``token_check_seconds``)."""
    async with a_and_b(node_settings) as (http_a, http_b):
        host, zora = await new_account(http_b, "Host"), await new_account(http_b, "Zora")
        code = (await http_b.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
        assert (await http_b.put(f"/api/rooms/{code}/seats/1", headers=zora.auth)).is_success
        removed = await http_b.delete(f"/api/rooms/{code}/seats/1", headers=host.auth)
        assert removed.json()["room"]["removed"] == [{"id": zora.id, "name": "Zora"}]
        body = {"password": "correct horse battery"}
        gone = await http_a.request("DELETE", "/api/accounts/me", json=body, headers=zora.auth)
        assert gone.status_code == 204, gone.text
        await b_comes_to_show(
            http_b, code, lambda room: room["removed"] == [{"id": zora.id, "name": None}]
        )


async def test_a_node_shows_a_player_renamed_through_another(node_settings: Settings) -> None:
    """Yann sits at a table b serves and renames himself through a: b shows the new name at
    his seat at its next round (``app.db.player_news``)."""
    async with a_and_b(node_settings) as (http_a, http_b):
        host, yann = await new_guest(http_b, "Host"), await new_guest(http_b, "Yann")
        code = (await http_b.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
        assert (await http_b.put(f"/api/rooms/{code}/seats/1", headers=yann.auth)).is_success
        renamed = await http_a.patch("/api/players/me", json={"name": "Yannick"}, headers=yann.auth)
        assert renamed.status_code == 200, renamed.text
        await b_comes_to_show(
            http_b,
            code,
            lambda room: room["seats"][1]["player"] == {"id": yann.id, "name": "Yannick"},
        )
