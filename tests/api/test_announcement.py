"""The operator's announcement (``python -m app.admin announce`` / ``unannounce``, ``GET
/api/announcement``, docs/protocol.md §1): one at a time, in other languages too, for a while or
until taken down; every server shows it within its round of news."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app import admin
from app.db.announcements import Announcements
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.api.test_suspension import eventually, hearing_news


async def test_the_operator_announces_and_takes_it_down(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    async def run(*command: str) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == 0
        return capsys.readouterr().out.splitlines()

    async with hearing_news(settings) as (_server, http):

        async def announced() -> Any:
            answer = await http.get("/api/announcement")
            assert answer.status_code == 200, answer.text
            return answer.json()["announcement"]

        assert await announced() is None
        said = await run("announce", "  Restart at 22:00 UTC ", "--fr", "Redémarrage à 22 h")
        assert said == ["Announced until unannounce: Restart at 22:00 UTC"]

        async def shown() -> bool:
            return await announced() is not None

        await eventually(shown)
        first = await announced()
        assert (first["text"], first["texts"], first["until"]) == (
            "Restart at 22:00 UTC",
            {"fr": "Redémarrage à 22 h"},
            None,
        )
        # A new one replaces it, here for two hours.
        said = await run("announce", "Tournament tonight", "--hours", "2")
        assert said[0].startswith("Announced until ")

        async def replaced() -> bool:
            return ((await announced()) or {}).get("text") == "Tournament tonight"

        await eventually(replaced)
        second = await announced()
        assert second["texts"] == {} and second["made_at"] > first["made_at"]
        until = datetime.fromisoformat(second["until"])
        assert timedelta(hours=1.99) < until - datetime.now(UTC) <= timedelta(hours=2)
        assert await run("unannounce") == ["The announcement is down."]

        async def down() -> bool:
            return await announced() is None

        await eventually(down)
        assert await run("unannounce") == ["There was no announcement."]  # no change: no entry
        # The operators' log says who said what to everyone, and who took it down.
        said = await run("log")
        assert said[0] == "3 changes in the last 30 days."
        rows = [line.split("  ", 3)[1:] for line in said[1:]]
        assert rows == [
            [
                admin.system_user(),
                "announce",
                "everyone: until unannounce (also in fr): Restart at 22:00 UTC",
            ],
            [
                admin.system_user(),
                "announce",
                f"everyone: until {until:%Y-%m-%d %H:%M} UTC: Tournament tonight",
            ],
            [admin.system_user(), "unannounce", "everyone"],
        ]
        assert await run("announce", "Back soon", "--by", "alice")
        assert (await run("log"))[-1].split("  ", 3)[1:] == [
            "alice",
            "announce",
            "everyone: until unannounce: Back soon",
        ]


def test_an_announcement_that_cannot_be_made_is_refused(settings: Settings) -> None:
    for command in (
        ["announce", "   "],
        ["announce", "x" * 301],
        ["announce", "Hi", "--hours", "0"],
        ["announce", "Hi", "--hours", "soon"],
        ["announce", "Hi", "--de", "Hallo"],
    ):
        with pytest.raises(SystemExit):  # argparse says why, before any work
            admin.main(command, settings)


async def test_a_stale_announcement_is_read_once_for_all_who_ask_at_that_moment(
    database_url: str,
) -> None:
    """When a node's copy goes stale, the requests asking at that moment share one read of the
    database, not one each (a crowd of clients at a page's start)."""
    engine = make_engine(database_url)
    try:
        sessions = make_sessionmaker(engine)
        opened = 0

        class Counting:
            def __call__(self) -> Any:
                nonlocal opened
                opened += 1
                return sessions()

            def begin(self) -> Any:
                return sessions.begin()

        announcements = Announcements(Counting(), fresh_seconds=60)  # type: ignore[arg-type]
        await announcements.set("Restart at 22:00", {}, None)
        held = await asyncio.gather(*(announcements.current() for _ in range(20)))
        assert opened == 1
        assert {a.text if a else None for a in held} == {"Restart at 22:00"}
        await announcements.current()  # fresh: no read at all
        assert opened == 1
    finally:
        await engine.dispose()
