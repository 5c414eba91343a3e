"""Leaving a match and conceding it, in a real Chromium (issue 11, "What players expect"): a
player who leaves gets a stand-in bot at once and keeps the seat; a team concedes only when the
partner at the table agrees, and the table, the scoresheet and the history say "conceded"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


def partners(new_page: Any) -> tuple[Any, Any]:
    """The host (seat 0) and a guest across the table (seat 2), bots in 1 and 3; playing."""
    host = ui.host_waiting_room(new_page)
    guest = new_page()
    ui.join_by_link(guest, host, "Guest")
    guest.click(".seat[data-seat='2'] button.sit")
    host.wait_for_selector(".seat[data-seat='2'] .seat-name:has-text('Guest')")
    host.check("#fill-bots")
    ui.start(host)
    guest.wait_for_selector("#room[data-status=playing]")
    return host, guest


def conceded_partners(new_page: Any) -> tuple[Any, Any]:
    """``partners``, their match over: the quickest end of one is the team conceding it."""
    host, guest = partners(new_page)
    for page in (host, guest):
        page.click("#concede")
        page.click("#exit-go")
    for page in (host, guest):
        page.wait_for_selector("#room[data-status=finished]")
    return host, guest


def test_a_team_concedes_when_both_partners_agree(new_page: Any) -> None:
    host, guest = partners(new_page)
    host.click("#concede")
    host.wait_for_selector("#exit-confirm[data-kind=concede]")
    host.click("#exit-stay")  # asked first: staying changes nothing
    host.wait_for_selector("#exit-confirm", state="detached")
    host.click("#concede")
    host.click("#exit-go")
    host.wait_for_selector("#concede-note:has-text('waiting for your partner')")
    note = guest.wait_for_selector("#concede-note")
    assert "Host offers to concede" in note.inner_text()
    assert guest.query_selector("#room[data-status=playing]") is not None  # not alone
    guest.click("#concede")
    guest.click("#exit-go")
    for page in (host, guest):
        page.wait_for_selector("#room[data-status=finished]")
        assert page.inner_text("#conceded") == "Your team conceded the match."
        assert "You lost" in page.inner_text("#verdict")
        # The deal it was conceded in is over unplayed: no hand, no turn, no bids left shown
        # (as after a reload: the server keeps its cards secret).
        assert page.get_attribute("#room", "data-phase") == "none"
        assert page.query_selector("#hand") is None and page.query_selector(".seat .backs") is None
        assert page.get_attribute("#room", "data-my-turn") == "false"
    match_id = host.evaluate("() => window.__belote.state.room.match_id")
    host.click("#match-over a[href^='#/m/']")
    sheet = host.wait_for_selector("#match #sheet-conceded")
    assert "conceded" in sheet.inner_text()
    host.click("#nav-history")
    row = host.wait_for_selector(f"#history tr[data-match='{match_id}']")
    assert "lost · conceded" in row.inner_text()


def test_a_player_who_leaves_the_match_gets_a_stand_in_and_may_come_back(new_page: Any) -> None:
    host, guest = partners(new_page)
    code = guest.get_attribute("#room", "data-code")
    guest.click("#leave-match")
    guest.wait_for_selector("#exit-confirm[data-kind=leave]")
    guest.click("#exit-go")
    guest.wait_for_selector("#create-form")  # back in the lobby
    host.wait_for_selector(".seat[data-seat='2'] .badge:has-text('a bot plays for now')")
    row = guest.wait_for_selector(f"#my-rooms .room-row[data-code='{code}']")
    row.query_selector("a.return").click()  # the seat is still the guest's
    guest.wait_for_selector(f"#room[data-code='{code}'][data-status=playing]")
    host.wait_for_function(
        "() => !window.__belote.state.room.seats[2].standin"
        " && window.__belote.state.room.seats[2].connected"
    )


def test_after_a_match_players_change_seats_for_the_rematch(new_page: Any) -> None:
    """Between matches the seats are open as before the first: the guest moves to play against
    the host (a bot taken away makes room), a newcomer sits down, and the rematch is played so."""
    host, guest = conceded_partners(new_page)
    host.click(".seat[data-seat='1'] button.remove-bot")
    guest.click(".seat[data-seat='1'] button.sit")
    host.wait_for_selector(".seat[data-seat='1'] .seat-name:has-text('Guest')")
    guest.wait_for_function("() => window.__belote.state.you.seat === 1")  # its new seat's view
    # The match over is still judged from the seat the guest played it in, not the new one
    # (on the other team now): their team conceded and lost it.
    assert guest.inner_text("#verdict") == "You lost the match."
    assert guest.inner_text("#conceded") == "Your team conceded the match."
    # A newcomer takes the seat the guest left: the match they did not play is told them as to
    # a watcher, by the teams that played it, not as their own loss.
    newcomer = new_page()
    ui.set_name(newcomer, "Newcomer")
    newcomer.goto(host.input_value("#invite-link"))
    newcomer.click("#room[data-status=finished] .seat[data-seat='2'] button.sit")
    newcomer.wait_for_function("() => window.__belote.state.you.seat === 2")
    assert newcomer.inner_text("#verdict") == "Winner: Team 2 (Bot 2 & Bot 4)"
    assert newcomer.inner_text("#conceded") == "Team 1 (Host & Guest) conceded the match."
    for page in (host, guest, newcomer):
        page.click("#rematch")
    for page in (host, guest, newcomer):
        page.wait_for_selector("#room[data-status=playing]")
    seats = host.evaluate("() => window.__belote.state.room.seats.map((s) => s.player?.name)")
    assert seats == ["Host", "Guest", "Newcomer", None]  # seat 3's bot plays on
