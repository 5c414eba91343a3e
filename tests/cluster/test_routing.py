"""Two nodes of a cluster in one process (PostgreSQL): the one that does not serve a room sends
its clients to the one that does, on the WebSocket (close 4307 + the node id) and on REST (307
to the same URL with ?node=), and a stopping node hands its rooms over."""

from __future__ import annotations

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.main import create_app
from app.settings import Settings
from tests.conftest import new_guest, serve, ws_client

CLOSE_ELSEWHERE = 4307


@pytest.fixture
def node_settings(settings: Settings) -> Settings:
    if not settings.database_url.startswith("postgresql"):
        pytest.skip("a cluster of nodes needs PostgreSQL (set TEST_DATABASE_URL)")
    return settings


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
