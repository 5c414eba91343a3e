"""A suspended player appeals once against the suspension (``POST /api/players/me/appeal``,
docs/protocol.md §1); the operator reads it (``python -m app.admin appeals``) and lifts the
suspension or keeps it (``deny-appeal``), which the player reads on ``GET /api/players/me``. A
new suspension may be appealed anew; erasure takes the appeal."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.api.test_suspension import eventually, hearing_news, suspension
from tests.conftest import new_account, new_guest

WORDS = "I was quoting the other player, not insulting anyone."


async def test_a_suspended_player_appeals_once_and_reads_the_answer(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    async def run(*command: str, status: int = 0) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == status
        out, err = capsys.readouterr()
        return (out or err).splitlines()

    async with hearing_news(settings) as (_server, http):
        rude, calm = await new_account(http, "Rude"), await new_guest(http, "Calm")
        url = "/api/players/me/appeal"
        body = {"text": WORDS}
        # Nobody suspended has nothing to appeal.
        assert code_of(await http.post(url, json=body, headers=rude.auth)) == (409, "not_suspended")
        assert await run("appeals") == ["No appeal waiting."]

        await run("suspend", f"rude-{rude.id}", "--reason", "Insults in the chat")

        async def held() -> bool:
            return await suspension(http, rude) is not None

        await eventually(held)
        assert (await suspension(http, rude) or {})["appeal"] is None
        refused = [
            {"text": ""},
            {"text": "   "},
            {"text": "x" * 1001},
            {"text": "a\u202eb"},  # a bidi override: what the chat refuses
            {},
        ]
        for bad in refused:
            answer = await http.post(url, json=bad, headers=rude.auth)
            assert code_of(answer) == (422, "bad_request"), bad
        assert code_of(await http.post(url, json=body)) == (401, "not_authenticated")
        assert (await suspension(http, rude) or {})["appeal"] is None  # none of it counted

        # Two at once (a double click, two devices): one is kept, the other refused.
        both = await asyncio.gather(
            http.post(url, json={"text": f"  {WORDS} "}, headers=rude.auth),
            http.post(url, json={"text": f"  {WORDS} "}, headers=rude.auth),
        )
        assert sorted(answer.status_code for answer in both) == [200, 409]
        (made,) = [answer for answer in both if answer.status_code == 200]
        (refusal,) = [answer for answer in both if answer.status_code == 409]
        assert code_of(refusal) == (409, "already_appealed")
        appeal = made.json()
        assert (appeal["text"], appeal["read_at"]) == (WORDS, None)
        at = datetime.fromisoformat(appeal["at"])
        assert timedelta(0) <= datetime.now(UTC) - at < timedelta(minutes=1)
        assert (await suspension(http, rude) or {})["appeal"] == appeal
        again = await http.post(url, json={"text": "Please!"}, headers=rude.auth)
        assert code_of(again) == (409, "already_appealed")
        assert (await suspension(http, rude) or {})["appeal"] == appeal  # the first one stays
        assert code_of(await http.post(url, json=body, headers=calm.auth)) == (409, "not_suspended")

        waiting = await run("appeals")
        assert waiting == [
            "1 appeal waiting.",
            f"Rude (id {rude.id}, username Rude-{rude.id}); suspended until lifted: "
            "Insults in the chat",
            f"  appealed {at:%Y-%m-%d %H:%M} UTC: {WORDS}",
        ]
        assert await run("deny-appeal", calm.id, status=1) == [
            f"Player {calm.id} has no appeal waiting."
        ]
        assert await run("deny-appeal", rude.id) == [
            f"Player {rude.id} stays suspended and is told the appeal was read."
        ]
        read = (await suspension(http, rude) or {})["appeal"]
        assert isinstance(read, dict) and read["text"] == WORDS and read["read_at"] is not None
        assert await run("deny-appeal", rude.id, status=1) == [
            f"Player {rude.id} has no appeal waiting."
        ]
        assert await run("appeals") == ["No appeal waiting."]
        every = await run("appeals", "--all")
        assert every[0] == "1 appeal." and "; suspension kept 20" in every[2]

        # A new suspension is a new decision: the old appeal goes, a new one may be made.
        await run("suspend", rude.id, "--reason", "Insults again", "--days", "2")

        async def renewed() -> bool:
            return (await suspension(http, rude) or {}).get("reason") == "Insults again"

        await eventually(renewed)
        assert (await suspension(http, rude) or {})["appeal"] is None
        second = await http.post(url, json={"text": "Two days is fair."}, headers=rude.auth)
        assert second.status_code == 200, second.text

        # Lifting ends the suspension and its appeal.
        await run("lift", rude.id)

        async def lifted() -> bool:
            return await suspension(http, rude) is None

        await eventually(lifted)
        assert code_of(await http.post(url, json=body, headers=rude.auth)) == (409, "not_suspended")
        assert await run("appeals", "--all") == ["No appeal."]


async def test_erasure_takes_the_appeal(settings: Settings) -> None:
    async with hearing_news(settings) as (_server, http):
        rude = await new_guest(http, "Rude")
        command = ["suspend", rude.id, "--reason", "Spoiling games"]
        assert await asyncio.to_thread(admin.main, command, settings) == 0

        async def held() -> bool:
            return await suspension(http, rude) is not None

        await eventually(held)
        made = await http.post("/api/players/me/appeal", json={"text": WORDS}, headers=rude.auth)
        assert made.status_code == 200, made.text
        assert (await http.delete("/api/players/me", headers=rude.auth)).status_code == 204
        engine = make_engine(settings.database_url)
        try:
            async with make_sessionmaker(engine)() as session:
                row: Any = await session.get(m.Player, rude.id)
                assert row is not None and row.erased_at is not None
                assert (row.appeal_text, row.appealed_at, row.appeal_read_at) == (None, None, None)
        finally:
            await engine.dispose()
