"""A node hears of the players erased or renamed through another (``app.db.player_news``): the
rooms in its memory stop naming the erased — their chat lines, their name among those removed —
and show the renamed under their new name at their seats, at its next round, on SQLite and
PostgreSQL. Before, such a room showed the old name until it was next loaded."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import update

from app.db import models as m
from app.db.accounts import Accounts, LoginLimits
from app.db.engine import make_engine, make_sessionmaker
from app.db.player_news import OVERLAP, PlayerNews
from app.db.players import Players
from app.rooms.suspensions import Suspension
from tests.db.test_store import add_player, running
from tests.rooms.fakes import Inbox


async def test_the_rooms_of_another_node_forget_an_erased_player(database_url: str) -> None:
    for player in ("host", "zora", "yann", "xena"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with running(database_url) as (manager, _store):
            started = datetime.now(UTC)
            # This node's clock is ahead of the erasing node's, by less than the overlap.
            watch = PlayerNews(
                sessions,
                manager.forget_player,
                manager.rename_player,
                3600,
                now=started + OVERLAP / 2,
            )
            room = await manager.create(
                "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
            )
            await room.sit("zora", "Zora", 1)
            await room.say("zora", "Zora", None, "hello from Zora")
            await room.remove("host", 1)
            await room.sit("yann", "Yann", 2)
            await room.say("yann", "Yann", None, "hi")
            assert await watch.check() == 0  # nobody erased yet
            accounts = Accounts(sessions, LoginLimits())
            await accounts.erase("zora")  # through another node: this room was not told
            # Xena was erased long before this node started: its rooms were loaded scrubbed.
            await accounts.erase("xena")
            async with sessions.begin() as session:
                await session.execute(
                    update(m.Player)
                    .where(m.Player.id == "xena")
                    .values(erased_at=started - 2 * OVERLAP)
                )
            assert room.removed == {"zora": "Zora"}
            assert [line["player"] for line in room.chat] == ["zora", "yann"]
            assert await watch.check() == 1
            assert room.removed == {"zora": None}
            assert [line["player"] for line in room.chat] == ["yann"]
            assert "Zora" not in str(room.summary())
            assert await watch.check() == 0  # once each
            assert room.seats[2].name == "Yann"
    finally:
        await engine.dispose()


async def test_a_round_that_fails_is_caught_up_by_the_next(database_url: str) -> None:
    """The watch reads what it missed: an erasure made while a round failed (the database was
    unreachable) is forgotten at the next round."""
    await add_player(database_url, "zora")
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    forgotten: list[str] = []
    rounds = 0

    async def no_rename(player_id: str, name: str) -> None:
        raise AssertionError("nobody was renamed")

    def flaky() -> Any:
        nonlocal rounds
        rounds += 1
        if rounds == 1:
            raise OSError("the database is unreachable")
        return sessions()

    try:
        watch = PlayerNews(flaky, forgotten.append, no_rename, 3600)  # type: ignore[arg-type]
        await Accounts(sessions, LoginLimits()).erase("zora")
        with pytest.raises(OSError):
            await watch.check()
        assert await watch.check() == 1
        assert forgotten == ["zora"]
    finally:
        await engine.dispose()


async def test_a_node_shows_a_player_renamed_through_another_at_their_seat(
    database_url: str,
) -> None:
    """Stored too: the room had written its seats whole (someone sat down) with the old name
    after the rename reached the database; the new name is stored again with the seat's."""
    for player in ("host", "yann", "walt"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with running(database_url) as (manager, _store):
            news = PlayerNews(sessions, manager.forget_player, manager.rename_player, 3600)
            room = await manager.create(
                "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
            )
            await room.sit("yann", "Yann", 2)
            await Players(sessions).rename("yann", "Yannick")  # through another node
            await room.sit("walt", "Walt", 1)  # the seats written whole, Yann's old name in them
            version = room.version
            assert await news.check() == 1
            assert room.seats[2].name == "Yannick" and room.version == version + 1
            assert await news.check() == 0  # once
            await room.say("yann", "Yann", None, "it is Yannick now")  # an old socket's name
            assert room.chat[-1]["name"] == "Yannick"
            code = room.config.code
        async with running(database_url) as (manager, _store):
            restored = await manager.get(code)
            assert restored is not None and restored.seats[2].name == "Yannick"
    finally:
        await engine.dispose()


async def test_a_node_applies_the_operator_s_suspensions_once_each(database_url: str) -> None:
    """Suspended (``python -m app.admin suspend`` writes it to the database): the node's rooms
    let the player go and refuse them a seat; lifted: they sit again. A player both renamed and
    suspended is told both."""
    for player in ("host", "vera"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with running(database_url) as (manager, _store):
            news = PlayerNews(
                sessions,
                manager.forget_player,
                manager.rename_player,
                3600,
                suspend=manager.suspend_player,
            )
            room = await manager.create(
                "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
            )
            await room.sit("vera", "Vera", 2)
            players = Players(sessions)
            assert await players.suspend("vera", "Cheating", datetime.now(UTC) + OVERLAP)
            await players.rename("vera", "Verity")
            assert await players.suspend("nobody", "Cheating", None) is False
            assert room.seat_of("vera") == 2  # not told yet
            assert await news.check() == 2
            assert room.seat_of("vera") is None and manager.suspensions.holds("vera")
            assert await news.check() == 0  # once each
            assert await players.suspensions() == {
                "vera": manager.suspensions.of("vera"),
            }
            assert await players.lift_suspension("vera")
            assert await news.check() == 1
            assert not manager.suspensions.holds("vera")
            await room.sit("vera", "Verity", 2)
            assert await players.suspensions() == {}
    finally:
        await engine.dispose()


async def test_a_room_loaded_later_lets_a_suspended_player_go(database_url: str) -> None:
    """A room nobody used was not in memory when the suspension came (put away, or the server
    restarted): it lets the player go once it is loaded. Before, they stayed seated, and the
    host could begin a match with them in it."""
    for player in ("host", "vera"):
        await add_player(database_url, player)
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
        )
        await room.sit("vera", "Vera", 2)
        code = room.config.code
    async with running(database_url) as (manager, _store):
        manager.suspensions.set("vera", Suspension("Cheating", None))  # read when it started
        inbox = Inbox(None)
        loaded = await manager.get(code)
        assert loaded is not None
        await loaded.connect(inbox, None)
        await inbox.wait(lambda f: f["t"] == "room" and f["d"]["seats"][2]["player"] is None)
        assert loaded.seat_of("vera") is None and loaded.seats[0].player_id == "host"
