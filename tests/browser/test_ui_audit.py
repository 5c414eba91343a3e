"""Defects found by an audit of the client's words, accessibility and look, each shown by a test
that fails without its fix: the dealer's badge in the player's language and named for screen
readers, the header's name of the game following the language, the history, match and profile
pages when the device was signed out (`bad_token`), a bid on a phone's narrow side seat read
whole, the cards reachable with Tab, and "Your turn" said in a live region that stays."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_client_audit import claim, sign_out_elsewhere, stored

pytestmark = pytest.mark.browser


def test_the_dealer_badge_is_in_the_players_language(new_page: Any) -> None:
    # Before: a bare "D" in every language, read out as "D"; the player's own seat a bare "★".
    page = new_page(locale="bg-BG")
    ui.set_name(page, "Мила")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    badge = page.wait_for_selector(".seat .badge.dealer")
    assert badge.inner_text() == "Р"
    assert badge.get_attribute("aria-label") == "раздава"
    you = page.wait_for_selector(".seat .badge.you")  # a star: "Вие" for a screen reader
    assert you.get_attribute("aria-label") == "Вие" and you.get_attribute("role") == "img"
    # An opponent's hand: "N карти в ръката", where a bare number on a plain div was not read.
    backs = page.wait_for_selector(".seat .backs")  # read at once: a bot may play meanwhile
    count, role, label = backs.evaluate(
        "el => [el.querySelector('.count').textContent, el.getAttribute('role'), el.ariaLabel]"
    )
    assert role == "img" and label == f"{count} карти в ръката"
    page.select_option("#lang", "en")
    badge = page.wait_for_selector(".seat .badge.dealer[aria-label=dealer]")
    assert badge.inner_text() == "D"


def test_the_header_names_the_game_in_the_players_language(new_page: Any) -> None:
    # Before: "♠ Belote" in the header while the tab's title read "Белот".
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.inner_text("#brand") == "♠ Belote"
    page.select_option("#lang", "bg")
    page.wait_for_function("() => document.documentElement.lang === 'bg'")
    assert page.inner_text("#brand") == "♠ Белот"
    assert page.title() == "Белот"


@pytest.mark.parametrize("address", ["/#/history", "/#/p/{id}"])
def test_a_signed_out_account_holder_away_from_the_table(new_page: Any, address: str) -> None:
    # Before: "Your identity was not recognised; choose a name again." and "Network error"
    # in the page, the forgotten session still stored, no word of logging in.
    page = new_page()
    username = f"hana_{address[3]}"
    claim(page, "Hana", username)
    player = stored(page)
    assert player is not None
    sign_out_elsewhere(page, username)
    page.goto(address.format(id=player["id"]))
    toast = page.wait_for_selector("#toasts .toast[data-code=signed_out]")
    assert username in toast.inner_text()
    page.wait_for_selector("#login-form")
    assert page.evaluate("() => location.hash") == "#/account"
    assert page.query_selector("#toasts .toast[data-code=bad_token]") is None
    assert stored(page) is None


def test_a_forgotten_guest_on_the_history_page_is_asked_for_a_name(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    forgotten = {"id": "p_forgotten", "name": "Old", "token": "not-a-token-the-server-knows"}
    page.evaluate("p => localStorage.setItem('belote.player', p)", json.dumps(forgotten))
    page.goto("/#/history")
    page.wait_for_selector("#toasts .toast[data-code=bad_token]")
    page.wait_for_selector("#history a[href='#/']")  # choose a name in the lobby first
    assert "Network" not in page.inner_text("#history")
    assert stored(page) is None


# Bid bubbles made as room.js makes them, in a phone's side seats: is each bid read whole?
BIDS_WHOLE = ui.own_modules("""async () => {
  const { bidBubble } = await import('/js/room.js');
  const bids = ['pass', 'clubs', 'diamonds', 'hearts', 'spades', 'no_trumps', 'all_trumps',
    'contra', 'recontra', 'surcontra'];
  const out = [];
  for (const pos of ['left', 'right']) {
    const seat = document.querySelector(`.seat.pos-${pos}`);
    const extras = document.createElement('div'); extras.className = 'seat-extras';
    seat.append(extras);
    for (const bid of bids) {
      const bubble = bidBubble(bid);
      extras.append(bubble);
      const text = document.createRange(); text.selectNodeContents(bubble);
      const box = bubble.getBoundingClientRect();
      const felt = document.querySelector('#table').getBoundingClientRect(); // the green
      const whole = bubble.scrollWidth <= bubble.clientWidth
        && [...text.getClientRects()].every((r) => r.right <= box.right + 0.5)
        && box.left >= felt.left - 0.5 && box.right <= felt.right + 0.5;
      if (!whole) out.push(`${pos}: ${bubble.textContent}`);
      bubble.remove();
    }
    extras.remove();
  }
  return out;
}""")


def test_a_phone_s_side_seats_show_a_bid_whole(new_page: Any) -> None:
    # Before: "No Trumps" on a phone's side seat read "No …", "Sans atout" "San…".
    page = new_page(viewport=PHONE)
    ui.set_name(page, "Bea")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    for lang in ("en", "fr", "bg"):
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector(".seat.pos-left .seat-name")
        assert page.evaluate(BIDS_WHOLE) == [], lang


def until_my_turn_to_play(page: Any) -> None:
    while (step := ui.wait_next(page)) != "play":
        if step == "bid":
            ui.bid(page, prefer="hearts")
        elif step == "result":
            ui.close_result(page)
        else:
            raise AssertionError(f"the match ended before a card was to play: {step}")


TAB_TO_A_CARD = """() => {
  const card = document.activeElement;
  return card && card.matches('#hand .card') ? card.dataset.card : null;
}"""


def test_tab_reaches_the_cards_and_your_turn_is_announced(new_page: Any) -> None:
    # Before: every card had tabindex -1, so Tab went round the page without reaching the hand;
    # and "Your turn" was a status region made anew with its words at each redraw (a screen
    # reader often reads no such region).
    page = new_page()
    ui.set_name(page, "Tabby")
    ui.create_room(page, bots=(1, 2, 3))
    region = page.query_selector("#announce[aria-live=polite]")
    assert region is not None and region.inner_text() == ""
    ui.start(page)
    until_my_turn_to_play(page)
    # The same element all along, not one made anew with its words.
    assert page.evaluate("el => el === document.querySelector('#announce')", region)
    page.wait_for_function("() => document.querySelector('#announce').textContent === 'Your turn'")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reached = None
    for _ in range(60):
        page.keyboard.press("Tab")
        reached = page.evaluate(TAB_TO_A_CARD)
        if reached:
            break
    assert reached in ui.playable(page)
    before = ui.version(page)
    page.keyboard.press("Enter")  # played from the keyboard alone
    ui.wait_changed(page, before)
    assert reached not in ui.hand(page)


def test_a_rated_room_is_not_offered_without_a_turn_timer(new_page: Any) -> None:
    """The server refuses a rated room with no turn timer (``rated_needs_clock``): the form does
    not offer "No timer" while "Rated" is ticked (the error has words in every language too:
    tests/test_docs.py)."""
    page = new_page()
    ui.set_name(page, "Host")
    ui.become_account(page)  # rated rooms are for accounts
    page.select_option("#turn", "0")
    page.check("#rated")
    assert page.eval_on_selector("#turn", "el => el.value") == "30"
    assert page.eval_on_selector('#turn option[value="0"]', "el => el.disabled") is True
    page.uncheck("#rated")
    assert page.eval_on_selector('#turn option[value="0"]', "el => el.disabled") is False
