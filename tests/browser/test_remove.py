"""The host removes a player from the waiting table, in a real Chromium: the page asks first,
the player's seat empties on every page, and the removed player is told why and offered no
seat, on the page they had open and after a reload (docs/protocol.md, `remove`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_exit import conceded_partners

pytestmark = pytest.mark.browser


def seated_guest(new_page: Any, **guest: Any) -> tuple[Any, Any]:
    """The host's waiting room (desktop, English) and a guest (``guest``: the page's options)
    sitting in seat 2."""
    host = ui.host_waiting_room(new_page)
    page = new_page(**guest)
    ui.join_by_link(page, host, "Guest")
    page.click(".seat[data-seat='2'] button.sit")
    host.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Guest')")
    return host, page


def test_the_host_removes_a_player_who_then_watches_without_a_seat(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    # Only the host sees the button, and not on their own seat; the guest sees none at all.
    assert host.query_selector(".seat[data-seat='0'] button.remove-player") is None
    assert guest.query_selector("button.remove-player") is None
    button = ".seat[data-seat='2'] button.remove-player"
    label, question = "Remove Guest from the table", "Remove Guest from the table?"
    ui.ask_and_cancel(host, button, "remove", label, question)  # cancelling changes nothing
    assert guest.query_selector("#removed-note") is None
    host.click(".seat[data-seat='2'] button.remove-player")
    host.click("#remove-go")
    host.wait_for_selector(".seat[data-seat='2'] button.add-bot")  # the seat is empty
    note = guest.wait_for_selector("#removed-note")
    assert note.inner_text() == "The host removed you from the table. You can still watch."
    guest.wait_for_function("() => window.__belote.state.room.seats[2].player === null")
    assert guest.query_selector("button.sit") is None  # no seat is offered to them
    guest.reload()
    guest.wait_for_selector("#room[data-status=waiting] #removed-note")
    assert guest.query_selector("button.sit") is None
    assert host.query_selector("#removed-note") is None


# The lines each word of the phone's side seats' names takes.
SIDE_WORD_LINES = """() => {
  const found = [];
  for (const name of document.querySelectorAll('.seat:is(.pos-left, .pos-right) .seat-name')) {
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        found.push([m[0], lines.size]);
      }
    }
  }
  return found;
}"""


def test_on_a_phone_the_removed_player_sees_empty_side_seats_in_whole_words(
    new_page: Any,
) -> None:
    """With no button on the empty side seats (none is offered), "Свободно място" was cut to
    a letter a line ("С" / "в"), the watcher's note taking the middle's width."""
    host, guest = seated_guest(new_page, viewport=PHONE, locale="bg-BG", has_touch=True)
    host.click(".seat[data-seat='2'] button.remove-player")
    host.click("#remove-go")
    guest.wait_for_selector("#removed-note")
    ui.settle(guest)
    words = guest.evaluate(SIDE_WORD_LINES)
    assert [w for w, _ in words] == ["Свободно", "място"] * 2
    assert [w for w, lines in words if lines != 1] == [], words


def test_after_a_match_the_host_removes_a_player_before_the_rematch(new_page: Any) -> None:
    host, guest = conceded_partners(new_page)
    assert guest.query_selector("button.remove-player") is None
    host.click(".seat[data-seat='2'] button.remove-player")
    host.click("#remove-go")
    note = guest.wait_for_selector("#removed-note")
    assert note.inner_text() == "The host removed you from the table. You can still watch."
    host.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Empty seat')")
    # Removed, the guest still reads the match they played as theirs; a watcher reads it by the
    # teams that played it, not by the seats as they are now ("Host & Empty seat").
    assert guest.inner_text("#conceded") == "Your team conceded the match."
    watcher = new_page()
    ui.set_name(watcher, "Watcher")
    watcher.goto(host.input_value("#invite-link"))
    verdict = watcher.wait_for_selector("#room[data-status=finished] #conceded").inner_text()
    assert verdict == "Team 1 (Host & Guest) conceded the match.", verdict
    host.click("#rematch")  # no longer waits for the guest: the seat gets a bot
    host.wait_for_selector("#room[data-status=playing]")
    guest.wait_for_selector("#room[data-status=playing]")
    assert guest.evaluate("() => window.__belote.state.room.seats[2].bot") is True


def test_those_at_a_waiting_table_hear_of_each_person_who_sits_down(new_page: Any) -> None:
    """A host who shared the link is told when the friend sits down; the friend is not told
    of themself, and a watcher is told nothing."""
    host = ui.host_waiting_room(new_page)
    watcher = new_page()
    ui.join_by_link(watcher, host, "Watcher")
    host.evaluate("() => document.querySelectorAll('#toasts .toast').forEach((t) => t.remove())")
    guest = new_page()
    ui.join_by_link(guest, host, "Guest")
    guest.click(".seat[data-seat='2'] button.sit")
    toast = host.wait_for_selector("#toasts .toast:has-text('sat down')")
    assert toast.inner_text().startswith("Guest sat down at the table.")
    watcher.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Guest')")
    for page in (guest, watcher):
        assert page.query_selector("#toasts .toast:has-text('sat down')") is None


def test_the_host_lets_a_removed_player_back_in(new_page: Any) -> None:
    """A removal was for the room's life: a hasty one could not be mended. The host's list of
    those removed offers "Let back in"; the player is told, and is offered a seat again."""
    host, guest = seated_guest(new_page)
    assert host.query_selector("#removed:not([hidden])") is None  # nobody removed yet
    host.click(".seat[data-seat='2'] button.remove-player")
    host.click("#remove-go")
    guest.wait_for_selector("#removed-note")
    row = host.wait_for_selector("#removed:not([hidden]) li")
    assert row.inner_text().splitlines() == ["Guest", "Let back in"]
    assert guest.query_selector("#removed:not([hidden])") is None  # the host's alone
    host.click("#removed button.readmit")
    host.wait_for_selector("#toasts .toast:has-text('Guest may sit at this table again.')")
    host.wait_for_selector("#removed", state="hidden")
    guest.wait_for_selector(
        "#toasts .toast:has-text('The host let you back in: you may sit at this table again.')"
    )
    guest.wait_for_selector("#removed-note", state="detached")
    guest.click(".seat[data-seat='3'] button.sit")
    host.wait_for_selector(".seat[data-seat='3'] .seat-name:has-text('Guest')")
