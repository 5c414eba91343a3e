"""A profile's "At the table" in a real Chromium (docs/protocol.md §8.2, the profile's ``play``):
a deal played to its end against bots is counted and shown, in the reader's language, with
each share as a percent of its whole."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser import ui
from tests.conftest import Server

pytestmark = pytest.mark.browser

# (counter, the counter it is a share of): the rows ratings.js draws, in order.
ROWS = [
    ("deals", None),
    ("bids", None),
    ("made", "bids"),
    ("inside", "bids"),
    ("hanging", "bids"),
    ("defended", None),
    ("beaten", "defended"),
    ("contras", None),
    ("contras_won", "contras"),
    ("capots", None),
    ("capots_lost", None),
    ("belotes", None),
    ("declarations", None),
    ("declaration_points", None),
]


def shown(counts: dict[str, int], name: str, of: str | None) -> str:
    if of is None or not counts[of]:
        return str(counts[name])
    return f"{counts[name]} ({round(100 * counts[name] / counts[of])} %)"


def test_a_deal_played_shows_in_the_profile_s_counts(new_page: Any, live_server: Server) -> None:
    page: Any = new_page(locale="bg-BG")
    ui.set_name(page, "Ива")
    player = ui.player_id(page)
    page.goto(f"/#/p/{player}")
    page.wait_for_selector("#profile-name")
    assert page.query_selector("#play-stats") is None  # nothing played yet
    page.goto("/")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    ui.play_deal_out(page, prefer="all_trumps")
    with httpx.Client(base_url=live_server.url) as http:
        counts = http.get(f"/api/players/{player}/profile").json()["play"]["bulgarian"]
    assert counts["deals"] == 1 and counts["bids"] + counts["defended"] in (0, 1)
    page.goto(f"/#/p/{player}")
    page.wait_for_selector("#play-stats")
    assert page.inner_text("#play-stats h3") == "На масата"
    assert page.inner_text("#play-stats thead th") == "Български белот"
    labels = page.locator("#play-stats tbody th").all_inner_texts()
    assert labels[0] == "Изиграни раздавания" and len(labels) == len(ROWS)
    for name, of in ROWS:
        cell = page.inner_text(f"#play-stats tr[data-stat={name}] td[data-preset=bulgarian]")
        assert cell == shown(counts, name, of), name
