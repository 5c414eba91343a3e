"""The lobby's public rooms, in a real Chromium: of one game if the player chooses one (and
remembered on the device), and more than the first page with "Show more"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Server

pytestmark = pytest.mark.browser

ROWS = "() => document.querySelectorAll('#public-rooms .room-row').length"


def open_rooms(server: Server, presets: list[str]) -> None:
    """A public room of each preset of ``presets``, the first made first (listed last); the
    first with a house rule and a turn timer."""
    with httpx.Client(base_url=server.url) as http:
        token = http.post("/api/players", json={"name": "Host"}).json()["token"]
        for i, preset in enumerate(presets):
            body: dict[str, Any] = {"public": True, "rules": {"preset": preset}, "seat": None}
            if i == 0:
                body |= {"rules": {"preset": preset, "house_rules": {"round_to_tens": True}}}
                body |= {"turn_seconds": 30}
            made = http.post("/api/rooms", json=body, headers={"Authorization": f"Bearer {token}"})
            assert made.status_code == 201, made.text


def test_the_lobby_lists_one_game_and_shows_more_than_a_page(
    new_page: Any, live_server: Server
) -> None:
    open_rooms(live_server, ["french"] * 2 + ["bulgarian"] * 51)
    page = new_page()
    page.goto("/")
    page.wait_for_function(f"() => ({ROWS})() === 50")  # the first page
    more = page.wait_for_selector("#more-rooms:not([hidden])")
    assert more.inner_text() == "Show more (3 more)"
    more.click()
    page.wait_for_function(f"() => ({ROWS})() === 53")
    page.wait_for_selector("#more-rooms", state="hidden")
    page.select_option("#public-preset", "french")
    page.wait_for_function(f"() => ({ROWS})() === 2")
    assert page.inner_text("#public-rooms").count("French Belote") == 2
    # What a stranger wants to know before sitting down: the clock and the house rules.
    first = page.inner_text("#public-rooms .room-row:last-child .room-line")
    assert "30 s" in first and "Round to tens: yes" in first, first
    assert page.is_hidden("#more-rooms")
    page.reload()  # the choice is remembered on this device
    page.wait_for_selector("#public-preset:not([hidden])")
    assert page.input_value("#public-preset") == "french"
    page.wait_for_function(f"() => ({ROWS})() === 2")
    page.select_option("#public-preset", "bulgarian3")
    empty = page.wait_for_selector("#public-rooms li.muted")
    assert empty.inner_text() == "No public room of this game is open. Create one!"
    page.select_option("#public-preset", "")  # all games again
    page.wait_for_function(f"() => ({ROWS})() === 50")
