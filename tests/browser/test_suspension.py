"""A player the operator suspended (``python -m app.admin suspend``), in a real Chromium: they
stand up at the table, a click on "Sit here" is answered in their language, the table offers
them no seat from then on and says why, and the lobby and the account page say why and until
when (docs/protocol.md §1). The others see only the empty seat."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app import admin
from app.db.engine import make_engine, make_sessionmaker
from app.db.models import utcnow
from app.db.networks import note_statement
from tests.browser import ui
from tests.browser.test_remove import seated_guest
from tests.conftest import Server

pytestmark = pytest.mark.browser

REASON = "Insults in the chat"


def operator(command: Sequence[str], server: Server) -> int:
    """``python -m app.admin`` from a thread of its own: Playwright's sync API holds this
    thread's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(admin.main, command, server.settings).result(timeout=60)


def test_a_suspended_player_is_told_why_and_may_only_watch(
    new_page: Any, live_server: Server
) -> None:
    host, guest = seated_guest(new_page)
    command = ["suspend", ui.player_id(guest), "--reason", REASON]
    assert operator(command, live_server) == 0
    # Within the server's round of news (BELOTE_TOKEN_CHECK_SECONDS, 5 s): a wait, not a race.
    host.wait_for_selector(".seat[data-seat='2'] button.add-bot", timeout=20_000)
    assert REASON not in host.content()
    guest.wait_for_function("() => window.__belote.state.room.seats[2].player === null")
    guest.click(".seat[data-seat='1'] button.sit")
    told = guest.wait_for_selector(".toast.error:has-text('suspended')")
    assert told.inner_text().startswith("The site's operator has suspended you")
    assert guest.evaluate("window.__belote.state.room.seats[1].player") is None
    # From then on the table offers no seat and says why, with a way to read more.
    note = guest.wait_for_selector("#suspended-note")
    assert note.inner_text() == "You are suspended: you can watch this table, not sit at it. Why?"
    assert guest.query_selector("button.sit") is None
    table = guest.url
    guest.goto("/#/")
    notice = guest.wait_for_selector("#suspended")
    text = notice.inner_text()
    assert "You are suspended" in text and REASON in text
    assert "Until the site's operator lifts the suspension." in text
    guest.goto("/#/account")
    assert REASON in guest.wait_for_selector("#suspended").inner_text()
    guest.goto(table)  # a table opened afresh knows it from the start
    guest.wait_for_selector("#suspended-note")
    assert guest.query_selector("button.sit") is None
    host.wait_for_selector(".seat[data-seat='1'] button.sit")  # the others are offered seats
    assert operator(["lift", ui.player_id(guest)], live_server) == 0


def test_a_player_suspended_during_a_match_plays_it_out_but_may_not_write(
    new_page: Any, live_server: Server
) -> None:
    """The match goes on with them (standing them up would break it for the others); their
    first chat line is refused, and the chat box gives way to a note saying why."""
    host, guest = seated_guest(new_page)
    ui.start(host)
    guest.wait_for_selector("#room[data-status=playing]")
    assert operator(["suspend", ui.player_id(guest), "--reason", REASON], live_server) == 0
    # The server hears of it within its round of news (5 s): until then a line is taken.
    deadline = time.monotonic() + 20
    while guest.request.get("/api/players/me", headers=ui.auth(guest)).json()["suspension"] is None:
        assert time.monotonic() < deadline
        guest.wait_for_timeout(100)  # the server's next round: a wait for it, not a race
    guest.fill("#chat-input", "you are all idiots")
    guest.press("#chat-input", "Enter")
    guest.wait_for_selector(".toast.error:has-text('suspended')")
    note = guest.wait_for_selector("#chat-note")
    assert note.inner_text() == "You are suspended: you can read this chat, not write in it."
    assert guest.is_hidden("#chat-form")
    assert guest.evaluate("window.__belote.state.you.seat") == 2  # still playing
    assert operator(["lift", ui.player_id(guest)], live_server) == 0


def test_a_suspended_player_appeals_and_reads_the_operator_s_answer(
    new_page: Any, live_server: Server
) -> None:
    """From the lobby's notice: "Appeal" asks for the words (Escape cancels, an empty appeal is
    not sent), sends them once, and the notice then says the appeal waits; once the operator
    keeps the suspension, the account page says so (docs/protocol.md §1)."""
    _host, guest = seated_guest(new_page)
    assert operator(["suspend", ui.player_id(guest), "--reason", REASON], live_server) == 0
    deadline = time.monotonic() + 20
    while guest.request.get("/api/players/me", headers=ui.auth(guest)).json()["suspension"] is None:
        assert time.monotonic() < deadline
        guest.wait_for_timeout(100)  # the server's next round: a wait for it, not a race
    guest.goto("/#/")
    guest.click("#appeal-open")
    guest.wait_for_selector("#appeal-confirm")
    assert guest.evaluate("document.activeElement.id") == "appeal-text"
    guest.keyboard.press("Tab")  # stays inside the dialog: its buttons, then round again
    assert guest.evaluate("document.activeElement.id") == "appeal-stay"
    guest.keyboard.press("Tab")
    guest.keyboard.press("Tab")
    assert guest.evaluate("document.activeElement.id") == "appeal-text"
    guest.keyboard.press("Escape")  # cancels: nothing sent
    guest.wait_for_selector("#appeal-confirm", state="detached")
    guest.click("#appeal-open")
    guest.click("#appeal-go")  # nothing written: asked for words, not sent
    guest.wait_for_selector(".toast:has-text('Write your appeal first.')")
    guest.fill("#appeal-text", "  I quoted someone else; I insulted nobody. ")
    guest.click("#appeal-go")
    guest.wait_for_selector(".toast:has-text('Your appeal was sent')")
    guest.wait_for_selector("#appeal-confirm", state="detached")
    status = guest.wait_for_selector("#appeal-status")
    assert status.inner_text().endswith(": the site's operator has not answered yet.")
    assert guest.query_selector("#appeal-open") is None  # once per suspension
    with ThreadPoolExecutor(1) as pool:
        (filed,) = pool.submit(asyncio.run, admin.appeals(live_server.settings)).result(60)
    assert filed.appeal.text == "I quoted someone else; I insulted nobody."

    assert operator(["deny-appeal", ui.player_id(guest)], live_server) == 0
    guest.goto("/#/account")
    kept = guest.wait_for_selector("#appeal-status")
    assert kept.inner_text().endswith("and kept the suspension.")
    assert operator(["lift", ui.player_id(guest)], live_server) == 0


def noted_at(server: Server, player_id: str, network: str) -> None:
    """The player was seen using ``network``, written with the statement a node's presence
    round uses: that round (every 30 s) may already have noted this very pair, and a plain
    INSERT then broke the test on the table's unique key (CI, stop 38)."""

    async def note() -> None:
        engine = make_engine(server.settings.database_url)
        try:
            async with make_sessionmaker(engine).begin() as session:
                row = {"player_id": player_id, "network": network, "now": utcnow()}
                await session.execute(note_statement(engine.dialect.name), [row])
        finally:
            await engine.dispose()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, note()).result(timeout=60)


def test_a_new_guest_from_a_barred_network_is_told_why(new_page: Any, live_server: Server) -> None:
    """A suspension with its networks (``--network``): a newcomer from there (here, every page
    comes from 127.0.0.1) is refused a name, told why in their language, and no guest is
    stored in their browser; once lifted, they are made."""
    zed = new_page()
    ui.set_name(zed, "Zed")
    zed_id = ui.player_id(zed)
    noted_at(live_server, zed_id, "127.0.0.1")
    assert operator(["suspend", zed_id, "--reason", REASON, "--network"], live_server) == 0
    try:
        newcomer = new_page(locale="bg-BG")
        newcomer.goto("/")
        newcomer.fill("#name-input", "Зед")
        newcomer.click("#name-form button[type=submit]")
        told = newcomer.wait_for_selector(".toast.error[data-code=network_suspended]")
        assert told.inner_text().startswith("Засега от вашата мрежа не може да се създаде нов")
        assert newcomer.evaluate("localStorage.getItem('belote.player')") is None
    finally:
        assert operator(["lift", zed_id], live_server) == 0
    newcomer.click("#name-form button[type=submit]")
    newcomer.wait_for_function("() => localStorage.getItem('belote.player') !== null")
