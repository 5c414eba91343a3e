"""Defects found by an audit of the browser client, each shown by a test that fails without
its fix: what a signed-in player sees when their device is signed out (close 4401, then
`bad_token` on the reconnect's hello; or a REST call in the lobby), a tab that must not forget
the identity another tab signed in with meanwhile, and a REST refusal the client had no words
for (`body_too_large`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser

PASSWORD = "a long enough secret"


def stored(page: Any) -> dict[str, Any] | None:
    raw = page.evaluate("() => localStorage.getItem('belote.player')")
    return json.loads(raw) if raw else None


def claim(page: Any, name: str, username: str) -> None:
    """A guest named ``name`` claims an account through the account page."""
    ui.set_name(page, name)
    page.goto("/#/account")
    page.fill("#claim-form-username", username)
    page.fill("#claim-form-password", PASSWORD)
    page.click("#claim-form button[type=submit]")
    page.wait_for_selector("#signed-in-as")


def sign_out_elsewhere(page: Any, username: str) -> None:
    """From another device: log in and sign every other device out (the page's among them)."""
    signed = page.request.post(
        "/api/accounts/login", data={"username": username, "password": PASSWORD}
    ).json()
    other = {"Authorization": f"Bearer {signed['token']}"}
    sessions = page.request.get("/api/accounts/sessions", headers=other).json()
    for session in sessions:
        if not session["current"]:
            response = page.request.delete(f"/api/accounts/sessions/{session['id']}", headers=other)
            assert response.status == 204


def test_a_signed_out_account_holder_is_asked_to_log_in_again(new_page: Any) -> None:
    # Before: the socket closed with 4401, the reconnect's hello met bad_token, and the account
    # holder read "Your identity was not recognised; choose a name again." over a name form —
    # which made a new guest, not at their seat, with no word of logging in.
    page = new_page()
    claim(page, "Vera", "vera_audit")
    page.goto("/")
    code = ui.create_room(page, bots=(1, 2, 3))
    sign_out_elsewhere(page, "vera_audit")

    page.wait_for_selector("#login-form")
    assert page.evaluate("() => location.hash") == "#/account"
    toast = page.wait_for_selector("#toasts .toast[data-code=signed_out]")
    assert "vera_audit" in toast.inner_text()
    assert "choose a name" not in page.inner_text("#toasts")
    assert stored(page) is None
    assert page.inner_text("#who") == ""
    # Logging in again leads back to the table, in the same seat.
    page.fill("#login-form-username", "vera_audit")
    page.fill("#login-form-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector(f"#open-tables li[data-code='{code}'], #signed-in-as")
    page.goto(f"/#/r/{code}")
    page.wait_for_selector("#room[data-connection=open]")
    assert page.evaluate("() => window.__belote.state.you.seat") == 0


@pytest.mark.parametrize("locale", ["fr-FR", "bg-BG"])
def test_a_signed_out_account_holder_is_told_in_their_language(new_page: Any, locale: str) -> None:
    page = new_page(locale=locale)
    username = f"lise_{locale[:2]}"
    claim(page, "Lise", username)
    page.goto("/")
    ui.create_room(page, bots=(1, 2, 3))
    sign_out_elsewhere(page, username)
    toast = page.wait_for_selector("#toasts .toast[data-code=signed_out] .toast-text")
    expected = page.evaluate(
        ui.own_modules("async u => (await import('/js/i18n.js')).t('signed_out', {username: u})"),
        username,
    )
    assert toast.inner_text() == expected
    assert username in expected and "Log in" not in expected
    page.wait_for_selector("#login-form")


def test_a_signed_out_account_holder_is_told_in_the_lobby(new_page: Any) -> None:
    # Before: the lobby swallowed bad_token — "Playing as Olga" stayed in the top bar, and
    # saving a name made a new guest without a word.
    page = new_page()
    claim(page, "Olga", "olga_audit")
    sign_out_elsewhere(page, "olga_audit")
    page.goto("/")
    toast = page.wait_for_selector("#toasts .toast[data-code=signed_out]")
    assert "olga_audit" in toast.inner_text()
    page.wait_for_function("() => document.querySelector('#who').textContent === ''")
    assert stored(page) is None


def test_a_signed_out_account_holder_on_the_account_page(new_page: Any) -> None:
    # Before: "Your identity was not recognised; choose a name again." above the login form.
    page = new_page()
    claim(page, "Petra", "petra_audit")
    sign_out_elsewhere(page, "petra_audit")
    page.reload()  # the account page again, asking the server who this is
    page.wait_for_selector("#toasts .toast[data-code=signed_out]")
    page.wait_for_selector("#login-form")
    assert page.query_selector("#toasts .toast[data-code=bad_token]") is None
    assert stored(page) is None


def test_a_reconnecting_tab_keeps_the_identity_another_tab_logged_in_with(new_page: Any) -> None:
    # Two tabs of one browser share the stored identity. Tab A sits at a table; its link is
    # down (a sleeping laptop, a throttled background tab) while tab B logs out and logs in
    # again. Before: A's reconnect said hello with the old token, met bad_token, and forgot
    # the player — wiping B's new sign-in from the browser.
    table = new_page()
    claim(table, "Mira", "mira_audit")
    table.goto("/")
    code = ui.create_room(table, bots=(1, 2, 3))
    table.wait_for_selector("#room[data-connection=open]")
    table.evaluate("() => window.dispatchEvent(new Event('offline'))")
    table.wait_for_selector("#room[data-connection=offline]")

    account = table.context.new_page()
    account.goto("/#/account")
    account.click("#logout")
    account.wait_for_selector("#name-input")
    account.goto("/#/account")
    account.fill("#login-form-username", "mira_audit")
    account.fill("#login-form-password", PASSWORD)
    account.click("#login-form button[type=submit]")
    account.wait_for_selector("#signed-in-as")
    fresh = stored(account)
    assert fresh is not None

    table.evaluate("() => window.dispatchEvent(new Event('online'))")
    # The table comes back as the identity now stored, in the same seat.
    table.wait_for_function(
        "token => window.__belote && window.__belote.conn.token === token"
        " && document.querySelector('#room[data-connection=open]') !== null",
        arg=fresh["token"],
    )
    assert table.evaluate("() => window.__belote.state.you.seat") == 0
    assert stored(table) == fresh
    assert table.evaluate("() => location.hash") == f"#/r/{code}"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The request is too large."),
        ("fr", "La requête est trop grande."),
        ("bg", "Заявката е твърде голяма."),
    ],
)
def test_a_body_too_large_refusal_is_in_the_players_language(
    new_page: Any, lang: str, words: str
) -> None:
    page = new_page()
    page.goto("/")
    page.select_option("#lang", lang)
    page.evaluate(
        ui.own_modules("""async () => {
      const { post } = await import('/js/api.js');
      const { showError } = await import('/js/ui.js');
      await post('/api/players', { name: 'x'.repeat(70000) }).catch(showError);
    }""")
    )
    toast = page.wait_for_selector("#toasts .toast[data-code=body_too_large] .toast-text")
    assert toast.inner_text() == words


def test_quick_play_stops_asking_once_the_account_is_signed_out(new_page: Any) -> None:
    # Before: the once-a-second poll met bad_token and showed it as an error toast every second,
    # still "looking for players", until the player cancelled.
    page = new_page()
    claim(page, "Nina", "nina_audit")
    page.goto("/")
    page.click("#play-now")
    page.wait_for_selector("#qp-status")
    sign_out_elsewhere(page, "nina_audit")
    page.wait_for_selector("#toasts .toast[data-code=signed_out]")
    page.wait_for_selector("#qp-form")  # the waiting panel is gone: nothing polls any more
    assert page.get_attribute("#quickplay", "data-state") == "idle"
    assert page.query_selector("#toasts .toast[data-code=bad_token]") is None
    assert stored(page) is None


def test_a_frame_that_is_not_an_object_is_ignored(new_page: Any) -> None:
    # Before: `null` (valid JSON, not a frame) threw in the socket's message handler.
    page = new_page()
    ui.set_name(page, "Ivo")
    ui.create_room(page, bots=(1, 2, 3))
    page.wait_for_selector("#room[data-connection=open]")
    for text in ["null", "3", '"text"', "true"]:
        page.evaluate("t => window.__belote.conn.receive(t)", text)
    assert page.evaluate("() => window.__belote.state.you.seat") == 0
