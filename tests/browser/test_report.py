"""Reporting a player to the site's operator from the table, in a real Chromium: "Report" beside
each person in the chat's "Mute or report" box asks why and in what words, sends it with the
table's code, and thanks the reporter; Escape cancels. The operator reads it with the player's
last lines in the chat (docs/protocol.md §1)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app import admin
from app.db.reports import FiledReport
from tests.browser import ui
from tests.browser.test_mute import say
from tests.browser.test_remove import seated_guest
from tests.browser.test_suspension import operator
from tests.conftest import Server

pytestmark = pytest.mark.browser


def reports(server: Server) -> list[FiledReport]:
    """What the operator reads, from a thread of its own (Playwright holds this one's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, admin.reports(server.settings, 1)).result(timeout=60)


def test_a_player_reports_another_from_the_table(new_page: Any, live_server: Server) -> None:
    host, guest = seated_guest(new_page)
    say(guest, "you all play like idiots")
    host.wait_for_selector(".chat-text:has-text('idiots')")
    guest_id = ui.player_id(guest)
    host.click("#chat-mute summary")
    report = f".report-player[data-player='{guest_id}']"
    assert host.get_attribute(report, "aria-label") == "Report Guest to the site's operator"
    host.click(report)
    host.wait_for_selector("#report-confirm")
    assert host.evaluate("document.activeElement.id") == "report-chat"  # the first reason
    host.keyboard.press("Tab")  # one step (the room's keys and the dialog's are not both run)
    assert host.evaluate("document.activeElement.id") == "report-text"
    host.keyboard.press("Escape")  # cancels: nothing sent
    host.wait_for_selector("#report-confirm", state="detached")
    host.click(report)
    host.check("#report-play")
    host.fill("#report-text", "  Insults, and throws every trick. ")
    host.click("#report-go")
    thanks = host.wait_for_selector(".toast:has-text('Thank you')")
    assert thanks.inner_text().startswith("Thank you: the site's operator will read your report")
    host.wait_for_selector("#report-confirm", state="detached")
    (filed,) = reports(live_server)
    assert (filed.reported_id, filed.reporter_id) == (guest_id, ui.player_id(host))
    assert (filed.reason, filed.text) == ("play", "Insults, and throws every trick.")
    assert [line["text"] for line in filed.evidence] == ["you all play like idiots"]
    assert filed.room_code == host.evaluate("window.__belote.state.room.code")
    # The guest, the one reported, is told nothing.
    assert guest.query_selector(".toast:has-text('report')") is None


def test_a_reporter_is_told_once_what_came_of_their_reports(
    new_page: Any, live_server: Server
) -> None:
    """The lobby tells each closed report once, in the reader's language ("OK" marks them
    read); the account page lists every report with where it stands."""
    page = new_page(locale="fr-FR")
    ui.set_name(page, "Ann")
    names = ("Rude", "Lout")
    made = [page.request.post("/api/players", data={"name": n}).json()["id"] for n in names]
    for whom, reason in zip(made, ("chat", "name"), strict=True):
        url = f"/api/players/{whom}/reports"
        sent = page.request.post(url, data={"reason": reason}, headers=ui.auth(page))
        assert sent.status == 204, sent.text()
    page.goto("/#/account")
    listed = page.wait_for_selector("#report-list")
    assert [row.get_attribute("data-outcome") for row in listed.query_selector_all("li")] == [
        "open",
        "open",
    ]
    assert "En attente de lecture" in listed.inner_text()
    page.goto("/#/")
    page.wait_for_selector(".lobby[data-me='read']")
    assert page.query_selector("#answered-reports") is None  # nothing closed yet

    assert operator(["suspend", made[0], "--reason", "Abuse"], live_server) == 0
    assert operator(["close", made[1]], live_server) == 0
    page.reload()
    notice = page.wait_for_selector("#answered-reports")
    items = [li.inner_text() for li in notice.query_selector_all("li")]
    assert len(items) == 2
    assert items[0].startswith("L'exploitant a lu votre signalement sur Lout (")
    assert items[0].endswith("et n'a rien trouvé à sanctionner.")
    assert items[1].startswith("L'exploitant a donné suite à votre signalement sur Rude (")
    page.click("#answered-ok")
    page.wait_for_selector("#answered-reports", state="detached")
    me = page.request.get("/api/players/me", headers=ui.auth(page)).json()
    assert me["answered_reports"] == []  # the click was answered before the notice went
    page.reload()
    page.wait_for_selector(".lobby[data-me='read']")
    assert page.query_selector("#answered-reports") is None  # told once
    page.goto("/#/account")
    states = page.wait_for_selector("#report-list .report-state.upheld")
    assert states.inner_text() == "Suite donnée"
    text = page.inner_text("#your-reports")
    assert "Classé sans suite" in text and "Vos signalements" in text
