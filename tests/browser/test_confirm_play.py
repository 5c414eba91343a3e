""" "Confirm each card" (static/js/prefs.js, room.js): with it on, a first tap or click only
chooses a card and a second plays it, so that a slip on a phone's crowded hand plays nothing;
the keyboard's Enter, which comes after choosing with the arrows, plays at once. It is offered
on touch screens, where fingers play."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def cards_played(page: Any) -> list[str]:
    """The cards played so far in the deal, as the page holds it (the trick being played and
    those done: the player's card may close a trick, which then leaves the table)."""
    return list(
        page.evaluate(
            """() => { const d = window.__belote.state.deal;
              return [...d.tricks.flatMap(t => t.cards), ...d.trick.map(p => p.card)]; }"""
        )
    )


def turn_to_play(page: Any) -> list[str]:
    """Bid (a contract, so that the deal is played) until it is the player's turn to play a
    card; returns the cards highlighted."""
    while (step := ui.wait_next(page)) != "play":
        assert step != "finished", "the match ended before the player's turn to play"
        if step == "result":
            ui.close_result(page)
        else:
            ui.bid(page, prefer="hearts")
    return ui.playable(page)


def test_a_first_tap_chooses_the_card_and_a_second_plays_it(new_page: Any) -> None:
    page = new_page(viewport=PHONE, has_touch=True, locale="fr-FR")
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2, 3))
    box = page.locator("#pref-confirm-play")
    assert not box.is_checked()  # off until asked for
    label = page.locator("label[for='pref-confirm-play']")
    assert label.inner_text().strip() == "Confirmer chaque carte"
    assert label.get_attribute("title", timeout=1000).startswith("Un premier appui choisit")
    box.check()
    ui.start(page)
    cards = turn_to_play(page)
    before = ui.version(page)
    first = f"#hand .card[data-card='{cards[0]}']"
    # The two taps on a card are not a double tap that zooms the page (iOS Safari does, unless
    # told otherwise; Chromium does not on a page made for phones, so it is the telling that is
    # checked): a pinch may zoom, a double tap may not, from the card up to the page.
    told = page.evaluate(
        """sel => { const kinds = [];
          for (let el = document.querySelector(sel); el; el = el.parentElement)
            kinds.push(getComputedStyle(el).touchAction);
          return kinds; }""",
        first,
    )
    assert "manipulation" in told and set(told) <= {"auto", "manipulation"}, told
    page.tap(first)
    page.wait_for_selector(f"{first}.armed")
    hint = page.inner_text("#card-confirm")
    assert hint.endswith(" : choisissez à nouveau cette carte pour la jouer."), hint
    assert ui.version(page) == before and ui.hand(page).count(cards[0]) == 1  # nothing sent
    if len(cards) > 1:  # another card chosen instead: the first is no longer
        other = f"#hand .card[data-card='{cards[1]}']"
        page.tap(other)
        page.wait_for_selector(f"{other}.armed")
        assert page.locator("#hand .card.armed").count() == 1
        assert ui.version(page) == before
        first, cards = other, cards[1:]
    page.tap(first)  # the second tap on the same card plays it
    ui.wait_changed(page, before)
    assert cards[0] in cards_played(page) and cards[0] not in ui.hand(page)
    assert page.query_selector("#card-confirm") is None
    # The choice is remembered on this device.
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert page.locator("#pref-confirm-play").is_checked()


def test_the_keyboard_plays_at_once_whatever_the_choice(new_page: Any) -> None:
    page = new_page(has_touch=True)  # a laptop with a touch screen: mouse, keys and fingers
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3))
    page.check("#pref-confirm-play")
    ui.start(page)
    turn_to_play(page)
    played = ui.play(page, keyboard=True)  # ArrowRight then Enter: one key press plays
    assert played not in ui.hand(page)
    # And the mouse chooses first, then plays.
    cards = turn_to_play(page)
    before = ui.version(page)
    page.click(f"#hand .card[data-card='{cards[0]}']")
    page.wait_for_selector("#hand .card.armed")
    assert page.inner_text("#card-confirm").endswith(": choose it again to play it.")
    assert ui.version(page) == before
    page.click(f"#hand .card[data-card='{cards[0]}']")
    ui.wait_changed(page, before)
    assert cards[0] in cards_played(page) and cards[0] not in ui.hand(page)


def test_the_switch_is_offered_on_touch_screens(new_page: Any) -> None:
    """Where no finger plays, a slip of one plays no card, and a laptop's row above the table has
    no room to spare: there the switch is not offered (unless it was turned on)."""
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3))
    assert page.query_selector("#pref-sound") is not None
    assert page.query_selector("#pref-confirm-play") is None
