"""The words of the small tables and the regional house rules (static/js/i18n-tables.js) exist
in every language, and every preset and house rule the server offers has a name and a one-line
explanation in each (not code names). A plain test: no browser is started."""

from __future__ import annotations

import re
from pathlib import Path

from app.rules import HOUSE_RULES, PRESETS

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def words() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    patterns = {  # i18n.js: `const en = {` … `};`; i18n-tables.js: `  en: {` … `  },`
        "i18n.js": r"^const {lang} = \{{\n(.*?)^\}};$",
        "i18n-tables.js": r"^  {lang}: \{{\n(.*?)^  \}},$",
    }
    for name, pattern in patterns.items():
        text = (JS / name).read_text()
        for lang in ("en", "fr", "bg"):
            block = re.search(pattern.format(lang=lang), text, re.M | re.S)
            assert block is not None, (name, lang)
            keys = set(re.findall(r"(?:^|[ ,])([a-z_0-9]+):", block.group(1), re.MULTILINE))
            found.setdefault(lang, set()).update(keys)
    return found


def test_the_three_languages_name_every_preset_and_house_rule() -> None:
    keys = words()
    needed = {f"preset_{p}" for p in PRESETS} | {f"preset_{p}_help" for p in PRESETS}
    needed |= {f"hr_{rule.name}" for rule in HOUSE_RULES}
    needed |= {f"hr_{rule.name}_help" for rule in HOUSE_RULES}
    needed |= {
        f"hrv_{re.sub(r'[^a-z0-9]', '_', str(c), flags=re.I)}"
        for rule in HOUSE_RULES
        for c in rule.choices
        if isinstance(c, str)
    }
    needed |= {"bid_surcontra", "side_you", "table_stacks"}
    for lang in ("en", "fr", "bg"):
        assert sorted(needed - keys[lang]) == [], lang


def test_the_tables_words_are_the_same_in_each_language() -> None:
    text = (JS / "i18n-tables.js").read_text()
    found = re.findall(r"^  (en|fr|bg): \{\n(.*?)^  \},", text, re.MULTILINE | re.DOTALL)
    keys = {name: set(re.findall(r"^\s+([a-z_0-9]+):", body, re.MULTILINE)) for name, body in found}
    assert set(keys) == {"en", "fr", "bg"} and keys["fr"] == keys["en"] == keys["bg"]
