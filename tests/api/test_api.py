"""The REST API over a real server: guests, rooms, seats, start, history, errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.db import models as m
from app.db.engine import make_engine
from app.settings import Settings
from tests.conftest import Guest, Server, new_guest, serve, ws_client


async def test_health_and_openapi(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).json() == {"status": "ok"}
    assert (await http.get("/docs")).status_code == 200
    paths = (await http.get("/openapi.json")).json()["paths"]
    assert "/api/rooms" in paths and "/api/matches/{match_id}/record" in paths


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "tab\there", "nul\x00", "rtl\u202e"])
async def test_bad_names_are_refused(http: httpx.AsyncClient, name: str) -> None:
    response = await http.post("/api/players", json={"name": name})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad_request"


async def test_a_guest_keeps_a_name_as_text_and_is_known_by_token(http: httpx.AsyncClient) -> None:
    guest = await new_guest(http, " <img src=x onerror=alert(1)> ")
    assert guest.name == "<img src=x onerror=alert(1)>"
    me = await http.get("/api/players/me", headers=guest.auth)
    assert me.json() == {
        "id": guest.id,
        "name": guest.name,
        "suspension": None,
        "answered_reports": [],
    }
    renamed = await http.patch("/api/players/me", json={"name": "Ivana"}, headers=guest.auth)
    assert renamed.json()["name"] == "Ivana"
    missing = await http.get("/api/players/me")
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "not_authenticated")
    forged = await http.get("/api/players/me", headers={"Authorization": "Bearer nope"})
    assert (forged.status_code, forged.json()["error"]["code"]) == (401, "bad_token")


async def test_rooms_seats_bots_and_start(http: httpx.AsyncClient) -> None:
    host, guest = await new_guest(http, "Host"), await new_guest(http, "Guest")
    bad = await http.post("/api/rooms", json={"rules": {"preset": "chess"}}, headers=host.auth)
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_rules")
    public = await http.post(
        "/api/rooms",
        json={"rules": {"preset": "french", "house_rules": {"announces": True}}, "public": True},
        headers=host.auth,
    )
    private = await http.post(
        "/api/rooms", json={"target": 101, "bot_level": "strong"}, headers=host.auth
    )
    assert public.status_code == private.status_code == 201
    assert public.json()["room"]["bot_level"] == "basic"
    assert private.json()["room"]["bot_level"] == "strong"
    unknown = await http.post("/api/rooms", json={"bot_level": "genius"}, headers=host.auth)
    assert unknown.status_code == 422
    code = private.json()["room"]["code"]
    assert len(code) >= 16  # 96 random bits
    listed = [r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]]
    assert public.json()["room"]["code"] in listed and code not in listed
    room = (await http.get(f"/api/rooms/{code}")).json()["room"]
    assert room["target"] == 101 and room["seats"][0]["player"]["id"] == host.id
    assert (await http.get("/api/rooms/doesnotexist")).json()["error"]["code"] == "unknown_room"

    async def expect(response: httpx.Response, status: int, error: str) -> None:
        assert (response.status_code, response.json()["error"]["code"]) == (status, error)

    await expect(
        await http.put(f"/api/rooms/{code}/seats/0", headers=guest.auth), 409, "seat_taken"
    )
    await expect(await http.put(f"/api/rooms/{code}/seats/4", headers=guest.auth), 422, "bad_seat")
    await expect(
        await http.put(f"/api/rooms/{code}/seats/2/bot", headers=guest.auth), 403, "not_host"
    )
    await expect(await http.post(f"/api/rooms/{code}/start", headers=host.auth), 409, "seats_empty")
    await expect(await http.put(f"/api/rooms/{code}/seats/1"), 401, "not_authenticated")
    moved = await http.put(f"/api/rooms/{code}/seats/1", headers=guest.auth)
    moved = await http.put(f"/api/rooms/{code}/seats/2", headers=guest.auth)
    seats = moved.json()["room"]["seats"]
    assert seats[1]["player"] is None and seats[2]["player"]["id"] == guest.id
    assert (await http.put(f"/api/rooms/{code}/seats/1/bot", headers=host.auth)).status_code == 200
    started = await http.post(
        f"/api/rooms/{code}/start", json={"fill_with_bots": True}, headers=host.auth
    )
    assert started.status_code == 200
    room = started.json()["room"]
    assert room["status"] == "playing" and [s["bot"] for s in room["seats"]] == [
        False,
        True,
        False,
        True,
    ]
    # Leaving a match in progress: a stand-in bot plays the seat, which stays the guest's.
    left = await http.delete(f"/api/rooms/{code}/seats/me", headers=guest.auth)
    assert left.status_code == 200
    seat = left.json()["room"]["seats"][2]
    assert seat["standin"] and seat["player"]["id"] == guest.id

    # History (the player's, with their token): the match is listed; the deal in progress is
    # not exported.
    matches = (await http.get(f"/api/players/{guest.id}/matches", headers=guest.auth)).json()
    assert [m["id"] for m in matches] == [room["match_id"]]
    # A moment sent to a client says its zone, on SQLite too (which keeps none): read by a
    # JavaScript Date without one, it would be taken for the reader's local time.
    started = datetime.fromisoformat(matches[0]["started_at"])
    assert started.utcoffset() == timedelta(0), matches[0]["started_at"]
    assert abs(datetime.now(UTC) - started) < timedelta(minutes=10)
    detail = (await http.get(f"/api/matches/{room['match_id']}", headers=guest.auth)).json()
    assert detail["deals"][0]["finished"] is False and "deck" not in detail["deals"][0]
    await expect(
        await http.get(f"/api/matches/{room['match_id']}/deals/1/record", headers=guest.auth),
        404,
        "unknown_deal",
    )
    await expect(await http.get("/api/matches/nope"), 404, "unknown_match")
    await expect(await http.get("/api/players/0123456789abcdef/matches"), 404, "unknown_player")


async def test_rules_lists_presets_and_house_rules(http: httpx.AsyncClient) -> None:
    rules = (await http.get("/api/rules")).json()
    assert set(rules["presets"]) >= {"bulgarian", "french"}
    assert {"name", "default", "explanation"} <= set(rules["house_rules"][0])
    assert rules["tables"] == {
        "bulgarian": {"seats": 4, "target": 151, "ranks": "789TJQKA"},
        "french": {"seats": 4, "target": 1000, "ranks": "789TJQKA"},
        "bulgarian3": {"seats": 3, "target": 151, "ranks": "9TJQKA"},  # BG3-1
        "bulgarian2": {"seats": 2, "target": 151, "ranks": "9TJQKA"},  # BG2-1
        "open_belot": {"seats": 2, "target": 151, "ranks": "789TJQKA"},  # OB-1
    }
    # C-3 and C-4: each suit high to low with its points, 152 points in all in a suit contract.
    cards = rules["cards"]
    assert "".join(c["rank"] for c in cards["trump"]) == "J9ATKQ87"
    assert "".join(c["rank"] for c in cards["plain"]) == "ATKQJ987"
    assert [c["points"] for c in cards["trump"]] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [c["points"] for c in cards["plain"]] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert sum(c["points"] for c in cards["trump"] + 3 * cards["plain"]) + 10 == 162
    # BG-13, BG-14, BG-19, BG-22.
    assert [(s["cards"], s["points"]) for s in cards["sequences"]] == [(3, 20), (4, 50), (5, 100)]
    assert [(c["rank"], c["points"]) for c in cards["carres"]] == [
        ("J", 200),
        ("9", 150),
        ("A", 100),
        ("T", 100),
        ("K", 100),
        ("Q", 100),
    ]
    assert (cards["belote"], cards["last_trick"], cards["valat_mp"]) == (20, 10, 9)


async def test_a_small_room_is_created_with_the_preset_s_seats(http: httpx.AsyncClient) -> None:
    host = await new_guest(http, "Host")
    created = await http.post(
        "/api/rooms", json={"rules": {"preset": "bulgarian3"}, "bots": [2]}, headers=host.auth
    )
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    assert [s["bot"] for s in room["seats"]] == [False, False, True]
    refused = await http.post(
        "/api/rooms", json={"rules": {"preset": "open_belot"}, "bots": [2]}, headers=host.auth
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_seat"
    guest = await new_guest(http, "Guest")
    code = room["code"]
    outside = await http.put(f"/api/rooms/{code}/seats/3", headers=guest.auth)
    assert outside.json()["error"]["code"] == "bad_seat"


async def test_one_address_cannot_create_guests_and_rooms_without_end(settings: Settings) -> None:
    limited = settings.model_copy(update={"create_burst": 3, "create_per_second": 0.001})
    async with serve(limited) as server, httpx.AsyncClient(base_url=server.url) as http:
        host = await new_guest(http, "Host")
        created = await http.post("/api/rooms", json={}, headers=host.auth)
        assert created.status_code == 201
        await new_guest(http, "Second")
        refused = [
            await http.post("/api/players", json={"name": "Third"}),
            await http.post("/api/rooms", json={}, headers=host.auth),
        ]
        for response in refused:
            assert response.status_code == 429
            assert response.json()["error"]["code"] == "rate_limited"
        mine = await http.get("/api/players/me", headers=host.auth)
        assert mine.status_code == 200  # everything else goes on
    engine = make_engine(settings.database_url)
    async with engine.connect() as connection:
        players = await connection.scalar(select(func.count()).select_from(m.Player))
        rooms = await connection.scalar(select(func.count()).select_from(m.Room))
    await engine.dispose()
    assert (players, rooms) == (2, 1)  # the refused calls wrote nothing


async def test_the_client_s_pages_carry_a_content_security_policy(http: httpx.AsyncClient) -> None:
    for path in ("/", "/r/someinvitecode", "/js/main.js", "/css/style.css"):
        response = await http.get(path)
        assert response.status_code == 200, path
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "object-src 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    for path in ("/api/rules", "/docs", "/healthz"):  # the API, and Swagger UI from its CDN
        assert "content-security-policy" not in (await http.get(path)).headers, path


def sample(text: str, name: str) -> float:
    """One sample's value from a Prometheus text page."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"{name} not in /metrics")


async def test_metrics_tell_an_operator_what_the_server_holds(
    server: Server, http: httpx.AsyncClient
) -> None:
    host = await new_guest(http, "Host")
    created = await http.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=host.auth)
    code = created.json()["room"]["code"]
    await http.post(f"/api/rooms/{code}/start", headers=host.auth)
    async with ws_client(server, code, host.token) as client:
        await client.ws.send("{not json")
        assert (await client.until("error"))["d"]["code"] == "bad_json"
        page = await http.get("/metrics")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
        text = page.text
        assert sample(text, 'belote_rooms{status="playing"}') == 1
        assert sample(text, "belote_connections") == 1
        assert sample(text, 'belote_refusals_total{code="bad_json"}') == 1
        assert sample(text, "belote_ws_frames_total") == 2  # the hello and the bad frame
        assert sample(text, "belote_store_groups_total") >= 1
        assert sample(text, "process_resident_memory_bytes") > 0


async def test_metrics_can_be_turned_off(settings: Settings) -> None:
    off = settings.model_copy(update={"metrics": False})
    async with serve(off) as quiet, httpx.AsyncClient(base_url=quiet.url) as http:
        assert (await http.get("/metrics")).status_code == 404


async def test_the_host_changes_the_settings_by_rest_and_by_socket(
    http: httpx.AsyncClient, server: Server
) -> None:
    """``PATCH /api/rooms/{code}`` and the ``settings`` command (docs/protocol.md): the host
    only, with a new room's checks; the ROOM then shows the new settings."""
    host, guest = [await new_guest(http, n) for n in ("Host", "Guest")]
    code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
    url = f"/api/rooms/{code}"

    async def refused(body: dict[str, Any], who: Guest, status: int, error: str) -> None:
        response = await http.patch(url, json=body, headers=who.auth)
        assert (response.status_code, response.json()["error"]["code"]) == (status, error), body

    await refused({"target": 501}, guest, 403, "not_host")
    await refused({"house_rules": {"no_such_rule": True}}, host, 422, "bad_rules")
    await refused({"preset": "french"}, host, 422, "bad_request")
    await refused({"target": 0}, host, 422, "bad_request")
    await refused({"turn_seconds": 10**6}, host, 422, "bad_request")
    await refused({"public": "yes"}, host, 422, "bad_request")
    assert (await http.patch(url, json={"target": 501})).status_code == 401
    changed = await http.patch(
        url,
        json={"target": 501, "house_rules": {"kirtik": True}, "public": True},
        headers=host.auth,
    )
    assert changed.status_code == 200
    room = changed.json()["room"]
    assert (room["target"], room["public"]) == (501, True)
    assert room["rules"] == {"preset": "bulgarian", "house_rules": {"kirtik": True}}
    listed = (await http.get("/api/rooms")).json()["rooms"]
    assert [r["code"] for r in listed] == [code]
    # The same by socket: acked, or refused with the same code.
    async with ws_client(server, code, host.token) as client:
        command_id = await client.send("settings", {"target": None, "bot_level": "strong"})
        assert (await client.reply(command_id))["t"] == "ack"
        bad = await client.send("settings", {"house_rules": {"deal_packets": "3-2"}})
        error = await client.reply(bad)
        assert (error["t"], error["d"]["code"]) == ("error", "bad_rules")
        typed = await client.send("settings", {"target": "501"})
        error = await client.reply(typed)
        assert (error["t"], error["d"]["code"]) == ("error", "bad_message")
    room = (await http.get(url)).json()["room"]
    assert (room["target"], room["bot_level"], room["public"]) == (151, "strong", True)


async def test_the_host_hands_the_room_over_by_rest_and_by_socket(
    http: httpx.AsyncClient, server: Server
) -> None:
    """``PUT /api/rooms/{code}/host`` and the ``host`` command (docs/protocol.md)."""
    host, guest = [await new_guest(http, n) for n in ("Host", "Guest")]
    code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=guest.auth)).is_success
    url = f"/api/rooms/{code}/host"
    refused = await http.put(url, json={"seat": 2}, headers=guest.auth)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_host")
    empty = await http.put(url, json={"seat": 1}, headers=host.auth)
    assert (empty.status_code, empty.json()["error"]["code"]) == (409, "seat_empty")
    handed = await http.put(url, json={"seat": 2}, headers=host.auth)
    assert handed.status_code == 200 and handed.json()["room"]["host"] == guest.id
    async with ws_client(server, code, guest.token) as client:  # and back, by socket
        command_id = await client.send("host", {"seat": 0})
        assert (await client.reply(command_id))["t"] == "ack"
    assert (await http.get(f"/api/rooms/{code}")).json()["room"]["host"] == host.id


async def test_the_host_removes_a_player_by_rest_and_by_socket(
    http: httpx.AsyncClient, server: Server
) -> None:
    """``DELETE /api/rooms/{code}/seats/{seat}`` and the ``remove`` command (docs/protocol.md):
    the host only; the removed player's seat empties and they are refused a seat after."""
    host, guest, other = [await new_guest(http, n) for n in ("Host", "Guest", "Other")]
    code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
    for who, seat in ((guest, 1), (other, 2)):
        assert (await http.put(f"/api/rooms/{code}/seats/{seat}", headers=who.auth)).is_success

    async def refused(response: httpx.Response, status: int, error: str) -> None:
        assert (response.status_code, response.json()["error"]["code"]) == (status, error)

    await refused(
        await http.delete(f"/api/rooms/{code}/seats/1", headers=guest.auth), 403, "not_host"
    )
    await refused(
        await http.delete(f"/api/rooms/{code}/seats/3", headers=host.auth), 409, "seat_empty"
    )
    await refused(
        await http.delete(f"/api/rooms/{code}/seats/0", headers=host.auth), 422, "bad_seat"
    )
    await refused(await http.delete(f"/api/rooms/{code}/seats/1"), 401, "not_authenticated")
    removed = await http.delete(f"/api/rooms/{code}/seats/1", headers=host.auth)
    assert removed.status_code == 200
    room = removed.json()["room"]
    assert room["seats"][1]["player"] is None
    assert room["removed"] == [{"id": guest.id, "name": "Guest"}]
    await refused(await http.put(f"/api/rooms/{code}/seats/3", headers=guest.auth), 403, "removed")
    # The same by socket: the host's command is acked, the player's seat is gone.
    async with ws_client(server, code, host.token) as client:
        command_id = await client.send("remove", {"seat": 2})
        assert (await client.reply(command_id))["t"] == "ack"
        again = await client.send("remove", {"seat": 2})
        error = await client.reply(again)
        assert (error["t"], error["d"]["code"]) == ("error", "seat_empty")
    room = (await http.get(f"/api/rooms/{code}")).json()["room"]
    assert [r["id"] for r in room["removed"]] == [guest.id, other.id]  # the earliest first
    assert [s["player"] and s["player"]["id"] for s in room["seats"]] == [host.id, None, None, None]

    # The host lets them back in: by REST, then by socket; only the host, only one removed.
    readmit = f"/api/rooms/{code}/removed/{guest.id}"
    await refused(await http.delete(readmit, headers=guest.auth), 403, "not_host")
    await refused(
        await http.delete(f"/api/rooms/{code}/removed/{host.id}", headers=host.auth),
        409,
        "not_removed",
    )
    back = await http.delete(readmit, headers=host.auth)
    assert back.status_code == 200, back.text
    assert back.json()["room"]["removed"] == [{"id": other.id, "name": "Other"}]
    assert (await http.put(f"/api/rooms/{code}/seats/3", headers=guest.auth)).status_code == 200
    async with ws_client(server, code, host.token) as client:
        client._next_id = 100  # ids are the host's: this socket must not repeat the last one's
        command_id = await client.send("readmit", {"player": other.id})
        assert (await client.reply(command_id))["t"] == "ack"
        again = await client.send("readmit", {"player": other.id})
        error = await client.reply(again)
        assert (error["t"], error["d"]["code"]) == ("error", "not_removed")
    assert (await http.get(f"/api/rooms/{code}")).json()["room"]["removed"] == []
    assert (await http.put(f"/api/rooms/{code}/seats/1", headers=other.auth)).status_code == 200
