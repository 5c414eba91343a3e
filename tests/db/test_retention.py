"""Rooms made and never played are deleted once untouched for ``room_retention_days``, with
their seats and chat (``app.db.retention``); a room that played, a recent one, one held in a
node's memory or leased by a live node stays. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.reports import Reports
from app.db.retention import Retention
from tests.db.test_store import add_player, host_and_bots, running

OLD = datetime.now(UTC) - timedelta(days=40)


async def test_only_rooms_never_played_and_long_untouched_are_deleted(database_url: str) -> None:
    for player in ("host", "guest"):
        await add_player(database_url, player)
    async with running(database_url) as (manager, _store):
        codes = {}
        for name in ("abandoned", "recent", "held", "leased", "lease_lapsed"):
            room = await manager.create(
                "host", "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
            )
            codes[name] = room.config.code
        abandoned = await manager.get(codes["abandoned"])
        assert abandoned is not None
        await abandoned.sit("guest", "Guest", 2)
        await abandoned.say("guest", "Guest", None, "anyone there?")
        played = await host_and_bots(manager, "bulgarian", target=None, public=False)
        await played.begin("host", fill_with_bots=False)
        codes["played"] = played.config.code
        await played.concede("host", True)

    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions.begin() as session:
            old = [codes[n] for n in codes if n != "recent"]
            await session.execute(update(m.Room).where(m.Room.code.in_(old)).values(updated_at=OLD))
            now = datetime.now(UTC)
            for node, expires in (("alive", now + timedelta(hours=1)), ("dead", OLD)):
                session.add(m.NodeLease(node=node, epoch=1, expires_at=expires))
            session.add(m.RoomLease(room_code=codes["leased"], node="alive", epoch=1))
            session.add(m.RoomLease(room_code=codes["lease_lapsed"], node="dead", epoch=1))

        assert await Retention(sessions, 0, lambda: []).sweep() == 0  # 0 keeps every room
        retention = Retention(sessions, 30, lambda: [codes["held"]])
        assert await retention.sweep() == 2
        assert await retention.sweep() == 0  # again: nothing more to do

        async with sessions() as session:
            left = set(await session.scalars(select(m.Room.code)))
            seats = await session.scalar(
                select(func.count()).select_from(m.Seat).where(m.Seat.player_id == "guest")
            )
            chat = await session.scalar(select(func.count()).select_from(m.ChatMessage))
            leases = set(await session.scalars(select(m.RoomLease.room_code)))
        assert left == {codes[n] for n in ("recent", "held", "leased", "played")}
        assert (seats, chat) == (0, 0)  # the abandoned room's seat and chat went with it
        assert leases == {codes["leased"]}
    finally:
        await engine.dispose()
    async with running(database_url) as (manager, _store):
        assert await manager.get(codes["abandoned"]) is None
        assert await manager.get(codes["played"]) is not None


async def test_reports_go_after_report_retention_days(database_url: str) -> None:
    """A report holds the reported player's words: kept while fresh (the operator reads it),
    deleted ``report_retention_days`` (180) after it was made; 0 keeps every report."""
    for player in ("ann", "rude"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        reports = Reports(sessions)
        await reports.file("ann", "rude", None, "chat", "old words")
        async with sessions.begin() as session:  # made 200 days ago
            await session.execute(update(m.Report).values(created_at=OLD - timedelta(days=160)))
        await reports.file("ann", "rude", None, "name", "fresh words")
        assert await Retention(sessions, 30, lambda: []).sweep_reports() == 0  # 0: kept
        retention = Retention(sessions, 30, lambda: [], report_days=180)
        assert await retention.sweep_reports() == 1
        assert await retention.sweep_reports() == 0
        left = await reports.since(OLD - timedelta(days=365))
        assert [(f.reason, f.text) for f in left] == [("name", "fresh words")]
    finally:
        await engine.dispose()


async def test_networks_are_swept_whatever_rooms_and_reports_keep(database_url: str) -> None:
    """The networks players used go 30 days after their last use (``app.db.networks``) even where
    the operator keeps every room and report (0 days): the retention task runs all the same."""
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions.begin() as session:
            session.add(m.PlayerNetwork(player_id="host", network="203.0.113.7", seen_at=OLD))
            fresh = datetime.now(UTC)
            session.add(m.PlayerNetwork(player_id="host", network="198.51.100.2", seen_at=fresh))

        async def kept() -> list[str]:
            async with sessions() as session:
                return list(await session.scalars(select(m.PlayerNetwork.network)))

        retention = Retention(sessions, 0, lambda: [])
        retention.start()
        try:
            async with asyncio.timeout(10):  # its first round runs at once
                while len(await kept()) > 1:
                    await asyncio.sleep(0.05)
        finally:
            await retention.close()
        assert await kept() == ["198.51.100.2"]
    finally:
        await engine.dispose()
