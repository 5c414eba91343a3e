"""What the pages say when something goes wrong, each shown by a test that fails without its fix:
a guest whose token the server no longer knows, in the lobby (on load, on "Create", on "Play
now"); the words a page shows when its data cannot be had (the error that happened, not "does
not exist" nor "cannot be reached" for anything); an invite box holding no invite; the server's
validation prose kept from the toasts; and no bot level "for tests" in the create form."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser

WORDS = ui.own_modules("async ([key, vars]) => (await import('/js/i18n.js')).t(key, vars || {})")
ERROR_WORDS = ui.own_modules("async code => (await import('/js/i18n.js')).errorText(code)")


def stored(page: Any) -> dict[str, Any] | None:
    raw = page.evaluate("() => localStorage.getItem('belote.player')")
    return json.loads(raw) if raw else None


def close_toasts(page: Any) -> None:
    """The toasts of the steps so far go, so that a wait for a toast sees the next step's."""
    page.evaluate("() => document.querySelectorAll('#toasts .toast').forEach(t => t.remove())")


def forget_token(page: Any, name: str) -> None:
    """The browser keeps a guest the server does not know (a new database, say)."""
    forgotten = {"id": "0123456789abcdef", "name": name, "token": "a-token-nobody-knows"}
    page.evaluate("p => localStorage.setItem('belote.player', p)", json.dumps(forgotten))


def asked_for_the_name_again(page: Any, name: str) -> None:
    """The lobby has forgotten the guest, says why, and asks for the name again (filled in)."""
    page.wait_for_selector("#name-form #name-again")
    page.wait_for_selector("#toasts .toast[data-code=bad_token]")
    assert stored(page) is None
    assert page.inner_text("#who") == ""
    assert page.input_value("#name-input") == name
    assert page.evaluate("() => document.activeElement.id") == "name-input"
    assert page.inner_text("#name-again") == page.evaluate(WORDS, ["name_again", None])


def save_name_again(page: Any, name: str) -> None:
    page.click("#name-form button[type=submit]")
    page.wait_for_function(
        "name => { const p = JSON.parse(localStorage.getItem('belote.player') || 'null');"
        " return p && p.name === name && p.token !== 'a-token-nobody-knows'; }",
        arg=name,
    )
    page.wait_for_selector("#name-again", state="detached")
    close_toasts(page)


def test_a_forgotten_guest_opening_the_lobby_is_asked_for_the_name_again(new_page: Any) -> None:
    # Before: "Playing as Stale" and the name filled in, as if all were well; every "Create"
    # then failed with "Your identity was not recognised; choose a name again".
    page = new_page()
    page.goto("/")
    forget_token(page, "Stale")
    page.reload()
    asked_for_the_name_again(page, "Stale")
    save_name_again(page, "Stale")
    ui.create_room(page, bots=(1, 2, 3))


def test_a_forgotten_guest_following_an_invite_is_asked_for_the_name_again(
    new_page: Any,
) -> None:
    # Before: the room's page forgot the guest and offered an empty name form, where the lobby
    # offers the name again and says why.
    host = new_page()
    ui.set_name(host, "Host")
    code = ui.create_room(host, bots=(2, 3))
    page = new_page()
    page.goto("/")
    forget_token(page, "Stale")
    page.goto(f"/#/r/{code}")
    asked_for_the_name_again(page, "Stale")
    page.wait_for_selector("#invite-about:not(:empty)")
    save_name_again(page, "Stale")
    page.wait_for_selector(".seat[data-seat='1'] button.sit")


@pytest.mark.parametrize("button", ["#create-room", "#play-now"])
def test_a_token_forgotten_after_the_lobby_opened_asks_for_the_name_again(
    new_page: Any, button: str
) -> None:
    # Before: the click said "Your identity was not recognised; choose a name again" and kept
    # the dead token: every click after it failed the same way, the name form unchanged.
    page = new_page()
    ui.set_name(page, "Rita")
    page.wait_for_selector(button)
    forget_token(page, "Rita")  # the server forgets the guest while the lobby is open
    close_toasts(page)
    page.click(button)
    asked_for_the_name_again(page, "Rita")
    page.wait_for_selector(f"{button}:not([disabled])")
    save_name_again(page, "Rita")
    if button == "#create-room":
        ui.create_room(page, bots=(1, 2, 3))
    else:
        page.click("#play-now")
        page.wait_for_selector("#qp-status")
        page.click("#play-cancel")
        page.wait_for_selector("#qp-form")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_leaderboard_of_no_game_says_there_is_no_such_game(new_page: Any, lang: str) -> None:
    # Before: "The server cannot be reached." (every language) for /#/ratings/nope.
    page = new_page()
    page.goto("/")
    page.select_option("#lang", lang)
    page.goto("/#/ratings/nope")
    line = page.wait_for_selector("#leaderboard #no-such-game")
    expected = page.evaluate(WORDS, ["no_such_game", None])
    assert line.inner_text() == expected
    assert page.query_selector("#toasts .toast") is None  # said once, on the page
    # The games there are, to go to one of them.
    page.wait_for_selector("#leaderboard .preset-tabs a[data-preset=bulgarian]")
    page.click("#leaderboard .preset-tabs a[data-preset=bulgarian]")
    page.wait_for_selector("#leaderboard[data-preset=bulgarian] h2")


def fail_with_500(route: Any) -> None:
    body = {"error": {"code": "server_error", "message": "Something went wrong."}}
    route.fulfill(status=500, content_type="application/json", body=json.dumps(body))


MATCH = "**/api/matches/someMatch**"  # the match and its deal's record
PROFILE = "**/api/players/0123456789abcdef/**"  # the profile and the player's matches


@pytest.mark.parametrize(
    ("address", "api", "failure", "code"),
    [
        ("/#/p/0123456789abcdef", PROFILE, "500", "server_error"),
        ("/#/p/0123456789abcdef", PROFILE, "network", "network"),
        ("/#/m/someMatch", MATCH, "500", "server_error"),
        ("/#/m/someMatch", MATCH, "network", "network"),
        ("/#/m/someMatch/d/1", MATCH, "network", "network"),
        ("/#/history", "**/api/players/*/matches?*", "500", "server_error"),
        ("/#/ratings/bulgarian", "**/api/ratings/bulgarian", "network", "network"),
    ],
)
def test_a_page_says_what_went_wrong(
    new_page: Any, address: str, api: str, failure: str, code: str
) -> None:
    # Before: a match or a profile "does not exist" whatever failed (the network, the server);
    # the history and the leaderboard said "The server cannot be reached" for anything.
    page = new_page()
    ui.set_name(page, "Lena")  # the history page asks for the player's matches
    page.route(api, fail_with_500 if failure == "500" else lambda route: route.abort())
    page.goto(address)
    expected = page.evaluate(ERROR_WORDS, code)
    page.wait_for_function(
        "words => document.querySelector('#app .panel p.muted')?.textContent === words",
        arg=expected,
    )
    # Said once, on the page: no toast repeats it (an error page had both).
    assert page.query_selector(f"#toasts .toast[data-code={code}]") is None


@pytest.mark.parametrize(("typed", "key"), [("hello world", "join_bad_code"), ("", "join_no_code")])
def test_joining_with_no_invite_says_so(new_page: Any, typed: str, key: str) -> None:
    # Before: nothing at all happened — no word, no change.
    page = new_page(locale="fr-FR")
    page.goto("/")
    page.wait_for_selector("#join-code")
    page.fill("#join-code", typed)
    page.click(".join-form button[type=submit]")
    toast = page.wait_for_selector("#toasts .toast[data-code=join_code] .toast-text")
    assert toast.inner_text() == page.evaluate(WORDS, [key, None])
    assert page.evaluate("() => document.activeElement.id") == "join-code"
    assert page.evaluate("() => location.hash") in ("", "#/")
    # A code is still followed.
    page.fill("#join-code", "someRoomCode")
    page.click(".join-form button[type=submit]")
    page.wait_for_function("() => location.hash === '#/r/someRoomCode'")


def test_a_malformed_player_id_is_a_player_that_does_not_exist(new_page: Any) -> None:
    # Before: "The request was refused." and, to English readers, the validator's
    # "path.player_id: String should match pattern '^[0-9a-f]{1,32}$'".
    page = new_page()
    page.goto("/#/p/not-an-id")
    expected = page.evaluate(ERROR_WORDS, "unknown_player")
    page.wait_for_function(
        "words => document.querySelector('#profile')?.textContent === words", arg=expected
    )
    assert page.query_selector("#toasts .toast") is None


def test_the_validators_words_are_never_a_toasts_detail(new_page: Any) -> None:
    # Before: any 422 bad_request showed pydantic's words to English readers.
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create-form")
    details = page.evaluate(
        ui.own_modules("""async () => {
      const { ApiError } = await import('/js/api.js');
      const { showError } = await import('/js/ui.js');
      const shown = (e) => showError(e).querySelector('.toast-detail')?.textContent ?? null;
      const pydantic = 'body.name: String should have at most 32 characters';
      return [
        shown(new ApiError('bad_request', pydantic, 422)),
        shown(new ApiError('seat_taken', 'Seat 2 is taken by Ann.', 409)),
      ];
    }""")
    )
    assert details == [None, "Seat 2 is taken by Ann."]  # other codes keep their detail


def test_the_create_form_offers_no_bots_that_play_at_random(new_page: Any) -> None:
    # Before: "Bots play: at random (for tests)" was offered to players.
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#bot-level")
    levels = page.eval_on_selector_all("#bot-level option", "els => els.map(e => e.value)")
    assert levels == ["basic", "strong", "expert"]
    assert page.input_value("#bot-level") == "basic"


def test_the_replay_of_an_unknown_match_says_the_match_does_not_exist(new_page: Any) -> None:
    # Before: whichever of the page's two requests failed first was said; the deal's record
    # (answered here at once, as the server answers it for a match that does not exist) made
    # it "This deal does not exist (or is not finished)" for a match that was never there.
    page = new_page()
    ui.set_name(page, "Lena")
    missing = {"error": {"code": "unknown_deal", "message": "No such finished deal."}}
    page.route(
        "**/api/matches/noSuchMatch/deals/1/record",
        lambda route: route.fulfill(
            status=404, content_type="application/json", body=json.dumps(missing)
        ),
    )
    page.goto("/#/m/noSuchMatch/d/1")
    expected = page.evaluate(ERROR_WORDS, "unknown_match")
    page.wait_for_function(
        "words => document.querySelector('#app .panel p.muted')?.textContent === words",
        arg=expected,
    )
