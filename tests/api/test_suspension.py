"""The operator suspends a player (``python -m app.admin suspend``): within a round of the
server's news (``token_check_seconds``) the player stands up at their tables and is refused,
with 403 or the socket's error ``suspended``, everything that would seat them or be told to
others — a seat, a chat line, a table of their own, quick play, a new name — while they may
still watch. Only they read why and until when. ``lift`` ends it (docs/protocol.md §1)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app import admin
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Guest, Server, new_account, new_guest, serve, ws_client

REASON = "Insults in the chat"


async def eventually(check: Callable[[], Awaitable[bool]]) -> None:
    """Wait for the server's next round of news: a wait for it, not a race."""
    deadline = asyncio.get_running_loop().time() + 10
    while not await check():
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def hearing_news(settings: Settings) -> AsyncIterator[tuple[Server, httpx.AsyncClient]]:
    """A server that reads the operator's changes every 0.05 s, and a client of it."""
    quick = settings.model_copy(update={"token_check_seconds": 0.05})
    async with serve(quick) as server, httpx.AsyncClient(base_url=server.url) as http:
        yield server, http


async def table_with(http: httpx.AsyncClient, host: Guest, guest: Guest) -> str:
    """The code of a table ``host`` made (sitting in seat 0) where ``guest`` sits in seat 2."""
    code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=guest.auth)).is_success
    return str(code)


async def suspension(http: httpx.AsyncClient, who: Guest) -> dict[str, str] | None:
    me = await http.get("/api/players/me", headers=who.auth)
    assert me.status_code == 200, me.text
    held: dict[str, str] | None = me.json()["suspension"]
    return held


async def test_a_suspended_player_watches_but_does_not_play_until_it_is_lifted(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    async with hearing_news(settings) as (server, http):
        rude, host = await new_guest(http, "Rude"), await new_account(http, "Host")
        code = await table_with(http, host, rude)
        assert await suspension(http, rude) is None

        command = ["suspend", rude.id, "--reason", f"  {REASON} ", "--days", "7"]
        assert await asyncio.to_thread(admin.main, command, settings) == 0
        said = capsys.readouterr().out
        assert said.startswith(f"Player {rude.id} is suspended until ")

        async def stood_up() -> bool:
            room = (await http.get(f"/api/rooms/{code}")).json()["room"]
            return bool(room["seats"][2]["player"] is None)

        await eventually(stood_up)
        held = await suspension(http, rude)
        assert held is not None and held["reason"] == REASON
        until = datetime.fromisoformat(held["until"])
        assert timedelta(days=6.99) < until - datetime.now(UTC) <= timedelta(days=7)
        assert await suspension(http, host) is None  # nobody else is touched
        room = await http.get(f"/api/rooms/{code}")
        assert room.status_code == 200 and REASON not in room.text  # nor told why

        refusals = [
            await http.put(f"/api/rooms/{code}/seats/1", headers=rude.auth),
            await http.post("/api/rooms", json={}, headers=rude.auth),
            await http.post("/api/quickplay", json={}, headers=rude.auth),
            await http.patch("/api/players/me", json={"name": "Nice"}, headers=rude.auth),
        ]
        assert [code_of(r) for r in refusals] == [(403, "suspended")] * 4
        assert all(REASON not in r.text for r in refusals)
        assert (await http.get("/api/quickplay", headers=rude.auth)).status_code == 404
        async with ws_client(server, code, rude.token) as client:  # watching: allowed
            for t, d in (("sit", {"seat": 1}), ("chat", {"text": "hello?"})):
                answer = await client.reply(await client.send(t, d))
                assert (answer["t"], answer["d"]["code"]) == ("error", "suspended")
        room = (await http.get(f"/api/rooms/{code}")).json()["room"]
        assert [s["player"] for s in room["seats"][1:]] == [None, None, None]

        assert await asyncio.to_thread(admin.main, ["lift", rude.id], settings) == 0
        assert capsys.readouterr().out.startswith(f"Player {rude.id} may play again.")

        async def lifted() -> bool:
            return await suspension(http, rude) is None

        await eventually(lifted)
        assert (await http.put(f"/api/rooms/{code}/seats/2", headers=rude.auth)).is_success
        renamed = await http.patch("/api/players/me", json={"name": "Nice"}, headers=rude.auth)
        assert renamed.status_code == 200


async def test_an_account_is_suspended_by_username_until_lifted_and_the_host_hands_on(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    async with hearing_news(settings) as (_server, http):
        host, guest = await new_account(http, "Hostile"), await new_guest(http, "Guest")
        code = await table_with(http, host, guest)
        command = ["suspend", f"HOSTILE-{host.id}", "--reason", REASON]  # no end
        assert await asyncio.to_thread(admin.main, command, settings) == 0
        assert capsys.readouterr().out.startswith(f"Player {host.id} is suspended until lifted.")

        async def handed_on() -> bool:
            # Two steps of the room (``Room.let_go``): the room handed on, then the seat left;
            # a read between them saw the first alone (CI, once).
            room = (await http.get(f"/api/rooms/{code}")).json()["room"]
            return bool(room["host"] == guest.id and room["seats"][0]["player"] is None)

        await eventually(handed_on)
        me = await http.get("/api/accounts/me", headers=host.auth)
        assert me.json()["suspension"] == {"reason": REASON, "until": None, "appeal": None}
        assert (await http.get("/api/accounts/me", headers=guest.auth)).json()["suspension"] is None


async def test_a_server_started_after_the_suspension_knows_it(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """The news only reads what changed since the server started: the suspensions in force are
    read when it starts."""
    async with serve(settings) as server, httpx.AsyncClient(base_url=server.url) as http:
        rude = await new_guest(http, "Rude")
    command = ["suspend", rude.id, "--reason", REASON, "--days", "0.5"]
    assert await asyncio.to_thread(admin.main, command, settings) == 0
    slow = settings.model_copy(update={"token_check_seconds": 3600})  # no round of news
    async with serve(slow) as server, httpx.AsyncClient(base_url=server.url) as http:
        refused = await http.post("/api/rooms", json={}, headers=rude.auth)
        assert code_of(refused) == (403, "suspended")
        assert (await suspension(http, rude) or {}).get("reason") == REASON


def test_the_command_says_what_it_needs(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert admin.main(["suspend", "nobody-at-all", "--reason", "spam"], settings) == 1
    assert "No player has the id or username 'nobody-at-all'." in capsys.readouterr().err
    assert admin.main(["lift", "nobody-at-all"], settings) == 1
    for wrong in (
        ["suspend", "someone"],  # a reason is required: the player is told it
        ["suspend", "someone", "--reason", "   "],
        ["suspend", "someone", "--reason", "x" * 201],
        ["suspend", "someone", "--reason", "spam", "--days", "0"],
        ["suspend", "someone", "--reason", "spam", "--days", "a week"],
    ):
        with pytest.raises(SystemExit) as exited:
            admin.main(wrong, settings)
        assert exited.value.code == 2, wrong
