"""A person deletes their account from the account page: the password, a last question (which
Escape answers "keep it"), and then the device is a newcomer's and their seat is empty."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser

PASSWORD = "a long enough secret"


def ask(page: Any) -> None:
    page.fill("#erase-form-password", PASSWORD)
    page.click("#erase-form button[type=submit]")
    page.wait_for_selector("#erase-confirm")
    assert page.inner_text("#erase-title") == "Delete guest_gone for good?"


def test_a_player_deletes_their_account_and_leaves_their_seat(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    ui.sign_up(guest, "guest_gone", PASSWORD)
    erased_id = ui.player_id(guest)
    guest.goto("/#/account")
    guest.wait_for_selector("#erase-form")
    assert "cannot be undone" in guest.inner_text("#erase")

    ask(guest)  # Escape keeps the account; the question took the focus from the form
    focused = "() => document.activeElement.id"
    assert guest.evaluate(focused) == "erase-stay"
    walked = []
    for _ in range(3):  # Tab goes round the question's two buttons, not out to the page
        guest.keyboard.press("Tab")
        walked.append(guest.evaluate(focused))
    assert walked == ["erase-go", "erase-stay", "erase-go"]
    guest.keyboard.press("Escape")
    guest.wait_for_selector("#erase-confirm", state="detached")
    assert guest.evaluate("() => localStorage.getItem('belote.player')") is not None
    assert "deleted" not in guest.inner_text("#toasts")

    ask(guest)
    guest.click("#erase-go")
    guest.wait_for_selector("#toasts .toast:has-text('Your account was deleted.')")
    guest.wait_for_selector("#create-form")  # the lobby, as a newcomer
    assert guest.evaluate("() => localStorage.getItem('belote.player')") is None
    # The host's table: the seat is empty again.
    host.wait_for_selector(".seat[data-seat='2'] button.add-bot")
    seated = host.evaluate(
        "() => window.__belote.state.room.seats.map(s => s.player && s.player.id)"
    )
    assert erased_id not in seated


def test_a_guest_forgets_themself(new_page: Any) -> None:
    """A guest has no password: the last question is the only one."""
    host, guest = seated_guest(new_page)
    guest.goto("/#/account")
    guest.click("#forget-guest")
    assert guest.inner_text("#erase-title") == "Forget Guest for good?"
    guest.click("#erase-go")
    guest.wait_for_selector("#toasts .toast:has-text('This guest was forgotten.')")
    guest.wait_for_selector("#create-form")
    assert guest.evaluate("() => localStorage.getItem('belote.player')") is None
    host.wait_for_selector(".seat[data-seat='2'] button.add-bot")
