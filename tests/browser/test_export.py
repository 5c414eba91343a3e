"""A player downloads their data from the account page, in a real Chromium: "Download your
data" saves ``belote-{id}.json``, the same document as ``GET /api/players/me/export``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


def test_a_player_downloads_their_data_from_the_account_page(new_page: Any) -> None:
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page)  # a table of hers, to find in the file
    code = page.evaluate("window.__belote.state.room.code")
    page.goto("/#/account")
    section = page.wait_for_selector("#your-data")
    assert section.inner_text().startswith("Your data")
    with page.expect_download() as waiting:
        page.click("#export")
    download = waiting.value
    player_id = ui.player_id(page)
    assert download.suggested_filename == f"belote-{player_id}.json"
    data = json.loads(Path(download.path()).read_text())
    assert data["player"]["id"] == player_id and data["player"]["name"] == "Ann"
    assert [table["code"] for table in data["tables"]] == [code]
    page.wait_for_selector(".toast:has-text('Your data is downloaded.')")
