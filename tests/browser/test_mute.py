"""Muting a player's chat, in a real Chromium: their lines leave the page at once, new ones
never show, and it holds over a reload and on the player's other devices (the server keeps
it); the muted player notices nothing.
(During a match the host cannot remove a rude player: hiding their lines is what is left.)"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("() => document.querySelector('#chat-input').value === ''")


def lines(page: Any) -> list[str]:
    return [
        str(x)
        for x in page.eval_on_selector_all(".chat-text", "els => els.map(e => e.textContent)")
    ]


def test_a_player_mutes_another_s_chat_on_their_device(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    say(guest, "first")
    host.wait_for_selector(".chat-text:has-text('first')")
    say(host, "hello")
    host.click("#chat-mute summary")
    boxes = host.eval_on_selector_all("#chat-mute input", "els => els.map(e => e.id)")
    guest_id = guest.evaluate("() => window.__belote.state.room.seats[2].player.id")
    assert boxes == [f"mute-{guest_id}"]  # the other people only: not the host themself
    assert host.inner_text(f"label[for='mute-{guest_id}']").strip() == "Guest"
    host.check(f"#mute-{guest_id}")
    host.wait_for_selector(".chat-text:has-text('first')", state="detached")
    assert lines(host) == ["hello"]
    say(guest, "second")
    guest.wait_for_selector(".chat-text:has-text('second')")  # the guest sees their own
    say(host, "still here")  # after the guest's line: it has reached the host's page too
    host.wait_for_selector(".chat-text:has-text('still here')")
    assert lines(host) == ["hello", "still here"]
    assert lines(guest) == ["first", "hello", "second", "still here"]
    host.reload()
    host.wait_for_selector(".chat-text:has-text('still here')")
    assert lines(host) == ["hello", "still here"]
    host.click("#chat-mute summary")
    host.uncheck(f"#mute-{guest_id}")
    host.wait_for_selector(".chat-text:has-text('second')")
    assert lines(host) == ["first", "hello", "second", "still here"]


def server_mutes(page: Any) -> list[str]:
    answer = page.request.get("/api/players/me/mutes", headers=ui.auth(page))
    assert answer.ok, answer.text()
    return [str(muted["id"]) for muted in answer.json()]


def test_a_mute_holds_on_the_player_s_other_devices_and_an_old_one_is_kept(
    new_page: Any,
) -> None:
    """The server keeps the mute: another browser of the same player hides the lines too, and
    unmuting there shows them on both. A device's mutes from before the server kept them (no
    owner) go to the server with the first player who uses it."""
    host, guest = seated_guest(new_page)
    guest_id = ui.player_id(guest)
    say(guest, "rude words")
    host.wait_for_selector(".chat-text:has-text('rude words')")
    host.click("#chat-mute summary")
    assert "Play now never seats you" in host.inner_text(".mute-note")
    host.check(f"#mute-{guest_id}")
    host.wait_for_selector(".chat-text:has-text('rude words')", state="detached")
    deadline = time.monotonic() + 10
    while server_mutes(host) != [guest_id]:  # the PUT after the box: a wait for it, not a race
        assert time.monotonic() < deadline
        host.wait_for_timeout(50)

    other = new_page()  # the same player on another browser: its own storage, empty
    other.goto("/")
    other.evaluate(
        "player => localStorage.setItem('belote.player', player)",
        host.evaluate("() => localStorage.getItem('belote.player')"),
    )
    other.goto(host.url)
    other.reload()
    other.wait_for_selector("#chat")
    other.wait_for_function("() => window.__belote && window.__belote.state.chat.length === 1")
    other.wait_for_function("() => !document.querySelector('.chat-text')")  # hidden here too
    other.click("#chat-mute summary")
    assert other.is_checked(f"#mute-{guest_id}")
    other.uncheck(f"#mute-{guest_id}")
    other.wait_for_selector(".chat-text:has-text('rude words')")
    while server_mutes(other) != []:
        assert time.monotonic() < deadline
        other.wait_for_timeout(50)

    # A device that muted the guest before the server kept mutes, as someone new.
    newcomer = new_page()
    newcomer.goto("/")
    newcomer.evaluate("id => localStorage.setItem('belote.muted', JSON.stringify([id]))", guest_id)
    ui.set_name(newcomer, "Newcomer")
    # The sync is done once the copy names its owner (it pushed the old mutes before).
    newcomer.wait_for_function(
        "id => localStorage.getItem('belote.muted.owner') === id", arg=ui.player_id(newcomer)
    )
    assert server_mutes(newcomer) == [guest_id]


def test_a_mute_is_undone_from_the_account_page(new_page: Any) -> None:
    """Away from the table where it was made: the account page lists the muted players, and
    "Unmute" takes one off everywhere (the server and this device)."""
    host, guest = seated_guest(new_page)
    guest_id = ui.player_id(guest)
    host.click("#chat-mute summary")
    host.check(f"#mute-{guest_id}")
    deadline = time.monotonic() + 10
    while server_mutes(host) != [guest_id]:
        assert time.monotonic() < deadline
        host.wait_for_timeout(50)
    host.goto("/#/account")
    row = host.wait_for_selector("#muted-players li")
    assert row.inner_text().startswith("Guest")
    assert host.get_attribute("#muted-players button.unmute", "aria-label") == "Unmute Guest"
    host.click("#muted-players button.unmute")
    host.wait_for_selector("#muted-players", state="detached")  # none left: the panel goes
    assert server_mutes(host) == []
    assert host.evaluate("() => localStorage.getItem('belote.muted')") == "[]"


def test_mutes_that_arrive_before_the_table_does_break_nothing(new_page: Any) -> None:
    """The mutes' sync (``belote:mutes``) may finish before the room's snapshot arrives: the
    page then has no table to redraw, and must not fail (the fixture fails the test on any
    JavaScript error); here the event fires every millisecond from the page's start."""
    host, _guest = seated_guest(new_page)
    say(host, "hello")
    early = new_page()
    early.add_init_script("setInterval(() => window.dispatchEvent(new Event('belote:mutes')), 1)")
    ui.join_by_link(early, host, "Early")
    early.wait_for_selector(".chat-text:has-text('hello')")  # drawn, through the events
