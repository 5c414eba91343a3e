"""Toasts (the messages of ``ui.js``'s ``toast``) stay out of the way of what a player acts on:
a refused "Create" said three times is one toast, and it is not drawn over the button; on a
phone an error during the bidding is not drawn over the hand or the bidding box, and a toast is
as wide as the screen. Before, toasts sat in the lower right corner, piled up to four, and
covered both."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


SAY_AGAIN = ui.own_modules("""async () => (await import('/js/ui.js')).showError(
  {code: 'rate_limited', message: 'Too many rooms from this address.'})""")


def box(page: Any, selector: str) -> tuple[float, float, float, float]:
    left, top, right, bottom = page.eval_on_selector(selector, BOX)
    return left, top, right, bottom


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def toasts(page: Any, which: str = "") -> list[tuple[float, float, float, float]]:
    return [tuple(item.evaluate(BOX)) for item in page.query_selector_all(f"#toasts .toast{which}")]


def test_a_refused_create_said_three_times_is_one_toast_not_over_the_button(
    new_page: Any,
) -> None:
    page = new_page()
    ui.set_name(page, "Tess")
    page.wait_for_selector("#create-form")
    refused = {"error": {"code": "rate_limited", "message": "Too many rooms from this address."}}
    page.route(
        "**/api/rooms",
        lambda route: (
            route.fulfill(status=429, body=json.dumps(refused))
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # the button in view
    for _ in range(3):
        page.click("#create-room")
        page.wait_for_selector("#toasts .toast[data-code=rate_limited]")
    # Said again, the toast is replaced. (Before, the toast over the button held each click
    # back until it went, six seconds later.)
    assert len(toasts(page, "[data-code=rate_limited]")) == 1
    for _ in range(3):
        page.evaluate(SAY_AGAIN)
    assert len(toasts(page, "[data-code=rate_limited]")) == 1
    button = box(page, "#create-room")
    assert button[3] <= DESKTOP["height"] and button[1] >= 0  # on the screen
    shown = toasts(page)  # "Name saved." too, maybe
    assert [t for t in shown if overlap(t, button)] == [], (shown, button)


def test_on_a_phone_a_toast_is_not_over_the_hand_or_the_bidding_box(new_page: Any) -> None:
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    ui.set_name(page, "Pia")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    page.wait_for_selector("#bid-panel button")
    # The player keeps the table's foot (their hand) at the foot of the screen.
    page.eval_on_selector("#table", "el => el.scrollIntoView({block: 'end'})")
    ui.settle(page)
    page.evaluate(SAY_AGAIN)
    page.evaluate(
        ui.own_modules(
            "async () => (await import('/js/ui.js')).toast('Played for you: the seven of clubs, "
            "since your time ran out.', {timeout: 0})"
        )
    )
    shown = toasts(page)
    assert len(shown) >= 2  # and "Name saved." maybe
    covered = [
        selector
        for selector in ("#hand .card", "#bid-panel button")
        for index in range(page.locator(selector).count())
        if any(overlap(t, tuple(page.locator(selector).nth(index).evaluate(BOX))) for t in shown)
    ]
    assert page.locator("#hand .card").count() >= 5
    assert covered == [], shown
    # As wide as the screen less a margin, however few their words (a short one alone was a
    # third of it, in the corner).
    page.evaluate("() => document.querySelectorAll('#toasts .toast').forEach(t => t.remove())")
    page.evaluate(NEWS)
    short = toasts(page)
    assert [(round(t[0]), round(t[2])) for t in short] == [(8, PHONE["width"] - 8)], short


NEWS = ui.own_modules("async () => (await import('/js/ui.js')).toast('Copied.', {timeout: 0})")
BAR_PARTS = ["#who", "#lang", "#nav-lobby", "#nav-account"]


def covered(page: Any, selectors: list[str]) -> list[str]:
    shown = toasts(page)
    assert shown, "no toast"
    return [s for s in selectors if any(overlap(t, box(page, s)) for t in shown)]


def test_on_a_desktop_a_toast_sits_in_the_top_bar_s_middle(new_page: Any) -> None:
    """Over the bar's right end, "Name saved." hid the player's name and the language picker
    for three seconds; just under the bar, the invite link's "Copy" of a room just made."""
    page = new_page()
    ui.set_name(page, "Tess")
    assert covered(page, BAR_PARTS) == []
    bar = box(page, ".topbar")
    assert all(bar[1] <= t[1] and t[3] <= bar[3] for t in toasts(page)), (toasts(page), bar)
    ui.create_room(page)
    page.evaluate(NEWS)
    assert covered(page, [*BAR_PARTS, "#copy-link", "#invite-link"]) == []


def test_on_a_phone_a_toast_sits_under_the_top_bar_or_at_the_top(new_page: Any) -> None:
    """A phone's bar is two rows with no room in its middle: the toast goes under it while it
    is in view (over it, it hid the whole nav), at the screen's top once scrolled past it."""
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    ui.set_name(page, "Tess")
    assert covered(page, BAR_PARTS) == []
    bar = box(page, ".topbar")
    assert all(overlap(t, (0, bar[3], 10_000, bar[3] + 40)) for t in toasts(page))
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert box(page, ".topbar")[3] < 0  # scrolled out of view
    page.evaluate("() => document.querySelectorAll('#toasts .toast').forEach(t => t.remove())")
    page.evaluate(NEWS)
    assert [round(t[1]) for t in toasts(page)] == [8]
