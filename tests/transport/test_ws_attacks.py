"""The WebSocket under attack: what a hostile client tries, beyond tests/transport/test_bad_input.py
and test_limits.py. Each refusal has a stable code and changes nothing, every command gets
exactly one reply, and what one client spends cannot silence others or grow without bound."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any, cast

import httpx
from fastapi import WebSocket

from app.settings import Settings
from app.transport.ws import CLOSE_TOO_SLOW, Connection, WireLimits
from tests.conftest import Server, WsClient, new_guest, serve, ws_client


async def room_version(http: httpx.AsyncClient, code: str) -> int:
    version: int = (await http.get(f"/api/rooms/{code}")).json()["v"]
    return version


async def new_room(http: httpx.AsyncClient, **body: Any) -> tuple[str, str]:
    """A waiting room (its host in seat 0) and its host's token."""
    host = await new_guest(http, "Host")
    created = await http.post("/api/rooms", json=body, headers=host.auth)
    assert created.status_code == 201, created.text
    return created.json()["room"]["code"], host.token


async def say(client: WsClient, text: str) -> str:
    reply = await client.reply(await client.send("chat", {"text": text}))
    return "ack" if reply["t"] == "ack" else str(reply["d"]["code"])


async def test_spectators_refused_chat_lines_do_not_silence_the_table(settings: Settings) -> None:
    """A spectator's chat is refused (not_seated), but it used to spend the room's chat
    allowance first: a few guests watching a public room, at their own guest rate, kept its
    players from saying anything (rate_limited) without ever writing a line."""
    limits = {
        "chat_burst": 3,
        "chat_per_second": 0.001,  # no allowance comes back during the test
        "room_chat_burst": 6,
        "room_chat_per_second": 0.001,
    }
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, host_token = await new_room(http)
        for n in range(2):
            watcher = await new_guest(http, f"Watcher {n}")
            async with ws_client(server, code, watcher.token) as client:
                # Each within the watcher's own allowance of 3, and refused by the room.
                assert [await say(client, "spam") for _ in range(2)] == ["not_seated"] * 2
                assert await say(client, "   ") == "bad_chat"
        async with ws_client(server, code, host_token) as host:
            assert await say(host, "   ") == "bad_chat"  # refused: costs nothing either
            said = [await say(host, f"line {n}") for n in range(4)]
            # The table's allowance is whole; the host's own allowance of 3 holds.
            assert said == ["ack", "ack", "ack", "rate_limited"]


async def test_values_of_the_wrong_json_type_are_bad_message_and_change_nothing(
    server: Server, http: httpx.AsyncClient
) -> None:
    """``"seat": "1"``, ``"seat": true``, ``"on": "off"``, ``"v": "5"``… were coerced by
    pydantic's lax mode and run as 1, 1, False, 5: a malformed frame moved a player, seated or
    removed a bot. Each is bad_message now, with the command's id, as in REST bodies."""
    code, host_token = await new_room(http, bots=[3])
    async with ws_client(server, code, host_token) as host:
        before = await room_version(http, code)
        frames: list[dict[str, Any]] = [
            {"t": "sit", "d": {"seat": "1"}},
            {"t": "sit", "d": {"seat": True}},
            {"t": "sit", "d": {"seat": 2.0}},
            {"t": "bot", "d": {"seat": 1, "on": "yes"}},
            {"t": "bot", "d": {"seat": 1, "on": 1}},
            {"t": "bot", "d": {"seat": 3, "on": "off"}},
            {"t": "bot", "d": {"seat": "2"}},
            {"t": "start", "d": {"fill_with_bots": "true"}},
            {"t": "concede", "d": {"on": 1}},
            {"t": "act", "v": "5", "d": {"bid": "pass"}},
            {"t": "act", "v": 0, "d": {"bid": "pass", "seat": False}},
            {"t": "act", "v": 0, "d": {"play": "AS", "belote": "yes"}},
            {"t": "hello", "d": {"v": "3"}},
            {"t": "ping", "v": True, "d": {}},
            {"t": "chat", "d": {"text": 5}},
        ]
        for n, frame in enumerate(frames):
            command_id = f"typed-{n}"
            await host.ws.send(json.dumps({**frame, "id": command_id}))
            reply = await host.reply(command_id)
            assert (reply["t"], reply["d"].get("code")) == ("error", "bad_message"), (frame, reply)
            assert reply["d"]["message"]
        assert await room_version(http, code) == before
        room = (await http.get(f"/api/rooms/{code}")).json()["room"]
        assert [(s["player"] is not None, s["bot"]) for s in room["seats"]] == [
            (True, False),
            (False, False),
            (False, False),
            (False, True),
        ]
        assert room["status"] == "waiting"
        # Well typed, the same commands run.
        sat = await host.reply(await host.send("sit", {"seat": 1}))
        assert sat["t"] == "ack"


class GatedSocket:
    """A WebSocket whose sends wait while the gate is shut, like a client that stopped reading."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.gate = asyncio.Event()

    async def send_text(self, frame: str) -> None:
        await self.gate.wait()
        self.sent.append(frame)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_an_outbox_is_bounded_in_characters_not_only_in_frames(settings: Settings) -> None:
    """The outbox of a client that does not read was bounded in frames only, and frames are not
    all small: a snapshot with a full chat (50 lines of 300 emoji) is ~65 kB, and one `sit` or
    `leave` sends one to every socket of the guest. A guest with 64 sockets that do not read
    held 64 × 1000 such snapshots (gigabytes) from one address. Now the characters queued are
    bounded too, and the client past them is cut off as one past the frames."""
    limits = WireLimits.from_settings(settings.model_copy(update={"outbox_chars": 100_000}))
    assert limits.outbox_chars == 100_000  # the setting reaches every connection
    socket = GatedSocket()
    connection = Connection(cast(WebSocket, socket), outbox_limit=1000, outbox_chars=100)
    writer = asyncio.create_task(connection.write_loop())
    big = "x" * 40
    for _ in range(3):  # 120 characters queued: past the bound, nothing overflowed yet
        connection.send(big)
    assert not connection.overflowed
    connection.send(big)  # the fourth finds 120 ≥ 100 queued: the client is cut off
    assert connection.overflowed
    connection.send("late")  # nothing more is queued for a client being cut off
    socket.gate.set()
    await asyncio.wait_for(writer, 1)
    assert socket.sent == [big] * 3
    assert socket.closed == (CLOSE_TOO_SLOW, "client too slow")


async def test_a_client_that_reads_is_never_cut_off_by_the_character_bound() -> None:
    socket = GatedSocket()
    socket.gate.set()
    connection = Connection(cast(WebSocket, socket), outbox_limit=1000, outbox_chars=100)
    writer = asyncio.create_task(connection.write_loop())
    for n in range(50):  # 2000 characters in all, each sent before the next is given
        connection.send(f"{n:040d}")
        for _ in range(3):
            await asyncio.sleep(0)
    assert not connection.overflowed and len(socket.sent) == 50
    writer.cancel()


async def test_pipelined_commands_of_every_kind_get_exactly_one_reply_each(
    server: Server, http: httpx.AsyncClient
) -> None:
    """Two players fire a mix of valid, refused and malformed commands without waiting for any
    reply; each one is answered once (ack or error, its id echoed), and none fails the server."""
    host, other = await new_guest(http, "Host"), await new_guest(http, "Other")
    created = await http.post(
        "/api/rooms", json={"bots": [2, 3], "turn_seconds": 0}, headers=host.auth
    )
    code = created.json()["room"]["code"]
    kinds: list[dict[str, Any]] = [
        {"t": "sit", "d": {"seat": 1}},
        {"t": "sit", "d": {"seat": 0}},
        {"t": "sit", "d": {"seat": 9}},
        {"t": "bot", "d": {"seat": 1, "on": True}},
        {"t": "bot", "d": {"seat": 1, "on": False}},
        {"t": "rematch", "d": {}},
        {"t": "next_deal", "d": {}},
        {"t": "chat", "d": {"text": "hi"}},
        {"t": "chat", "d": {"text": "\x07"}},
        {"t": "ping", "d": {}},
        {"t": "act", "v": 0, "d": {"bid": "pass"}},
        {"t": "act", "v": 10**9, "d": {"bid": "pass"}},
        {"t": "act", "d": {"play": "AS"}},
        {"t": "act", "v": 0, "d": {"play": "AS", "declare": [[]]}},
        {"t": "hello", "d": {}},
        {"t": "entropy", "d": {"commitment": "0" * 64, "entropy": "1" * 64}},
        {"t": "nope", "d": {}},
        {"t": "sit", "d": {"seat": "1"}},
    ]
    rng = random.Random(7)
    async with (
        ws_client(server, code, host.token) as one,
        ws_client(server, code, other.token) as two,
    ):
        counts: dict[str, int] = {}
        for n in range(120):
            for name, client in (("one", one), ("two", two)):
                frame = {**rng.choice(kinds), "id": f"{name}-{n}"}
                if frame["t"] == "act" and "v" not in frame:
                    frame["v"] = client.version
                await client.ws.send(json.dumps(frame))
                counts[frame["id"]] = 0
            if n == 60:  # half of them during a match
                started = await http.post(
                    f"/api/rooms/{code}/start", json={"fill_with_bots": True}, headers=host.auth
                )
                assert started.status_code in (200, 409)
        for client in (one, two):
            last = await client.send("ping")
            while True:
                frame = await client.recv()
                if frame["t"] not in ("ack", "error"):
                    continue
                if frame["d"]["id"] == last:
                    break
                assert frame["t"] == "ack" or frame["d"]["code"] != "server_error", frame
                counts[frame["d"]["id"]] += 1
        assert {k: v for k, v in counts.items() if v != 1} == {}


async def test_frames_at_the_size_limit_and_one_byte_above(
    server: Server, http: httpx.AsyncClient
) -> None:
    """The limit is in bytes of UTF-8: a frame of exactly max_frame_bytes is read, one byte more
    is frame_too_large (no id: it is not read), a multi-byte character counted as its bytes."""
    code, token = await new_room(http)
    limit = server.settings.max_frame_bytes
    async with ws_client(server, code, token) as client:
        for size, pad_char, expected in ((limit, "x", "ack"), (limit + 1, "x", "frame_too_large")):
            empty = json.dumps({"t": "chat", "id": "s", "d": {"text": ""}}, separators=(",", ":"))
            text = empty.replace('"text":""', f'"text":"{pad_char * (size - len(empty))}"')
            assert len(text.encode()) == size
            await client.ws.send(text)
            reply = await client.until("error") if expected != "ack" else None
            if reply is None:
                answer = await client.reply("s")  # read: bad_chat (too long), not frame_too_large
                assert answer["d"]["code"] == "bad_chat", answer
            else:
                assert (reply["d"]["code"], reply["d"]["id"]) == (expected, None)
        # Two-byte characters: 2049 of them are 4098 bytes, though only about 2049 characters.
        empty = json.dumps({"t": "ping", "id": "u", "d": {}}, separators=(",", ":"))
        text = empty[:-2] + '"é":"' + "é" * 2049 + '"}}'
        assert len(text) < limit < len(text.encode())
        await client.ws.send(text)
        refused = await client.until("error")
        assert refused["d"]["code"] == "frame_too_large"


async def test_a_players_sockets_share_one_allowance_of_commands(settings: Settings) -> None:
    """Each socket had its own allowance, and a seat change sends a snapshot to every socket
    of the player: 64 sockets of one guest at 20 seat changes a second each made 64 × 1,280
    snapshots a second, from one address. A player's commands now share one allowance
    however many sockets carry them (each socket still has its own as well)."""
    burst = 6
    limits = {"rate_per_second": 0.001, "rate_burst": burst}  # no allowance comes back
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        code, host_token = await new_room(http)
        async with contextlib.AsyncExitStack() as stack:
            sockets = [
                await stack.enter_async_context(ws_client(server, code, host_token))
                for _ in range(3)
            ]
            before = await room_version(http, code)
            answers: list[str] = []
            for n, client in enumerate(sockets):
                for k in range(burst - 1):  # the hello took one of the socket's own
                    command_id = f"s{n}-{k}"
                    seat = 1 + len(answers) % 2  # seat 1, seat 2, seat 1 …: each a change
                    frame = {"t": "sit", "id": command_id, "d": {"seat": seat}}
                    await client.ws.send(json.dumps(frame))
                    reply = await client.reply(command_id)
                    answers.append("ack" if reply["t"] == "ack" else reply["d"]["code"])
            assert answers.count("ack") == burst
            assert answers.count("rate_limited") == len(answers) - burst
            assert await room_version(http, code) == before + burst  # refusals change nothing


async def test_an_integer_id_and_the_same_digits_as_a_string_are_different_ids(
    settings: Settings,
) -> None:
    """Ids may be strings or integers (docs/protocol.md §5): ``7`` and ``"7"`` are two ids. The
    room kept both as the string "7", so the second command was refused as ``duplicate``."""
    async with serve(settings) as server, httpx.AsyncClient(base_url=server.url) as http:
        code, host_token = await new_room(http)
        async with ws_client(server, code, host_token) as host:
            replies = []
            for command_id in (7, "7", 7):
                frame = {"t": "chat", "id": command_id, "d": {"text": f"line {command_id!r}"}}
                await host.ws.send(json.dumps(frame))
                reply = await host.reply(cast(str, command_id))
                replies.append((reply["t"], reply["d"].get("code"), reply["d"]["id"]))
    assert replies == [("ack", None, 7), ("ack", None, "7"), ("error", "duplicate", 7)]
