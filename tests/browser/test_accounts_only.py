"""A table kept for signed-in players (``accounts_only``), in a real Chromium: the host keeps it
so when making it, the lobby's list says so, a guest who follows the link may watch and is told
why no seat is offered, and the host opens it to guests between matches (docs/protocol.md §2)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


def test_a_guest_watches_a_table_for_accounts_until_the_host_opens_it(new_page: Any) -> None:
    host = new_page()
    ui.set_name(host, "Host")
    host.wait_for_selector("#create-form")
    assert host.is_disabled("#accounts-only")  # a guest may not make such a table
    ui.become_account(host)
    host.check("#accounts-only")
    code = ui.create_room(host, public=True)
    assert "Signed-in players only" in host.inner_text("#room-top .room-facts")
    guest = new_page()
    ui.set_name(guest, "Visitor")
    # The lobby's list says so before a stranger follows the row.
    row = guest.wait_for_selector(f"#public-rooms li:has(a[href='#/r/{code}'])")
    assert "Signed-in players only" in row.inner_text()
    ui.join_by_link(guest, host, "Visitor")
    note = guest.wait_for_selector(".account-note")
    assert note.inner_text().startswith(
        "Only signed-in players sit at this table; guests may watch."
    )
    assert note.query_selector("a[href='#/account']") is not None
    assert guest.query_selector("button.sit") is None  # no seat offered that would be refused
    host.click("#room-settings")
    assert host.is_checked("#set-accounts-only")
    host.uncheck("#set-accounts-only")
    host.click("#settings-save")
    told = guest.wait_for_selector(".toast:has-text('The host changed')")
    assert "Guests may sit" in told.inner_text()
    guest.click("button.sit >> nth=0")
    guest.wait_for_selector(".seat .badge.you")
    assert guest.query_selector(".account-note") is None
    assert "Signed-in players only" not in host.inner_text("#room-top .room-facts")
