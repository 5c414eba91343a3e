"""Quick phrases in a real Chromium: a player picks "Good luck!" under the chat box, and a
player reading the table in French reads "Bonne chance !" (docs/protocol.md §4); a spectator
is offered none."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_mute import lines
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser


def test_a_phrase_is_read_in_each_reader_s_language(new_page: Any) -> None:
    host, guest = seated_guest(new_page, locale="fr-FR")
    host.click("#chat-phrases summary")
    host.click("#chat-phrases button[data-phrase='gl']")
    host.wait_for_selector(".chat-text.chat-phrase:has-text('Good luck!')")
    guest.wait_for_selector(".chat-text.chat-phrase:has-text('Bonne chance !')")
    guest.click("#chat-phrases summary")
    assert guest.inner_text("#chat-phrases button[data-phrase='thanks']") == "Merci !"
    guest.click("#chat-phrases button[data-phrase='thanks']")
    host.wait_for_selector(".chat-text:has-text('Thanks!')")
    assert lines(host) == ["Good luck!", "Thanks!"]
    watcher = new_page()
    ui.join_by_link(watcher, host, "Watcher")
    watcher.wait_for_selector(".chat-text:has-text('Thanks!')")
    assert watcher.is_hidden("#chat-phrases")  # spectators read, they do not write
