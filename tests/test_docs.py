"""The documentation and the client keep up with the server's error codes.

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
