"""Every page fits a phone's width: nothing makes the page scroll sideways at 390 px (the history
list did: its buttons' cell left the table and the page ran 99 px past the screen's edge; in
Bulgarian, the longest words, the waiting room's invite line ran 63 px past it once "Invite a
friend" joined the line before it could wrap). And
the replay's controls take two rows on a phone, its steps one (they took five)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

# Against the device's width, not the window's: a mobile browser zooms a page that is too wide
# out until it fits, and its window then is as wide as the page.
SIDEWAYS = "() => document.documentElement.scrollWidth - screen.width"


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "bg-BG"])
def test_no_page_scrolls_sideways_on_a_phone(new_page: Any, artifacts: Path, locale: str) -> None:
    page = new_page(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    ui.set_name(page, "Bartholomew")
    over: dict[str, int] = {}

    def measure(where: str) -> None:
        ui.settle(page)
        over[where] = page.evaluate(SIDEWAYS)

    page.wait_for_selector("#create-form")
    page.click("#create-form details summary")  # the house rules, open
    measure("lobby")
    ui.create_room(page, bots=(1, 2, 3))
    measure("waiting room")
    ui.start(page)
    ui.play_deal_out(page, prefer="hearts")  # the first deal, for its replay
    ui.close_result(page)
    ui.play_until_trick_in_progress(page)  # the second: the match is in progress
    measure("table")
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    page.click("#nav-history")
    page.click("#leave-go")
    page.wait_for_selector("#history table .return")  # the match in progress, its way back
    measure("history")
    page.screenshot(path=str(artifacts / f"history-phone-{locale}.png"), full_page=True)
    page.click("#my-profile")
    page.wait_for_selector("#profile-name")
    measure("profile")
    for name, (address, drawn) in ui.pages_of(match_id).items():
        page.goto(address)
        page.wait_for_selector(drawn)
        measure(name)
    assert {where: px for where, px in over.items() if px > 0} == {}, over
    page.goto(ui.pages_of(match_id)["match"][0])  # the shuffle's verdict: one pill, one line
    pill = page.wait_for_selector('.shuffle-check[data-deal="1"][data-verdict]')
    assert pill.evaluate("el => el.getClientRects().length") == 1, pill.inner_text()


REPLAY_ROWS = """() => {
  const rows = sel => new Set([...document.querySelectorAll(sel)]
    .map(el => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)));
  return [rows('.replay-controls .steps > *').size,
          rows('.replay-controls > *:not(.steps), .replay-controls .steps').size];
}"""


def test_the_replays_controls_take_two_rows_on_a_phone(new_page: Any) -> None:
    # Before: "« First", "◀ Back", the step, "Next ▶", "Last »", "► Play", "Jump to", the
    # download and the scoresheet wrapped onto five rows above the table.
    page = new_page(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    ui.set_name(page, "Bartholomew")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    ui.play_deal_out(page, prefer="hearts")
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    page.goto(ui.pages_of(match_id)["replay"][0])
    page.wait_for_selector("#replay-step")
    assert page.evaluate(REPLAY_ROWS) == [1, 2]
    # A French label's colon has its space, as the French sentences have ("Contrat: …" did not).
    assert page.inner_text(".contract-line .label").strip() == "Contrat :"
    # Signs only, the words their labels: a screen reader still says "Suivant".
    assert page.inner_text("#replay-next").strip() == "▶"
    assert page.get_attribute("#replay-next", "aria-label") == page.evaluate(
        ui.own_modules("async () => (await import('/js/i18n.js')).t('next')")
    )
    assert re.fullmatch(r"\D+ 0 / \d+", page.inner_text("#replay-step"))
    assert page.evaluate(SIDEWAYS) <= 0


# The top bar's parts: the rows the links take, and whether the picker and the colours' button
# share the brand's row.
TOP_BAR = """() => {
  const box = (el) => el.getBoundingClientRect();
  const brand = box(document.querySelector('.brand'));
  const lang = box(document.querySelector('.langpick'));
  const colours = box(document.getElementById('theme'));
  const anchors = [...document.querySelectorAll('.nav a')], links = anchors.map(box);
  return {rows: new Set(links.map((l) => Math.round(l.top))).size,
          cut: anchors.filter((a) => a.scrollWidth > a.clientWidth + 1).length,
          pickerBesideBrand: lang.top < brand.bottom && brand.top < lang.bottom,
          coloursBesideBrand: colours.top < brand.bottom && brand.top < colours.bottom,
          linksUnder: links.every((l) => l.top >= brand.bottom - 1)};
}"""


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "bg-BG"])
def test_on_a_phone_the_top_bar_takes_three_rows(new_page: Any, locale: str, width: int) -> None:
    """The brand, the colours' button and the language picker share a row, the six links take
    two under them, each whole: they took two ragged rows (in French "Compte" alone on the
    second) between the brand and a picker on a row of its own, 145 px of the phone's height
    above every page."""
    page = new_page(
        viewport={"width": width, "height": 700}, locale=locale, has_touch=True, is_mobile=True
    )
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.evaluate(TOP_BAR) == {
        "rows": 2,
        "cut": 0,
        "pickerBesideBrand": True,
        "coloursBesideBrand": True,
        "linksUnder": True,
    }
