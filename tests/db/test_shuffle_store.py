"""The committed shuffle in storage: the next deal's seed and each deal's commitment and
contributions survive a restart, reach the exported records, and deals stored before them
(migration 0003) still load and export."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.rooms.shuffle import UNCOMMITTED, VERIFIED, verify_record
from tests.db.test_store import add_player, running
from tests.rooms.fakes import Inbox


async def host_room(manager: RoomManager) -> tuple[Room, Inbox, str]:
    """The host and three bots; the host sends entropy for the first deal and starts."""
    room = await manager.create(
        "host", "Host", {"preset": "bulgarian"}, target=None, public=True, turn_seconds=0,
        bots=(1, 2, 3),
    )  # fmt: skip
    inbox = Inbox("host")
    await room.connect(inbox, None)
    entropy = secrets.token_hex(32)
    await room.contribute("host", inbox.frames[0]["d"]["shuffle"]["next_commitment"], entropy)
    await room.begin("host", fill_with_bots=False)
    return room, inbox, entropy


def my_turn(frame: dict[str, Any]) -> bool:
    deal = frame.get("d", {}).get("deal")
    return bool(deal and deal["legal"])


async def play_first_deal(room: Room, inbox: Inbox) -> None:
    """Play as the host (the bots answer at once) until the first deal has ended."""
    while not any(f["t"] == "deal_end" for f in inbox.frames):
        frame = await inbox.wait(
            lambda f: f["t"] == "deal_end" or (my_turn(f) and f["v"] == room.game_version)
        )
        if frame["t"] != "deal_end":
            await room.act("host", None, room.version, frame["d"]["deal"]["legal"][-1])


def shuffle_of(room: Room) -> dict[str, Any]:
    shuffle: dict[str, Any] = room.snapshot(0, "host")["shuffle"]
    return shuffle


async def test_the_shuffle_survives_a_restart_and_is_exported(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, _inbox, entropy = await host_room(manager)
        before = shuffle_of(room)
        assert before["contributions"] == [{"seat": 0, "entropy": entropy}]
        code = room.config.code

    async with running(database_url) as (manager, _store):
        again = await manager.get(code)
        assert again is not None and shuffle_of(again) == before
        inbox = Inbox("host")
        await again.connect(inbox, None)
        await play_first_deal(again, inbox)
        (end,) = [f for f in inbox.frames if f["t"] == "deal_end"]
        assert end["d"]["shuffle"]["commitment"] == before["commitment"]
        assert again.match is not None
        match_id = again.match.match_id

    engine = make_engine(database_url)
    history = History(make_sessionmaker(engine))
    try:
        deal = await history.deal_record(match_id, 1, reader="host")
        assert deal is not None
        assert deal["commitment"] == before["commitment"]
        assert deal["contributions"] == [{"seat": 0, "entropy": entropy}]
        assert deal["seed"] == end["d"]["shuffle"]["seed"]
        assert verify_record(deal) == [{"number": 1, "verdict": VERIFIED}]
        match = await history.match_record(match_id, reader="host")
        assert match is not None and verify_record(match)[0]["verdict"] == VERIFIED
    finally:
        await engine.dispose()


async def test_deals_and_rooms_stored_before_commitments_still_load_and_export(
    database_url: str,
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, inbox, _entropy = await host_room(manager)
        await play_first_deal(room, inbox)
        assert room.match is not None
        code, match_id = room.config.code, room.match.match_id
    engine = make_engine(database_url)
    async with engine.begin() as connection:  # as migration 0003 leaves older rows
        await connection.execute(update(m.Deal).values(commitment=None, contributions=None))
        await connection.execute(update(m.Room).values(next_seed=None))
    history = History(make_sessionmaker(engine))
    try:
        deal = await history.deal_record(match_id, 1, reader="host")
        assert deal is not None and deal["commitment"] is None and deal["contributions"] == []
        assert verify_record(deal) == [{"number": 1, "verdict": UNCOMMITTED}]
    finally:
        await engine.dispose()

    async with running(database_url) as (manager, _store):
        again = await manager.get(code)
        assert again is not None
        inbox = Inbox("host")
        await again.connect(inbox, None)  # queued after the room drew and stored a next seed
        assert inbox.frames[0]["d"]["shuffle"]["next_commitment"] is not None
