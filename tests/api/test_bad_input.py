"""REST bad input (issue 9): a path parameter that cannot name anything is refused before it
reaches a room or the database, on both backends; whatever escapes a route still answers the
JSON error shape, with nothing of the failure in it."""

from __future__ import annotations

import logging

import httpx
import pytest

from app.db.history import History
from app.rooms.errors import RoomError
from tests.conftest import new_guest

MALFORMED = [
    ("GET", "/api/matches/x/deals/99999999999999999999/record"),  # beyond any integer column
    ("GET", "/api/matches/x/deals/0/record"),  # deals are numbered from 1
    ("GET", "/api/matches/x/deals/-1/record"),
    ("GET", "/api/matches/a%00b"),  # PostgreSQL refuses a NUL in text
    ("GET", "/api/matches/a%00b/record"),
    ("GET", "/api/matches/a%00b/deals/1/record"),
    ("GET", "/api/matches/" + "x" * 33),  # longer than the column
    ("GET", "/api/players/%00/matches"),
    ("GET", "/api/players/not-hex/matches"),
    ("GET", "/api/rooms/%00"),
    ("GET", "/api/rooms/caf%C3%A9"),
    ("PUT", "/api/rooms/%00/seats/1"),
    ("DELETE", "/api/rooms/%00/seats/me"),
    ("DELETE", "/api/rooms/%00/seats/1"),
    ("PUT", "/api/rooms/%00/seats/1/bot"),
    ("PATCH", "/api/rooms/%00"),
    ("PUT", "/api/rooms/%00/host"),
    ("DELETE", "/api/rooms/%00/removed/0123456789abcdef"),
    ("DELETE", "/api/rooms/abc/removed/not-hex"),
    ("DELETE", "/api/rooms/abc/removed/%00"),
    ("POST", "/api/rooms/%00/start"),
    ("GET", "/api/rooms?limit=0"),
    ("GET", "/api/rooms?limit=101"),
    ("GET", "/api/rooms?offset=-1"),
    ("GET", "/api/rooms?preset=belote"),
    ("GET", "/api/rooms?preset="),
]


@pytest.mark.parametrize(("method", "path"), MALFORMED)
async def test_a_malformed_path_parameter_is_a_bad_request(
    http: httpx.AsyncClient, method: str, path: str
) -> None:
    guest = await new_guest(http, "Guest")
    response = await http.request(method, path, headers=guest.auth)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request"


LEAKY = "SELECT deck FROM deals WHERE seed = 'secret'"


@pytest.mark.parametrize(
    "failure",
    [RuntimeError(LEAKY), RoomError("server_error", f"internal error: {LEAKY}")],
    ids=["escaped", "room"],
)
async def test_a_server_failure_is_a_generic_json_error_logged_on_the_server(
    http: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    failure: Exception,
) -> None:
    async def broken(*_args: object) -> None:
        raise failure

    monkeypatch.setattr(History, "match", broken)
    with caplog.at_level(logging.ERROR, logger="app.api.errors"):
        response = await http.get("/api/matches/SomeMatchId1")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["code"] == "server_error"
    assert "secret" not in response.text and "SELECT" not in response.text
    logged = [r for r in caplog.records if r.name == "app.api.errors"]
    assert len(logged) == 1 and "GET /api/matches/SomeMatchId1" in logged[0].getMessage()
    assert LEAKY in logged[0].getMessage() or logged[0].exc_info is not None


WRONG_TYPES = [
    {"bots": [True]},  # lax validation read true as seat 1
    {"bots": ["1"]},
    {"target": "151"},
    {"public": 1},
    {"seat": False},
    {"rules": {"preset": 1}},
    {"turn_seconds": 1.5},
]


@pytest.mark.parametrize("body", WRONG_TYPES)
async def test_a_body_value_of_the_wrong_json_type_is_refused_and_makes_nothing(
    http: httpx.AsyncClient, body: dict[str, object]
) -> None:
    guest = await new_guest(http, "Guest")
    response = await http.post("/api/rooms", json=body, headers=guest.auth)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request"
    mine = await http.get("/api/players/me/rooms", headers=guest.auth)
    assert mine.status_code == 200
    assert mine.json() == []
