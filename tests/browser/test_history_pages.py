"""The History page a page at a time: the first 50 matches, then "Older matches" asks for
those after the last one shown (``?before=``, tests/api/test_history_pages.py) until a short
page says there are no more. The server's pages are made here (``page.route``) from the
player's one real match: 51 matches would cost more new rooms than one address may make."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def test_older_matches_are_shown_a_page_at_a_time(new_page: Any, artifacts: Path) -> None:
    page = new_page(viewport=PHONE, locale="fr-FR")
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    me = ui.player_id(page)
    (real,) = page.request.get(f"/api/players/{me}/matches", headers=ui.auth(page)).json()
    first = [{**real, "id": f"old{i:02}"} for i in range(50)]
    asked: list[dict[str, list[str]]] = []

    def serve(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        asked.append(query)
        body = [] if "preset" in query else first if "before" not in query else [real]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"**/api/players/{me}/matches?*", serve)
    page.goto("/#/history")
    page.wait_for_selector("#history tbody tr")
    assert page.locator("#history tbody tr").count() == 50
    more = page.locator("#history-more")
    assert more.is_visible() and more.inner_text() == "Parties plus anciennes"
    more.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "history-older-fr-phone.png"))
    more.click()
    page.wait_for_selector(f"#history tbody tr[data-match='{real['id']}']")
    assert page.locator("#history tbody tr").count() == 51
    assert more.is_hidden()  # a short page: there are no more
    assert asked == [{"limit": ["50"]}, {"limit": ["50"], "before": ["old49"]}]
    # One game's matches alone: the list asked again from its first page.
    page.wait_for_selector("#history-game option[value=open_belot]", state="attached")
    assert page.get_attribute("#history-game", "aria-label") == "Jeu"
    page.select_option("#history-game", "open_belot")
    page.wait_for_selector("#no-history")
    assert page.inner_text("#no-history") == "Vous n'avez pas encore joué à ce jeu."
    assert asked[-1] == {"limit": ["50"], "preset": ["open_belot"]}
    page.screenshot(path=str(artifacts / "history-game-fr-phone.png"))
    page.select_option("#history-game", "")
    page.wait_for_selector("#history tbody tr")
    assert page.locator("#history tbody tr").count() == 50 and more.is_visible()
