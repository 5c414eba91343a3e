"""Ratings and quick play over REST: the shapes and refusals of docs/protocol.md §8 (issue 13).
What the ratings compute and how tables are formed is tested in tests/db."""

from __future__ import annotations

import httpx

from tests.conftest import new_guest


def code_of(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


async def test_leaderboards_and_profiles(http: httpx.AsyncClient) -> None:
    guest = await new_guest(http, "Newcomer")
    assert (await http.get("/api/ratings/bulgarian")).json() == []
    assert code_of(await http.get("/api/ratings/chess")) == (422, "bad_rules")
    profile = (await http.get(f"/api/players/{guest.id}/profile")).json()
    assert profile["name"] == "Newcomer" and profile["username"] is None
    assert (profile["matches"], profile["win_rate"], profile["ratings"]) == (0, None, [])
    assert code_of(await http.get("/api/players/0000000000000000/profile")) == (
        404,
        "unknown_player",
    )


async def test_rooms_are_casual_unless_asked(http: httpx.AsyncClient) -> None:
    host = await new_guest(http, "Host")
    casual = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]
    body = {"rated": True, "turn_seconds": 60}
    rated = (await http.post("/api/rooms", json=body, headers=host.auth)).json()
    assert casual["rated"] is False and rated["room"]["rated"] is True
    fetched = await http.get(f"/api/rooms/{rated['room']['code']}")
    assert fetched.json()["room"]["rated"] is True


async def test_quick_play_waits_answers_and_leaves(http: httpx.AsyncClient) -> None:
    one, two = await new_guest(http, "One"), await new_guest(http, "Two")
    assert code_of(await http.get("/api/quickplay", headers=one.auth)) == (404, "not_queued")
    assert code_of(await http.post("/api/quickplay", json={})) == (401, "not_authenticated")
    bad = await http.post("/api/quickplay", json={"preset": "chess"}, headers=one.auth)
    assert code_of(bad) == (422, "bad_rules")
    short = await http.post("/api/quickplay", json={"wait_seconds": 1}, headers=one.auth)
    assert code_of(short) == (422, "bad_request")
    body = {"preset": "french", "rated": True, "wait_seconds": 60}
    joined = (await http.post("/api/quickplay", json=body, headers=one.auth)).json()
    assert {k: joined[k] for k in ("state", "room", "preset", "rated", "wait_seconds")} == {
        "state": "waiting",
        "room": None,
        "preset": "french",
        "rated": True,
        "wait_seconds": 60,
    }
    # Two people are not a table of four: both wait.
    await http.post("/api/quickplay", json=body, headers=two.auth)
    assert (await http.get("/api/quickplay", headers=two.auth)).json()["state"] == "waiting"
    left = await http.delete("/api/quickplay", headers=one.auth)
    assert left.status_code == 204
    assert code_of(await http.get("/api/quickplay", headers=one.auth)) == (404, "not_queued")
