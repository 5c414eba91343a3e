"""Defects left by earlier sessions, each checked in a real Chromium: "Played for you" after a
reload, sur-contra clicked, the back button during a match, seat names on a phone, the rated
badge and the expert bot level."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

NOTICE = "#played-for-you"
DEAL_GOES_ON = """() => {
  const s = window.__belote.state;
  return Boolean(s.deal && s.deal.hand && s.deal.hand.length >= 4)
    && s.playedForYou.some(x => x.number === s.number);
}"""


def test_played_for_you_is_still_shown_after_a_reload(new_page: Any) -> None:
    """The clock plays for a player who does not act; a full reload (a fresh page, a snapshot)
    keeps the notice, and a notice closed stays closed over the next reload."""
    page = new_page()
    ui.set_name(page, "Slow")
    body = {"bots": [1, 2, 3], "turn_seconds": 1}
    created = page.request.post("/api/rooms", data=body, headers=ui.auth(page))
    code = created.json()["room"]["code"]
    page.goto(f"/#/r/{code}")
    ui.start(page)
    # The clock goes on playing (a new deal may start) between the two reads, so what is
    # compared is the items of the deal the reload's snapshot shows: every one seen before the
    # reload is listed again, in the same order, ahead of anything played later. The reload
    # starts when this deal has items and at least four of the player's turns (four seconds
    # of clock) still to go: a reload slower than that on a loaded machine reached the next
    # deal three times running (CI, 2026-12-04), leaving nothing to compare.
    items = "() => window.__belote.state.playedForYou.map(x => [x.number, x.seq, x.what])"
    for _ in range(5):
        assert page.wait_for_selector(NOTICE).inner_text().startswith("Played for you: ")
        page.wait_for_function(DEAL_GOES_ON)
        before = page.evaluate(items)
        page.reload()
        page.wait_for_selector("#room[data-status=playing]")
        page.wait_for_selector(NOTICE)
        after = page.evaluate(items)
        kept = [item for item in before if item[0] == after[0][0]]
        if kept:
            break
    assert kept, "the clock dealt anew during each reload: nothing to compare"
    assert after[: len(kept)] == kept
    closed = page.evaluate(
        "() => window.__belote.state.playedForYou.map(x => [x.number, x.seq]).pop()"
    )
    page.click("#played-for-you-close")
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    shown = page.evaluate("() => window.__belote.state.playedForYou.map(x => [x.number, x.seq])")
    # Only what the clock played after the notice was closed (it goes on playing meanwhile).
    assert all(number != closed[0] or seq > closed[1] for number, seq in shown)


def test_sur_contra_is_offered_to_the_doubler_and_clicked(new_page: Any) -> None:
    """SUR-1, SUR-2 (house rule `sur_contra`): after a contra and a re-contra the player who
    said contra is offered sur-contra; clicking it makes the deal ×8 on both tables."""
    host, guest = new_page(), new_page()
    ui.set_name(host, "Host")
    host.wait_for_selector("#create-form")
    host.select_option("#preset", "bulgarian2")
    host.click("#create-form details summary")
    host.select_option("#hr-sur_contra", "x8")
    ui.create_room(host)
    ui.join_by_link(guest, host, "Guest")
    guest.click(".seat[data-seat='1'] button.sit")
    host.wait_for_selector(".seat[data-seat='1'] .seat-name:has-text('Guest')")
    ui.start(host)
    host.wait_for_selector("#room[data-phase=bidding]")
    dealer = host.evaluate("() => window.__belote.state.deal.dealer")
    first = (host, guest)[(dealer + 1) % 2]  # the non-dealer bids first (BG2-5)
    second = guest if first is host else host
    for acting, bid in ((first, "clubs"), (second, "contra"), (first, "recontra")):
        acting.wait_for_selector("#room[data-my-turn=true] #bid-panel")
        assert not acting.query_selector("#bid-panel button[data-bid=surcontra]")
        ui.bid(acting, prefer=bid)
    second.wait_for_selector("#room[data-my-turn=true] #bid-panel")
    offered = second.wait_for_selector("#bid-panel button[data-bid=surcontra]")
    assert offered.inner_text() == "Sur-contra"
    ui.bid(second, prefer="surcontra")
    for page in (host, guest):
        page.wait_for_function("() => window.__belote.state.deal.multiplier === 8")
        assert "Sur-contra" in page.inner_text("#bid-log")
        assert "×8" in page.inner_text("#contract")


def test_the_back_button_during_a_match_asks_first(new_page: Any) -> None:
    """Back during a match opens the same in-page dialog as a link: staying keeps the table
    (and asks again next time), leaving goes back to where the player came from."""
    page = new_page()
    ui.set_name(page, "Host")
    code = ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    for _ in range(2):
        page.evaluate("() => history.back()")
        page.wait_for_selector("#leave-confirm")
        assert page.evaluate("() => location.hash") == f"#/r/{code}"
        assert page.get_attribute("#room", "data-status") == "playing"
        page.click("#leave-stay")
        page.wait_for_selector("#leave-confirm", state="detached")
    page.reload()  # the page stands on its extra entry: it is not put in twice
    page.wait_for_selector("#room[data-status=playing]")
    page.evaluate("() => history.back()")
    page.click("#leave-go")
    page.wait_for_selector("#create-form")  # the lobby, where the player came from
    assert page.query_selector("#room") is None


@pytest.mark.parametrize("preset", ["bulgarian", "bulgarian3", "bulgarian2"])
def test_seat_names_on_a_phone_stay_on_one_line(new_page: Any, preset: str) -> None:
    """390 px: a seat's name is one line, cut with an ellipsis when too long, whole in its
    title; in the narrow side seats two lines at most ("Robot" / "3" rather than "Ro…"), never
    broken a letter a line."""
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")  # "Robot 1"
    ui.set_name(page, "Maximilienne-Alexandrine Hohen")
    seats = {"bulgarian": (1, 2, 3), "bulgarian3": (1, 2), "bulgarian2": (1,)}[preset]
    ui.create_room(page, bots=seats, preset=preset, timer=60)
    ui.start(page)
    page.wait_for_selector("#room[data-phase=bidding]")
    names = page.evaluate(
        """() => [...document.querySelectorAll('.seat .seat-name')].map(el => ({
             lines: el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).fontSize),
             cut: el.scrollWidth > el.clientWidth, title: el.title, text: el.textContent,
             overflow: getComputedStyle(el).textOverflow,
             side: !!el.closest('.seat.pos-left, .seat.pos-right')}))"""
    )
    assert len(names) == len(seats) + 1
    for name in names:
        # one line ("normal" line height: about 1.2 em), two in a side seat (1.15 em each)
        assert name["lines"] < (2.6 if name["side"] else 1.6), name
        assert name["overflow"] == "ellipsis" and name["title"] == name["text"]
        if name["side"] and name["text"].startswith("Robot"):
            assert not name["cut"], name  # "Robot 3" whole, on two lines
    assert any(n["cut"] for n in names if n["text"].startswith("Maximilienne"))


def test_a_rated_room_says_so_and_the_expert_level_is_explained(new_page: Any) -> None:
    """The lobby's list and the table show "Rated" for a room whose matches count for ratings
    (and "Not rated" while a bot holds a seat); the create form offers the expert bots with a
    line on what they do. Starting a rated room does not fill its seats with bots unless the host
    asks."""
    page = new_page()
    ui.set_name(page, "Rater")
    ui.become_account(page)  # rated rooms are for accounts
    assert page.is_hidden("#bot-level-help")
    page.select_option("#bot-level", "expert")
    said = page.inner_text("#bot-level-help")
    # Before: "at tables for three or two they play as strong", since untrue (app/bots/expert.py:
    # IS-DD at every table), and "the last tricks" where a built server searches the last seven.
    assert "double-dummy" in said and "last seven tricks" in said and "every table" in said
    page.check("#rated")
    code = ui.create_room(page, public=True, timer=60)  # a rated room has a turn timer
    badge = page.wait_for_selector("#room-top .badge.rated")
    assert badge.inner_text() == "Rated" and "ratings" in (badge.get_attribute("title") or "")
    # Its empty seats are not filled with bots by default: a bot would make the match unrated.
    assert not page.is_checked("#fill-bots")
    assert page.inner_text(".fill-note") == "A bot in a seat makes the match unrated."
    assert page.evaluate("() => window.__belote.state.room.bot_level") == "expert"
    page.click(".seat[data-seat='1'] button.add-bot")  # a match with a bot is never rated
    page.wait_for_selector("#room-top .badge.rated.off:has-text('Not rated: a bot plays')")
    page.click(".seat[data-seat='1'] button.remove-bot")
    page.wait_for_selector("#room-top .badge.rated:not(.off)")
    other = new_page(locale="fr-FR")
    ui.set_name(other, "Autre")
    row = other.wait_for_selector(f"#public-rooms .room-row[data-code='{code}']")
    assert row.query_selector(".badge.rated").inner_text() == "Classée"
