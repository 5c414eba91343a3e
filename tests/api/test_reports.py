"""A player reports another to the site's operator (``POST /api/players/{id}/reports``,
docs/protocol.md §1): kept with the reported player's last chat lines at that table, read by
the operator alone (``python -m app.admin reports``), one a day per reporter and player, limited
per reporter, and gone with either player's erasure."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.reports import OWN_LISTED
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Server, new_guest, ws_client


async def test_a_report_keeps_the_player_s_last_lines_for_the_operator_alone(
    http: httpx.AsyncClient,
    server: Server,
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ann, rude, calm = [await new_guest(http, n) for n in ("Ann", "Rude", "Calm")]
    code = (await http.post("/api/rooms", json={}, headers=ann.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=rude.auth)).is_success
    async with ws_client(server, code, rude.token) as client:
        for text in ("hello", "you are all idiots", "idiots!"):
            assert (await client.reply(await client.send("chat", {"text": text})))["t"] == "ack"
    body = {"reason": "chat", "room": code, "text": "  Insults, twice. "}
    answer = await http.post(f"/api/players/{rude.id}/reports", json=body, headers=ann.auth)
    assert answer.status_code == 204, answer.text
    again = {"reason": "chat", "room": code, "text": "Insults, three times."}  # replaces it
    answer = await http.post(f"/api/players/{rude.id}/reports", json=again, headers=ann.auth)
    assert answer.status_code == 204
    by_calm = {"reason": "name"}
    answer = await http.post(f"/api/players/{rude.id}/reports", json=by_calm, headers=calm.auth)
    assert answer.status_code == 204
    answer = await http.post(f"/api/players/{ann.id}/reports", json=by_calm, headers=calm.auth)
    assert answer.status_code == 204

    assert await asyncio.to_thread(admin.main, ["reports"], settings) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "3 open reports in the last 7 days."
    assert said[1] == f"Rude (id {rude.id}): 2 reports by 2 players"  # the most reported first
    assert said[2].endswith(f"UTC, name, by Calm (id {calm.id})")  # the newest first
    assert said[3].endswith(f"UTC, chat at table {code}, by Ann (id {ann.id})")
    assert said[4] == "    says: Insults, three times."
    assert [line.split(": ", 1)[1] for line in said[5:8]] == [
        "hello",
        "you are all idiots",
        "idiots!",
    ]
    assert said[8] == f"Ann (id {ann.id}): 1 report by 1 player"
    assert len(said) == 10

    # The operator deals with Rude: the suspension answers the reports on them.
    suspend = ["suspend", rude.id, "--reason", "Abuse at table 1"]
    assert await asyncio.to_thread(admin.main, suspend, settings) == 0
    assert capsys.readouterr().out.splitlines()[1] == "2 open reports closed as upheld."
    assert await asyncio.to_thread(admin.main, ["reports"], settings) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 open report in the last 7 days.",
        said[8],
        said[9],
    ]
    assert await asyncio.to_thread(admin.main, ["reports", "--all"], settings) == 0
    every = capsys.readouterr().out.splitlines()
    assert every[0] == "3 reports in the last 7 days."
    assert every[1] == (
        f"Rude (id {rude.id}): 2 reports (2 closed) by 2 players; "
        "suspended until lifted: Abuse at table 1"
    )
    assert every[2].startswith(said[2]) and every[2].endswith(" UTC")
    assert "); upheld 20" in every[2] and "); upheld 20" in every[3]
    assert every[4:8] == said[4:8] and every[8:] == said[8:]

    # Nobody else reads them: the room, the player, their matches say nothing of it (the
    # reported player's own answered reports are theirs as reporter: none).
    for path in (f"/api/rooms/{code}", f"/api/players/{rude.id}/matches"):
        read = await http.get(path, headers=rude.auth)
        assert read.status_code == 200 and "Insults" not in read.text and "report" not in read.text
    read = await http.get("/api/players/me", headers=rude.auth)
    assert read.json()["answered_reports"] == [] and "Insults" not in read.text
    assert (await http.get("/api/players/me/reports", headers=rude.auth)).json() == []


async def test_a_report_that_cannot_be_made_is_refused_and_changes_nothing(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, rude = await new_guest(http, "Ann"), await new_guest(http, "Rude")
    url = f"/api/players/{rude.id}/reports"
    refusals = [
        (await http.post(url, json={"reason": "chat"}), (401, "not_authenticated")),
        (
            await http.post(
                f"/api/players/{ann.id}/reports", json={"reason": "chat"}, headers=ann.auth
            ),
            (422, "bad_request"),  # not oneself
        ),
        (
            await http.post(
                "/api/players/00000000000000ff/reports", json={"reason": "chat"}, headers=ann.auth
            ),
            (404, "unknown_player"),
        ),
        (
            await http.post(url, json={"reason": "chat", "room": "nosuchroom"}, headers=ann.auth),
            (404, "unknown_room"),
        ),
        (await http.post(url, json={"reason": "rude"}, headers=ann.auth), (422, "bad_request")),
        (
            await http.post(url, json={"reason": "chat", "text": "x" * 501}, headers=ann.auth),
            (422, "bad_request"),
        ),
        (
            await http.post(url, json={"reason": "chat", "text": "a\u0000b"}, headers=ann.auth),
            (422, "bad_request"),
        ),
    ]
    assert [code_of(answer) for answer, _ in refusals] == [expected for _, expected in refusals]
    assert await asyncio.to_thread(admin.main, ["reports"], settings) == 0
    assert capsys.readouterr().out == "0 open reports in the last 7 days.\n"
    # Five at once, then one a minute (the operator reads each).
    others = [await new_guest(http, f"P{i}") for i in range(6)]
    answers = [
        (await http.post(f"/api/players/{o.id}/reports", json={"reason": "play"}, headers=ann.auth))
        for o in others
    ]
    assert [a.status_code for a in answers] == [204] * 5 + [429]
    assert code_of(answers[-1]) == (429, "rate_limited")


async def test_erasure_takes_the_reports_made_and_those_about_the_player_and_their_suspension(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, rude, calm = [await new_guest(http, n) for n in ("Ann", "Rude", "Calm")]
    for reporter, reported in ((ann, rude), (rude, calm), (calm, ann)):
        url = f"/api/players/{reported.id}/reports"
        assert (await http.post(url, json={"reason": "other"}, headers=reporter.auth)).is_success
    command = ["suspend", rude.id, "--reason", "Rude words about Calm"]
    assert await asyncio.to_thread(admin.main, command, settings) == 0
    capsys.readouterr()
    assert (await http.delete("/api/players/me", headers=rude.auth)).status_code == 204
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            row = await session.get(m.Player, rude.id)
            assert row is not None and row.erased_at is not None
            # The operator's words about the person go with them too.
            assert (row.suspension_reason, row.suspended_until) == (None, None)
    finally:
        await engine.dispose()
    assert await asyncio.to_thread(admin.main, ["reports"], settings) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "1 open report in the last 7 days."  # Calm's on Ann: neither was Rude
    assert said[1] == f"Ann (id {ann.id}): 1 report by 1 player"


async def test_the_operator_closes_what_they_read_and_a_new_report_opens_again(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """``close`` dismisses (or upholds) the open reports on a player; renaming them closes those
    about their name alone; a report made after it is open, and so is one a reporter makes
    again: new words are for the operator to read."""
    ann, calm, rude = [await new_guest(http, n) for n in ("Ann", "Calm", "Rude name")]

    async def report(who: Any, reason: str) -> None:
        url = f"/api/players/{rude.id}/reports"
        answer = await http.post(url, json={"reason": reason}, headers=who.auth)
        assert answer.status_code == 204, answer.text

    async def run(*command: str) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == 0
        return capsys.readouterr().out.splitlines()

    await report(ann, "name")
    await report(calm, "chat")
    assert await run("rename", rude.id, "Player 7") == [
        f"Player {rude.id} is now called Player 7.",
        "1 open report closed as upheld.",  # Ann's, on the name; Calm's on the chat stays
    ]
    still = await run("reports")
    assert still[:2] == [
        "1 open report in the last 7 days.",
        f"Player 7 (id {rude.id}): 1 report by 1 player",
    ]
    assert still[2].endswith(f"UTC, chat, by Calm (id {calm.id})")
    assert await run("close", rude.id) == [f"Player {rude.id}: 1 open report closed as dismissed."]
    assert await run("reports") == ["0 open reports in the last 7 days."]
    assert await run("close", rude.id, "--upheld") == [f"Player {rude.id}: no open report."]
    every = await run("reports", "--all")
    assert every[1].startswith(f"Player 7 (id {rude.id}): 2 reports (2 closed) by 2 players")
    assert [line.split("; ")[1][:9] for line in every[2:]] == ["dismissed", "upheld 20"]

    await report(calm, "play")  # Calm again, the same day: replaces the closed one, open
    opened = await run("reports")
    assert opened[0] == "1 open report in the last 7 days."
    assert opened[2].endswith(f"UTC, play, by Calm (id {calm.id})")
    assert await run("close", rude.id, "--upheld") == [
        f"Player {rude.id}: 1 open report closed as upheld."
    ]
    assert await asyncio.to_thread(admin.main, ["close", "00000000000000ff"], settings) == 1
    assert "No player has the id or username '00000000000000ff'." in capsys.readouterr().err


async def test_a_reporter_reads_what_came_of_their_reports_and_is_told_each_once(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """``GET /api/players/me/reports`` gives a reporter their reports with the outcome and
    nothing of the evidence; ``GET /api/players/me`` lists the closed ones not yet read until
    ``POST /api/players/me/reports/read`` marks them; nobody else reads them."""
    ann, calm, rude, lout = [await new_guest(http, n) for n in ("Ann", "Calm", "Rude", "Lout")]
    for who, whom, reason in ((ann, rude, "chat"), (ann, lout, "name"), (calm, rude, "play")):
        body = {"reason": reason, "text": f"{who.name} on {whom.name}"}
        answer = await http.post(f"/api/players/{whom.id}/reports", json=body, headers=who.auth)
        assert answer.status_code == 204, answer.text

    async def mine(who: Any) -> list[dict[str, Any]]:
        answer = await http.get("/api/players/me/reports", headers=who.auth)
        assert answer.status_code == 200, answer.text
        return list(answer.json())

    async def answered(who: Any) -> list[dict[str, Any]]:
        answer = await http.get("/api/players/me", headers=who.auth)
        assert answer.status_code == 200, answer.text
        return list(answer.json()["answered_reports"])

    open_ = await mine(ann)
    assert [(r["player"]["name"], r["reason"], r["outcome"], r["told"]) for r in open_] == [
        ("Lout", "name", None, False),  # the newest first
        ("Rude", "chat", None, False),
    ]
    assert open_[1]["text"] == "Ann on Rude" and open_[1]["closed_at"] is None
    assert "evidence" not in open_[1]
    assert await answered(ann) == [] and await mine(rude) == []

    suspend = ["suspend", rude.id, "--reason", "Abuse"]
    assert await asyncio.to_thread(admin.main, suspend, settings) == 0
    assert await asyncio.to_thread(admin.main, ["close", lout.id], settings) == 0
    capsys.readouterr()
    told = await answered(ann)
    assert [(r["player"]["name"], r["outcome"], r["told"]) for r in told] == [
        ("Lout", "dismissed", False),
        ("Rude", "upheld", False),
    ]
    assert all(r["closed_at"] for r in told)
    assert [r["outcome"] for r in await answered(calm)] == ["upheld"]
    assert await answered(rude) == []  # the reported player is not told

    # Marking others' reports, or unknown ids, changes nothing of theirs; marking one's own.
    calms = (await answered(calm))[0]["id"]
    read = "/api/players/me/reports/read"
    ids = {"ids": [calms, 10**9]}
    assert (await http.post(read, json=ids, headers=ann.auth)).status_code == 204
    assert len(await answered(calm)) == 1 and len(await answered(ann)) == 2
    ids = {"ids": [told[1]["id"]]}
    assert (await http.post(read, json=ids, headers=ann.auth)).status_code == 204
    assert (await http.post(read, json=ids, headers=ann.auth)).status_code == 204  # twice
    assert [r["player"]["name"] for r in await answered(ann)] == ["Lout"]
    assert [(r["player"]["name"], r["told"]) for r in await mine(ann)] == [
        ("Lout", False),
        ("Rude", True),
    ]

    # Bad input is refused whole.
    bads = ({"ids": []}, {"ids": list(range(1, 102))}, {"ids": ["x"]}, {"ids": [2**31]}, {})
    for bad in bads:
        answer = await http.post(read, json=bad, headers=ann.auth)
        assert code_of(answer) == (422, "bad_request"), bad
    assert (await http.post(read, json={"ids": [1]})).status_code == 401
    assert (await http.get("/api/players/me/reports")).status_code == 401
    assert [r["player"]["name"] for r in await answered(ann)] == ["Lout"]


async def test_a_reporter_reads_back_their_newest_hundred_reports_without_evidence(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    """A page, not an archive: the newest ``OWN_LISTED``, and never the evidence."""
    ann, rude = [await new_guest(http, n) for n in ("Ann", "Rude")]
    engine = make_engine(settings.database_url)
    try:
        start = datetime(2026, 12, 1, tzinfo=UTC)
        async with make_sessionmaker(engine).begin() as session:
            for i in range(OWN_LISTED + 1):
                session.add(
                    m.Report(
                        reporter_id=ann.id,
                        reported_id=rude.id,
                        reason="chat",
                        text=f"report {i}",
                        evidence=[{"at": 1.0, "text": "their words"}],
                        created_at=start + timedelta(minutes=i),
                    )
                )
    finally:
        await engine.dispose()
    answer = await http.get("/api/players/me/reports", headers=ann.auth)
    listed = answer.json()
    assert len(listed) == OWN_LISTED
    assert (listed[0]["text"], listed[-1]["text"]) == (f"report {OWN_LISTED}", "report 1")
    assert "their words" not in answer.text
