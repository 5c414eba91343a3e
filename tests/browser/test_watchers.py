"""The table shows how many watch it, in a real Chromium: a host whose private link was passed
on sees it (ROOM's ``watchers``, told ``watchers_seconds`` after a change)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


def test_the_host_sees_how_many_watch(new_page: Any) -> None:
    host = ui.host_waiting_room(new_page)
    assert host.query_selector("#room-top .watchers") is None
    guest = new_page()
    ui.join_by_link(guest, host, "Visitor")  # watching, not seated
    shown = host.wait_for_selector("#room-top .watchers")
    assert shown.inner_text() == "Watching: 1"
    assert "sees no hand" in str(shown.get_attribute("title"))
    guest.click(".seat[data-seat='2'] button.sit")  # a player now, not a watcher
    host.wait_for_selector("#room-top .watchers", state="detached")
