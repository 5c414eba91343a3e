"""A private table's link to watch (app/rooms/watching.py): the host passes it on, whoever
opens it watches — no seat, no chat, no hand — and the page never holds the table's code."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.conftest import Server

pytestmark = pytest.mark.browser


def test_a_watch_link_shows_the_table_and_nothing_more(new_page: Any, live_server: Server) -> None:
    host = new_page()
    ui.set_name(host, "Host")
    code = ui.create_room(host, bots=(1, 2, 3))
    assert host.get_attribute("#copy-watch-link", "title")  # what it lets one do, said
    watch = httpx.get(f"{live_server.url}/api/rooms/{code}").json()["room"]["watch_code"]

    watcher = new_page(locale="fr-FR")
    watcher.goto(f"/r/{watch}")  # as the link is passed on, to one with no name yet
    about = watcher.wait_for_selector("#invite-about:not(:empty)").inner_text()
    assert about == "Belote bulgare : vous êtes invité à regarder cette table.", about
    assert watcher.inner_text("#invite-then") == "Choisissez un nom pour ce site, puis regardez."
    watcher.fill("#name-input", "Zoé")
    watcher.click("#name-form button[type=submit]")
    watcher.wait_for_selector("#room[data-status=waiting]")
    assert watcher.query_selector_all(".sit") == []  # empty seats are offered to nobody here
    assert watcher.is_hidden("#chat-form") and watcher.is_visible("#chat-note")
    assert watcher.inner_text(".invite label") == "Lien pour regarder"
    assert watcher.input_value("#invite-link").endswith(f"/r/{watch}")
    assert watcher.query_selector("#copy-watch-link") is None
    assert watcher.query_selector("#room-settings") is None

    ui.start(host)
    # During a match nobody can sit: the host's box passes on the link to watch.
    host.wait_for_selector("#copy-link")
    assert host.inner_text(".invite label") == "Link to watch"
    assert host.input_value("#invite-link").endswith(f"/r/{watch}")
    assert host.query_selector("#copy-watch-link") is None
    watcher.wait_for_selector("#room[data-status=playing]")
    watcher.wait_for_selector(".seat .card, #trick .card, .bid-bubble")
    assert watcher.query_selector_all("#hand .card") == []
    host.fill("#chat-input", "gl")
    host.click("#chat-send")
    watcher.wait_for_selector("#chat-list li")  # the table's chat is read, not written
    for seen in (watcher.content(), watcher.evaluate("() => JSON.stringify(localStorage)")):
        assert code not in seen


def test_the_link_to_watch_is_copied_or_shown_to_copy_by_hand(new_page: Any) -> None:
    page = new_page(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    ui.set_name(page, "Host")
    ui.create_room(page)
    page.click("#copy-watch-link")
    page.wait_for_selector("#toasts .toast:has-text('Link copied.')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    watch = page.evaluate("() => window.__belote.state.room.watch_code")
    assert copied.endswith(f"/r/{watch}") and len(watch) == 22
    # Where neither the clipboard nor the old way works (a page served without HTTPS, say),
    # the link is shown, not a "copied" that did not happen.
    page.evaluate(
        "() => { Object.defineProperty(navigator, 'clipboard', {value: undefined});"
        " document.execCommand = () => false; }"
    )
    page.click("#copy-watch-link")
    shown = page.wait_for_selector("#toasts .toast:has-text('by hand')").inner_text()
    assert shown.startswith("Copy this link by hand: ") and shown.rstrip("×\n ").endswith(watch)
    toast = page.locator("#toasts .toast", has_text="by hand")
    assert toast.evaluate("el => el.scrollWidth <= el.clientWidth")  # the link whole, on a phone


def test_the_end_of_a_private_match_links_its_scoresheet_to_its_players_only(
    new_page: Any, live_server: Server
) -> None:
    """A private match's stored scoresheet and records are its players' (docs/protocol.md §3):
    the end of the match links them for the player; one who watched it has the live scoresheet
    beside the table and no link to a page that would say the match does not exist."""
    host = new_page()
    ui.set_name(host, "Host")
    code = ui.create_room(host, bots=(1, 2, 3), target=1)
    watch = httpx.get(f"{live_server.url}/api/rooms/{code}").json()["room"]["watch_code"]
    watcher = new_page(locale="bg-BG")
    ui.set_name(watcher, "Зоя")
    watcher.goto(f"/#/r/{watch}")
    watcher.wait_for_selector("#room[data-status=waiting]")
    ui.start(host)
    while (step := ui.wait_next(host)) != "finished":  # target 1: a scoring deal ends it
        if step == "result":
            ui.close_result(host)
        elif step == "bid":
            ui.bid(host, prefer="hearts")
        else:
            ui.play(host)
    match_id = host.evaluate("() => window.__belote.state.room.match_id")
    assert httpx.get(f"{live_server.url}/api/matches/{match_id}").status_code == 404
    watcher.wait_for_selector("#room[data-status=finished]")
    ui.close_result(watcher)  # the last deal's result first, as a player
    over = watcher.wait_for_selector("#match-over")
    assert over.query_selector("a[href^='#/m/']") is None, over.inner_html()
    assert over.query_selector("#verdict").inner_text().startswith("Победител: Отбор ")
    assert watcher.query_selector("#sheet table.scoresheet") is not None  # the live one
    host.click("#match-over #match-scoresheet")
    host.wait_for_selector("#match table.scoresheet")
    assert host.evaluate("() => location.hash") == f"#/m/{match_id}"
