"""Friends online (docs/protocol.md §1, "Friends"; ``app.db.presence``): a player is seen when
their token is used — any request, or a table's socket held open — each node writes who it saw
in one statement per round, and only friends read it: online for a few rounds after, then the
time they were last seen. Also the invitations alone (``GET /api/players/me/invitations``), which
the pages other than the lobby ask for."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.presence import Presence, online_window
from app.settings import Settings
from tests.api.test_friends import ask, invited, listing, room
from tests.api.test_ratings_quickplay import code_of
from tests.api.test_suspension import eventually
from tests.conftest import Guest, Server, fast_settings, new_guest, ws_client

LONG_AGO = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The node's own rounds an hour apart: the tests write each round themselves."""
    return fast_settings(database_url).model_copy(update={"presence_seconds": 3600})


@asynccontextmanager
async def database(settings: Settings) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(settings.database_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def seen_at(sessions: async_sessionmaker[AsyncSession], who: Guest) -> datetime | None:
    async with sessions() as session:
        found: datetime | None = await session.scalar(
            select(m.Player.seen_at).where(m.Player.id == who.id)
        )
        return found


async def set_seen(sessions: async_sessionmaker[AsyncSession], who: Guest, at: datetime) -> None:
    async with sessions.begin() as session:
        await session.execute(update(m.Player).where(m.Player.id == who.id).values(seen_at=at))


def presence_of(server: Server) -> Presence:
    assert server.app is not None
    presence: Presence = server.app.state.services.presence
    return presence


def friend(listed: dict[str, Any], who: Guest) -> dict[str, Any]:
    (found,) = [f for f in listed["friends"] if f["id"] == who.id]
    return found


async def test_friends_see_each_other_online_then_last_seen(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    ann, bob, cy, dee = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee")]
    for other in (bob, cy):
        assert await ask(http, ann, other) is False and await ask(http, other, ann) is True
    assert await ask(http, ann, dee) is False  # asked only: not a friend yet
    async with database(settings) as sessions:
        # Seen, but not written yet: nobody is online until the node's round.
        assert {f["name"]: f["online"] for f in (await listing(http, ann))["friends"]} == {
            "Bob": False,
            "Cy": False,
        }
        assert await presence_of(server).write() == 3  # Ann, Bob, Cy used their tokens; Dee not
        mine = await listing(http, ann)
        assert {f["name"]: f["online"] for f in mine["friends"]} == {"Bob": True, "Cy": True}
        stamp = datetime.fromisoformat(friend(mine, bob)["seen_at"])
        assert (stamp.second, stamp.microsecond) == (0, 0)  # to the minute
        assert datetime.now(UTC) - stamp < timedelta(minutes=2)
        assert "online" not in str(mine["asked"]) and "seen_at" not in str(mine["asked"])

        # Bob left long ago: offline, with the time; the online ones come first.
        await set_seen(sessions, bob, LONG_AGO)
        mine = await listing(http, ann)
        assert [(f["name"], f["online"]) for f in mine["friends"]] == [
            ("Cy", True),
            ("Bob", False),
        ]
        assert friend(mine, bob)["seen_at"] == "2026-01-02T03:04:00Z"
        # Just inside and just outside the window.
        window = online_window(settings.presence_seconds)
        await set_seen(sessions, bob, datetime.now(UTC) - window + timedelta(seconds=5))
        assert friend(await listing(http, ann), bob)["online"] is True
        await set_seen(sessions, bob, datetime.now(UTC) - window - timedelta(seconds=1))
        assert friend(await listing(http, ann), bob)["online"] is False

        # Bob's next request makes him online again at the next round.
        assert (await http.get("/api/players/me", headers=bob.auth)).status_code == 200
        await presence_of(server).write()
        assert friend(await listing(http, ann), bob)["online"] is True


async def test_a_socket_held_open_keeps_its_player_seen(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    ann = await new_guest(http, "Ann")
    code = await room(http, ann)
    presence = presence_of(server)
    async with database(settings) as sessions:
        async with ws_client(server, code, ann.token):
            await presence.write()  # the requests before the socket, and the socket
            await set_seen(sessions, ann, LONG_AGO)
            await presence.write()  # no request since: the open socket alone
            assert await seen_at(sessions, ann) != LONG_AGO

        async def let_go() -> bool:  # the server ends the socket's session after the client
            await set_seen(sessions, ann, LONG_AGO)
            await presence.write()
            return await seen_at(sessions, ann) == LONG_AGO

        await eventually(let_go)
        # A socket without a token (a spectator nobody knows) holds nobody.
        async with ws_client(server, code):
            assert await presence.write() == 0


async def test_a_failed_round_writes_its_players_at_the_next(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    ann = await new_guest(http, "Ann")
    await presence_of(server).write()
    async with database(settings) as sessions:
        await set_seen(sessions, ann, LONG_AGO)

        class Down:
            def begin(self) -> Any:
                raise OSError("the database is down")

        presence = Presence(sessions, 30)
        presence.seen(ann.id)
        presence._sessions = Down()  # type: ignore[assignment]
        with pytest.raises(OSError):
            await presence.write()
        presence._sessions = sessions
        assert await presence.write() == 1
        assert await seen_at(sessions, ann) != LONG_AGO
        assert await presence.write() == 0  # written once: nothing is left over


async def test_an_erased_player_is_seen_no_more(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    ann = await new_guest(http, "Ann")
    assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 200
    await presence_of(server).write()
    async with database(settings) as sessions:
        assert await seen_at(sessions, ann) is not None
        exported = (await http.get("/api/players/me/export", headers=ann.auth)).json()
        assert exported["player"]["seen_at"] is not None
        presence_of(server).seen(ann.id)  # seen again just before the erasure
        assert (await http.delete("/api/players/me", headers=ann.auth)).status_code == 204
        assert await seen_at(sessions, ann) is None
        await presence_of(server).write()
        assert await seen_at(sessions, ann) is None


async def test_the_invitations_alone(server: Server, http: httpx.AsyncClient) -> None:
    ann, bob, code = await invited(http)
    alone = await http.get("/api/players/me/invitations", headers=ann.auth)
    assert alone.status_code == 200
    assert alone.json() == {
        "invitations": (await listing(http, ann))["invitations"],
        "play_with": [],
        "tournament_tables": [],
        "tournament_check_ins": [],
        "tournament_partner_asks": [],
    }
    assert [i["room"] for i in alone.json()["invitations"]] == [code]
    assert (await http.get("/api/players/me/invitations", headers=bob.auth)).json() == {
        "invitations": [],
        "play_with": [],
        "tournament_tables": [],
        "tournament_check_ins": [],
        "tournament_partner_asks": [],
    }
    answer = await http.get("/api/players/me/invitations")
    assert code_of(answer) == (401, "not_authenticated")

    # Asked every few seconds, they load no room: a table put away stays away.
    assert server.app is not None
    manager = server.app.state.services.rooms
    assert await manager.evict_idle(float("inf")) == [code]
    alone = await http.get("/api/players/me/invitations", headers=ann.auth)
    assert [i["room"] for i in alone.json()["invitations"]] == [code]
    assert code not in manager
    # Seated at it (the room loads for that), the invitation is not shown; up again, it is.
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=ann.auth)).is_success
    assert (await http.get("/api/players/me/invitations", headers=ann.auth)).json() == {
        "invitations": [],
        "play_with": [],
        "tournament_tables": [],
        "tournament_check_ins": [],
        "tournament_partner_asks": [],
    }
    assert (await http.delete(f"/api/rooms/{code}/seats/me", headers=ann.auth)).is_success
    alone = await http.get("/api/players/me/invitations", headers=ann.auth)
    assert len(alone.json()["invitations"]) == 1
