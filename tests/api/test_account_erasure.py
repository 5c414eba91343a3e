"""A person erases their account (DELETE /api/accounts/me): after their password, and not
during a match; what names them goes, the matches stay for the others who played them."""

from __future__ import annotations

import json

import httpx
from sqlalchemy import func, select

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.models import utcnow
from app.settings import Settings
from tests.api.test_accounts import PASSWORD, code_of, login
from tests.conftest import Guest, Server, new_account, new_guest, serve, ws_client


async def erase(http: httpx.AsyncClient, who: Guest, password: str = PASSWORD) -> httpx.Response:
    return await http.request(
        "DELETE", "/api/accounts/me", json={"password": password}, headers=who.auth
    )


async def count(settings: Settings, table: type[m.Base], player_id: str) -> int:
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            column = table.__table__.c.player_id  # type: ignore[attr-defined]
            found = await session.scalar(
                select(func.count()).select_from(table).where(column == player_id)
            )
            return int(found or 0)
    finally:
        await engine.dispose()


async def stored_removed(settings: Settings) -> str:
    """Every room's stored list of those removed, as text."""
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            return str((await session.scalars(select(m.Room.removed))).all())
    finally:
        await engine.dispose()


async def rated(settings: Settings, player_id: str, match_id: str) -> None:
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            session.add(m.Rating(player_id=player_id, preset="bulgarian", mu=27, sigma=7))
            session.add(m.PlayStats(player_id=player_id, preset="bulgarian", deals=3, bids=1))
            session.add(
                m.PlayerNetwork(player_id=player_id, network="203.0.113.7", seen_at=utcnow())
            )
            session.add(
                m.RatingChange(
                    match_id=match_id,
                    player_id=player_id,
                    preset="bulgarian",
                    won=True,
                    mu=27,
                    sigma=7,
                    before=0,
                    after=6,
                )
            )
    finally:
        await engine.dispose()


async def test_an_erased_account_leaves_nothing_that_names_it(
    http: httpx.AsyncClient, server: Server, settings: Settings
) -> None:
    zora = await new_account(http, "Zora")
    username = (await http.get("/api/accounts/me", headers=zora.auth)).json()["username"]
    bob = await new_guest(http, "Bob")
    made = await http.post("/api/rooms", json={"bots": [1, 3], "public": True}, headers=zora.auth)
    code = made.json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=bob.auth)).status_code == 200
    # A second table where Zora only waits: she is stood up there too. A third she hosts
    # without a seat, where Bob sits: it is handed to him.
    waiting = (await http.post("/api/rooms", json={}, headers=zora.auth)).json()["room"]["code"]
    made = await http.post("/api/rooms", json={"seat": None}, headers=zora.auth)
    watched = made.json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{watched}/seats/1", headers=bob.auth)).status_code == 200
    assert (await http.post(f"/api/rooms/{code}/start", headers=zora.auth)).status_code == 200
    # A third, Bob's, where he removed her: she is kept out by id, and was named for him.
    bobs = (await http.post("/api/rooms", json={}, headers=bob.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{bobs}/seats/1", headers=zora.auth)).status_code == 200
    out = await http.delete(f"/api/rooms/{bobs}/seats/1", headers=bob.auth)
    assert out.json()["room"]["removed"] == [{"id": zora.id, "name": "Zora"}]

    async with ws_client(server, code, zora.token) as client:
        said = await client.reply(await client.send("chat", {"text": "Zora was here"}))
        assert said["t"] == "ack", said
        # During a match: refused, and nothing changes (checked below: she signs in again).
        assert code_of(await erase(http, zora)) == (409, "match_in_progress")
        assert code_of(await erase(http, zora, "not my password")) == (401, "bad_login")
        async with ws_client(server, code, bob.token) as partner:
            for each in (client, partner):  # Zora and Bob, partners, give the match up
                reply = await each.reply(await each.send("concede", {"on": True}))
                assert reply["t"] == "ack", reply
    assert (await login(http, username)).status_code == 200  # still an account
    assert await count(settings, m.ChatMessage, zora.id) == 1
    # A rating of hers, as a rated match leaves one (written here: bots make this one casual).
    match_id = (await http.get(f"/api/players/{bob.id}/matches")).json()[0]["id"]
    await rated(settings, zora.id, match_id)
    board = (await http.get("/api/ratings/bulgarian")).json()
    assert zora.id in str(board)
    assert await count(settings, m.PlayStats, zora.id) == 1
    assert await count(settings, m.PlayerNetwork, zora.id) == 1

    erased = await erase(http, zora)
    assert erased.status_code == 204, erased.text

    # Signed out everywhere, the username free, the player unknown.
    assert code_of(await http.get("/api/players/me", headers=zora.auth)) == (401, "bad_token")
    assert code_of(await login(http, username)) == (401, "bad_login")
    assert code_of(await http.get(f"/api/players/{zora.id}/matches")) == (404, "unknown_player")
    assert code_of(await http.get(f"/api/players/{zora.id}/profile")) == (404, "unknown_player")
    other = await new_guest(http, "Someone")
    again = await http.post(
        "/api/accounts", json={"username": username, "password": PASSWORD}, headers=other.auth
    )
    assert again.status_code == 201, again.text
    # Her seats are empty; the match stays Bob's, her seat in it nameless. The room she hosted
    # with Bob at it is his now; the one she was alone in keeps its vanished host.
    hosts = {}
    for room_code in (code, waiting, watched):
        room = (await http.get(f"/api/rooms/{room_code}")).json()["room"]
        assert zora.id not in [(s["player"] or {}).get("id") for s in room["seats"]], room
        hosts[room_code] = room["host"]
    assert hosts == {code: bob.id, waiting: zora.id, watched: bob.id}
    matches = (await http.get(f"/api/players/{bob.id}/matches", headers=bob.auth)).json()
    assert len(matches) == 1
    seats = {s["seat"]: s for s in matches[0]["seats"]}
    assert (seats[0]["player"], seats[0]["name"], seats[2]["name"]) == (zora.id, None, "Bob")
    tables = (m.ChatMessage, m.Account, m.AccountSession, m.Rating, m.RatingChange, m.Seat)
    for table in (*tables, m.PlayStats, m.PlayerNetwork):
        assert await count(settings, table, zora.id) == 0, table
    assert zora.id not in str((await http.get("/api/ratings/bulgarian")).json())
    kept_out = (await http.get(f"/api/rooms/{bobs}")).json()["room"]["removed"]
    assert kept_out == [{"id": zora.id, "name": None}]
    assert "Zora" not in await stored_removed(settings)
    assert "Zora" not in str(matches)
    # The live room no longer names her either: not in its last match's seats, not in its chat.
    async with ws_client(server, code) as watcher:
        snapshot = watcher.frames[0]
        assert snapshot["t"] == "snapshot", snapshot
        assert snapshot["d"]["room"]["match_seats"][0] == {
            "seat": 0,
            "player": {"id": zora.id, "name": None},
            "bot": False,
        }
        assert snapshot["d"]["chat"] == []
        assert "Zora" not in json.dumps(snapshot)


async def test_a_guest_has_no_account_to_erase(http: httpx.AsyncClient) -> None:
    guest = await new_guest(http, "Gus")
    assert code_of(await erase(http, guest)) == (409, "not_an_account")
    assert (await http.get("/api/players/me", headers=guest.auth)).status_code == 200
    # Without a token, neither call knows whom to erase.
    body = {"password": PASSWORD}
    anonymous = await http.request("DELETE", "/api/accounts/me", json=body)
    assert code_of(anonymous) == (401, "not_authenticated")
    assert code_of(await http.delete("/api/players/me")) == (401, "not_authenticated")


async def test_erasure_guesses_are_limited_like_logins(settings: Settings) -> None:
    """Erasing asks for the password so that a device left signed in cannot erase the
    account; its wrong guesses count as failed logins, or a token would buy endless ones."""
    limited = settings.model_copy(update={"login_failures_per_account": 3})
    async with serve(limited) as server, httpx.AsyncClient(base_url=server.url) as http:
        owner = await new_account(http, "Owner")
        for _ in range(3):
            assert code_of(await erase(http, owner, "guess guess")) == (401, "bad_login")
        assert code_of(await erase(http, owner)) == (429, "login_limited")
        assert (await http.get("/api/accounts/me", headers=owner.auth)).json()["username"]


async def test_a_guest_is_forgotten_without_a_password(
    http: httpx.AsyncClient, server: Server, settings: Settings
) -> None:
    """A guest has no password: its token is all it has, and ``DELETE /api/players/me`` forgets
    it. An account's token alone is not enough (a device left signed in)."""
    host = await new_guest(http, "Host")
    gus = await new_guest(http, "Gus")
    code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=gus.auth)).status_code == 200
    async with ws_client(server, code, gus.token) as client:
        said = await client.reply(await client.send("chat", {"text": "Gus says hi"}))
        assert said["t"] == "ack", said
    account = await new_account(http, "Acct")
    refused = await http.delete("/api/players/me", headers=account.auth)
    assert code_of(refused) == (409, "already_claimed")
    assert (await http.get("/api/accounts/me", headers=account.auth)).json()["username"]

    gone = await http.delete("/api/players/me", headers=gus.auth)
    assert gone.status_code == 204, gone.text
    assert code_of(await http.get("/api/players/me", headers=gus.auth)) == (401, "bad_token")
    assert code_of(await http.get(f"/api/players/{gus.id}/profile")) == (404, "unknown_player")
    room = (await http.get(f"/api/rooms/{code}")).json()["room"]
    assert room["seats"][2]["player"] is None
    assert await count(settings, m.ChatMessage, gus.id) == 0
    async with ws_client(server, code) as watcher:
        assert "Gus" not in json.dumps(watcher.frames[0])
