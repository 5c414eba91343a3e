"""The client's words exist in every language (English, French, Bulgarian): those of accounts,
ratings and quick play (static/js/i18n-accounts.js, issue 13), every key any page asks `t()` for
(in i18n.js or a table merged into it), and no word a player reads is written into a page in
English only (the dealer's badge once was a bare "D"). Error codes: tests/test_docs.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "static" / "js"
LANGS = ("en", "fr", "bg")
# A key and its value (always a double-quoted string): a value is consumed whole, so a word
# followed by a colon inside one is never read as a key.
ENTRY = re.compile(r'(?:^|[\s,{])([a-z_0-9]+):\s*"((?:[^"\\]|\\.)*)"', re.MULTILINE)


CHOICE = re.compile(r'\bt\(\s*[\w.]+\s*\?\s*"([a-z_0-9]+)"\s*:\s*"([a-z_0-9]+)"')


def tables() -> dict[str, set[str]]:
    text = (JS / "i18n-accounts.js").read_text()
    found = re.findall(r"^  (en|fr|bg): \{\n(.*?)^  \},", text, re.MULTILINE | re.DOTALL)
    return {name: set(re.findall(r"^\s+([a-z_0-9]+):", body, re.MULTILINE)) for name, body in found}


def blocks() -> Iterator[tuple[str, str, str]]:
    """Each table of words as (file, language, its text)."""
    patterns = {  # i18n.js: `const en = {` … `};`; the others: `  en: {` … `  },`
        "i18n.js": r"^const {lang} = \{{\n(.*?)^\}};$",
        "i18n-accounts.js": r"^  {lang}: \{{\n(.*?)^  \}},$",
        "i18n-tables.js": r"^  {lang}: \{{\n(.*?)^  \}},$",
        "i18n-rules.js": r"^  {lang}: \{{\n(.*?)^  \}},$",
        "i18n-tournaments.js": r"^  {lang}: \{{\n(.*?)^  \}},$",
    }
    for name, pattern in patterns.items():
        text = (JS / name).read_text()
        for lang in LANGS:
            block = re.search(pattern.format(lang=lang), text, re.MULTILINE | re.DOTALL)
            assert block is not None, (name, lang)
            yield name, lang, block.group(1)


def sources() -> dict[str, dict[str, set[str]]]:
    """Each table's keys, by file then language."""
    found: dict[str, dict[str, set[str]]] = {}
    for name, lang, block in blocks():
        found.setdefault(name, {})[lang] = {m.group(1) for m in ENTRY.finditer(block)}
    return found


def texts() -> dict[str, dict[str, str]]:
    """Each language's words by key, the tables merged."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for _, lang, block in blocks():
        merged[lang].update((m.group(1), m.group(2)) for m in ENTRY.finditer(block))
    return merged


def words() -> dict[str, set[str]]:
    """Each language's keys once the tables are merged (as i18n.js merges them)."""
    merged: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for table in sources().values():
        for lang in LANGS:
            merged[lang] |= table[lang]
    return merged


def pages() -> dict[str, str]:
    """The client's modules other than the tables of words."""
    return {p.name: p.read_text() for p in sorted(JS.glob("*.js")) if not p.name.startswith("i18n")}


def test_the_three_languages_have_the_same_words() -> None:
    keys = tables()
    assert set(keys) == {"en", "fr", "bg"} and len(keys["en"]) > 40
    assert keys["fr"] == keys["en"] and keys["bg"] == keys["en"]
    for name in (
        "i18n-tables.js",
        "i18n-rules.js",
        "i18n-tournaments.js",
    ):  # the other tables merged into i18n.js
        table = sources()[name]
        assert table["fr"] == table["en"] and table["bg"] == table["en"], name


def test_every_word_the_new_pages_use_is_defined() -> None:
    i18n = (JS / "i18n.js").read_text()
    known = tables()["en"] | set(re.findall(r"^  ([a-z_0-9]+):", i18n, re.MULTILINE))
    used: set[str] = set()
    for page in ("account.js", "ratings.js", "quickplay.js"):
        used |= set(re.findall(r'\bt\("([a-z_0-9]+)"', (JS / page).read_text()))
    assert len(used) > 30
    assert sorted(used - known) == []


def test_every_word_a_page_asks_for_is_in_every_language() -> None:
    used: set[str] = set()
    for text in pages().values():
        used |= set(re.findall(r'\bt\(\s*"([a-z_0-9]+)"', text))
        # A choice between two keys: t(leave ? "leave_title" : "concede_title").
        for first, second in CHOICE.findall(text):
            used |= {first, second}
    assert len(used) > 200
    for lang, keys in words().items():
        assert sorted(used - keys) == [], lang


# Attributes and properties that put words in front of a player (or a screen reader).
SHOWN = re.compile(
    r"""(?:\b(?:text|title|placeholder|alt)|"aria-label")\s*:\s*"([^"]*)"|"""
    r"""\.(?:textContent|innerText|title|placeholder|ariaLabel)\s*=\s*"([^"]*)"|"""
    r"""setAttribute\(\s*"(?:aria-label|title|alt|placeholder)"\s*,\s*"([^"]*)\""""
)
NOT_WORDS = {"https://…/r/…"}  # the join field's placeholder: the shape of an invite link


def test_no_word_a_player_reads_is_written_in_one_language() -> None:
    found = []
    for name, text in pages().items():
        for match in SHOWN.finditer(text):
            literal = next(group for group in match.groups() if group is not None)
            if re.search(r"[^\W\d_]", literal) and literal not in NOT_WORDS:
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{name}:{line}: {literal!r}")
    assert found == []


def test_a_browser_without_javascript_is_told_so_in_every_language() -> None:
    # Before: "This game needs JavaScript." in English only, the one word no script translates.
    page = (JS.parent / "index.html").read_text()
    block = re.search(r"<noscript>(.*?)</noscript>", page, re.DOTALL)
    assert block is not None
    said = dict(re.findall(r'<p lang="(\w+)">([^<]+)</p>', block.group(1)))
    assert set(said) == set(LANGS) and all("JavaScript" in line for line in said.values())


# The words each language keeps for a match (to the target score), the game (a preset: what
# "Game" names in the create form) and the contract, so that a sentence about one is never
# read as about another. Bulgarian once said "игра" for all three ("Игра", "Игра до",
# "Играта приключи").
MATCH = {"en": r"\bmatch(es)?\b", "fr": r"\bparties?\b", "bg": r"(?<!\w)парти(я|ята|и|ите)(?!\w)"}
GAME_NOUN = {"bg": r"(?<!\w)[Ии]гр(а|ата|и|ите)(?!\w)"}  # said of the contract only


def test_each_language_keeps_one_word_for_the_match_the_game_and_the_contract() -> None:
    words = texts()
    about_match = [
        key
        for key, said in words["en"].items()
        if re.search(MATCH["en"], said, re.I) and key != "shuffle_check_title"  # "the seed matches"
    ]
    assert len(about_match) > 25
    for lang in ("fr", "bg"):
        for key in about_match:
            said = words[lang][key]
            assert not re.search(GAME_NOUN.get(lang, r"(?!)"), said), (lang, key, said)
            # A sentence may leave the match unnamed ("Your team conceded." in Bulgarian).
            if key not in {"concede_partner", "conceded_us", "conceded_team", "no_history"}:
                assert re.search(MATCH[lang], said, re.I), (lang, key, said)
    for lang in LANGS:
        names = {words[lang][key] for key in ("preset", "contract", "matches")}
        assert len(names) == 3, (lang, names)


# A bid (a call of the bidding) and a declaration (a tierce, a carré … shown in the first trick)
# are two things with two words in each language: French once said "Annonces" for both (the
# bids beside the table, the declarations in the score), Bulgarian "обяви".
DECLARATION = {"fr": r"\bannonces?\b", "bg": r"(?<!\w)анонс"}
BID_NOUN = {"fr": r"\bench[eè]res?\b", "bg": r"(?<!\w)обяв"}


def test_bids_and_declarations_have_their_own_words() -> None:
    words = texts()
    english = words["en"].items()
    declarations = [k for k, said in english if re.search(r"\bdeclarations?\b", said, re.I)]
    bids = [k for k, said in english if re.search(r"\b(bids|(your|no|that|a) bid)\b", said, re.I)]
    assert len(declarations) >= 4 and len(bids) >= 4, (declarations, bids)
    for lang in ("fr", "bg"):
        for key in declarations:
            said = words[lang][key]
            assert re.search(DECLARATION[lang], said, re.I), (lang, key, said)
            assert not re.search(BID_NOUN[lang], said, re.I), (lang, key, said)
        for key in bids:
            said = words[lang][key]
            assert re.search(BID_NOUN[lang], said, re.I), (lang, key, said)
            assert not re.search(DECLARATION[lang], said, re.I), (lang, key, said)
