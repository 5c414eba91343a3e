"""A player downloads everything the site keeps about them (``GET /api/players/me/export``,
docs/protocol.md §1, ``app.db.export``): theirs in whole, nobody else's, no secret."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Server, new_account, new_guest, ws_client

URL = "/api/players/me/export"


async def test_the_export_holds_the_player_s_data_and_nobody_else_s(
    http: httpx.AsyncClient,
    server: Server,
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ivana = await new_account(http, "Ivana")
    rude, calm = await new_guest(http, "Rude"), await new_guest(http, "Calm")
    room = await http.post("/api/rooms", json={"bots": [1, 3]}, headers=ivana.auth)
    code = room.json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=rude.auth)).is_success
    async with ws_client(server, code, ivana.token) as client:
        reply = await client.reply(await client.send("chat", {"text": "good luck all"}))
        assert reply["t"] == "ack"
    async with ws_client(server, code, rude.token) as client:
        reply = await client.reply(await client.send("chat", {"text": "a rude line"}))
        assert reply["t"] == "ack"
    started = await http.post(f"/api/rooms/{code}/start", json={}, headers=ivana.auth)
    assert started.is_success, started.text
    report = {"reason": "chat", "room": code, "text": "Rude in the chat"}
    made = await http.post(f"/api/players/{rude.id}/reports", json=report, headers=ivana.auth)
    assert made.status_code == 204
    about_her = {"reason": "name", "text": "Calm's words about Ivana"}
    made = await http.post(f"/api/players/{ivana.id}/reports", json=about_her, headers=calm.auth)
    assert made.status_code == 204
    assert (await http.put(f"/api/players/me/mutes/{rude.id}", headers=ivana.auth)).is_success
    command = ["suspend", ivana.id, "--reason", "Testing the export", "--by", "alice"]
    assert await asyncio.to_thread(admin.main, command, settings) == 0
    capsys.readouterr()
    appeal = {"text": "My appeal words"}
    assert (await http.post("/api/players/me/appeal", json=appeal, headers=ivana.auth)).is_success

    answer = await http.get(URL, headers=ivana.auth)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-disposition"] == (
        f'attachment; filename="belote-{ivana.id}.json"'
    )
    data = answer.json()
    assert data["player"]["id"] == ivana.id and data["player"]["name"] == "Ivana"
    assert data["account"]["username"] == f"Ivana-{ivana.id}"
    assert len(data["devices"]) == 1  # the session the account was made with
    assert [(t["code"], t["host"]) for t in data["tables"]] == [(code, True)]
    assert [line["text"] for line in data["chat"]] == ["good luck all"]
    assert [(x["preset"], x["seat"], x["name"]) for x in data["matches"]] == [
        ("bulgarian", 0, "Ivana")
    ]
    (mine,) = data["reports_made"]
    assert (mine["about"], mine["table"], mine["text"]) == (rude.id, code, "Rude in the chat")
    assert (mine["closed_at"], mine["outcome"], mine["told_at"]) == (None, None, None)  # open
    assert [mute["player"] for mute in data["mutes"]] == [rude.id]
    suspension = data["suspension"]
    assert suspension["reason"] == "Testing the export" and suspension["until"] is None
    assert suspension["appeal"]["text"] == "My appeal words"
    assert [(e["action"], e["detail"]) for e in data["moderation"]] == [
        ("suspend", "until lifted: Testing the export")
    ]
    assert data["quickplay"] is None and data["ratings"] == [] and data["rating_changes"] == []
    # Nobody else's: not the rude player's line (the report's evidence), not who reported
    # Ivana nor their words, not the operator's name; and no secret.
    text = answer.text
    for foreign in ("a rude line", calm.id, "Calm's words", "alice", '"close"', ivana.token):
        assert foreign not in text, foreign
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            row = await session.get(m.Player, ivana.id)
            account = await session.get(m.Account, ivana.id)
            assert row is not None and account is not None
            assert row.token_hash not in text and account.password_hash not in text
    finally:
        await engine.dispose()


async def test_an_export_needs_a_token_and_is_limited(http: httpx.AsyncClient) -> None:
    assert code_of(await http.get(URL)) == (401, "not_authenticated")
    bad = {"Authorization": "Bearer not-a-token"}
    assert code_of(await http.get(URL, headers=bad)) == (401, "bad_token")
    guest = await new_guest(http, "Guest")
    answers = [await http.get(URL, headers=guest.auth) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]  # three, then one a minute
    assert code_of(answers[-1]) == (429, "rate_limited")
    assert answers[0].json()["account"] is None and answers[0].json()["devices"] == []
