""" "How to play" (#/rules/PRESET, static/js/rules.js) in a real Chromium: every game's page, in
every language, is whole — its cards' tables are the engine's (C-3, C-4: GET /api/rules), the
deck's ranks only (BG3-1, BG2-1), every paragraph in the reader's words with its numbers filled
in — and it fits a phone's width."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE
from tests.conftest import Server

pytestmark = pytest.mark.browser

PRESETS = ("bulgarian", "bulgarian3", "bulgarian2", "open_belot", "french")
RANK = {"en": {"J": "Jack", "9": "Nine", "A": "Ace"}, "fr": {"J": "Valet"}, "bg": {"J": "Вале"}}
SECTIONS = ["cards", "deal", "play", "declarations", "scoring"]


def shown(page: Any, preset: str) -> None:
    page.goto(f"/#/rules/{preset}")
    page.wait_for_selector(f"#rules[data-preset={preset}] #rules-scoring")


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("fr-FR", "fr"), ("bg-BG", "bg")])
def test_every_game_s_rules_are_whole_in_every_language(
    new_page: Any, live_server: Server, locale: str, lang: str
) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        rules = http.get("/api/rules").json()
    page = new_page(locale=locale)
    for preset in PRESETS:
        shown(page, preset)
        ids = page.eval_on_selector_all("#rules section.rules-section", "s => s.map(x => x.id)")
        assert ids[:5] == [f"rules-{s}" for s in SECTIONS], (preset, ids)
        trumps = page.locator("#rules-cards table").first.locator("tbody tr")
        deck = rules["tables"][preset]["ranks"]
        expected = [c for c in rules["cards"]["trump"] if c["rank"] in deck]
        assert trumps.count() == len(expected) == len(deck), preset
        first = trumps.first.locator("th").inner_text(), trumps.first.locator("td").inner_text()
        assert first == (RANK[lang]["J"], "20"), preset  # C-3, C-4: the jack of trumps, 20
        text = page.inner_text("#rules")
        # A word missing, a number not filled in, or a section that is not there.
        assert not re.search(r"\{|\brl_|\bundefined\b|\bnull\b", text), preset
        said = page.eval_on_selector_all("#rules p[data-key]", "ps => ps.map(p => p.textContent)")
        assert len(said) >= 8 and all(len(p) > 20 for p in said), preset
        house = page.locator("#rules-house [data-rule]").count()
        assert house == sum(preset in r["presets"] for r in rules["house_rules"]), preset
    assert page.inner_text("#nav-rules") == {"en": "Rules", "fr": "Règles", "bg": "Правила"}[lang]


def test_the_numbers_in_the_words_are_the_game_s(new_page: Any) -> None:
    page = new_page()
    shown(page, "french")
    assert "1000 or more" in page.inner_text("#rules-scoring")  # FR-13: the French target
    assert "worth 10 more" in page.inner_text("#rules-cards")  # FR-9: dix de der
    shown(page, "bulgarian")
    assert "after 3 passes" in page.inner_text("#rules-deal")  # BG-7
    assert "151 or more" in page.inner_text("#rules-scoring")  # BG-27
    assert "writes 9 more" in page.inner_text("#rules-scoring")  # BG-22: valat, 9 MP
    shown(page, "bulgarian3")
    assert "after 2 passes" in page.inner_text("#rules-deal")  # BG3-5
    nines = page.locator("#rules-cards table").nth(1).locator("tbody th").all_inner_texts()
    assert nines == ["Ace", "Ten", "King", "Queen", "Jack", "Nine"]  # BG3-1: nine to ace
    shown(page, "bulgarian2")
    assert "ends with a pass" in page.inner_text("#rules-deal")  # BG2-5


@pytest.mark.parametrize("width", [PHONE["width"], 320])
def test_the_rules_fit_a_phone(new_page: Any, width: int) -> None:
    """At 320 px the header's five links in Bulgarian once widened the page (they wrap now)."""
    page = new_page(viewport={**PHONE, "width": width}, locale="bg-BG")
    for preset in PRESETS:
        shown(page, preset)
        wide = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
        assert wide <= 0, (preset, wide)


def test_the_create_form_leads_to_the_chosen_game_s_rules(new_page: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.select_option("#preset", "open_belot")
    assert page.inner_text("#preset-rules") == "Comment jouer à ce jeu"
    page.click("#preset-rules")
    page.wait_for_selector("#rules[data-preset=open_belot] #rules-play p[data-key=rl_play_ob]")


def test_a_table_opens_its_game_s_rules_beside_it(new_page: Any) -> None:
    """The game's name over a table links to its rules in a new tab: the table stays open (its
    page left, the seat would be away)."""
    page = new_page()
    ui.set_name(page, "Ann")
    ui.create_room(page, preset="bulgarian3")
    link = page.locator("#room-rules")
    assert link.get_attribute("target") == "_blank" and link.inner_text() == "Belot for three"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_selector("#rules[data-preset=bulgarian3] #rules-scoring")
    assert "#/r/" in page.url and page.locator("#room[data-status=waiting]").count() == 1
