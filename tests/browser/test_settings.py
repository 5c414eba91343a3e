"""The host changes the room's settings at the table, in a real Chromium: the lobby's controls
in a dialog, the others told what changed, the next match played by them, a phone's dialog
scrolling to its buttons (docs/protocol.md, `settings`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_exit import conceded_partners
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser

ROOM_STATE = "() => window.__belote.state.room"
# From now on the page keeps the type of each command it sends in ``window.__sent``.
COUNT_SENT = """() => {
  const conn = window.__belote.conn;
  const send = conn.send.bind(conn);
  window.__sent = [];
  conn.send = (type, data) => {
    if (type !== "ping") window.__sent.push(type);
    return send(type, data);
  };
}"""


def test_the_host_changes_the_settings_and_the_guest_is_told(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    assert guest.query_selector("#room-settings") is None  # the host's only
    host.click("#room-settings")
    host.wait_for_selector("#settings-dialog")
    # The form shows the room as it is.
    assert host.input_value("#set-target") == "151"
    assert host.input_value("#set-turn") == "0"
    assert host.is_checked("#set-hr-must_undertrump")
    assert host.is_checked("#settings-dialog input[value=private]")
    # A guest host cannot keep the table for accounts, and is told why.
    assert host.is_disabled("#set-accounts-only")
    note = host.inner_text("#settings-dialog .account-note")
    assert note.startswith("Keeping a table for signed-in players needs an account of your own.")
    host.keyboard.press("Escape")  # cancelled: nothing is sent
    host.wait_for_selector("#settings-dialog", state="detached")
    assert host.evaluate("() => document.activeElement.id") == "room-settings"
    host.click("#room-settings")
    host.click("#settings-dialog summary")  # the house rules
    host.check("#set-hr-kirtik")
    host.fill("#set-target", "501")
    host.select_option("#set-turn", "60")
    host.check("#settings-dialog input[value=public]")
    host.select_option("#set-bot-level", "strong")
    host.click("#settings-save")
    host.wait_for_selector("#settings-dialog", state="detached")
    host.wait_for_selector(".toast:has-text('Settings saved.')")
    told = guest.wait_for_selector(".toast:has-text('The host changed')")
    assert told.inner_text().startswith(
        "The host changed the room's settings: House rules, Target score 501, Turn timer: 60 s,"
        " Public (listed in the lobby), Bots play: "
    )
    room = guest.evaluate(ROOM_STATE)
    assert (room["target"], room["turn_seconds"], room["public"]) == (501, 60, True)
    assert room["rules"]["house_rules"] == {"kirtik": True}
    facts = guest.inner_text(".room-facts")
    assert "Target score 501" in facts and "60 s" in facts
    # Opened again, the form shows what was saved; saved untouched, it sends nothing (a target
    # of the preset's 151 sent to a room with none of its own would be a change, and clear
    # the rematch votes).
    host.evaluate(COUNT_SENT)
    host.click("#room-settings")
    assert (
        host.input_value("#set-target") == "501" and host.input_value("#set-bot-level") == "strong"
    )
    host.click("#settings-save")
    host.wait_for_selector("#settings-dialog", state="detached")
    assert host.evaluate("() => window.__sent") == []


def test_a_form_saved_untouched_sends_nothing(new_page: Any) -> None:
    host = ui.host_waiting_room(new_page)
    host.evaluate(COUNT_SENT)
    host.click("#room-settings")
    host.click("#settings-save")
    host.wait_for_selector("#settings-dialog", state="detached")
    host.click("#room-settings")
    host.fill("#set-target", "")  # the preset's, which the room has
    host.click("#settings-save")
    host.wait_for_selector("#settings-dialog", state="detached")
    assert host.evaluate("() => window.__sent") == []


def test_tab_stays_in_the_dialog_among_its_fields(new_page: Any) -> None:
    host = ui.host_waiting_room(new_page)
    host.click("#room-settings")
    host.wait_for_selector("#settings-dialog")
    seen = set()
    for _ in range(12):
        host.keyboard.press("Tab")
        seen.add(host.evaluate("() => document.activeElement.id || document.activeElement.tagName"))
        assert host.evaluate("() => Boolean(document.activeElement.closest('#settings-dialog'))")
    assert {"set-target", "set-turn", "settings-cancel", "settings-save"} <= seen


def test_after_a_match_the_rematch_is_played_by_the_new_settings(new_page: Any) -> None:
    host, guest = conceded_partners(new_page)
    guest.click("#rematch")
    host.wait_for_function(f"() => ({ROOM_STATE})().rematch.length === 1")
    host.click("#room-settings")
    host.fill("#set-target", "31")
    host.click("#settings-save")
    # The guest's vote was for the old settings: asked again.
    guest.wait_for_function(f"() => ({ROOM_STATE})().target === 31")
    assert guest.evaluate(f"() => ({ROOM_STATE})().rematch") == []
    for page in (host, guest):
        page.click("#rematch")
    host.wait_for_selector("#room[data-status=playing]")
    assert host.query_selector("#room-settings") is None
    assert "Target score 31" in guest.inner_text(".room-facts")


def test_on_a_phone_the_dialog_fits_and_scrolls_to_its_buttons(new_page: Any) -> None:
    host = new_page(viewport=PHONE, locale="bg-BG", has_touch=True)
    ui.set_name(host, "Домакин")
    ui.create_room(host)
    host.click("#room-settings")
    host.click("#settings-dialog summary")  # the house rules make it taller than the screen
    box = host.eval_on_selector(
        "#settings-dialog .modal", "el => el.getBoundingClientRect().toJSON()"
    )
    assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], box
    assert host.eval_on_selector(
        "#settings-dialog .modal", "el => el.scrollHeight > el.clientHeight"
    )
    host.select_option("#set-deal-pause", "20")
    host.click("#settings-save")  # scrolled into view inside the dialog
    host.wait_for_selector("#settings-dialog", state="detached")
    assert host.evaluate(f"() => ({ROOM_STATE})().deal_pause_seconds") == 20


def test_the_host_hands_the_room_over_and_the_guest_becomes_host(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    assert guest.query_selector("button.make-host") is None  # the host's only
    button = ".seat[data-seat='2'] button.make-host"
    ui.ask_and_cancel(host, button, "host", "Make Guest the host", "Make Guest the host?")
    assert guest.query_selector("#room-settings") is None  # cancelled: nothing changed
    host.click(".seat[data-seat='2'] button.make-host")
    host.click("#host-go")
    guest.wait_for_selector(".toast:has-text('You are now the host of this table.')")
    guest.wait_for_selector("#room-settings")  # the settings are the guest's now
    host.wait_for_selector("#room-settings", state="detached")
    assert host.query_selector("button.make-host, button.remove-player") is None
    badge = guest.inner_text(".seat[data-seat='2'] .seat-head")
    assert "host" in badge
    assert guest.query_selector(".seat[data-seat='0'] button.make-host") is not None


def test_the_dialog_follows_a_change_of_language_with_the_host_s_choices(new_page: Any) -> None:
    """The dialog is kept out of the table's re-renders (what the host is choosing survives
    the others' moves), so it kept the words it was opened with when the language changed."""
    host = ui.host_waiting_room(new_page)
    host.click("#room-settings")
    host.click("#settings-dialog summary")  # the house rules, open
    host.check("#set-hr-kirtik")
    host.fill("#set-target", "501")
    host.select_option("#set-bot-level", "strong")
    host.focus("#set-target")
    host.select_option("#lang", "fr")
    host.wait_for_selector("#settings-title:has-text('Paramètres de la table')")
    assert host.inner_text("#settings-save") == "Enregistrer"
    assert host.input_value("#set-target") == "501" and host.is_checked("#set-hr-kirtik")
    assert host.input_value("#set-bot-level") == "strong"
    assert host.evaluate("() => document.querySelector('#settings-dialog details').open")
    assert host.evaluate("() => document.activeElement.id") == "set-target"
    host.click("#settings-save")  # the changes still counted from the room as it is
    host.wait_for_selector("#settings-dialog", state="detached")
    host.wait_for_function("() => window.__belote.state.room.target === 501")
    room = host.evaluate(ROOM_STATE)
    assert (room["rules"]["house_rules"], room["bot_level"]) == ({"kirtik": True}, "strong")
