"""Accounts over a real server: claiming a guest, signing in elsewhere, sessions, passwords,
and the limits on guessing (issue 13)."""

from __future__ import annotations

import logging

import httpx
import pytest
from sqlalchemy import select

from app.api.accounts import device_label
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.conftest import Guest, new_guest, serve

PASSWORD = "correct horse battery"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def claim(http: httpx.AsyncClient, guest: Guest, username: str) -> httpx.Response:
    return await http.post(
        "/api/accounts", json={"username": username, "password": PASSWORD}, headers=guest.auth
    )


async def login(
    http: httpx.AsyncClient, username: str, password: str = PASSWORD, device: str = "phone"
) -> httpx.Response:
    return await http.post(
        "/api/accounts/login",
        json={"username": username, "password": password},
        headers={"User-Agent": device},
    )


def code_of(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


async def test_a_claimed_guest_signs_in_on_another_device_as_the_same_player(
    http: httpx.AsyncClient,
) -> None:
    guest = await new_guest(http, "Ivana")
    assert (await http.get("/api/accounts/me", headers=guest.auth)).json()["username"] is None
    claimed = await claim(http, guest, "Ivana_B")
    assert claimed.status_code == 201
    assert claimed.json() == {"id": guest.id, "name": "Ivana", "username": "Ivana_B"}
    # The device that claimed stays signed in with the token it had.
    assert (await http.get("/api/players/me", headers=guest.auth)).json()["id"] == guest.id

    other = await login(http, "ivana_b")  # usernames are matched without case
    assert other.status_code == 200
    body = other.json()
    assert (body["id"], body["username"]) == (guest.id, "Ivana_B")
    assert body["token"] != guest.token
    me = await http.get("/api/players/me", headers=bearer(body["token"]))
    assert me.json() == {
        "id": guest.id,
        "name": "Ivana",
        "suspension": None,
        "answered_reports": [],
    }

    sessions = (await http.get("/api/accounts/sessions", headers=bearer(body["token"]))).json()
    assert [s["current"] for s in sessions] == [False, True]
    assert sessions[1]["label"] == "phone"
    # The claiming device's token is a session now: logging out there really ends it.
    assert (await http.post("/api/accounts/logout", headers=guest.auth)).status_code == 204
    assert code_of(await http.get("/api/players/me", headers=guest.auth)) == (401, "bad_token")


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0 Mobile Safari/537.36",
            "Chrome · Android",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "Safari · iOS",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; rv:133.0) Gecko/20100101 Firefox/133.0",
            "Firefox · Windows",
        ),
        ("curl/8.5", "curl/8.5"),
    ],
)
def test_a_session_is_labelled_with_its_browser_and_system(agent: str, label: str) -> None:
    assert device_label(agent) == label


async def test_sessions_are_revoked_by_logout_by_id_and_by_a_new_password(
    http: httpx.AsyncClient,
) -> None:
    guest = await new_guest(http, "Petar")
    await claim(http, guest, "petar")
    phone = (await login(http, "petar")).json()["token"]
    tablet = (await login(http, "petar", device="tablet")).json()["token"]

    out = await http.post("/api/accounts/logout", headers=bearer(phone))
    assert out.status_code == 204
    assert code_of(await http.get("/api/players/me", headers=bearer(phone))) == (401, "bad_token")

    listed = (await http.get("/api/accounts/sessions", headers=guest.auth)).json()
    tablet_id = next(s["id"] for s in listed if s["label"] == "tablet")
    revoked = await http.delete(f"/api/accounts/sessions/{tablet_id}", headers=guest.auth)
    assert revoked.status_code == 204
    assert code_of(await http.get("/api/players/me", headers=bearer(tablet))) == (401, "bad_token")
    again = await http.delete(f"/api/accounts/sessions/{tablet_id}", headers=guest.auth)
    assert code_of(again) == (404, "unknown_session")

    laptop = (await login(http, "petar", device="laptop")).json()["token"]
    wrong = await http.put(
        "/api/accounts/me/password",
        json={"old_password": "not it at all", "new_password": "a new secret"},
        headers=guest.auth,
    )
    assert code_of(wrong) == (401, "bad_login")
    changed = await http.put(
        "/api/accounts/me/password",
        json={"old_password": PASSWORD, "new_password": "a new secret"},
        headers=guest.auth,
    )
    assert changed.status_code == 204
    # Every other device is signed out; the one that changed it is not.
    assert code_of(await http.get("/api/players/me", headers=bearer(laptop))) == (401, "bad_token")
    assert (await http.get("/api/players/me", headers=guest.auth)).status_code == 200
    assert code_of(await login(http, "petar")) == (401, "bad_login")
    assert (await login(http, "petar", "a new secret")).status_code == 200


async def test_claiming_is_refused_with_stable_codes(http: httpx.AsyncClient) -> None:
    first, second = await new_guest(http, "A"), await new_guest(http, "B")
    assert (await claim(http, first, "Maria")).status_code == 201
    assert code_of(await claim(http, second, "MARIA")) == (409, "username_taken")
    assert code_of(await claim(http, first, "other")) == (409, "already_claimed")
    assert code_of(await claim(http, second, "a b")) == (422, "bad_username")
    short = await http.post(
        "/api/accounts", json={"username": "bobby", "password": "short"}, headers=second.auth
    )
    assert code_of(short) == (422, "weak_password")
    guest = await new_guest(http, "Guest")
    change = await http.put(
        "/api/accounts/me/password",
        json={"old_password": PASSWORD, "new_password": "whatever12"},
        headers=guest.auth,
    )
    assert code_of(change) == (409, "not_an_account")
    anonymous = await http.post("/api/accounts", json={"username": "x", "password": PASSWORD})
    assert code_of(anonymous) == (401, "not_authenticated")


async def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(
    http: httpx.AsyncClient,
) -> None:
    guest = await new_guest(http, "Known")
    await claim(http, guest, "known")
    wrong, unknown = await login(http, "known", "wrong password"), await login(http, "nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


async def test_login_attempts_are_limited_per_account_and_per_address(settings: Settings) -> None:
    limited = settings.model_copy(
        update={"login_failures_per_account": 3, "login_failures_per_address": 5}
    )
    async with serve(limited) as server, httpx.AsyncClient(base_url=server.url) as http:
        guest = await new_guest(http, "Target")
        await claim(http, guest, "target")
        for _ in range(3):
            assert code_of(await login(http, "target", "guess guess")) == (401, "bad_login")
        # Now even the right password is refused for this username ...
        assert code_of(await login(http, "target")) == (429, "login_limited")
        # ... and the address has two failures left for any other name.
        for name in ("x1", "x2"):
            assert code_of(await login(http, name)) == (401, "bad_login")
        assert code_of(await login(http, "someone")) == (429, "login_limited")


async def test_a_name_no_account_can_have_is_a_wrong_login_and_is_not_stored(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    """A NUL byte in the username made PostgreSQL refuse the failure's key: a 500 (found by
    schemathesis). Such a name is a wrong login, counted against the address only."""
    for name in ("ab\x00c", "no", "ünïcode", "a" * 33):
        assert code_of(await login(http, name)) == (401, "bad_login"), name
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            rows = (await session.execute(select(m.LoginFailure.key, m.LoginFailure.count))).all()
    finally:
        await engine.dispose()
    assert [(key.split(":")[0], count) for key, count in rows] == [("addr", 4)]


async def test_passwords_and_tokens_are_stored_hashed_and_never_logged(
    http: httpx.AsyncClient, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    guest = await new_guest(http, "Secret")
    await claim(http, guest, "secret")
    token = (await login(http, "secret")).json()["token"]
    await http.post("/api/accounts", json={"username": "x", "password": 5}, headers=guest.auth)
    assert PASSWORD not in caplog.text
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            account = await session.scalar(select(m.Account))
            hashes = list(await session.scalars(select(m.AccountSession.token_hash)))
    finally:
        await engine.dispose()
    assert account is not None and account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    assert len(hashes) == 2 and token not in hashes and guest.token not in hashes
