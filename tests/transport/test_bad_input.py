"""Bad input over the WebSocket: each gets a stable code, changes nothing, and the connection
and the game go on."""

from __future__ import annotations

import json
import logging
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


async def until_a_person_is_to_act(client: WsClient) -> None:
    """The bots (seats 2, 3 of ``started_room``) move at once; then the table waits for one of
    the two people, and nothing changes the room until somebody acts."""
    while latest_deal(client)[1]["turn"] not in (0, 1):
        await client.recv()


async def test_malformed_frames_get_stable_codes_and_change_nothing(
    server: Server, http: httpx.AsyncClient
) -> None:
    code, host, _guest = await started_room(http)
    async with ws_client(server, code, host.token) as client:
        await until_a_person_is_to_act(client)
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
            # A version from the future is not "at least the current one": it is refused.
            (json.dumps({"t": "act", "id": "4", "v": 10**15, "d": {"bid": "pass"}}), "bad_version"),
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
        watcher = clients[0]
        await until_a_person_is_to_act(watcher)
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
        junk = await client.reply(await client.send("hello", {"token": "a\x00b"}))
        assert junk["d"]["code"] == "bad_message"  # not looked up: PostgreSQL refuses a NUL
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


async def test_every_frame_beyond_the_rate_gets_its_own_refusal_and_the_connection_lives(
    strict_server: Server,
) -> None:
    """A client waiting for the reply to a command it sent too fast gets it: rate_limited,
    with the command's id (one reply per command, the limiter's refusals included)."""
    async with httpx.AsyncClient(base_url=strict_server.url) as http:
        code, host, _guest = await started_room(http)
        async with ws_client(strict_server, code, host.token) as client:
            sent = [await client.send("ping") for _ in range(30)]
            replies = [await client.reply(command_id) for command_id in sent]
            # The burst allowance (5, one already spent on hello) is answered, then refusals.
            assert [f["t"] for f in replies] == ["ack"] * 4 + ["error"] * 26
            assert {f["d"]["code"] for f in replies[4:]} == {"rate_limited"}
            await client.ws.send("{not json")  # refused before it is read: no id to echo
            assert (await client.until("error"))["d"] == {
                "id": None,
                "code": "rate_limited",
                "message": "Too many frames: slow down.",
            }
            # The connection is still open and answering (a protocol-level ping/pong).
            pong = await client.ws.ping()
            await pong


async def test_frames_that_break_the_decoder_or_the_encoder_are_refused_one_line_each(
    server: Server, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Ids beyond what JSON readers hold exactly, lone surrogates, deep nesting: each gets
    bad_message (no id echoed: it is the bad part), the act is not applied, the connection
    stays open, and nothing is logged with a traceback."""
    for name in ("uvicorn.error", "app"):  # uvicorn's loggers do not reach the root's
        logging.getLogger(name).addHandler(caplog.handler)
    try:
        code, host, _guest = await started_room(http)
        async with ws_client(server, code, host.token) as client:
            await until_a_person_is_to_act(client)
            before = await room_version(http, code)
            v = client.version
            cases = [
                f'{{"t": "act", "id": {2**64}, "v": {v}, "d": {{"bid": "pass"}}}}',
                f'{{"t": "act", "id": {2**53}, "v": {v}, "d": {{"bid": "pass"}}}}',
                f'{{"t": "act", "id": -{2**63 + 1}, "v": {v}, "d": {{"bid": "pass"}}}}',
                f'{{"t": "act", "id": "\\ud800", "v": {v}, "d": {{"bid": "pass"}}}}',
                '{"t": "ping", "id": true, "d": {}}',
                '{"t": "ping", "id": 1.0, "d": {}}',
                '{"t": "chat", "id": "c", "d": {"text": "\\udc00 hi"}}',
                '{"t": "ping", "id": "p", "d": {"x": 1e400}}',
                '{"t": "ping", "id": "p", "d": {"x": ' + "[" * 1500 + "]" * 1500 + "}}",
            ]
            for text in cases:
                error = await raw_error(client, text)
                assert (error["code"], error["id"]) == ("bad_message", None), (text, error)
            await client.ws.send(json.dumps({"t": "ping", "id": 2**53 - 1, "d": {}}))
            assert (await client.until("ack"))["d"]["id"] == 2**53 - 1
            assert await room_version(http, code) == before
        assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    finally:
        for name in ("uvicorn.error", "app"):
            logging.getLogger(name).removeHandler(caplog.handler)


async def test_junk_in_the_room_code_is_an_unknown_room_before_any_lookup(
    server: Server,
) -> None:
    """A NUL byte in the path reached PostgreSQL (which refuses it) and closed with 1006."""
    for junk in ("ab%00cd", "x" * 33, "%F0%9F%83%8F", "a%20b"):
        async with connect(f"{server.ws_url}/ws/rooms/{junk}") as ws:
            frame = json.loads(await ws.recv())
            assert frame["d"]["code"] == "unknown_room", junk
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


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
