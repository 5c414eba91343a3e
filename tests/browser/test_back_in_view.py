"""A tab shown again reads at once what it would read on its next round (static/js/poll.js).

A hidden tab's timers are slowed by the browser (Chrome: to once a minute after five minutes; a
phone freezes the page), so a person who came back waited for the next round: a friend's
invitation, "your match is on", a table link that died while the phone slept. The page's clock
is paused here (Playwright's fake clock), so that no timer can do what the return alone must:
without the change nothing is asked, and each wait below runs out."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_tournaments import make

pytestmark = pytest.mark.browser

# The browser sends `visibilitychange` when a tab is hidden or shown; Playwright's page is
# always visible, so the two are played here with `visibilityState` as the browser sets it.
HIDE_AND_SHOW = """() => {
  let state = 'hidden';
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  document.dispatchEvent(new Event('visibilitychange'));
  state = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def paused(page: Any) -> None:
    """From now on the page's timers fire only when the test says (it never does)."""
    page.clock.pause_at(time.time() + 1)


def test_the_lobby_reads_its_tables_invitations_and_announcement_when_shown_again(
    new_page: Any,
) -> None:
    page = new_page()
    page.clock.install()
    ui.set_name(page, "Back")
    page.wait_for_selector("#create-form")
    paused(page)

    def asked(path: str) -> Any:
        return page.expect_request(lambda request: path in request.url, timeout=5_000)

    with (
        asked("/api/rooms?") as tables,
        asked("/api/players/me/invitations") as invitations,
        asked("/api/announcement") as announcement,
    ):
        page.evaluate(HIDE_AND_SHOW)
    assert tables.value.method == invitations.value.method == announcement.value.method == "GET"


def test_a_table_shown_again_asks_whether_its_link_lives(new_page: Any) -> None:
    page = new_page()
    page.clock.install()
    ui.set_name(page, "Back")
    with page.expect_websocket(lambda socket: "/ws/rooms/" in socket.url) as opened:
        ui.create_room(page, bots=(1, 2, 3))
    socket = opened.value
    page.wait_for_selector("#room[data-connection=open]")
    paused(page)
    with socket.expect_event(
        "framesent", lambda frame: json.loads(frame)["t"] == "ping", timeout=5_000
    ):
        page.evaluate(HIDE_AND_SHOW)


def test_a_table_whose_link_dropped_reconnects_when_shown_again(new_page: Any) -> None:
    """The link dropped while the tab was away: the next try waits out its backoff (paused
    here for good), and the return starts it at once."""
    page = new_page()
    page.clock.install()
    ui.set_name(page, "Back")
    ui.create_room(page, bots=(1, 2, 3))
    page.wait_for_selector("#room[data-connection=open]")
    paused(page)
    page.evaluate("() => window.__belote.conn.simulateDrop()")
    page.wait_for_selector("#room[data-connection=reconnecting]")
    page.evaluate(HIDE_AND_SHOW)
    page.wait_for_selector("#room[data-connection=reconnected]", timeout=5_000)


def test_a_tournament_s_page_reads_it_again_when_shown_again(new_page: Any) -> None:
    """An entrant may wait for their match on the tournament's page in another tab. The clock
    is paused before the page opens: its first read is then the only one, and none is under
    way when the tab is shown again."""
    page = new_page()
    page.clock.install()
    ui.set_name(page, "Back")
    paused(page)
    address = make(page, "Back cup", "bulgarian", 8)
    tournament = address.rsplit("/", 1)[1]
    with page.expect_request(
        lambda request: request.url.endswith(f"/api/tournaments/{tournament}"), timeout=5_000
    ) as read:
        page.evaluate(HIDE_AND_SHOW)
    assert read.value.method == "GET"
