"""Ratings and quick play over REST: the shapes and refusals of docs/protocol.md §8 (issue 13).
What the ratings compute and how tables are formed is tested in tests/db."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Server, new_account, new_guest, ws_client


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
    host = await new_account(http, "Host")
    casual = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]
    body = {"rated": True, "turn_seconds": 60}
    rated = (await http.post("/api/rooms", json=body, headers=host.auth)).json()
    assert casual["rated"] is False and rated["room"]["rated"] is True
    fetched = await http.get(f"/api/rooms/{rated['room']['code']}")
    assert fetched.json()["room"]["rated"] is True


async def test_rated_play_needs_an_account(http: httpx.AsyncClient) -> None:
    """Guests cost nothing to make: one person seating their own guests and losing to them
    would farm a rating. A guest may not make a rated room, sit in one or ask for a rated
    quick-play table (§8.2), and nothing is made or changed; casual play is open to them."""
    guest, host = await new_guest(http, "Guest"), await new_account(http, "Host")
    body = {"rated": True, "turn_seconds": 60}
    refused = await http.post("/api/rooms", json=body, headers=guest.auth)
    assert code_of(refused) == (403, "account_required")
    assert "sign in" in refused.json()["error"]["message"].lower()
    asked = {"preset": "bulgarian", "rated": True}
    assert code_of(await http.post("/api/quickplay", json=asked, headers=guest.auth)) == (
        403,
        "account_required",
    )
    assert code_of(await http.get("/api/quickplay", headers=guest.auth)) == (404, "not_queued")
    made = (await http.post("/api/rooms", json=body, headers=host.auth)).json()
    code, version = made["room"]["code"], made["v"]
    sit = await http.put(f"/api/rooms/{code}/seats/1", headers=guest.auth)
    assert code_of(sit) == (403, "account_required")
    after = (await http.get(f"/api/rooms/{code}")).json()
    assert after["v"] == version and after["room"]["seats"][1]["player"] is None
    casual = await http.post("/api/rooms", json={}, headers=guest.auth)
    assert casual.status_code == 201


async def test_quick_play_waits_answers_and_leaves(http: httpx.AsyncClient) -> None:
    one, two = await new_account(http, "One"), await new_account(http, "Two")
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


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        ({"rated": True, "turn_seconds": 60}, "account_required"),
        ({"accounts_only": True}, "accounts_only"),  # a table kept for accounts (§7.2)
    ],
)
async def test_a_guest_who_signs_up_may_then_sit_where_an_account_is_asked(
    http: httpx.AsyncClient, server: Server, body: dict[str, Any], refusal: str
) -> None:
    """Over the socket too a guest is refused a rated room's seat, or one of a room kept for
    accounts, with one error and the seats unchanged; made an account on another page
    meanwhile (the same token), the next try is taken without reconnecting."""
    host, guest = await new_account(http, "Host"), await new_guest(http, "Late")
    code = (await http.post("/api/rooms", json=body, headers=host.auth)).json()["room"]["code"]
    async with ws_client(server, code, guest.token) as client:
        before = client.version
        refused = await client.reply(await client.send("sit", {"seat": 2}))
        assert (refused["t"], refused["d"]["code"]) == ("error", refusal)
        assert client.version == before
        credentials = {"username": f"late-{guest.id}", "password": "correct horse battery"}
        claimed = await http.post("/api/accounts", json=credentials, headers=guest.auth)
        assert claimed.status_code == 201
        taken = await client.reply(await client.send("sit", {"seat": 2}))
        assert taken["t"] == "ack"
    room = (await http.get(f"/api/rooms/{code}")).json()["room"]
    assert room["seats"][2]["player"]["id"] == guest.id
