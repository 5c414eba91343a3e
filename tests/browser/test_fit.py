"""What a common screen must show without scrolling or breaking, measured from the boxes the
browser laid out: a laptop's game table holds the player's whole hand (and the keyboard hint
under it) above the fold."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser

# The hand's cards and the keyboard hint, from the top of the page (the page may have been
# scrolled by a click): where they end against the viewport's height, and how big the cards are.
HAND_FOLD = """() => {
  const page = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width }; };
  const hint = document.querySelector('#keyboard-hint');
  return {
    height: innerHeight,
    cards: [...document.querySelectorAll('#hand .card')].map(page),
    hint: hint ? page(hint) : null,
    table: page(document.querySelector('#table')),
  };
}"""


def my_turn_to_play(page: Any) -> None:
    """Bid (hearts when offered) and play until the player is to play a card."""
    while True:
        step = ui.wait_next(page)
        if step == "bid":
            ui.bid(page, prefer="hearts")
        elif step == "play":
            return
        elif step == "result":
            ui.close_result(page)
        else:
            raise AssertionError("the match ended before the player had a card to play")


LAPTOPS = {"1366x768": (1366, 768), "1280x720": (1280, 720), "1280x860": (1280, 860)}


@pytest.mark.parametrize("size", LAPTOPS)
def test_a_laptop_shows_the_whole_hand_without_scrolling(new_page: Any, size: str) -> None:
    """A 4-player deal in play, the player's turn (so "Your turn" and the keyboard hint show):
    every card of the hand and the hint end within the viewport's height, measured from the top
    of the page. The cards stay a readable size (the table scales with the screen's height, it
    does not drop what it shows)."""
    width, height = LAPTOPS[size]
    page = new_page(viewport={"width": width, "height": height})
    ui.set_name(page, "Laptop")
    ui.create_room(page, bots=(1, 2, 3), timer=60)
    ui.start(page)
    my_turn_to_play(page)
    page.wait_for_selector("#keyboard-hint")
    page.wait_for_timeout(300)  # the cards dealt and the last card played have landed
    fold = page.evaluate(HAND_FOLD)
    assert len(fold["cards"]) >= 5, fold
    assert fold["height"] == height
    below = [c["bottom"] for c in fold["cards"] if c["bottom"] > height]
    assert below == [], f"hand cards end at {below} px, below the fold at {height} px"
    assert fold["hint"]["bottom"] <= height, f"the hint ends at {fold['hint']} of {height} px"
    assert min(c["width"] for c in fold["cards"]) >= 70, fold["cards"]  # not shrunk away
