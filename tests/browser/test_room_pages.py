"""The room's page at its edges, as a fresh-eyes review found them: a code no room has, a
friend who follows an invite before choosing a name, the dialogs before leaving, a bot's seat,
and a name as long as the form allows on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_a_code_no_room_has_gets_one_clear_page(new_page: Any) -> None:
    """Before: an empty green table, three empty side panels, a chat box with an unlabelled
    button, and the same sentence twice (on the table and in a toast)."""
    page = new_page()
    ui.set_name(page, "Eve")
    page.goto("/#/r/NOPE")
    gone = page.wait_for_selector("#gone")
    assert gone.inner_text().startswith("This room does not exist.")
    assert page.query_selector("#table") is None and page.query_selector("#chat") is None
    assert not [t for t in page.locator(".toast").all_inner_texts() if "does not exist" in t]
    page.click("#gone a.button")
    page.wait_for_selector("#create-form")


def test_an_invited_friend_without_a_name_sees_what_they_were_invited_to(new_page: Any) -> None:
    """Before: only "Choose a display name first." — no game, no host, no seats."""
    host = new_page()
    ui.set_name(host, "Marta")
    code = ui.create_room(host, bots=(2, 3))
    friend = new_page(viewport=PHONE)
    friend.goto(f"/#/r/{code}")
    about = friend.wait_for_selector("#invite-about:not(:empty)")
    assert about.inner_text() == "Bulgarian Belot at Marta's table: 3 of 4 seats taken."
    friend.fill("#name-input", "Lena")
    friend.click("#name-form button[type=submit]")
    friend.wait_for_selector(".seat[data-seat='1'] button.sit")
    stranger = new_page(locale="fr-FR")
    stranger.goto("/#/r/NOPE")
    about = stranger.wait_for_selector("#invite-about:not(:empty)")
    assert about.inner_text() == "Cette table n'existe pas."


def test_a_bots_seat_says_bot_once(new_page: Any) -> None:
    """Its name is "Bot 3" and its avatar a robot: a "Bot" badge beside made "Bot 3 Bot"."""
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(2,))
    seat = page.wait_for_selector(".seat[data-seat='2'][data-state=bot]")
    assert seat.query_selector(".seat-name").inner_text() == "Bot 3"
    badges = page.locator(".seat[data-seat='2'] .badge").all_inner_texts()
    assert "Bot" not in badges


def test_the_dialogs_before_leaving_are_modal_and_say_which_leaving(new_page: Any) -> None:
    """Escape is "Stay" and Tab stays on the dialog's buttons (before, Escape did nothing and
    Tab went on to the page behind); "Leave the match" (a bot at once) and leaving the page (the
    clock first) are two questions with two titles (before, both "Leave the table?")."""
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    page.click("#leave-match")
    assert page.inner_text("#exit-title") == "Leave the match?"
    for _ in range(5):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.closest('#exit-confirm') !== null")
    page.keyboard.press("Escape")
    page.wait_for_selector("#exit-confirm", state="detached")
    page.click("#nav-history")
    assert page.inner_text("#leave-title") == "Leave the table?"
    page.keyboard.press("Escape")
    page.wait_for_selector("#leave-confirm", state="detached")
    assert page.get_attribute("#room", "data-status") == "playing"
    assert page.evaluate("() => window.__belote.state.you.seat") == 0
    assert page.get_attribute(".seat[data-seat='0']", "data-state") == "here"


def test_a_name_as_long_as_allowed_never_widens_a_phone_page(new_page: Any) -> None:
    """A 32-letter word (the form's limit) in "Waiting for …" on the felt and "… to play" beside
    it made the page 642 px wide on a 390 px phone, so it scrolled sideways."""
    host = new_page()
    ui.set_name(host, "W" * 32)
    code = ui.create_room(host, bots=(1, 2, 3))
    ui.start(host)
    host.wait_for_selector("#room[data-my-turn=true]")  # the bots wait for the host's call
    watcher = new_page(viewport=PHONE)
    ui.set_name(watcher, "Vera")
    watcher.goto(f"/#/r/{code}")
    watcher.wait_for_selector(".waiting-note")
    watcher.wait_for_selector("#turn-line")
    assert "W" * 10 in watcher.inner_text(".waiting-note")
    assert watcher.evaluate(OVERFLOW) <= 0


SIDE_NAMES = """() => [...document.querySelectorAll('.seat:is(.pos-left, .pos-right) .seat-name')]
  .map((name) => {
    // The letters' lines: each letter's box, grouped by its top.
    const tops = [];
    for (const node of name.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    const lines = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
    return {name: name.textContent, lines,
            whole: name.scrollWidth <= name.clientWidth && name.scrollHeight <= name.clientHeight};
  })"""


def test_a_phone_s_side_seat_shows_a_long_one_word_name_whole(new_page: Any) -> None:
    """A phone's side seats are about 50 px wide: "Marguerite" was cut to "Marg…" (and
    "Benoît" to "Ben…" beside the bidding panel); it now takes two lines, as "Robot" / "4"
    does, broken at its middle where the half fits: "Benoît" broke where the line ended,
    "Benoî" / "t", and "Marguerite" "Marguerit" / "e"."""
    host = new_page(viewport=PHONE, locale="fr-FR")
    ui.set_name(host, "Amélie")
    code = ui.create_room(host, bots=(2,))
    for seat, name in ((1, "Marguerite"), (3, "Benoît")):
        friend = new_page(viewport=PHONE, locale="fr-FR")
        ui.set_name(friend, name)
        friend.goto(f"/#/r/{code}")
        friend.click(f".seat[data-seat='{seat}'] button.sit")
        host.wait_for_selector(f".seat[data-seat='{seat}'][data-state=here]")
    ui.start(host)
    host.wait_for_selector(".seat[data-seat='1'] .backs")
    ui.settle(host)
    seats = host.evaluate(SIDE_NAMES)
    assert {seat["name"]: seat["whole"] for seat in seats} == {"Marguerite": True, "Benoît": True}
    broken = [seat for seat in seats if len(seat["lines"]) > 1]
    assert "Marguerite" in [seat["name"] for seat in broken], seats  # "Benoît" may fit
    for seat in broken:  # never a letter alone on a line (the old break gave [9, 1])
        assert len(seat["lines"]) == 2 and min(seat["lines"]) >= 2, seat


def test_a_phone_gives_the_invite_link_s_line_to_the_table_during_a_match(new_page: Any) -> None:
    """About 200 of a phone's 844 px went to the room's facts, the deck and sound switches and
    the invite link while playing: the link (for the waiting room) now gives way to the table;
    a desktop keeps it."""
    phone = new_page(viewport=PHONE)
    ui.set_name(phone, "Ann")
    ui.create_room(phone, bots=(1, 2, 3))
    assert phone.is_visible("#invite-link")
    top = phone.evaluate("() => document.querySelector('#table').getBoundingClientRect().top")
    ui.start(phone)
    phone.wait_for_selector("#invite-link", state="hidden")
    after = phone.evaluate("() => document.querySelector('#table').getBoundingClientRect().top")
    assert after < top
    desk = new_page()
    ui.set_name(desk, "Bea")
    ui.create_room(desk, bots=(1, 2, 3))
    ui.start(desk)
    assert desk.is_visible("#invite-link")


def test_who_comes_in_during_the_pause_after_a_deal_sees_its_result(new_page: Any) -> None:
    """A spectator who opened the room (or a player who reloaded it) in the pause after a deal
    saw "Loading…" on an empty table until the next deal: the snapshot held no deal and no
    result. Now they see the result and the countdown, as those at the table do."""
    host = new_page()
    ui.set_name(host, "Ann")
    code = ui.create_room(host, bots=(1, 2, 3), pause=60)
    ui.start(host)
    ui.play_deal_out(host, prefer="hearts")
    seen = host.inner_text("#result-panel table")
    watcher = new_page(viewport=PHONE, locale="fr-FR")
    ui.set_name(watcher, "Vera")
    watcher.goto(f"/#/r/{code}")
    for page in (watcher, host):
        if page is host:
            page.reload()
        page.wait_for_selector("#result-panel #next-deal-in .countdown")
        assert "1" in page.inner_text("#result-panel h3")  # the first deal's
        assert page.query_selector(".center-box") is None  # not "Loading…"
    assert host.inner_text("#result-panel table") == seen
    assert host.is_enabled("#next-deal") and watcher.query_selector("#next-deal") is None
