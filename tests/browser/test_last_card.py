"""The last card plays itself (docs/protocol.md, TURN's ``forced``): the page does not offer it,
says so (to screen readers too), and a click on it sends nothing; the server plays it as the
player's own card."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import serving
from tests.conftest import Server

pytestmark = pytest.mark.browser

WAIT = 3.0  # seconds before a last card plays itself: long enough to look at the page


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, last_card_seconds=WAIT) as server:
        yield server


LAST_CARD_OR_NEXT = f"""() => document.querySelector('#last-card') !== null || ({ui.NEXT})()"""


def test_the_last_card_is_not_offered_says_so_and_plays_itself(new_page: Any) -> None:
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3), pause=60)  # after the deal, a pause: nobody's turn
    ui.start(page)
    while True:
        page.wait_for_function(LAST_CARD_OR_NEXT)
        if page.query_selector("#last-card"):
            break
        step = ui.wait_next(page)
        if step == "bid":
            ui.bid(page, prefer="hearts")
        elif step == "play":
            ui.play(page)
        else:
            assert step == "result", step
            ui.close_result(page)  # a deal everybody passed; the next is dealt
    assert page.inner_text("#last-card") == "Your last card plays itself"
    assert page.text_content("#announce") == "Your last card plays itself"  # screen readers
    assert page.inner_text("#turn-line").startswith("Your last card plays itself")
    assert page.get_attribute("#turn-line .clock", "data-deadline") == ""  # no countdown
    assert page.get_attribute(ui.ROOM, "data-my-turn") == "false"
    [card] = ui.hand(page)
    assert ui.playable(page) == []
    before = ui.version(page)
    page.click(f"#hand .card[data-card='{card}']")
    assert page.query_selector("#hand .card.pending") is None  # nothing was sent
    assert ui.version(page) == before
    page.wait_for_selector("#result-panel", timeout=(WAIT + 20) * 1000)  # played: the deal ended
    # The line for screen readers went with the card: it stayed through the result, the pause
    # and the next deal's bids, until the player's next turn.
    assert page.query_selector("#next-deal")  # the pause is on: it is nobody's turn
    assert page.text_content("#announce") == ""
    assert page.query_selector("#played-for-you") is None  # the player's own card
