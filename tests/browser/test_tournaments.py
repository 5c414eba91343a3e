"""A knockout tournament in a real Chromium (static/js/tournaments.js, docs/protocol.md §9): made
from the tournaments page, entered by a second player from its address, started by its host;
each player's page then offers the way to their own table, a conceded final names the champion
on both pages, in each reader's language. A host calls another off only once asked. The
bracket of a field with byes fits the narrowest phone and keeps to WCAG AA."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.browser.test_contrast import low_contrast
from tests.browser.test_leaderboard_rank import run
from tests.browser.test_phone_width import SIDEWAYS
from tests.conftest import Server

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}


def make(
    page: Any,
    name: str,
    preset: str,
    size: int,
    target: int | None = None,
    ticked: str = "",
    swiss_rounds: int | None = None,
) -> str:
    """Make a tournament from the tournaments page (``ticked``: a house rule to tick;
    ``swiss_rounds``: a Swiss one of so many rounds); its address once it shows."""
    page.goto("/#/tournaments")
    page.fill("#tn-name", name)
    if swiss_rounds is not None:
        page.select_option("#tn-format", "swiss")
        page.select_option("#tn-rounds", str(swiss_rounds))
    page.select_option("#tn-preset", preset)
    page.select_option("#tn-size", str(size))
    if target is not None:
        page.fill("#tn-target", str(target))
    if ticked:
        page.click("#tournament-form details summary")
        page.check(f"#tn-hr-{ticked}")
    page.click("#tn-create")
    page.wait_for_selector("#tournament[data-status=registering] #tn-entrants")
    return str(page.url)


def entrants(page: Any, n: int) -> None:
    """Wait until the page lists ``n`` entrants (it asks the server every few seconds)."""
    page.wait_for_function("n => document.querySelectorAll('#tn-entrants li').length === n", arg=n)


def test_a_tournament_from_its_making_to_its_champion(new_page: Any, artifacts: Path) -> None:
    ann = new_page()
    ui.set_name(ann, "Ann")
    address = make(ann, "Friday cup", "bulgarian2", 4, target=51, ticked="kirtik")
    assert ann.inner_text("#tn-title") == "Friday cup"
    facts = ann.inner_text(".tn-facts")
    assert "Target score 51" in facts and "Kirtik" in facts, facts  # the game every table plays
    assert ann.query_selector("#tn-enter") is None  # the host is entered already
    bob = new_page(locale="fr-FR")
    ui.set_name(bob, "Bob")
    bob.goto(address)
    bob.click("#tn-enter")
    entrants(bob, 2)
    assert bob.inner_text("#tn-withdraw") == "Se désinscrire"
    assert bob.query_selector("#tn-start") is None  # the host's alone
    entrants(ann, 2)
    ann.screenshot(path=str(artifacts / "tournament-registering-en.png"), full_page=True)
    ann.click("#tn-start")
    ann.wait_for_selector("#tournament[data-status=playing] #tn-bracket")
    assert ann.inner_text(".tn-round h3") == "Final"
    final = ann.inner_text(".tn-match")
    assert "Ann" in final and "Bob" in final
    ann.goto("/#/")  # elsewhere on the site, the bar above the page says where to go
    told = ann.wait_for_selector("#invitations .tournament-table")
    assert told.inner_text().startswith("Your match in Friday cup is on (Belot for two)")
    ann.click("#invitations .tournament-table a")
    ann.wait_for_selector("#room[data-status=playing]")
    ann.wait_for_selector("#invitations", state="hidden")  # not at the table it names
    read = ann.get_attribute("#invitations", "data-read")
    ann.goto(address)
    ann.wait_for_function(
        "r => document.querySelector('#invitations').dataset.read !== r", arg=read
    )
    assert ann.is_hidden("#invitations")  # nor on its tournament's page, which has its own
    # The tab calls her all the same, there too: she may wait on that page in another tab.
    assert ann.title() == "● Your match is on — Belote"
    bob.wait_for_selector("#tn-go")  # Bob's page hears of it on its next question
    assert bob.inner_text(".tn-round h3") == "Finale"
    bob.screenshot(path=str(artifacts / "tournament-playing-fr.png"), full_page=True)
    bob.click("#tn-go")
    bob.wait_for_selector("#room[data-status=playing]")
    assert bob.inner_text("#room-tournament") == "Tournoi : Friday cup"  # the way back
    room = bob.evaluate("() => window.__belote.state.room")
    assert (room["target"], room["rules"]["house_rules"]) == (51, {"kirtik": True})
    # Anyone may watch the final from the bracket, by its watch link: no hand, no seat, no
    # chat, and never the table's code.
    cy = new_page(locale="bg-BG")
    ui.set_name(cy, "Cy")
    cy.goto(address)
    watch = cy.wait_for_selector(".tn-match .tn-watch")
    assert watch.get_attribute("aria-label") in ("Гледай Ann срещу Bob", "Гледай Bob срещу Ann")
    watch.click()
    cy.wait_for_selector("#room[data-status=playing]")
    assert cy.get_attribute("#room", "data-code") == room["watch_code"] != room["code"]
    assert cy.inner_text("#room-tournament") == "Турнир: Friday cup"
    assert cy.query_selector_all("#hand .card") == [] and cy.is_hidden("#chat-form")
    assert room["code"] not in cy.content()
    assert ann.query_selector(".tn-watch") is None  # not offered at one's own table
    bob.click("#concede")
    bob.click("#exit-go")
    bob.wait_for_selector("#room[data-status=finished]")
    cy.wait_for_selector("#room[data-status=finished]")  # the watcher saw it end
    assert cy.inner_text("#match-over #back-to-tournament") == "Обратно към турнира"
    assert room["code"] not in cy.content()
    champion = ann.wait_for_selector("#tn-champion")
    assert champion.inner_text() == "Winner of the tournament: Ann"
    ann.wait_for_selector(".tn-match li.won .tn-score")
    assert ann.inner_text(".tn-match .tn-state") == "Bob conceded the match."
    ann.screenshot(path=str(artifacts / "tournament-finished-en.png"), full_page=True)
    assert bob.query_selector("#match-over #rematch") is None  # one match a table
    bob.click("#match-over #back-to-tournament")
    assert bob.wait_for_selector("#tn-champion").inner_text() == "Vainqueur du tournoi : Ann"
    assert bob.query_selector("#tn-go") is None
    # The watcher, who played no match, reads the decided table's match from the bracket: the
    # match page, without the table's code.
    cy.click("#match-over #back-to-tournament")
    sheet = cy.wait_for_selector(".tn-match .tn-scoresheet")
    cy.screenshot(path=str(artifacts / "tournament-finished-watcher-bg.png"), full_page=True)
    label = sheet.get_attribute("aria-label")
    assert label in ("Резултати от Ann срещу Bob", "Резултати от Bob срещу Ann")
    sheet.click()
    cy.wait_for_selector("#match h2")
    # Bob conceded during the first deal: it was never played out (not "in progress").
    assert cy.inner_text("#match .deal-list li") == "Раздаване 1 · не е доиграно"
    cy.screenshot(path=str(artifacts / "tournament-match-watcher-bg.png"), full_page=True)
    assert cy.query_selector("#match #download-match") is not None
    assert room["code"] not in cy.content()
    ann.goto("/#/tournaments")
    row = ann.wait_for_selector(
        f"#tournament-list tr[data-tournament='{address.rsplit('/', 1)[1]}']"
    )
    assert row.get_attribute("data-status") == "finished" and "over" in row.inner_text()
    ann.screenshot(path=str(artifacts / "tournaments-en.png"), full_page=True)


def test_the_host_calls_a_tournament_off_only_once_asked(new_page: Any) -> None:
    page = new_page(locale="bg-BG")
    ui.set_name(page, "Ана")
    make(page, "Неделя", "bulgarian", 8)
    page.click("#tn-cancel")
    page.wait_for_selector("#tn-cancel-confirm")
    assert page.evaluate("document.activeElement.id") == "tn-cancel-stay"
    page.keyboard.press("Escape")  # keeps it
    page.wait_for_selector("#tn-cancel-confirm", state="detached")
    assert page.get_attribute("#tournament", "data-status") == "registering"
    page.click("#tn-cancel")
    page.click("#tn-cancel-go")
    page.wait_for_selector("#tournament[data-status=cancelled]")
    assert page.inner_text("#tournament").count("Организаторът отмени този турнир.") == 1


@pytest.mark.parametrize(("swiss_rounds", "scheme"), [(None, "light"), (4, "dark")])
def test_a_full_bracket_fits_the_narrowest_phone_and_reads_well(
    new_page: Any, artifacts: Path, swiss_rounds: int | None, scheme: str
) -> None:
    """Five entrants of a game for two: a knockout's bracket of eight, three byes, three
    rounds; or a Swiss tournament's standings and four rounds — on a 320 px phone in
    Bulgarian, the longest words, it does not scroll sideways (nor do the standings in their
    box: their numbers' columns left a name a letter wide, "Ивано / ва-Петро / ва"), and every
    text keeps to WCAG AA (the Swiss one on a phone set to dark: in the dark colours)."""
    host = new_page(
        viewport=NARROW, locale="bg-BG", has_touch=True, is_mobile=True, color_scheme=scheme
    )
    ui.set_name(host, "Бартоломей Бартоломеев")
    address = make(
        host, "Голямата купа на петъчната вечер", "open_belot", 8, swiss_rounds=swiss_rounds
    )
    for name in ("Ивана Иванова-Петрова", "Cy", "Dee", "Eve"):
        other = new_page()
        ui.set_name(other, name)
        other.goto(address)
        other.click("#tn-enter")
        other.wait_for_selector("#tn-withdraw")  # entered
    entrants(host, 5)
    assert host.evaluate(SIDEWAYS) <= 0
    assert low_contrast(host) == []
    host.click("#tn-start")
    host.wait_for_selector("#tournament[data-status=playing] #tn-bracket")
    rounds = host.eval_on_selector_all(".tn-round h3", "hs => hs.map(h => h.textContent)")
    if swiss_rounds is None:
        assert rounds == ["Четвъртфинали", "Полуфинали", "Финал"]
        assert host.locator(".tn-match").count() == 4 + 1  # round 1, the semi-final of two byes
    else:
        assert rounds == ["Кръг 1", "Кръг 2", "Кръг 3", "Кръг 4"]
        assert host.locator(".tn-match").count() == 3  # two tables and a bye
        assert host.locator("#tn-standings tbody tr").count() == 5
        inside = "() => { const box = document.querySelector('#tn-standings').parentElement;"
        assert host.evaluate(f"{inside} return box.scrollWidth - box.clientWidth; }}") <= 0
    assert host.evaluate(SIDEWAYS) <= 0
    assert low_contrast(host) == []
    kind = "bracket" if swiss_rounds is None else "swiss"
    host.screenshot(
        path=str(artifacts / f"tournament-{kind}-phone-bg-{scheme}.png"), full_page=True
    )


def test_one_who_follows_the_address_without_a_name_chooses_one_there_and_enters(
    new_page: Any, artifacts: Path
) -> None:
    host = new_page()
    ui.set_name(host, "Ann")
    address = make(host, "Friday cup", "french", 8)
    visitor = new_page(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    visitor.goto(address)
    visitor.wait_for_selector("#tournament[data-status=registering] #name-form")
    assert visitor.evaluate(SIDEWAYS) <= 0
    visitor.screenshot(path=str(artifacts / "tournament-visitor-phone-fr.png"), full_page=True)
    assert visitor.query_selector("#tn-enter") is None  # a name first
    visitor.fill("#name-input", "Cy")
    visitor.click("#name-form button[type=submit]")
    visitor.click("#tn-enter")
    visitor.wait_for_selector("#tn-withdraw")
    names = visitor.eval_on_selector_all(
        "#tn-entrants .tn-name", "ls => ls.map(l => l.textContent)"
    )
    assert names == ["Ann", "Cy"]
    # A game of partners: beside Ann, the step to ask her (the visitor's page, in French).
    assert visitor.inner_text("#tn-entrants li .tn-partner") == "Jouer ensemble"
    visitor.goto("/#/tournaments")  # named now: the form to make one, without a name form
    visitor.wait_for_selector("#tournament-form #tn-create")
    assert visitor.query_selector("#tournament-new #name-form") is None


def concede_where_a_table_is_on(pages: list[Any], address: str) -> None:
    """The first of ``pages`` whose reader's match is on goes to its table and gives it up,
    then comes back to the tournament."""
    for page in pages:
        page.goto(address)
        page.wait_for_selector("#tournament[data-status=playing] #tn-yours")
        if page.query_selector("#tn-go") is None:
            continue
        page.click("#tn-go")
        page.wait_for_selector("#room[data-status=playing]")
        page.click("#concede")
        page.click("#exit-go")
        page.wait_for_selector("#room[data-status=finished]")
        page.goto(address)
        return
    raise AssertionError("nobody's match is on")


def test_a_swiss_tournament_shows_its_standings_and_names_the_top_one(
    new_page: Any, artifacts: Path
) -> None:
    """Three players, two rounds: one rests each round (a win), the others play; the standings
    (wins, the opponents' wins, the points) stand above the rounds, and after the second round
    the top of them is the champion."""
    ann = new_page()
    ui.set_name(ann, "Ann")
    address = make(ann, "Swiss evening", "bulgarian2", 4, swiss_rounds=2)
    facts = ann.inner_text(".tn-facts")
    assert "Swiss, 2 rounds" in facts, facts
    pages = [ann]
    for name, locale in (("Bob", "fr-FR"), ("Cy", "bg-BG")):
        other = new_page(locale=locale)
        ui.set_name(other, name)
        other.goto(address)
        other.click("#tn-enter")
        other.wait_for_selector("#tn-withdraw")
        pages.append(other)
    entrants(ann, 3)
    ann.click("#tn-start")
    ann.wait_for_selector("#tournament[data-status=playing] #tn-bracket")
    assert ann.inner_text(".tn-round h3") == "Round 1"
    assert "Rests this round: counted as a win" in ann.inner_text(".tn-round")
    concede_where_a_table_is_on(pages, address)
    ann.goto(address)
    # The second round is made, and its table opened (a moment after its matches are stored).
    ann.wait_for_function(
        """() => [...document.querySelectorAll(".tn-round[data-round='1'] .tn-match")]
              .some((m) => m.textContent.includes('Being played'))"""
    )
    rows = ann.locator("#tn-standings tbody tr")
    assert rows.count() == 3
    wins = ann.eval_on_selector_all(
        "#tn-standings tbody tr", "rs => rs.map(r => r.children[2].textContent)"
    )
    # The first round's winner and the one who rested, and the loser, who rests in the second
    # (a bye is a win as soon as it is drawn).
    assert wins == ["1", "1", "1"]
    assert "Rests this round" in ann.inner_text(".tn-round[data-round='1']")
    ann.screenshot(path=str(artifacts / "tournament-swiss-en.png"), full_page=True)
    concede_where_a_table_is_on(pages, address)
    champion = ann.wait_for_selector("#tn-champion")
    top = ann.inner_text("#tn-standings tbody tr:first-child .tn-unit")
    assert champion.inner_text() == f"Winner of the tournament: {top}"
    bob = pages[1]
    bob.goto(address)
    bob.wait_for_selector("#tn-champion")
    heads = bob.eval_on_selector_all("#tn-standings th", "hs => hs.map(h => h.textContent)")
    assert heads[2:4] == ["Victoires", "Vict. adv."]
    bob.screenshot(path=str(artifacts / "tournament-swiss-fr.png"), full_page=True)


# A local time two hours ahead, as a datetime-local box takes it.
LATER = """() => {
  const d = new Date(Date.now() + 2 * 3600e3), p = (n) => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return `${day}T${p(d.getHours())}:${p(d.getMinutes())}`;
}"""


def test_a_start_time_is_chosen_in_the_reader_s_own_time(new_page: Any) -> None:
    """The host picks the start in their own time zone (Sofia here); the server keeps the
    moment, and a time in the past is refused before anything is made."""
    page = new_page(locale="fr-FR", timezone_id="Europe/Sofia")
    ui.set_name(page, "Ann")
    page.goto("/#/tournaments")
    page.fill("#tn-name", "Soirée")
    assert page.inner_text("#tn-starts-said") == ""
    page.fill("#tn-starts", "2020-01-01T20:00")
    # The box is in the browser's own format; beneath it the time is said in the page's words.
    assert page.inner_text("#tn-starts-said") == "mercredi 1 janvier 2020 à 20:00, à votre heure"
    page.click("#tn-create")
    refused = page.wait_for_selector(".toast[data-code=tn_bad_start]")
    assert refused.inner_text().startswith("Choisissez une heure de début")
    assert page.url.endswith("#/tournaments")  # nothing made
    later = page.evaluate(LATER)
    page.fill("#tn-starts", later)
    page.click("#tn-create")
    page.wait_for_selector("#tournament[data-status=registering] #tn-entrants")
    assert "début" in page.inner_text(".tn-facts")
    stored = page.evaluate(
        "id => fetch(`/api/tournaments/${id}`).then((r) => r.json())", page.url.rsplit("/", 1)[1]
    )
    # The moment the host meant: their wall time in Sofia, two or three hours ahead of UTC.
    meant = page.evaluate("local => new Date(local).getTime()", later)
    assert page.evaluate("iso => Date.parse(iso)", stored["starts_at"]) == meant
    assert page.evaluate("local => new Date(local).getTimezoneOffset()", later) in (-120, -180)


async def _check_in_opens(database_url: str, tournament_id: str) -> None:
    """Twenty minutes to the start: the tournament's check-in of 30 is open (the clock
    cannot be moved; its start time can)."""
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            await session.execute(
                update(m.Tournament)
                .where(m.Tournament.id == tournament_id)
                .values(starts_at=datetime.now(UTC) + timedelta(minutes=20))
            )
    finally:
        await engine.dispose()


def test_entrants_check_in_from_the_tournament_or_from_any_page(
    new_page: Any, live_server: Server, artifacts: Path
) -> None:
    """The host asks for a check-in of 30 minutes (offered once a start time is chosen); before
    it opens an entrant is told when it does; once open, a French entrant elsewhere on the site
    is reminded above the page and checks in there, and the host from the tournament's page;
    each sees the other's tick in the list, and the reminder is gone."""
    ann = new_page()
    ui.set_name(ann, "Ann")
    ann.goto("/#/tournaments")
    assert ann.is_hidden("#tn-check-in")  # a check-in is counted back from a start time
    ann.fill("#tn-name", "Soirée")
    ann.fill("#tn-starts", ann.evaluate(LATER))
    ann.select_option("#tn-check-in", "30")
    ann.click("#tn-create")
    ann.wait_for_selector("#tournament[data-status=registering] #tn-entrants")
    assert "check-in from" in ann.inner_text(".tn-facts")
    assert "Check-in opens at" in ann.inner_text("#tn-check-in-state")
    assert ann.query_selector("#tn-check-in-button") is None
    tid = ann.url.rsplit("/", 1)[1]
    bob = new_page(locale="fr-FR")
    ui.set_name(bob, "Bob")
    bob.goto(ann.url)
    bob.click("#tn-enter")
    entrants(bob, 2)
    assert "ouvre à" in bob.inner_text("#tn-check-in-state")

    run(_check_in_opens(live_server.settings.database_url, tid))
    bob.goto("/#/history")  # elsewhere: the bar above the page reminds him
    reminder = bob.wait_for_selector(f"#invitations .tournament-check-in[data-tournament='{tid}']")
    assert "confirmez votre présence" in reminder.inner_text()
    assert bob.title() == "● Confirmez votre présence — Belote"  # the tab calls him too
    bob.screenshot(path=str(artifacts / "tournament-check-in-reminder-fr.png"))
    reminder.query_selector("button").click()
    bob.wait_for_selector(".toast:has-text('Votre présence est confirmée')")
    bob.wait_for_selector("#invitations .tournament-check-in", state="detached")
    assert bob.title() == "Belote"

    ann.wait_for_selector("#tn-check-in-button")  # her page, asking again, finds it open
    assert "Check-in is open" in ann.inner_text("#tn-check-in-state")
    ann.wait_for_selector(
        f"#tn-entrants li[data-player='{ui.player_id(bob)}'][data-checked-in=true]"
    )
    ann.screenshot(path=str(artifacts / "tournament-check-in-en.png"), full_page=True)
    ann.click("#tn-check-in-button")
    ann.wait_for_selector("#tn-entrants li[data-checked-in=false]", state="detached")
    assert "You have checked in" in ann.inner_text("#tn-check-in-state")
    assert "2 checked in" in ann.inner_text("#tn-waiting")
    bob.goto(ann.url)
    bob.wait_for_selector(
        f"#tn-entrants li[data-player='{ui.player_id(ann)}'][data-checked-in=true]"
    )
    assert bob.query_selector("#tn-check-in-button") is None


def test_the_host_removes_an_entrant_once_asked(new_page: Any, artifacts: Path) -> None:
    """ "Remove" beside each other entrant, for the host alone; asked first ("Keep them" keeps);
    the removed player's page then says so and offers no "Enter"."""
    ann = new_page()
    ui.set_name(ann, "Ann")
    address = make(ann, "Friday cup", "bulgarian2", 4)
    bob = new_page(locale="bg-BG")
    ui.set_name(bob, "Bob")
    bob.goto(address)
    bob.click("#tn-enter")
    entrants(bob, 2)
    assert bob.query_selector(".tn-remove") is None  # the host's alone
    entrants(ann, 2)
    assert (
        ann.query_selector(f"#tn-entrants li[data-player='{ui.player_id(ann)}'] .tn-remove") is None
    )
    remove = f"#tn-entrants li[data-player='{ui.player_id(bob)}'] .tn-remove"
    assert ann.get_attribute(remove, "aria-label") == "Remove Bob from the tournament"
    ann.click(remove)
    ann.click("#tn-remove-stay")
    ann.wait_for_selector("#tn-remove-confirm", state="detached")
    entrants(ann, 2)
    ann.click(remove)
    ann.screenshot(path=str(artifacts / "tournament-remove-en.png"))
    ann.click("#tn-remove-go")
    entrants(ann, 1)
    told = bob.wait_for_selector("#tn-removed")
    assert told.inner_text().startswith("Организаторът ви отстрани")
    assert bob.query_selector("#tn-enter") is None


def test_two_entrants_ask_for_each_other_and_are_shown_as_partners(
    new_page: Any, artifacts: Path
) -> None:
    """In a game of partners each entrant sees, beside every other, "Play together"; the one
    asked reads the ask on the tournament's page and in the bar of any other (nobody else
    does) and accepts there; then everyone reads
    that the two play together, and either may part (the other's ask then stands)."""
    ann = new_page()
    ui.set_name(ann, "Ann")
    address = make(ann, "Friday cup", "bulgarian", 8)
    bob, cy = new_page(locale="fr-FR"), new_page(locale="bg-BG")
    for page, name in ((bob, "Bob"), (cy, "Cy")):
        ui.set_name(page, name)
        page.goto(address)
        page.click("#tn-enter")
    entrants(ann, 3)
    assert ann.inner_text("#tn-partner-help").startswith("Two entrants who ask for each other")
    row = f"#tn-entrants li[data-player='{ui.player_id(bob)}']"
    ask = ann.wait_for_selector(f"{row} .tn-partner[data-partner=ask]")
    assert ask.get_attribute("aria-label") == "Ask Bob to play as your partner"
    ask.click()
    ann.wait_for_selector(f"{row} .tn-partner[data-partner=take_back]")
    assert ann.inner_text(f"{row} .tn-asked") == " — you asked to play together"
    her_row = f"#tn-entrants li[data-player='{ui.player_id(ann)}']"
    bob.wait_for_selector(f"{her_row} .tn-partner[data-partner=accept]")  # the page asks anew
    assert bob.inner_text(f"{her_row} .tn-asked") == " — vous propose de jouer ensemble"
    assert cy.query_selector(".tn-asked") is None  # nobody else learns of it
    bob.screenshot(path=str(artifacts / "tournament-partner-asked-fr.png"), full_page=True)
    # On any other page the bar says so too, and accepts there.
    bob.goto("/#/history")
    item = bob.wait_for_selector(
        f"#invitations .tournament-partner-ask[data-player='{ui.player_id(ann)}']"
    )
    assert item.inner_text().startswith("Ann vous propose de jouer ensemble dans Friday cup")
    assert cy.query_selector("#invitations .tournament-partner-ask") is None
    bob.screenshot(path=str(artifacts / "tournament-partner-bar-fr.png"))
    item.query_selector("button").click()
    bob.wait_for_selector("#invitations .tournament-partner-ask", state="detached")
    bob.goto(address)
    assert bob.wait_for_selector(f"{her_row} .tn-pair").inner_text() == " — avec Bob"
    cy.wait_for_selector(f"{her_row} .tn-pair")
    assert cy.inner_text(f"{her_row} .tn-pair") == " — с Bob"
    assert cy.inner_text(f"{row} .tn-pair") == " — с Ann"
    assert cy.query_selector(f"{row} .tn-partner") is None  # taken: nothing to ask
    cy.screenshot(path=str(artifacts / "tournament-partners-bg.png"), full_page=True)
    ann.wait_for_selector(f"{row} .tn-partner[data-partner=part]").click()
    # Parted: Bob's ask stands, and Ann may take it up again.
    ann.wait_for_selector(f"{row} .tn-partner[data-partner=accept]")
    assert ann.query_selector(".tn-pair") is None
    # An ask from one muted is not shown, on the page as in the bar; it stands all the same.
    muted = ann.request.put(f"/api/players/me/mutes/{ui.player_id(bob)}", headers=ui.auth(ann))
    assert muted.ok, muted.text()
    ann.reload()
    ann.wait_for_selector(f"{row} .tn-partner[data-partner=ask]")
    assert ann.query_selector(".tn-asked") is None
    ann.goto("/#/history")
    ann.reload()
    ann.wait_for_selector("#invitations[data-read]", state="attached")  # the bar read
    assert ann.query_selector("#invitations .tournament-partner-ask") is None


def test_a_rated_tournament_is_made_by_an_account_and_a_guest_is_told_why_not_to_enter(
    new_page: Any,
) -> None:
    """The form's "Rated" is for accounts (a guest's box is off, with the note on how); an
    account's rated tournament says so, in the list too, and a guest who follows its address
    reads that rated play needs an account, with no "Enter"."""
    guest = new_page(locale="fr-FR")
    ui.set_name(guest, "Gus")
    guest.goto("/#/tournaments")
    guest.wait_for_selector("#tn-rated")
    assert guest.is_disabled("#tn-rated")
    assert "comptes" in guest.inner_text("#tournament-form .account-note")
    ann = new_page()
    ui.set_name(ann, "Ann")
    ui.become_account(ann)
    ann.goto("/#/tournaments")
    ann.fill("#tn-name", "Ranked night")
    ann.select_option("#tn-preset", "bulgarian2")
    ann.check("#tn-rated")
    assert ann.query_selector("#tournament-form .account-note") is None
    ann.click("#tn-create")
    ann.wait_for_selector("#tournament[data-status=registering] #tn-entrants")
    assert "Rated" in ann.inner_text(".tn-facts")
    guest.goto(ann.url)
    guest.wait_for_selector("#tournament .account-note")
    assert guest.query_selector("#tn-enter") is None
    assert "Classé" in guest.inner_text(".tn-facts")
    guest.goto("/#/tournaments")
    row = guest.wait_for_selector(f"tr[data-tournament='{ann.url.rsplit('/', 1)[1]}']")
    assert "Classé" in row.inner_text()


# Counts the tones the page makes (sound.js): a chime is two.
COUNT_TONES = """() => {
  window.__tones = 0;
  const Made = window.AudioContext;
  window.AudioContext = class extends Made {
    createOscillator() { window.__tones += 1; return super.createOscillator(); }
  };
  localStorage.setItem('belote.prefs', JSON.stringify({ sound: true }));
}"""
READ = "r => document.querySelector('#invitations').dataset.read !== r"


def read_again(page: Any, address: str) -> None:
    """Go to ``address`` and wait for the invitations' answer there."""
    before = page.get_attribute("#invitations", "data-read")
    page.goto(address)
    page.wait_for_function(READ, arg=before)


def test_a_new_match_of_yours_chimes_once_with_sound_on(new_page: Any) -> None:
    """With sound on, a player elsewhere on the site hears the turn's chime when their match
    of a tournament is on — once: not again on another page, nor on the first answer of a page
    opened anew (they were told)."""
    ann = new_page()
    ui.set_name(ann, "Ann")
    address = make(ann, "Friday cup", "bulgarian2", 4)
    bob = new_page()
    bob.add_init_script(f"({COUNT_TONES})()")
    ui.set_name(bob, "Bob")
    bob.goto(address)
    bob.click("#tn-enter")
    entrants(bob, 2)
    read_again(bob, "/#/history")
    assert bob.evaluate("() => window.__tones") == 0
    entrants(ann, 2)
    ann.click("#tn-start")
    ann.wait_for_selector("#tournament[data-status=playing] #tn-bracket")
    read_again(bob, "/#/")
    bob.wait_for_selector("#invitations .tournament-table")
    assert bob.evaluate("() => window.__tones") == 2
    read_again(bob, "/#/history")
    assert bob.evaluate("() => window.__tones") == 2  # the same call: no chime
    bob.reload()  # a page opened anew: told by the bar and the title, not by a chime
    bob.wait_for_selector("#invitations .tournament-table")
    assert bob.title() == "● Your match is on — Belote"
    assert bob.evaluate("() => window.__tones") == 0
