"""A room's watch code (app/rooms/watching.py): whoever holds it watches the table as an
anonymous spectator and learns nothing more — not the room's code, not a hand, not a seat, not
a word of chat. Whole matches through real WebSockets, every frame scanned."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from app.rooms.events import WATCHER, Event
from app.rooms.watching import WATCH_CODE, watch_code, watched
from tests.conftest import Server, new_guest, ws_client
from tests.transport.play import early_seeds, leaks, play_seat


def summaries(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every room summary in these frames: the ROOM events' and the snapshots'."""
    found = [f["d"] for f in frames if f["t"] == "room"]
    return found + [f["d"]["room"] for f in frames if f["t"] == "snapshot"]


def test_a_watch_code_is_its_room_s_own_and_never_taken_for_a_code() -> None:
    code = "AbCdEfGhIjKlMnOp"
    watch = watch_code(code)
    assert watch == watch_code(code) != watch_code("AbCdEfGhIjKlMnOq")
    assert WATCH_CODE.fullmatch(watch) and not WATCH_CODE.fullmatch(code)
    assert code not in watch


def test_a_room_event_names_the_room_by_the_code_each_recipient_holds() -> None:
    summary = {"code": "AbCdEfGhIjKlMnOp", "watch_code": watch_code("AbCdEfGhIjKlMnOp")}
    summary["watch_only"] = False
    event = Event(7, "room", summary)
    # Asked in either order: the first frame made must not become everyone's.
    for order in ([WATCHER, None, 0], [None, WATCHER, 2]):
        event.release()
        frames = {seat: json.loads(event.frame(seat)) for seat in order}
        assert frames[WATCHER]["d"] == watched(summary)
        assert "AbCdEfGhIjKlMnOp" not in event.frame(WATCHER)
        assert all(frames[seat]["d"] == summary for seat in order if seat != WATCHER)


@pytest.mark.parametrize("preset", ["bulgarian", "open_belot"])
async def test_a_watcher_sees_a_whole_private_match_and_never_its_code(
    server: Server, http: httpx.AsyncClient, preset: str
) -> None:
    host = await new_guest(http, "Host")
    created = await http.post(
        "/api/rooms",
        json={"rules": {"preset": preset}, "public": False, "turn_seconds": 0, "target": 1},
        headers=host.auth,
    )
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    code, watch = room["code"], room["watch_code"]
    assert (room["watch_only"], WATCH_CODE.fullmatch(watch) is not None) == (False, True)
    seats = len(room["seats"])
    for seat in range(1, seats):
        bot = await http.put(f"/api/rooms/{code}/seats/{seat}/bot", headers=host.auth)
        assert bot.status_code == 200, bot.text

    # What anyone holding the watch code reads of the room over REST.
    read = await http.get(f"/api/rooms/{watch}")
    assert read.status_code == 200
    assert code not in read.text
    assert read.json()["room"]["code"] == watch and read.json()["room"]["watch_only"] is True
    # Nothing else answers to it: it is not the room's code.
    for method, path in [
        ("POST", f"/api/rooms/{watch}/start"),
        ("PUT", f"/api/rooms/{watch}/seats/1"),
        ("PATCH", f"/api/rooms/{watch}"),
        ("DELETE", f"/api/rooms/{watch}/seats/me"),
        ("PUT", f"/api/rooms/{watch}/seats/1/bot"),
    ]:
        refused = await http.request(method, path, json={}, headers=host.auth)
        assert refused.status_code in (404, 405), (path, refused.text)
        assert code not in refused.text

    async with (
        ws_client(server, code, host.token) as player,
        ws_client(server, watch) as stranger,
        ws_client(server, watch, host.token) as host_by_watch,  # a token changes nothing
    ):
        for watcher in (stranger, host_by_watch):
            assert watcher.frames[0]["d"]["you"] == {"player_id": None, "seat": None}
            for t, d in [
                ("chat", {"text": "hi"}),
                ("sit", {"seat": 0}),
                ("start", {}),
                ("leave", {}),
                ("concede", {"on": True}),
            ]:
                refusal = await watcher.reply(await watcher.send(t, d))
                assert (refusal["t"], refusal["d"]["code"]) == ("error", "watch_only"), refusal
            assert (await watcher.reply(await watcher.send("ping")))["t"] == "ack"
        said = await player.reply(await player.send("chat", {"text": "only for the table"}))
        assert said["t"] == "ack"
        # Started by REST, so that the deal's frames wait on the player's socket for play_seat.
        started = await http.post(f"/api/rooms/{code}/start", headers=host.auth)
        assert started.status_code == 200, started.text
        await play_seat(player, random.Random(1))
        for watcher in (stranger, host_by_watch):
            while not any(s["status"] == "finished" for s in summaries(watcher.frames)):
                await watcher.recv(timeout=30)

    match_id = (await http.get(f"/api/rooms/{code}")).json()["room"]["match_id"]
    deals = (await http.get(f"/api/matches/{match_id}/record", headers=host.auth)).json()["deals"]
    assert deals
    for watcher in (stranger, host_by_watch):
        text = json.dumps(watcher.frames)
        assert code not in text  # not in a summary, a chat line, an error: nowhere
        assert all(s["code"] == watch and s["watch_only"] for s in summaries(watcher.frames))
        assert leaks(watcher.frames, None, deals) == []
        assert early_seeds(watcher.frames, deals) == []
        assert not any(f["d"].get("deal") and f["d"]["deal"]["hand"] for f in watcher.frames)
    assert all(s["code"] == code for s in summaries(player.frames))


async def test_an_unknown_watch_code_is_an_unknown_room(
    server: Server, http: httpx.AsyncClient
) -> None:
    nobody_s = watch_code("NoSuchRoomCode00")
    answer = await http.get(f"/api/rooms/{nobody_s}")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "unknown_room")
    async with connect(f"{server.ws_url}/ws/rooms/{nobody_s}") as ws:
        frame = json.loads(await ws.recv())
        assert frame["d"]["code"] == "unknown_room"
        await ws.wait_closed()
        assert ws.close_code == 4404
