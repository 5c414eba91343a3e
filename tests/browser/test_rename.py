"""A player at the table renames themselves (in another tab, say), in a real Chromium: the
others see the new name on the seat at once and are told who is who now (docs/protocol.md §1).
Before, the seat kept the name it was taken under until its player sat down again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser


def test_the_others_see_a_rename_at_the_seat(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    renamed = guest.request.patch(
        "/api/players/me", data={"name": "Gustav"}, headers=ui.auth(guest)
    )
    assert renamed.ok
    host.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Gustav')")
    told = host.wait_for_selector(".toast:has-text('is now called')")
    assert told.inner_text().startswith("Guest is now called Gustav.")
    # The player who renamed is not told about themselves; their own seat shows it too.
    guest.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Gustav')")
    assert guest.query_selector(".toast:has-text('is now called')") is None


def test_a_rename_too_soon_is_refused_in_the_player_s_words(new_page: Any) -> None:
    """Renames are limited (three at once, then one every 20 s: each is told at the player's
    tables). The refusal said only "Too fast: slow down."; now it says what to do."""
    page = new_page(locale="fr-FR")
    ui.set_name(page, "Anne")  # makes the guest: not a rename
    for name in ("Anna", "Annie", "Annette"):
        ui.set_name(page, name)
    page.fill("#name-input", "Annabelle")
    page.click("#name-form button[type=submit]")
    told = page.wait_for_selector(".toast.error")
    assert told.inner_text().startswith("Vous avez changé de nom il y a un instant")
    assert page.evaluate("JSON.parse(localStorage.getItem('belote.player')).name") == "Annette"
