"""Muting a player's chat on this device, in a real Chromium: their lines leave the page at
once, new ones never show, and it holds over a reload; the muted player notices nothing.
(During a match the host cannot remove a rude player: hiding their lines is what is left.)"""

from __future__ import annotations

from typing import Any

import pytest

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
