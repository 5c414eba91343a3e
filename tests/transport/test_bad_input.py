"""Bad input over the WebSocket: each gets a stable code, changes nothing, and the connection
and the game go on."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.settings import Settings
from tests.conftest import Guest, Server, WsClient, new_guest, serve, ws_client


async def started_room(http: httpx.AsyncClient) -> tuple[str, Guest, Guest]:
    """A started room: host in seat 0, a guest in seat 1, bots in 2 and 3."""
    host, guest = await new_guest(http, "Host"), await new_guest(http, "Guest")
    created = await http.post(
        "/api/rooms", json={"bots": [2, 3], "turn_seconds": 0}, headers=host.auth
    )
    code = created.json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/1", headers=guest.auth)).status_code == 200
    assert (await http.post(f"/api/rooms/{code}/start", headers=host.auth)).status_code == 200
    return code, host, guest


async def room_version(http: httpx.AsyncClient, code: str) -> int:
    version: int = (await http.get(f"/api/rooms/{code}")).json()["v"]
    return version


async def raw_error(client: WsClient, text: str | bytes) -> dict[str, Any]:
    await client.ws.send(text)
    return (await client.until("error"))["d"]


def latest_deal(client: WsClient) -> tuple[int, dict[str, Any]]:
    for frame in reversed(client.frames):
        if frame.get("d", {}).get("deal"):
            return frame["v"], frame["d"]["deal"]
    raise AssertionError("no deal seen")


async def test_malformed_frames_get_stable_codes_and_change_nothing(
    server: Server, http: httpx.AsyncClient
) -> None:
    code, host, _guest = await started_room(http)
    async with ws_client(server, code, host.token) as client:
        before = await room_version(http, code)
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            (json.dumps({"t": "act", "d": {"bid": "pass"}}), "bad_message"),  # no id
            (json.dumps({"t": "act", "id": "1", "v": 0, "d": {"bid": 5}}), "bad_message"),
            (json.dumps({"t": "act", "id": "1", "d": {"bid": "pass"}}), "bad_message"),  # no v
            (json.dumps({"t": "act", "id": "1", "v": 0, "d": {"jump": 1}}), "bad_message"),
            (json.dumps({"t": "teleport", "id": "1", "d": {}}), "unknown_type"),
            (json.dumps({"t": "chat", "id": "x" * 65, "d": {"text": "hi"}}), "bad_message"),
            (json.dumps({"t": "ping", "id": "1", "d": {"pad": "x" * 5000}}), "frame_too_large"),
            (b"\x00\x01binary", "bad_message"),
            (json.dumps({"t": "hello", "id": "2", "d": {}}), "already_joined"),
            (json.dumps({"t": "act", "id": "3", "v": 0, "d": {"play": "ZZ"}}), "stale"),
        ]
        for text, expected in cases:
            error = await raw_error(client, text)
            assert error["code"] == expected, (text, error)
            assert error["message"]
        assert await room_version(http, code) == before
        ping = await client.send("ping")
        assert (await client.reply(ping))["t"] == "ack"


async def test_illegal_and_out_of_turn_actions_are_refused(
    server: Server, http: httpx.AsyncClient
) -> None:
    code, host, guest = await started_room(http)
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(ws_client(server, code, g.token)) for g in (host, guest)
        ]
        # The bots (seats 2, 3) move at once; the table then waits for one of the two people.
        watcher = clients[0]
        while latest_deal(watcher)[1]["turn"] not in (0, 1):
            await watcher.recv()
        _, deal = latest_deal(watcher)
        v = watcher.version
        actor, idle = clients[deal["turn"]], clients[1 - deal["turn"]]
        before = await room_version(http, code)
        refusals = [
            (idle, {"bid": "pass"}, "not_your_turn"),
            (actor, {"seat": 1 - deal["turn"], "bid": "pass"}, "not_your_seat"),
            (actor, {"bid": "take"}, "illegal_bid"),  # a French call in a Bulgarian deal
            (actor, {"play": deal["hand"][0]}, "wrong_phase"),  # still bidding
            (actor, {"play": "7C", "declare": [["7C", "8C"]]}, "wrong_phase"),
        ]
        for client, data, expected in refusals:
            refused = await client.reply(await client.send("act", data, v=v))
            assert refused["t"] == "error" and refused["d"]["code"] == expected, refused
            if expected != "not_your_seat":  # the engine's refusals name the rule
                assert refused["d"]["rule"]
        assert await room_version(http, code) == before
        done = await actor.reply(await actor.send("act", {"bid": "pass"}, v=v))
        assert done["t"] == "ack" and done["d"]["v"] > before


async def test_tokens_rooms_and_spectators(server: Server, http: httpx.AsyncClient) -> None:
    code, _host, _guest = await started_room(http)
    async with connect(f"{server.ws_url}/ws/rooms/nope") as ws:
        frame = json.loads(await ws.recv())
        assert frame["d"]["code"] == "unknown_room"
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    async with connect(f"{server.ws_url}/ws/rooms/{code}") as ws:
        client = WsClient(ws)
        early = await client.reply(await client.send("act", {"bid": "pass"}, v=0))
        assert early["d"]["code"] == "hello_first"
        wrong = await client.reply(await client.send("hello", {"token": "forged"}))
        assert wrong["d"]["code"] == "bad_token"
        hello = await client.reply(await client.send("hello", {}))
        assert hello["t"] == "ack"
        watching = await client.reply(await client.send("act", {"bid": "pass"}, v=hello["d"]["v"]))
        assert watching["d"]["code"] == "not_authenticated"
        chat = await client.reply(await client.send("chat", {"text": "hi"}))
        assert chat["d"]["code"] == "not_authenticated"
    # A stranger with a valid token is a spectator, not a player.
    stranger = await new_guest(http, "Stranger")
    async with ws_client(server, code, stranger.token) as client:
        refused = await client.reply(await client.send("act", {"bid": "pass"}, v=client.version))
        assert refused["d"]["code"] == "not_seated"
        said = await client.reply(await client.send("chat", {"text": "good luck"}))
        assert said["d"]["code"] == "not_seated"  # the chat is the players' (issue 11)


@pytest.fixture
async def strict_server(settings: Settings) -> AsyncIterator[Server]:
    strict = settings.model_copy(
        update={"rate_per_second": 1.0, "rate_burst": 5, "ws_max_bytes": 8192}
    )
    async with serve(strict) as running:
        yield running


async def test_a_flood_is_refused_once_and_the_connection_lives(
    strict_server: Server,
) -> None:
    async with httpx.AsyncClient(base_url=strict_server.url) as http:
        code, host, _guest = await started_room(http)
        async with ws_client(strict_server, code, host.token) as client:
            for _ in range(30):
                await client.send("ping")
            replies = []
            while len(replies) < 5:
                frame = await client.recv()
                if frame["t"] in ("ack", "error"):
                    replies.append(frame)
            # The burst allowance (5, one already spent on hello) is answered, then one refusal.
            assert [f["t"] for f in replies] == ["ack"] * 4 + ["error"]
            assert replies[-1]["d"]["code"] == "rate_limited"
            # The connection is still open and answering (a protocol-level ping/pong).
            pong = await client.ws.ping()
            await pong


async def test_a_frame_above_the_hard_limit_closes_only_that_connection(
    strict_server: Server,
) -> None:
    async with httpx.AsyncClient(base_url=strict_server.url) as http:
        code, host, _guest = await started_room(http)
        async with ws_client(strict_server, code, host.token) as client:
            await client.ws.send("x" * 20000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        async with ws_client(strict_server, code, host.token) as again:
            ping = await again.send("ping")
            assert (await again.reply(ping))["t"] == "ack"


async def test_a_room_put_away_under_a_new_connection_sends_the_client_back(
    server: Server, http: httpx.AsyncClient
) -> None:
    """The idle sweep may stop a room between a connection's opening and its hello: the client
    is told (room_closed), closed with 1012, and on reconnecting finds the room loaded again."""
    host = await new_guest(http, "Host")
    created = await http.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=host.auth)
    code = created.json()["room"]["code"]
    assert server.app is not None
    manager = server.app.state.services.rooms
    async with connect(f"{server.ws_url}/ws/rooms/{code}") as ws:
        assert await manager.evict_idle(time.monotonic() + 3600) == [code]
        await ws.send(json.dumps({"t": "hello", "id": "h", "d": {"token": host.token}}))
        error = json.loads(await ws.recv())
        assert (error["t"], error["d"]["id"], error["d"]["code"]) == ("error", "h", "room_closed")
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    async with ws_client(server, code, host.token) as client:
        snapshot = client.frames[0]
        assert snapshot["t"] == "snapshot" and snapshot["d"]["room"]["code"] == code
        assert code in manager
