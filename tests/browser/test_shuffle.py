"""The History page checks every finished deal's shuffle in the browser (WebCrypto SHA-256 over
the match record, docs/protocol.md §3), and the room page sends the player's entropy by itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


def test_the_history_page_shows_a_deal_s_shuffle_verified(new_page: Any) -> None:
    page = new_page()
    ui.set_name(page, "Vera")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    ui.play_deal_out(page)
    match_id = page.evaluate("() => window.__belote.state.room.match_id")

    record = page.request.get(f"/api/matches/{match_id}/record", headers=ui.auth(page)).json()
    first = record["deals"][0]
    assert [c["seat"] for c in first["contributions"]] == [0]  # the page sent entropy, unasked

    page.goto(f"/#/m/{match_id}")
    check = page.locator('.shuffle-check[data-deal="1"][data-verdict]')
    check.wait_for()
    assert check.get_attribute("data-verdict") == "verified"
    assert check.inner_text() == "shuffle verified"
