"""Accounts, ratings and quick play in a real Chromium (issue 13).

Four browser contexts play a rated match to a target of 1, so that the first deal that scores
ends it. Rated play is for accounts (docs/protocol.md §8.2): a guest's lobby offers it disabled,
with a link to make an account; one of the four makes hers through the account page, the others
through the API, and she later logs in from a fresh context, which finds the match and the
ratings there. Two more contexts press "Play now" for the same game and land at one table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

DESKTOP_SHOT = {"width": 1366, "height": 768}
PASSWORD = "a long enough secret"

TURN = """() => {
  const deal = window.__belote && window.__belote.state.deal;
  const room = document.querySelector('#room');
  if (room && room.dataset.status === 'finished') return {finished: true};
  return deal && deal.phase !== 'finished' && deal.turn !== null ? {seat: deal.turn} : null;
}"""


def row_of(preset: str) -> str:
    """The profile's row of a preset's rating."""
    return f".ratings-table tr[data-preset={preset}]"


def player_of(page: Any) -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(
        page.evaluate("() => localStorage.getItem('belote.player')")
    )
    return stored


def act(page: Any) -> None:
    """One move for the player to act: open the bidding (or pass once it is open), or play."""
    page.wait_for_selector("#room[data-my-turn=true]")
    if page.query_selector("#result-panel"):
        ui.close_result(page)
    if page.get_attribute("#room", "data-phase") == "bidding":
        opened = page.evaluate("() => window.__belote.state.deal.bids.some(b => b.bid !== 'pass')")
        before = ui.version(page)
        selector = "#bid-panel button[data-bid=pass]" if opened else "#bid-panel button:not(.pass)"
        page.click(selector)
        ui.wait_changed(page, before)
    else:
        ui.play(page)


def play_rated_match(pages: list[Any]) -> str:
    """Seat the four pages' players (accounts) in a rated room to 1 point, play it out; the
    match id."""
    host = pages[0]
    host.goto("/")
    host.wait_for_selector("#create-form")
    host.check("#rated")
    code = ui.create_room(host, target=1, timer=120)  # a rated room has a turn timer
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(f"/#/r/{code}")
        page.wait_for_selector("#room[data-status=waiting]")
        page.click(f".seat[data-seat='{seat}'] button.sit")
        page.wait_for_function(
            "seat => document.querySelector(`.seat[data-seat='${seat}'] button.sit`) === null",
            arg=seat,
        )
    ui.start(host)
    while True:
        turn = host.wait_for_function(TURN).json_value()
        if turn.get("finished"):
            break
        page = pages[turn["seat"]]
        act(page)
        for other in pages:
            ui.wait_caught_up(page, other)
    match_id = str(host.evaluate("() => window.__belote.state.room.match_id"))
    return match_id


def expected_ratings(winner: int) -> list[Any]:
    """What OpenSkill makes of a first match between two fresh teams (seat s is in team s % 2)."""
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    return [team[0] for team in model.rate(teams, ranks=[0 if t == winner else 1 for t in (0, 1)])]


def test_a_rated_match_then_an_account_used_from_a_second_browser(
    new_page: Any, artifacts: Path
) -> None:
    pages = [new_page() for _ in range(4)]
    for page, name in zip(pages, ("Ana", "Boris", "Cveta", "Dimo"), strict=True):
        ui.set_name(page, name)
    ana = pages[0]
    # A guest is not offered rated play, nor a table kept for accounts: the boxes are
    # disabled and a note links to the account page.
    ana.wait_for_selector("#qp-form")
    for box in ("#rated", "#accounts-only", "#qp-rated"):
        assert ana.is_disabled(box)
    assert len(ana.query_selector_all(".account-note a[href='#/account']")) == 2
    # Ana makes her account on that page; the others through the API.
    ana.click(".account-note a")
    # The login form says what to do about a lost password (no e-mail is on file).
    assert "operator can give you a new one" in ana.inner_text("#login-form .lost-password")
    ana.fill("#claim-form-username", "ana_k")
    ana.fill("#claim-form-password", PASSWORD)
    ana.click("#claim-form button[type=submit]")
    ana.wait_for_selector("#signed-in-as")
    assert "ana_k" in ana.inner_text("#signed-in-as")
    # With no open table yet, its panel is left out, not written as the word "null" (it was).
    ana.wait_for_selector("#sessions .session-row")
    assert "null" not in ana.inner_text("#app")
    ana_id = player_of(ana)["id"]
    for page, name in zip(pages[1:], ("boris", "cveta", "dimo"), strict=True):
        ui.sign_up(page, name, PASSWORD)
    match_id = play_rated_match(pages)
    match = ana.request.get(f"/api/matches/{match_id}", headers=ui.auth(ana)).json()
    winner = match["winner"]
    expected = expected_ratings(winner)

    # Each player's profile shows the rating OpenSkill computed for their team, and where the
    # leaderboard places them: the winners above the losers, all of the same board.
    ranks: dict[bool, list[int]] = {True: [], False: []}
    boards = set()
    for seat, page in enumerate(pages):
        me = player_of(page)
        page.goto(f"/#/p/{me['id']}")
        row = page.wait_for_selector(row_of("bulgarian"))
        assert float(row.get_attribute("data-mu")) == round(expected[seat % 2].mu, 2)
        assert float(row.get_attribute("data-sigma")) == round(expected[seat % 2].sigma, 2)
        shown = page.inner_text(f"{row_of('bulgarian')} .rating-value")
        assert shown == f"{round(expected[seat % 2].ordinal() * 10) / 10:.1f}"
        page.wait_for_selector("#rating-chart path.line[data-preset=bulgarian]")
        won = seat % 2 == winner
        assert page.inner_text("#stat-win-rate") == ("100 %" if won else "0 %")
        rank, of, ranked = page.inner_text(f"{row_of('bulgarian')} .rating-rank").split()
        assert of == "of"
        ranks[won].append(int(rank))
        boards.add(int(ranked))
    assert max(ranks[True]) < min(ranks[False]) and len(boards) == 1, (ranks, boards)
    ana.screenshot(path=str(artifacts / "profile-en.png"), full_page=True)

    # Ana's history has the match. She starts a game against bots and leaves it running ...
    ana.goto("/#/history")
    ana.wait_for_selector(f"tr[data-match='{match_id}']")
    ana.goto("/")
    table = ui.create_room(ana, bots=(1, 2, 3), timer=60)
    ui.start(ana)

    # ... and logs in from another browser (a phone): her history and rating are there.
    phone = new_page(viewport=PHONE)
    phone.goto("/#/account")
    phone.fill("#login-form-username", "ANA_K")
    phone.fill("#login-form-password", PASSWORD)
    phone.click("#login-form button[type=submit]")
    phone.wait_for_selector("#signed-in-as")
    assert player_of(phone)["id"] == ana_id
    phone.wait_for_selector("#sessions .session-row[data-current=true]")
    assert len(phone.query_selector_all("#sessions .session-row")) == 2
    phone.wait_for_selector(f"#open-tables li[data-code='{table}']")
    phone.screenshot(path=str(artifacts / "account-phone-en.png"), full_page=True)
    # Her open game is there too: the phone goes back to it, in her seat.
    phone.click(f"#open-tables li[data-code='{table}'] a")
    phone.wait_for_selector("#room[data-status=playing]")
    you = phone.evaluate("() => window.__belote.state.you")
    assert you == {"player_id": ana_id, "seat": 0}
    phone.click("#nav-history")
    phone.click("#leave-go")  # leaving a match in progress asks first
    phone.wait_for_selector(f"tr[data-match='{match_id}']")
    phone.click("#my-profile")
    phone.wait_for_selector(row_of("bulgarian"))
    assert phone.inner_text("#profile-name") == "Ana (ana_k)"
    phone.screenshot(path=str(artifacts / "profile-phone-en.png"), full_page=True)

    # The leaderboard lists all four, the winners first, in each language.
    board = new_page(viewport=DESKTOP_SHOT)
    for lang in ("en", "fr", "bg"):
        board.goto("/")
        board.select_option("#lang", lang)
        board.goto("/#/ratings/bulgarian")
        board.wait_for_selector(".leaderboard-table tbody tr")
        rows = board.query_selector_all(".leaderboard-table tbody tr")
        assert len(rows) == 4
        board.screenshot(path=str(artifacts / f"leaderboard-{lang}.png"), full_page=True)
    top = rows[0].get_attribute("data-player")
    assert top in {player_of(p)["id"] for i, p in enumerate(pages) if i % 2 == winner}

    # Signing out on the phone ends that session: the first browser's list shrinks to one.
    phone.click("#nav-account")
    phone.click("#logout")
    phone.wait_for_selector("#name-input")
    ana.goto("/#/account")
    ana.wait_for_selector("#sessions .session-row")
    assert len(ana.query_selector_all("#sessions .session-row")) == 1
    for lang in ("en", "fr", "bg"):
        ana.select_option("#lang", lang)
        ana.wait_for_selector("#sessions .session-row")
        ana.set_viewport_size(DESKTOP_SHOT)
        ana.screenshot(path=str(artifacts / f"account-{lang}.png"), full_page=True)
        ana.goto(f"/#/p/{ana_id}")
        ana.wait_for_selector("#rating-chart")
        ana.screenshot(path=str(artifacts / f"profile-{lang}.png"), full_page=True)
        ana.goto("/#/account")
    ana.select_option("#lang", "en")


def test_two_browsers_pressing_play_now_land_at_one_table(new_page: Any, artifacts: Path) -> None:
    first, second = new_page(viewport=DESKTOP_SHOT), new_page(viewport=PHONE)
    ui.set_name(first, "Quick1")
    ui.set_name(second, "Quick2")
    for page in (first, second):
        page.wait_for_selector("#play-now")
        page.select_option("#qp-preset", "french")
        page.select_option("#qp-wait", "15")
    first.click("#play-now")
    first.wait_for_selector("#quickplay[data-state=waiting]")
    first.screenshot(path=str(artifacts / "quickplay-waiting-en.png"), full_page=True)
    second.click("#play-now")
    # Nobody else comes: when the first one's 15 s are over, bots fill the two other seats.
    for page in (first, second):
        page.wait_for_selector("#room[data-status=playing]", timeout=60_000)
    code = first.get_attribute("#room", "data-code")
    assert code == second.get_attribute("#room", "data-code")
    room = first.request.get(f"/api/rooms/{code}").json()["room"]
    people = {s["player"]["id"] for s in room["seats"] if s["player"]}
    assert people == {player_of(first)["id"], player_of(second)["id"]}
    assert [s["bot"] for s in room["seats"]].count(True) == 2
    assert room["rules"]["preset"] == "french" and room["rated"] is False
    second.screenshot(path=str(artifacts / "quickplay-table-phone.png"))
    # Back in the lobby, the answered request does not send the player to the table again.
    first.goto("/")
    first.wait_for_selector("#quickplay[data-state=idle]")
    for lang in ("fr", "bg"):
        first.select_option("#lang", lang)
        first.wait_for_selector("#play-now")
        first.screenshot(path=str(artifacts / f"lobby-quickplay-{lang}.png"), full_page=True)
