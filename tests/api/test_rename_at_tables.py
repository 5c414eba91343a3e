"""A rename reaches the tables where the player sits (``PATCH /api/players/me``, docs/protocol.md
§1): everyone there gets the ROOM with the new name at the seat at once, during a match too,
and the player's chat lines and seats taken are under it even from a socket that said hello
before.
The match keeps the names it began with (``match_seats``: its record). Before, a seat kept the
name it was taken under until its player sat down again."""

from __future__ import annotations

import httpx

from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Server, new_guest, ws_client


async def test_a_rename_shows_at_every_table_where_the_player_sits(
    http: httpx.AsyncClient, server: Server
) -> None:
    ivana, other = await new_guest(http, "Ivana"), await new_guest(http, "Other")
    body = {"bots": [1, 2, 3], "turn_seconds": 0}
    playing = (await http.post("/api/rooms", json=body, headers=ivana.auth)).json()["room"]["code"]
    waiting = (await http.post("/api/rooms", json={}, headers=other.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{waiting}/seats/2", headers=ivana.auth)).is_success
    started = await http.post(f"/api/rooms/{playing}/start", json={}, headers=ivana.auth)
    assert started.status_code == 200, started.text
    later = (await http.post("/api/rooms", json={}, headers=other.auth)).json()["room"]["code"]
    async with (
        ws_client(server, playing, ivana.token) as client,
        ws_client(server, later, ivana.token) as before,  # said hello as "Ivana"
    ):
        before._next_id = 100
        renamed = await http.patch("/api/players/me", json={"name": "Ivanka"}, headers=ivana.auth)
        assert renamed.json() == {"id": ivana.id, "name": "Ivanka"}
        told = await client.until("room")
        while told["d"]["seats"][0]["player"]["name"] != "Ivanka":
            told = await client.until("room")  # the bots' moves may come first
        assert told["d"]["status"] == "playing"
        assert told["d"]["match_seats"][0]["player"]["name"] == "Ivana"  # as it began
        said = await client.send("chat", {"text": "same player, new name"})
        line = await client.until("chat")
        assert line["d"]["name"] == "Ivanka"
        assert (await client.reply(said))["t"] == "ack"
        sat = await before.send("sit", {"seat": 1})
        assert (await before.reply(sat))["t"] == "ack"
    seat = (await http.get(f"/api/rooms/{later}")).json()["room"]["seats"][1]
    assert seat["player"] == {"id": ivana.id, "name": "Ivanka"}
    for code, seat in ((playing, 0), (waiting, 2)):
        room = (await http.get(f"/api/rooms/{code}")).json()["room"]
        assert room["seats"][seat]["player"] == {"id": ivana.id, "name": "Ivanka"}
    # A name that is refused changes nothing, anywhere.
    refused = await http.patch("/api/players/me", json={"name": " "}, headers=ivana.auth)
    assert refused.status_code == 422
    room = (await http.get(f"/api/rooms/{waiting}")).json()["room"]
    assert room["seats"][2]["player"]["name"] == "Ivanka"


async def test_renames_are_limited_and_one_refused_changes_nothing(
    http: httpx.AsyncClient,
) -> None:
    """Each rename is told at the player's tables, so a stream of them would flood the others
    with "… is now called …": three at once, then one every ``rename_seconds`` (20)."""
    ivana = await new_guest(http, "Ivana")
    for name in ("Iva", "Ivanka", "Ivana K."):
        renamed = await http.patch("/api/players/me", json={"name": name}, headers=ivana.auth)
        assert renamed.status_code == 200
    refused = await http.patch("/api/players/me", json={"name": "Spam"}, headers=ivana.auth)
    assert code_of(refused) == (429, "rate_limited")
    assert (await http.get("/api/players/me", headers=ivana.auth)).json()["name"] == "Ivana K."
    other = await new_guest(http, "Other")  # the limit is the player's, not the address's
    renamed = await http.patch("/api/players/me", json={"name": "Otto"}, headers=other.auth)
    assert renamed.status_code == 200
