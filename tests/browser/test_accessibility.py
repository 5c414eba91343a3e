"""Every page of the client checked by axe-core (the engine browsers' own audits use), in the
light colours and the dark: no violation of any impact — a form control without a name, a
heading missing, an empty table header, text too faint for its background. Where the pages'
own tests check what a screen reader is told of the table (test_ui_audit.py) and the colours'
contrast by hand (test_contrast.py), this one walks them all with the rules of WCAG 2.x."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_mute import say
from tests.browser.test_remove import seated_guest
from tests.conftest import Server

pytestmark = pytest.mark.browser

AXE = Axe()


def violations(page: Any, where: str) -> list[str]:
    """What axe finds wrong on the page as it stands: a line per rule, with its impact and the
    first elements it was found on."""
    ui.settle(page)
    found = AXE.run(page).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) on {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe(new_page: Any, scheme: str) -> None:
    page = new_page(color_scheme=scheme, locale="fr-FR" if scheme == "dark" else "en-US")
    ui.set_name(page, "Ann")
    found = violations(page, "lobby")
    ui.create_room(page, bots=(1, 2, 3), target=1)
    found += violations(page, "waiting room")
    ui.start(page)
    while (step := ui.wait_next(page)) != "finished":
        if step == "result":
            found += violations(page, "deal result")
            ui.close_result(page)
        elif step == "bid":
            found += violations(page, "bidding")
            ui.bid(page, prefer="hearts")
        else:
            found += violations(page, "playing")
            ui.play(page)
    found += violations(page, "match over")
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    me = ui.player_id(page)
    pages = {
        "history": ("/#/history", "#history table"),
        "match": (f"/#/m/{match_id}", "#match table.scoresheet"),
        "replay": (f"/#/m/{match_id}/d/1", "#replay-step"),
        "profile": (f"/#/p/{me}", "#profile-name"),
        "leaderboard": ("/#/ratings/bulgarian", "#leaderboard h2"),
        "rules": ("/#/rules/french", "#rules-scoring"),
        "account": ("/#/account", "#account form"),
        "tournaments": ("/#/tournaments", "#tournament-form #tn-create"),
    }
    for name, (address, drawn) in pages.items():
        page.goto(address)
        page.wait_for_selector(drawn)
        found += violations(page, name)
    page.fill("#tn-name", "Friday cup")
    page.click("#tn-create")
    page.wait_for_selector("#tournament #tn-entrants")
    found += violations(page, "a tournament")
    assert not found, "\n".join(found)


def test_the_phone_s_table_passes_axe(new_page: Any) -> None:
    page = new_page(viewport=PHONE, locale="bg-BG")
    ui.set_name(page, "Мила")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    found: list[str] = []
    for _ in range(3):
        step = ui.wait_next(page)
        found += violations(page, f"phone {step}")
        if step == "bid":
            ui.bid(page, prefer="hearts")
        elif step == "play":
            ui.play(page)
        else:
            break
    assert not found, "\n".join(found)


def test_the_table_s_dialogs_and_panels_pass_axe(new_page: Any) -> None:
    """What opens over the table or beside it: the host's settings, the chat's mute-and-report
    box and the report dialog, "Remove" asked first, the invitation to friends, and during the
    match the dialogs that ask before conceding and before leaving."""
    host, guest = seated_guest(new_page, locale="fr-FR")
    found: list[str] = []
    say(guest, "bonjour")
    host.wait_for_selector(".chat-text:has-text('bonjour')")
    host.click("#chat-mute summary")
    found += violations(host, "mute box")
    for opener, dialog in (
        (f".report-player[data-player='{ui.player_id(guest)}']", "#report-confirm"),
        (".seat[data-seat='2'] button.remove-player", "#remove-confirm"),
        ("#room-settings", "#settings-dialog"),
    ):
        host.click(opener)
        host.wait_for_selector(dialog)
        found += violations(host, dialog)
        host.keyboard.press("Escape")  # each closes so, having changed nothing
        host.wait_for_selector(dialog, state="detached")
    host.click("#invite-friends summary")
    host.wait_for_selector("#invite-friends-list li")
    found += violations(host, "invite friends")
    host.check("#fill-bots")
    ui.start(host)
    guest.wait_for_selector("#room[data-status=playing]")
    for button, kind in (("#concede", "concede"), ("#leave-match", "leave")):
        guest.click(button)
        guest.wait_for_selector(f"#exit-confirm[data-kind={kind}]")
        found += violations(guest, f"{kind} dialog")
        guest.click("#exit-stay")
        guest.wait_for_selector("#exit-confirm", state="detached")
    assert not found, "\n".join(found)


def test_waiting_for_quick_play_and_watching_by_a_link_pass_axe(
    new_page: Any, live_server: Server
) -> None:
    found: list[str] = []
    ann = new_page(locale="bg-BG")
    ui.set_name(ann, "Ана")
    ann.select_option("#qp-wait", "60")
    ann.click("#play-now")
    ann.wait_for_selector("#quickplay[data-state=waiting] #qp-status")
    found += violations(ann, "quick play, waiting")
    ann.goto("/")  # leaves the queue's page: a table of her own to be watched
    code = ui.create_room(ann, bots=(1, 2, 3))
    ui.start(ann)
    watch = httpx.get(f"{live_server.url}/api/rooms/{code}").json()["room"]["watch_code"]
    watcher = new_page(color_scheme="dark")
    ui.set_name(watcher, "Zed")
    watcher.goto(f"/#/r/{watch}")
    watcher.wait_for_selector("#room[data-status=playing] .seat .backs")
    found += violations(watcher, "watching by the link")
    assert not found, "\n".join(found)
