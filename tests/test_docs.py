"""The documentation and the client keep up with the server's error codes (and the documents
with the rule ids, their own links and the settings' defaults).

Every stable code the server can send (REST or WebSocket) is read from the source and must be
in docs/protocol.md, which promises to document every message, and must have words in each of
the client's languages (static/js/i18n.js), which translates errors by code.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAISED = re.compile(
    r'(?:RoomError|BadFrame|Refusal|_close_with)\(\s*"([a-z_]+)"'  # rooms, API, parser, WebSocket
    r'|_error\(\s*[^,()]+,\s*"([a-z_]+)"'  # answered by the WebSocket session itself
    r'|^\s+code = "([a-z_]+)"$'  # the engine's refusals
    r'|\bcode = "([a-z_]+)" if .* else "([a-z_]+)"',  # the API's codes for HTTP errors
    re.MULTILINE,
)
# The engine's base class is never raised itself, and a bad record reaches the wire as
# bad_action (app/rooms/room.py): neither is a code a client can receive.
NOT_ON_THE_WIRE = {"illegal_action", "bad_record"}


def server_codes() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for match in RAISED.finditer(path.read_text()):
            found.update(group for group in match.groups() if group)
    return found - NOT_ON_THE_WIRE


def test_the_reader_finds_the_codes() -> None:
    """Guard against a pattern that passes because it finds nothing."""
    codes = server_codes()
    expected = {"stale", "frame_too_large", "not_your_turn", "rate_limited", "http_error"}
    assert expected <= codes
    assert len(codes) > 30


def test_every_error_code_is_in_the_protocol_document() -> None:
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    missing = sorted(code for code in server_codes() if f"`{code}`" not in protocol)
    assert missing == []


def test_the_client_has_words_for_every_error_code_in_every_language() -> None:
    i18n = (ROOT / "static" / "js" / "i18n.js").read_text()
    languages = len(re.findall(r"^\s+err_server_error:", i18n, re.MULTILINE))
    assert languages >= 3
    short = sorted(
        code
        for code in server_codes()
        if len(re.findall(rf"^\s+err_{code}:", i18n, re.MULTILINE)) != languages
    )
    assert short == []


def test_every_message_type_is_in_the_protocol_document() -> None:
    from app.transport.schemas import DATA_MODELS

    protocol = (ROOT / "docs" / "protocol.md").read_text()
    sent = set()
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text()
        sent.update(re.findall(r'Event\(\s*0,\s*"([a-z_]+)"', text))
        sent.update(re.findall(r'"t": "([a-z_]+)"', text))
        sent.update(re.findall(r'reply\("([a-z_]+)"', text))
    assert {"snapshot", "action", "ack", "error"} <= sent  # the reader reads
    missing = sorted(
        t
        for t in sent | set(DATA_MODELS)
        if f"`{t}`" not in protocol and not re.search(rf'"t": ?"{t}"', protocol)
    )
    assert missing == []


def test_the_client_s_languages_have_the_same_words() -> None:
    i18n = (ROOT / "static" / "js" / "i18n.js").read_text()
    tables = re.findall(r"^const (en|fr|bg) = \{\n(.*?)^\};", i18n, re.MULTILINE | re.DOTALL)
    keys = {
        name: set(re.findall(r"(?:^|,)\s*([a-z_0-9]+):", body, re.MULTILINE))
        for name, body in tables
    }
    assert set(keys) == {"en", "fr", "bg"} and len(keys["en"]) > 100
    assert keys["fr"] == keys["en"] and keys["bg"] == keys["en"]


# ---- docs/rules.md: every rule id the code cites can be looked up -------------------------

RULE_ID = re.compile(r"\b(?:C|BG|FR|BGN|BG3|BG2|OB|SUR|KIR|CAN|CRO|TWO)-\d+\b")
STATED = re.compile(
    r"^\s*(?:[-*]|#{1,6})\s+\**((?:C|BG|FR|BGN|BG3|BG2|OB|SUR|KIR|CAN|CRO|TWO)-\d+)\b",
    re.MULTILINE,
)


def cited_rule_ids() -> set[str]:
    """Every rule id in the server's source: the engine's refusals name them in `rule`, house
    rules in `GET /api/rules`, and the rooms and bots cite them in docstrings."""
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        found.update(RULE_ID.findall(path.read_text()))
    return found


def missing_rule_ids(rules_text: str, cited: set[str]) -> list[str]:
    """The cited ids that no heading or bullet of `rules_text` states."""
    return sorted(cited - set(STATED.findall(rules_text)))


def test_the_reader_finds_the_rule_ids() -> None:
    """Guard against a pattern that passes because it finds nothing."""
    from app.rules import HOUSE_RULES

    cited = cited_rule_ids()
    assert {"C-7", "C-9", "BG-5", "BG-9", "BG-19", "FR-3", "FR-6", "FR-7"} <= cited
    assert {rule.rule for rule in HOUSE_RULES} <= cited
    assert len(cited) > 40


def test_every_rule_id_the_code_cites_is_stated_in_the_rules_document() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    assert missing_rule_ids(rules, cited_rule_ids()) == []


def test_every_rule_id_the_docs_cite_is_stated_in_the_rules_document() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    cited: set[str] = set()
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        cited.update(RULE_ID.findall(path.read_text()))
    assert missing_rule_ids(rules, cited) == []


def test_a_rule_missing_from_the_rules_document_is_noticed() -> None:
    """The check must fail when a rule's bullet is gone, not only pass when all are there."""
    rules = (ROOT / "docs" / "rules.md").read_text()
    without = "\n".join(line for line in rules.splitlines() if "**BG-9**" not in line)
    assert missing_rule_ids(without, {"BG-9", "BG-10"}) == ["BG-9"]
    # a mere mention (in a table or in prose) is not a statement of the rule
    assert missing_rule_ids("| BG-9 | x |\nas BG-9 says\n", {"BG-9"}) == ["BG-9"]


# ---- links between documents ------------------------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"`((?:app|bench|docs|migrations|shared|static|tests)/[^`\s{}…*]*)`")


def _anchors(markdown: str) -> set[str]:
    """The fragment ids GitHub gives a document's headings (`## 3. History (REST)` →
    `3-history-rest`; repeated headings get `-1`, `-2`, …)."""
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*$", markdown, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        unique, n = slug, 0
        while unique in anchors:
            n += 1
            unique = f"{slug}-{n}"
        anchors.add(unique)
    return anchors


def broken_links(path: Path) -> list[str]:
    """Links of a Markdown file to files or headings that do not exist, and repository paths
    written in backquotes that do not exist."""
    text = path.read_text()
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto: — not ours to check offline
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists() or (
            fragment and linked.suffix == ".md" and fragment not in _anchors(linked.read_text())
        ):
            broken.append(target)
    broken.extend(p for p in REPO_PATH.findall(text) if not (ROOT / p).exists())
    return broken


def test_the_link_reader_finds_links() -> None:
    rules = ROOT / "docs" / "rules.md"
    assert len(LINK.findall(rules.read_text())) > 10
    assert "bulgarian-belot--preset-bulgarian" in _anchors(rules.read_text())
    assert broken_links(rules) == []


def test_the_docs_link_only_to_files_and_headings_that_exist() -> None:
    broken = {
        str(path.relative_to(ROOT)): found
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        if (found := broken_links(path))
    }
    assert broken == {}


def test_a_broken_link_is_noticed(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n[ok](#title) [gone](nowhere.md) [bad anchor](#nope) `docs/no-such-file.md`\n"
    )
    assert broken_links(page) == ["nowhere.md", "#nope", "docs/no-such-file.md"]


# ------------------------------------------------------------------- the settings' defaults

# "`BELOTE_X` (30)", "`BELOTE_X` (default 10 min)", "`BELOTE_X`, default 0.8", "(5 s)": a
# setting named with the value it has when not set, in its own unit unless one is given.
DEFAULT_SAID = re.compile(
    r"`BELOTE_([A-Z0-9_]+)`,?\s+\(?(?:default\s+)?([0-9][0-9.]*)(?:\s*(s|min|h)\b)?"
)
UNITS = {"": 1, "s": 1, "min": 60, "h": 3600}


def defaults_said(text: str) -> list[tuple[str, float]]:
    """Each setting the text names with a default, and that default in the setting's unit."""
    return [
        (name.lower(), float(number.rstrip(".")) * UNITS[unit])
        for name, number, unit in DEFAULT_SAID.findall(text)
    ]


def test_the_default_reader_finds_defaults() -> None:
    said = defaults_said("`BELOTE_A_SECONDS` (10 min) and `BELOTE_B`, default 0.8, and (5 s)")
    assert said == [("a_seconds", 600.0), ("b", 0.8)]


def test_every_default_the_docs_give_a_setting_is_its_default() -> None:
    """A document that says what a setting is when not set says what the server does: the
    protocol once said a deal's result was shown for 0 s by default, where it is 10."""
    from app.settings import Settings

    fields = Settings.model_fields
    found = 0
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for name, value in defaults_said(path.read_text()):
            assert name in fields, f"{path.name}: BELOTE_{name.upper()} is no setting"
            default = fields[name].default
            assert float(default) == value, f"{path.name}: BELOTE_{name.upper()} is {default}"
            found += 1
    assert found > 20
