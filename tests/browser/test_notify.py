""" "Notifications" (static/js/prefs.js, signal.js): a player on a computer who turned them on is
called by the browser's notification when their turn comes while the tab is out of view, and
the notification goes when they come back.

A tab out of view is played here as test_back_in_view does (``visibilityState`` and its
event); the browser's notifications are a stand-in that keeps what the page asked of it, and
answers the permission as the test says: a headless browser shows none, and would ask no one.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

NOTIFICATIONS = """
window.notes = [];
window.permissionAsked = 0;
window.permissionAnswer = 'granted';
window.Notification = class {
  static permission = 'default';
  static requestPermission() {
    window.permissionAsked += 1;
    window.Notification.permission = window.permissionAnswer;
    return Promise.resolve(window.permissionAnswer);
  }
  constructor(title, options) {
    this.seen = {title, body: options.body, tag: options.tag, closed: false};
    window.notes.push(this.seen);
    window.lastNote = this;
  }
  close() { this.seen.closed = true; }
};
"""

SHOWN = """state => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def notes(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.notes"))


def test_the_turn_is_notified_while_the_tab_is_out_of_view(new_page: Any) -> None:
    page = new_page(locale="fr-FR")
    page.add_init_script(NOTIFICATIONS)
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2, 3), pause=60)
    label = page.locator("label[for='pref-notify']")
    assert label.inner_text().strip() == "Notifications"
    assert (label.get_attribute("title") or "").startswith("Une notification de votre navigateur")
    page.check("#pref-notify")
    page.wait_for_function("() => window.Notification.permission === 'granted'")
    assert page.evaluate("() => window.permissionAsked") == 1  # asked on the click
    page.evaluate(SHOWN, "hidden")
    ui.start(page)  # the player's turn comes in the first round of bids
    page.wait_for_function("() => window.notes.length === 1", timeout=30_000)
    assert notes(page) == [
        {"title": "À vous", "body": "Belote", "tag": "belote-turn", "closed": False}
    ]
    # A click on it brings the page forward and closes it (the page is then shown as well).
    page.evaluate("() => window.lastNote.onclick()")
    assert notes(page)[0]["closed"] is True
    page.evaluate("() => { window.lastNote.seen.closed = false; }")
    page.evaluate(SHOWN, "visible")
    assert notes(page)[0]["closed"] is True  # back at the table: nothing left to call for
    # In view, a turn is the table's to show: no notification.
    ui.bid(page, prefer="hearts")
    while (step := ui.wait_next(page)) not in ("play", "finished"):
        if step == "bid":
            ui.bid(page)
        else:
            ui.close_result(page)
    assert len(notes(page)) == 1
    # The choice is remembered on this device; the page never asks the browser by itself.
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert page.locator("#pref-notify").is_checked()
    assert page.evaluate("() => window.permissionAsked") == 0


def test_a_refused_permission_turns_the_switch_off_and_says_where_to_allow_it(
    new_page: Any,
) -> None:
    page = new_page()
    page.add_init_script(NOTIFICATIONS + "window.permissionAnswer = 'denied';")
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3))
    page.click("#pref-notify")  # ticked, and unticked again once refused
    page.wait_for_selector("#toasts .toast:has-text('Your browser does not allow this')")
    assert not page.locator("#pref-notify").is_checked()
    page.evaluate(SHOWN, "hidden")
    ui.start(page)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")  # the tab says it
    assert notes(page) == []
    # Off, it is offered in the waiting room, not over a match: a laptop's row over the table
    # keeps its room for the table (on, it stays, to be turned off).
    assert page.query_selector("#pref-notify") is None


def test_no_switch_on_a_phone(new_page: Any) -> None:
    """A phone freezes a page out of view, and shows a page's notifications only from a service
    worker: the switch would promise what it cannot keep."""
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.add_init_script(NOTIFICATIONS)
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3))
    assert page.query_selector("#pref-sound") is not None
    assert page.query_selector("#pref-notify") is None
