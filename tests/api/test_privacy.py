"""A private room's code is a capability (issue 9): its matches, and so its code, are read only
by the players who sat in them, with their token; a public room's by anyone. A refused reader
gets exactly what a missing match gets, so not even the match's existence leaks."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.conftest import Guest, Server, new_guest, ws_client
from tests.transport.play import play_seat


async def _room(http: httpx.AsyncClient, host: Guest, **body: Any) -> str:
    created = await http.post("/api/rooms", json={"turn_seconds": 0, **body}, headers=host.auth)
    assert created.status_code == 201, created.text
    code: str = created.json()["room"]["code"]
    return code


async def _finished_match(server: Server, http: httpx.AsyncClient, host: Guest, **body: Any) -> str:
    """A match of ``host`` and three bots played to its end (target 1: the first scoring deal
    ends it); returns the room's code."""
    code = await _room(http, host, bots=[1, 2, 3], target=1, **body)
    async with ws_client(server, code, host.token) as client:
        started = await http.post(f"/api/rooms/{code}/start", headers=host.auth)
        assert started.status_code == 200, started.text
        await play_seat(client, random.Random(9))
    return code


async def _match_id(http: httpx.AsyncClient, code: str) -> str:
    match_id: str = (await http.get(f"/api/rooms/{code}")).json()["room"]["match_id"]
    return match_id


def _reads(match_id: str) -> list[str]:
    return [
        f"/api/matches/{match_id}",
        f"/api/matches/{match_id}/record",
        f"/api/matches/{match_id}/deals/1/record",
    ]


def _shape(response: httpx.Response, match_id: str) -> tuple[int, str, str]:
    error = response.json()["error"]
    return response.status_code, error["code"], error["message"].replace(match_id, "ID")


async def test_a_private_match_and_its_code_are_read_only_by_its_players(
    server: Server, http: httpx.AsyncClient
) -> None:
    host, stranger = await new_guest(http, "Host"), await new_guest(http, "Stranger")
    code = await _finished_match(server, http, host)
    match_id = await _match_id(http, code)

    # The player, with their token: the history holds the match and its room, records export.
    mine = await http.get(f"/api/players/{host.id}/matches", headers=host.auth)
    assert [(m["id"], m["room"]) for m in mine.json()] == [(match_id, code)]
    for path in _reads(match_id):
        assert (await http.get(path, headers=host.auth)).status_code == 200, path

    # Anyone else knows the host's id (seats, chat): the history shows them nothing, and the
    # match answers as if it did not exist (same status, code and message as a missing one).
    missing_id = "NoSuchMatch1"
    for auth in ({}, stranger.auth):
        listed = await http.get(f"/api/players/{host.id}/matches", headers=auth)
        assert (listed.status_code, listed.json()) == (200, [])
        for path in _reads(match_id):
            refused = await http.get(path, headers=auth)
            missing = await http.get(path.replace(match_id, missing_id), headers=auth)
            assert _shape(refused, match_id) == _shape(missing, missing_id), path
            assert refused.status_code == 404 and code not in refused.text


async def test_a_co_player_sees_the_match_they_shared_and_no_other(
    server: Server, http: httpx.AsyncClient
) -> None:
    host, friend = await new_guest(http, "Host"), await new_guest(http, "Friend")
    alone = await _finished_match(server, http, host)
    shared = await _room(http, host, bots=[2, 3])
    assert (await http.put(f"/api/rooms/{shared}/seats/1", headers=friend.auth)).status_code == 200
    assert (await http.post(f"/api/rooms/{shared}/start", headers=host.auth)).status_code == 200
    shared_match = await _match_id(http, shared)

    seen = (await http.get(f"/api/players/{host.id}/matches", headers=friend.auth)).json()
    assert [(m["id"], m["room"], m["your_seat"]) for m in seen] == [(shared_match, shared, 0)]
    assert (await http.get(f"/api/matches/{shared_match}", headers=friend.auth)).status_code == 200
    alone_match = await _match_id(http, alone)
    refused = await http.get(f"/api/matches/{alone_match}/record", headers=friend.auth)
    assert refused.status_code == 404 and alone not in refused.text


async def test_a_public_match_is_read_by_anyone(server: Server, http: httpx.AsyncClient) -> None:
    host = await new_guest(http, "Host")
    code = await _finished_match(server, http, host, public=True)
    match_id = await _match_id(http, code)
    listed = (await http.get(f"/api/players/{host.id}/matches")).json()
    assert [m["id"] for m in listed] == [match_id]
    for path in _reads(match_id):
        assert (await http.get(path)).status_code == 200, path


async def test_an_unknown_token_is_refused_whatever_was_asked(http: httpx.AsyncClient) -> None:
    forged = {"Authorization": "Bearer nope"}
    host = await new_guest(http, "Host")
    for path in [*_reads("NoSuchMatch1"), f"/api/players/{host.id}/matches"]:
        response = await http.get(path, headers=forged)
        assert (response.status_code, response.json()["error"]["code"]) == (401, "bad_token")
