"""The ``entropy`` message over the WebSocket (C-8): a seated player's share of the next deal's
shuffle is acknowledged; a malformed one, one for a commitment already dealt, or one from a
spectator is refused with a stable code, and nothing changes."""

from __future__ import annotations

import secrets

import httpx

from tests.conftest import Server, new_guest, ws_client
from tests.transport.test_bad_input import room_version, started_room


async def test_entropy_is_acknowledged_or_refused_with_a_stable_code(
    server: Server, http: httpx.AsyncClient
) -> None:
    code, host, _guest = await started_room(http)
    stranger = await new_guest(http, "Stranger")
    async with (
        ws_client(server, code, host.token) as player,
        ws_client(server, code, stranger.token) as watcher,
        ws_client(server, code) as anonymous,
    ):
        shuffle = player.frames[0]["d"]["shuffle"]
        current, dealt = shuffle["next_commitment"], shuffle["commitment"]
        before = await room_version(http, code)
        mine = secrets.token_hex(32)
        cases = [
            (player, {"commitment": current, "entropy": mine.upper()}, "bad_message"),
            (player, {"commitment": current, "entropy": mine[:-2]}, "bad_message"),
            (player, {"commitment": current}, "bad_message"),
            (player, {"commitment": dealt, "entropy": mine}, "stale"),
            (watcher, {"commitment": current, "entropy": mine}, "not_seated"),
            (anonymous, {"commitment": current, "entropy": mine}, "not_authenticated"),
        ]
        for client, data, expected in cases:
            reply = await client.reply(await client.send("entropy", data))
            assert (reply["t"], reply["d"]["code"]) == ("error", expected), (data, reply)
        reply = await player.reply(
            await player.send("entropy", {"commitment": current, "entropy": mine})
        )
        assert reply["t"] == "ack" and reply["d"]["v"] == before  # no event: nothing to show yet
        assert await room_version(http, code) == before
