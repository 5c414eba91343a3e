"""Quick phrases (``app.rooms.phrases``, docs/protocol.md §4): a seated player sends one by its
name, every reader gets its name and its English words, each client shows it in its own
language; an unknown phrase is ``bad_chat``, a chat with both or neither of text and phrase is
``bad_message``; a typed line can never pass for a phrase; restored rooms keep them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from app.rooms import phrases
from app.rooms.room import chat_writable
from tests.conftest import Server, new_guest, ws_client
from tests.db.test_store import add_player, running

ROOT = Path(__file__).resolve().parents[2]


async def test_a_phrase_reaches_every_reader_by_its_name(
    http: httpx.AsyncClient, server: Server
) -> None:
    ann, bob = await new_guest(http, "Ann"), await new_guest(http, "Bob")
    code = (await http.post("/api/rooms", json={}, headers=ann.auth)).json()["room"]["code"]
    async with ws_client(server, code) as spectator, ws_client(server, code, ann.token) as me:
        said = await me.reply(await me.send("chat", {"phrase": "gl"}))
        assert said["t"] == "ack", said
        line = await spectator.until("chat")
        assert (line["d"]["phrase"], line["d"]["text"], line["d"]["name"]) == (
            "gl",
            "Good luck!",
            "Ann",
        )
        typed = await me.reply(await me.send("chat", {"text": "hi all"}))
        assert typed["t"] == "ack"
        line = await spectator.until("chat")
        assert (line["d"]["phrase"], line["d"]["text"]) == (None, "hi all")
        refused: list[tuple[dict[str, Any], str]] = [
            ({"phrase": "insult"}, "bad_chat"),
            ({"phrase": "gl", "text": "hi"}, "bad_message"),
            ({}, "bad_message"),
            ({"phrase": 7}, "bad_message"),
            ({"text": phrases.stored("gg")}, "bad_chat"),  # typed, it is a control character
        ]
        for data, code_ in refused:
            reply = await me.reply(await me.send("chat", data))
            assert (reply["t"], reply["d"]["code"]) == ("error", code_), data
        # A spectator may not say one either.
        async with ws_client(server, code, bob.token) as watcher:
            reply = await watcher.reply(await watcher.send("chat", {"phrase": "gg"}))
            assert (reply["t"], reply["d"]["code"]) == ("error", "not_seated")
    # The snapshot of a later reader: the two lines only.
    async with ws_client(server, code) as later:
        snapshot = later.frames[0]
        assert snapshot["t"] == "snapshot"
        assert [(c["phrase"], c["text"]) for c in snapshot["d"]["chat"]] == [
            ("gl", "Good luck!"),
            (None, "hi all"),
        ]


def test_a_typed_line_cannot_hold_the_mark_and_every_phrase_reads_back() -> None:
    assert not chat_writable(phrases.MARK + "gg")
    for name, words in phrases.PHRASES.items():
        assert phrases.phrase_of(phrases.stored(name)) == name
        assert phrases.shown(phrases.stored(name)) == words
    assert phrases.phrase_of("gg") is None and phrases.shown("gg") == "gg"
    assert phrases.phrase_of(phrases.MARK + "nope") is None


async def test_a_restored_room_keeps_its_phrases(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
        )
        await room.say("host", "Host", None, "", phrase="thanks")
        await room.say("host", "Host", None, "typed")
        code = room.config.code
    async with running(database_url) as (manager, _store):
        again = await manager.get(code)
        assert again is not None
        assert [(c["phrase"], c["text"]) for c in again.chat] == [
            ("thanks", "Thanks!"),
            (None, "typed"),
        ]


def test_the_browser_client_offers_the_server_s_phrases_in_every_language() -> None:
    client = (ROOT / "static" / "js" / "phrases.js").read_text()
    listed = re.search(r"export const PHRASES = \[(.*?)\];", client)
    assert listed is not None
    assert re.findall(r'"(\w+)"', listed.group(1)) == list(phrases.PHRASES)
    words = (ROOT / "static" / "js" / "i18n.js").read_text()
    for name in phrases.PHRASES:
        assert len(re.findall(rf"^\s+phrase_{name}:", words, re.MULTILINE)) == 3, name
