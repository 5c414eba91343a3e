"""The words of accounts, ratings and quick play (static/js/i18n-accounts.js) exist in every
language, and every key the pages use is one of them (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "static" / "js"


def tables() -> dict[str, set[str]]:
    text = (JS / "i18n-accounts.js").read_text()
    found = re.findall(r"^  (en|fr|bg): \{\n(.*?)^  \},", text, re.MULTILINE | re.DOTALL)
    return {name: set(re.findall(r"^\s+([a-z_0-9]+):", body, re.MULTILINE)) for name, body in found}


def test_the_three_languages_have_the_same_words() -> None:
    keys = tables()
    assert set(keys) == {"en", "fr", "bg"} and len(keys["en"]) > 40
    assert keys["fr"] == keys["en"] and keys["bg"] == keys["en"]


def test_every_word_the_new_pages_use_is_defined() -> None:
    i18n = (JS / "i18n.js").read_text()
    known = tables()["en"] | set(re.findall(r"^  ([a-z_0-9]+):", i18n, re.MULTILINE))
    used: set[str] = set()
    for page in ("account.js", "ratings.js", "quickplay.js"):
        used |= set(re.findall(r'\bt\("([a-z_0-9]+)"', (JS / page).read_text()))
    assert len(used) > 30
    assert sorted(used - known) == []
