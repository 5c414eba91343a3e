"""The operator's announcement in a real Chromium: at the top of every page, in the reader's
language when the operator wrote one; "×" hides it on this device until a new one is made
(docs/protocol.md §1)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_suspension import operator
from tests.conftest import Server

pytestmark = pytest.mark.browser


def announced(page: Any) -> Any:
    return page.request.get("/api/announcement").json()["announcement"]


def wait_for_server(page: Any, text: str | None) -> None:
    """The server's next round of news (``token_check_seconds``): a wait for it, not a race."""
    deadline = time.monotonic() + 20
    while (announced(page) or {}).get("text") != text:
        assert time.monotonic() < deadline
        page.wait_for_timeout(100)


def reload_reading(page: Any) -> None:
    """Reload, and wait until the page has read the announcement and drawn what it read."""
    page.reload()
    page.wait_for_selector("#announcement[data-read]", state="attached")


def test_an_announcement_reads_in_the_reader_s_language_and_hides_until_a_new_one(
    new_page: Any, live_server: Server
) -> None:
    english, french = new_page(), new_page(locale="fr-FR")
    command = ["announce", "Restart at 22:00 UTC", "--fr", "Redémarrage à 22 h UTC"]
    assert operator(command, live_server) == 0
    ui.set_name(english, "Ann")
    wait_for_server(english, "Restart at 22:00 UTC")
    english.reload()
    french.goto("/")
    banner = english.wait_for_selector("#announcement:not([hidden]) .announcement-text")
    assert banner.inner_text() == "Restart at 22:00 UTC"
    text = french.wait_for_selector("#announcement:not([hidden]) .announcement-text").inner_text()
    assert text == "Redémarrage à 22 h UTC"
    english.goto("/#/history")  # every page
    assert english.is_visible("#announcement")
    assert english.get_attribute("#announcement-hide", "aria-label") == "Hide this announcement"
    english.click("#announcement-hide")
    english.wait_for_selector("#announcement", state="hidden")
    reload_reading(english)
    assert english.is_hidden("#announcement")  # hidden on this device, across reloads
    assert operator(["announce", "Tournament tonight"], live_server) == 0
    wait_for_server(english, "Tournament tonight")
    english.reload()
    new = english.wait_for_selector("#announcement:not([hidden]) .announcement-text")
    assert new.inner_text() == "Tournament tonight"  # a new one shows again
    assert operator(["unannounce"], live_server) == 0
    wait_for_server(english, None)
    reload_reading(english)
    assert english.is_hidden("#announcement")
