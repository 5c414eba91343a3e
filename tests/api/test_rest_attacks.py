"""The REST API under attack: oversized bodies, names that only look valid, passwords no hash
can encode, and refusals that still cost the server an Argon2 run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.api.errors import BODY_MAX
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.conftest import Guest, Server, new_guest, serve

PASSWORD = "correct horse battery"
JSON = {"Content-Type": "application/json"}


def code_of(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


async def claim(http: httpx.AsyncClient, guest: Guest, username: str) -> httpx.Response:
    return await http.post(
        "/api/accounts", json={"username": username, "password": PASSWORD}, headers=guest.auth
    )


async def usernames(settings: Settings) -> list[str]:
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            return list(await session.scalars(select(m.Account.username)))
    finally:
        await engine.dispose()


# ---- bodies ------------------------------------------------------------------------------


async def test_an_oversized_body_is_refused_unread_and_creates_nothing(
    http: httpx.AsyncClient,
) -> None:
    """Every body was read whole into memory before validation: 50 MB on POST /api/players
    came back 422 after the server held it (and 1000 connections could do that at once)."""
    huge = b'{"name": "' + b"a" * (BODY_MAX + 1) + b'"}'
    response = await http.post("/api/players", content=huge, headers=JSON)
    assert code_of(response) == (413, "body_too_large")
    assert response.headers["content-type"] == "application/json"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it is read
        yield b'{"name": "'
        for _ in range(BODY_MAX // 1024 + 1):
            yield b"a" * 1024
        yield b'"}'

    guest = await new_guest(http, "Guest")
    chunked = await http.post("/api/rooms", content=chunks(), headers={**JSON, **guest.auth})
    assert code_of(chunked) == (413, "body_too_large")
    assert (await http.get("/api/players/me/rooms", headers=guest.auth)).json() == []
    # A body of ordinary size is still served.
    assert (await http.post("/api/rooms", json={}, headers=guest.auth)).status_code == 201


# ---- usernames -----------------------------------------------------------------------------


async def test_a_username_with_a_trailing_newline_is_not_a_username(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    """``^…$`` matched "admin\\n": a second "admin" could be claimed beside the real one
    (and on PostgreSQL a 32-character name plus the newline overflowed the column: a 500)."""
    owner, impostor = await new_guest(http, "Owner"), await new_guest(http, "Impostor")
    assert (await claim(http, owner, "admin")).status_code == 201
    for name in ("admin\n", "other\n", "x" * 32 + "\n"):
        assert code_of(await claim(http, impostor, name)) == (422, "bad_username"), repr(name)
    assert await usernames(settings) == ["admin"]
    login = await http.post("/api/accounts/login", json={"username": "admin\n", "password": "x"})
    assert code_of(login) == (401, "bad_login")


# ---- passwords no hash can encode ----------------------------------------------------------

SURROGATE = "\\ud800" * 8  # JSON text for a string of eight lone surrogates


def raw_json(**fields: str) -> str:
    """A JSON object of string fields written as they are (escapes stay escapes)."""
    return "{" + ", ".join(f'"{key}": "{value}"' for key, value in fields.items()) + "}"


@pytest.mark.parametrize(
    ("method", "path", "body", "signed_in"),
    [
        ("POST", "/api/accounts", raw_json(username="newname", password=SURROGATE), True),
        ("POST", "/api/accounts/login", raw_json(username="known", password=SURROGATE), False),
        ("POST", "/api/accounts/login", raw_json(username="nobody", password=SURROGATE), False),
        (
            "PUT",
            "/api/accounts/me/password",
            raw_json(old_password=SURROGATE, new_password=PASSWORD),
            True,
        ),
        (
            "PUT",
            "/api/accounts/me/password",
            raw_json(old_password=PASSWORD, new_password=SURROGATE),
            True,
        ),
        ("DELETE", "/api/accounts/me", raw_json(password=SURROGATE), True),
    ],
    ids=["claim", "login", "login-unknown", "old-password", "new-password", "erase"],
)
async def test_a_password_with_a_lone_surrogate_is_a_bad_request_not_a_server_error(
    http: httpx.AsyncClient, method: str, path: str, body: str, signed_in: bool
) -> None:
    """A ``SecretStr`` keeps a lone surrogate that a ``str`` refuses; hashing it raised
    UnicodeEncodeError: 500 ``server_error`` on claim, login and password change."""
    known = await new_guest(http, "Known")
    assert (await claim(http, known, "known")).status_code == 201
    guest = await new_guest(http, "Guest") if "/me/" not in path else known
    headers = {**JSON, **(guest.auth if signed_in else {})}
    response = await http.request(method, path, content=body.encode(), headers=headers)
    assert code_of(response) == (422, "bad_request"), response.text
    assert "\\ud800" not in response.text
    # Nothing changed: the account still signs in with its password.
    login = await http.post("/api/accounts/login", json={"username": "known", "password": PASSWORD})
    assert login.status_code == 200


# ---- the cost of a refusal ---------------------------------------------------------------


class CountingHasher:
    """Wraps the server's password hasher, counting the Argon2 runs."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.runs = 0

    def hash(self, password: str) -> str:
        self.runs += 1
        return str(self.inner.hash(password))

    def verify(self, password: str, stored: str) -> bool:
        self.runs += 1
        return bool(self.inner.verify(password, stored))

    def verify_and_update(self, password: str, stored: str) -> tuple[bool, str | None]:
        self.runs += 1
        ok, fresh = self.inner.verify_and_update(password, stored)
        return bool(ok), fresh


def counting(server: Server) -> CountingHasher:
    assert server.app is not None
    accounts = server.app.state.services.accounts
    hasher = CountingHasher(accounts._hasher)
    accounts._hasher = hasher
    return hasher


async def test_a_refused_claim_costs_no_password_hash(
    server: Server, http: httpx.AsyncClient
) -> None:
    """The password was hashed before the claim was checked: one guest could make the server
    run Argon2 (tens of ms and 64 MiB each) without end by claiming a taken name, or claiming
    twice."""
    first, second = await new_guest(http, "First"), await new_guest(http, "Second")
    hasher = counting(server)
    assert (await claim(http, first, "maria")).status_code == 201
    assert hasher.runs == 1
    for _ in range(5):
        assert code_of(await claim(http, first, "another")) == (409, "already_claimed")
        assert code_of(await claim(http, second, "MARIA")) == (409, "username_taken")
    assert hasher.runs == 1


async def test_password_change_guesses_are_limited_like_logins(settings: Settings) -> None:
    """A wrong ``old_password`` was answered ``bad_login`` without limit: whoever held one
    session token (a device left signed in) could guess the account's password for ever, and
    every guess cost an Argon2 run."""
    limited = settings.model_copy(update={"login_failures_per_account": 3})
    async with serve(limited) as server, httpx.AsyncClient(base_url=server.url) as http:
        guest = await new_guest(http, "Target")
        assert (await claim(http, guest, "target")).status_code == 201
        hasher = counting(server)

        async def change(old: str) -> httpx.Response:
            body = {"old_password": old, "new_password": "a brand new secret"}
            return await http.put("/api/accounts/me/password", json=body, headers=guest.auth)

        for _ in range(3):
            assert code_of(await change("guess guess")) == (401, "bad_login")
        runs = hasher.runs
        # The cap is reached: refused without checking, even with the right password ...
        assert code_of(await change(PASSWORD)) == (429, "login_limited")
        assert hasher.runs == runs
        # ... and it is the username's login count, shared with POST /api/accounts/login.
        login = await http.post(
            "/api/accounts/login", json={"username": "target", "password": PASSWORD}
        )
        assert code_of(login) == (429, "login_limited")
        assert (await http.get("/api/players/me", headers=guest.auth)).status_code == 200


async def test_a_successful_password_change_clears_the_account_s_failures(
    settings: Settings,
) -> None:
    limited = settings.model_copy(update={"login_failures_per_account": 3})
    async with serve(limited) as server, httpx.AsyncClient(base_url=server.url) as http:
        guest = await new_guest(http, "Owner")
        assert (await claim(http, guest, "owner")).status_code == 201
        wrong = {"old_password": "guess guess", "new_password": "a brand new secret"}
        right = {"old_password": PASSWORD, "new_password": "a brand new secret"}
        for _ in range(2):
            response = await http.put("/api/accounts/me/password", json=wrong, headers=guest.auth)
            assert code_of(response) == (401, "bad_login")
        changed = await http.put("/api/accounts/me/password", json=right, headers=guest.auth)
        assert changed.status_code == 204
        for _ in range(2):  # the count started again
            login = await http.post(
                "/api/accounts/login", json={"username": "owner", "password": "nope nope"}
            )
            assert code_of(login) == (401, "bad_login")
        login = await http.post(
            "/api/accounts/login", json={"username": "owner", "password": "a brand new secret"}
        )
        assert login.status_code == 200


async def test_successful_logins_keep_only_the_newest_sessions(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each login is a session row, and a success is not a failed login: one account could add
    rows without end, and list them all. Beyond the cap the oldest device is signed out."""
    monkeypatch.setattr("app.db.accounts.SESSIONS_MAX", 3)
    guest = await new_guest(http, "Many")
    assert (await claim(http, guest, "many_devices")).status_code == 201
    tokens = [guest.token]
    for n in range(4):
        body = {"username": "many_devices", "password": PASSWORD}
        signed = await http.post("/api/accounts/login", json=body, headers={"User-Agent": f"d{n}"})
        assert signed.status_code == 200, signed.text
        tokens.append(signed.json()["token"])
    newest = {"Authorization": f"Bearer {tokens[-1]}"}
    listed = (await http.get("/api/accounts/sessions", headers=newest)).json()
    assert len(listed) == 3
    for old in tokens[:2]:  # the claiming device and the first login: the two oldest
        gone = await http.get("/api/players/me", headers={"Authorization": f"Bearer {old}"})
        assert code_of(gone) == (401, "bad_token")
    for kept in tokens[2:]:
        me = await http.get("/api/players/me", headers={"Authorization": f"Bearer {kept}"})
        assert me.status_code == 200


async def test_the_calls_that_hash_a_password_share_the_addresss_allowance(
    settings: Settings,
) -> None:
    """Successful logins (and password changes) reset the failure counts, so the login limits
    let one address run Argon2 (0.1 s of a core, 64 MiB) again and again; these calls now take
    from the address's allowance of new guests and rooms."""
    limits = {"create_burst": 3, "create_per_second": 0.001}
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        guest = await new_guest(http, "Looper")  # 1 of 3
        assert (await claim(http, guest, "looper")).status_code == 201  # 2 of 3
        body = {"username": "looper", "password": PASSWORD}
        assert (await http.post("/api/accounts/login", json=body)).status_code == 200  # 3 of 3
        refused = await http.post("/api/accounts/login", json=body)
        assert code_of(refused) == (429, "rate_limited")
        change = {"old_password": PASSWORD, "new_password": "another secret here"}
        changed = await http.put("/api/accounts/me/password", json=change, headers=guest.auth)
        assert code_of(changed) == (429, "rate_limited")
        me = await http.get("/api/accounts/me", headers=guest.auth)  # no hash: not limited
        assert me.status_code == 200


async def test_a_caller_without_a_valid_token_is_told_401_whatever_the_allowance(
    settings: Settings,
) -> None:
    """Creating a room, joining quick play, claiming an account and changing a password take
    from the address's allowance of new things; that allowance was spent before the token was
    read, so a caller without one was told 429 (and a stranger's bad tokens spent yours)."""
    limits = {"create_burst": 1, "create_per_second": 0.001}
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        guest = await new_guest(http, "Spent")  # the allowance's only token
        bad = {"Authorization": "Bearer not-a-token"}
        calls = [
            ("POST", "/api/rooms", {}),
            ("POST", "/api/quickplay", {"preset": "bulgarian"}),
            ("POST", "/api/accounts", {"username": "spent", "password": "a long password"}),
            ("PUT", "/api/accounts/me/password", {"old_password": "x", "new_password": "y" * 12}),
        ]
        for method, path, body in calls:
            refused = await http.request(method, path, json=body, headers=bad)
            assert (refused.status_code, refused.json()["error"]["code"]) == (401, "bad_token")
            spent = await http.request(method, path, json=body, headers=guest.auth)
            assert spent.status_code == 429, (path, spent.text)


async def test_one_address_is_held_to_its_allowance_of_http_requests(settings: Settings) -> None:
    """Any request, not only those that make something: a quick-play poll forms tables and a
    profile reads every match, and one address sending them in a loop took the node's time."""
    limits = {"http_burst": 5, "http_per_second": 0.001}
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        answers = [(await http.get("/api/rooms")).status_code for _ in range(6)]
        assert answers == [200] * 5 + [429]
        refused = await http.get("/api/ratings/bulgarian")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert refused.json()["error"]["code"] == "rate_limited"
        # The client's files are counted apart, with ten times the allowance: a page is some
        # fifty files, and counted with the calls a few pages opened at once spent the burst,
        # so that the next page's modules were refused and it never drew.
        # The service's own pages are no client files: /metrics reads every room's state.
        assert (await http.get("/metrics")).status_code == 429
        files = [(await http.get("/js/main.js")).status_code for _ in range(51)]
        assert files == [200] * 50 + [429]
