"""GET /api/players/me/rooms: the caller's open tables (issue 11, "no way back to a game")."""

from __future__ import annotations

import httpx

from tests.conftest import new_guest


async def test_a_player_s_open_rooms_are_listed_for_them_only(http: httpx.AsyncClient) -> None:
    ann = await new_guest(http, "Ann")
    bob = await new_guest(http, "Bob")
    created = await http.post(
        "/api/rooms", json={"bots": [1, 2, 3], "deal_pause_seconds": 7}, headers=ann.auth
    )
    assert created.status_code == 201, created.text
    code = created.json()["room"]["code"]
    assert created.json()["room"]["deal_pause_seconds"] == 7
    watched = await http.post("/api/rooms", json={"seat": None}, headers=ann.auth)
    assert watched.status_code == 201  # the host only watches: not one of Ann's seats

    mine = (await http.get("/api/players/me/rooms", headers=ann.auth)).json()
    assert [(r["code"], r["your_seat"], r["status"]) for r in mine] == [(code, 0, "waiting")]
    assert (await http.get("/api/players/me/rooms", headers=bob.auth)).json() == []
    started = await http.post(f"/api/rooms/{code}/start", headers=ann.auth)
    assert started.status_code == 200
    mine = (await http.get("/api/players/me/rooms", headers=ann.auth)).json()
    assert [(r["code"], r["status"]) for r in mine] == [(code, "playing")]

    anonymous = await http.get("/api/players/me/rooms")
    assert (anonymous.status_code, anonymous.json()["error"]["code"]) == (401, "not_authenticated")


async def test_a_room_s_deal_pause_is_bounded(http: httpx.AsyncClient) -> None:
    ann = await new_guest(http, "Ann")
    refused = await http.post("/api/rooms", json={"deal_pause_seconds": 121}, headers=ann.auth)
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_request")
    default = await http.post("/api/rooms", json={}, headers=ann.auth)
    assert default.json()["room"]["deal_pause_seconds"] == 0  # the test server's setting
