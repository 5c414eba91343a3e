"""Links to pass on — a waiting room's invite link, a tournament's address: readable whole,
copied, and handed to a phone's share sheet."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_tournaments import make

# A laptop, a small laptop, a tablet, and phones held sideways (the widest and the narrowest).
SCREENS = [(1366, 768), (1024, 768), (901, 700), (844, 390), (740, 360), (667, 375)]

READ = """() => {
  const field = document.querySelector('#invite-link');
  const box = field.getBoundingClientRect();
  return {
    hidden: field.scrollWidth - field.clientWidth,
    right: box.right,
    page: document.documentElement.scrollWidth,
    width: innerWidth,
  };
}"""

# A device with a share sheet: it keeps what it was handed, and answers as it is told to.
SHARE = """
window.shared = [];
window.shareAnswer = null;
navigator.share = (data) => {
  window.shared.push(data);
  return window.shareAnswer ? Promise.reject(new DOMException('no', window.shareAnswer))
                            : Promise.resolve();
};
"""


def phone_with_a_share_sheet(new_page: Any, locale: str) -> Any:
    """A phone's page whose share sheet is SHARE's, and whose clipboard the page may read."""
    page = new_page(
        viewport=PHONE,
        locale=locale,
        has_touch=True,
        is_mobile=True,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page.add_init_script(SHARE)
    return page


@pytest.mark.parametrize(
    ("locale", "word"), [("en-US", "Copy"), ("fr-FR", "Copier"), ("bg-BG", "Копирай")]
)
def test_the_invite_link_is_readable_whole_wherever_the_screen_has_room(
    new_page: Any, locale: str, word: str
) -> None:
    """The field was squeezed beside the buttons to 76-122 px on a laptop (Bulgarian, English),
    26 px on a phone held sideways: "http://12" — the room's code at the link's end was never
    seen. Now the field is as wide as its link and the buttons go under it."""
    page = new_page(locale=locale)
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2))
    assert page.inner_text("#copy-link") == word  # the page is in the language asked for
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        seen = page.evaluate(READ)
        assert (width, seen["hidden"]) == (width, 0)  # nothing of the link scrolled out of sight
        assert seen["right"] <= seen["width"] and seen["page"] <= seen["width"], (width, seen)


def test_a_phone_upright_keeps_the_link_within_the_screen(new_page: Any) -> None:
    """Narrower than a long link, the field gives way rather than push the page sideways."""
    page = new_page(viewport={"width": 320, "height": 640}, locale="fr-FR")
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2))
    seen = page.evaluate(READ)
    assert seen["right"] <= seen["width"] and seen["page"] <= seen["width"], seen


def test_a_phone_with_a_share_sheet_is_offered_to_share_the_link(new_page: Any) -> None:
    """The host of a table on a phone sends its link by a message: "Share" hands the link, and
    a line in the page's language, to the share sheet. Closing the sheet is nothing to report;
    a sheet that fails copies the link instead."""
    page = phone_with_a_share_sheet(new_page, "fr-FR")
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2))
    link = page.input_value("#invite-link")
    page.click("#share-link")
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("() => window.shared[0]")
    assert shared == {"url": link, "text": "Belote bulgare : venez jouer à ma table."}
    page.evaluate("() => { window.shareAnswer = 'AbortError'; }")
    page.click("#share-link")
    page.wait_for_function("() => window.shared.length === 2")
    page.evaluate("() => { window.shareAnswer = 'NotAllowedError'; }")
    page.click("#share-link")
    page.wait_for_selector("#toasts .toast:has-text('Lien copié.')")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    # The sheet closed unused said nothing: one "copied", for the sheet that failed.
    assert page.locator("#toasts .toast:has-text('Lien copié.')").count() == 1


def test_no_share_button_where_the_device_has_no_share_sheet(new_page: Any) -> None:
    page = new_page()
    page.add_init_script("delete Navigator.prototype.share;")
    ui.set_name(page, "Ann")
    ui.create_room(page, bots=(1, 2))
    assert page.is_visible("#copy-link")
    assert page.locator("#share-link").count() == 0


def test_a_tournament_s_address_is_copied_or_shared(new_page: Any) -> None:
    """The tournament's page told its host to send its address, shown as text to select by
    hand (on a phone: a long press, then the handles). Now "Copy" beside it, and "Share" where
    the device has a share sheet."""
    page = phone_with_a_share_sheet(new_page, "bg-BG")
    ui.set_name(page, "Ивана")
    address = make(page, "Петъчна купа", "bulgarian", 4)
    assert page.inner_text("#tn-link") == address
    page.click("#tn-copy-link")
    page.wait_for_selector("#toasts .toast:has-text('Линкът е копиран.')")
    assert page.evaluate("() => navigator.clipboard.readText()") == address
    page.click("#tn-share-link")
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("() => window.shared[0]")
    assert shared == {
        "url": address,
        "text": "Петъчна купа: елате да играете в този турнир по белот.",
    }
