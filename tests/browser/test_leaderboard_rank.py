"""An account further down than the leaderboard lists (its first 100) finds its own line below
the board, after a gap, with its place: the profile's ``rank`` of the same order."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from tests.api.test_rank import rated
from tests.browser import ui
from tests.conftest import Server

pytestmark = pytest.mark.browser


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run ``coroutine`` to its end in a thread of its own: Playwright's sync API holds this
    thread's event loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result(timeout=60)


async def rate_me(url: str, player_id: str) -> None:
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            session.add(m.Rating(player_id=player_id, preset="french", mu=20.0, sigma=8.0))
    finally:
        await engine.dispose()


def test_an_account_below_the_board_finds_its_own_line(new_page: Any, live_server: Server) -> None:
    page = new_page()
    ui.set_name(page, "Low")
    ui.sign_up(page, "low_one", "a long enough secret")
    others = {f"{i:016x}": (3.0 * 8 + 200 - i, 8.0) for i in range(100)}
    run(rated(live_server.settings, others))
    run(rate_me(live_server.settings.database_url, ui.player_id(page)))
    page.goto("/#/ratings/french")
    mine = page.wait_for_selector(".leaderboard-table tr.me")
    assert page.locator(".leaderboard-table tbody tr:not(.gap)").count() == 101
    assert page.locator(".leaderboard-table tr.gap").count() == 1
    cells = mine.query_selector_all("td")
    assert [c.inner_text() for c in cells[:2]] == ["101", "Low (low_one)"]
