"""Loading rooms: the store's batch read of plain Core rows (``SqlStore.load_rooms``, what a
take-over restores from) builds exactly the ``StoredRoom`` the ORM load it replaced built.

``orm_load`` below is that former load, kept here as the reference: six ORM queries per room.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.store import SqlStore
from app.rooms.manager import RoomManager
from app.rooms.ports import (
    RoomConfig,
    SeatRecord,
    StoredChat,
    StoredDeal,
    StoredMatch,
    StoredRoom,
    TableVotes,
)
from app.rooms.room import RoomTimings
from app.rules import action_to_dict, legal_actions
from tests.db.test_store import add_player
from tests.rooms.fakes import Inbox
from tests.rooms.test_shuffle import next_commitment

CHAT_HISTORY = 3
ENTROPY = "5e" * 32


async def orm_load(session: AsyncSession, code: str, chat_history: int) -> StoredRoom | None:
    """The store's load before the batch read (as of commit 765abe4), verbatim but for names."""
    room = await session.scalar(select(m.Room).where(m.Room.code == code))
    if room is None:
        return None
    seats = (
        await session.scalars(select(m.Seat).where(m.Seat.room_id == room.id).order_by(m.Seat.seat))
    ).all()
    chat = (
        await session.scalars(
            select(m.ChatMessage)
            .where(m.ChatMessage.room_id == room.id)
            .order_by(m.ChatMessage.id.desc())
            .limit(chat_history)
        )
    ).all()
    match = await orm_load_match(session, room.current_match_id)
    return StoredRoom(
        config=RoomConfig(
            code=room.code,
            host_id=room.host_id,
            rules=room.rules,
            target=room.target,
            public=room.public,
            turn_seconds=room.turn_seconds,
            bot_level=room.bot_level,
            rated=room.rated,
            deal_pause_seconds=room.deal_pause_seconds,
        ),
        status=room.status,
        version=room.version,
        seats=tuple(SeatRecord(s.player_id, s.name, s.bot) for s in seats),
        match=match,
        chat=tuple(
            StoredChat(c.seat, c.player_id, c.name, c.text, c.at, stored_id(c.command_id))
            for c in reversed(chat)
        ),
        next_seed=room.next_seed,
        standins=tuple(s.seat for s in seats if s.standin),
        away=tuple((s.seat, utc_seconds(s.away_since) or 0.0) for s in seats if s.away_since),
        votes=None if room.votes is None else orm_votes(room.votes),
    )


def stored_id(tagged: str | None) -> str | int | None:
    """A chat line's command id as stored: ``i:`` an integer's text, ``s:`` a string."""
    if tagged is None:
        return None
    kind, _, text = tagged.partition(":")
    return int(text) if kind == "i" else text


def orm_votes(stored: dict[str, Any]) -> TableVotes:
    return TableVotes(
        stored["match"],
        stored["deal"],
        tuple(stored["rematch"]),
        tuple(stored["concede"]),
        tuple(stored["ready"]),
    )


def utc_seconds(at: datetime | None) -> float | None:
    """A stored time read back by the ORM (naive on SQLite: UTC) in seconds since the epoch."""
    if at is None:
        return None
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


async def orm_load_match(session: AsyncSession, match_id: str | None) -> StoredMatch | None:
    if match_id is None:
        return None
    match = await session.get(m.Match, match_id)
    if match is None:
        return None
    deals = (
        await session.scalars(
            select(m.Deal).where(m.Deal.match_id == match_id).order_by(m.Deal.number)
        )
    ).all()
    actions: dict[int, list[m.ActionRow]] = {d.id: [] for d in deals}
    rows = await session.scalars(
        select(m.ActionRow)
        .where(m.ActionRow.deal_id.in_(list(actions)))
        .order_by(m.ActionRow.deal_id, m.ActionRow.seq)
    )
    for row in rows:
        actions[row.deal_id].append(row)
    played_by = await session.scalars(
        select(m.MatchSeat).where(m.MatchSeat.match_id == match_id).order_by(m.MatchSeat.seat)
    )
    return StoredMatch(
        match_id=match.id,
        rules=match.rules,
        target=match.target,
        first_dealer=match.first_dealer,
        finished=match.finished,
        deals=tuple(
            StoredDeal(
                number=d.number,
                dealer=d.dealer,
                seed=d.seed,
                cut=d.cut,
                deck=tuple(d.deck),
                hanging_in=d.hanging_in,
                actions=tuple(a.action for a in actions[d.id]),
                finished=d.finished,
                commitment=d.commitment,
                contributions=tuple(d.contributions or ()),
                auto=frozenset(a.seq for a in actions[d.id] if a.auto),
            )
            for d in deals
        ),
        seats=tuple(SeatRecord(s.player_id, s.name, s.bot) for s in played_by),
        conceded=match.conceded_side(),
        # when the last deal last changed: its last action, or its dealing
        moved_at=utc_seconds(
            max((a.created_at for a in actions[deals[-1].id]), default=deals[-1].dealt_at)
        )
        if deals
        else None,
    )


async def into_second_deal(manager: RoomManager) -> str:
    """A room of the host and three random bots, its first deal played out and a later one
    under way, with more chat lines than a room keeps; its code.

    It returns on the host's turn, after a bot acted in that deal: with no turn clock the room
    then waits for the host, so nothing moves while the test reads it. (Returning right after
    the host acted let the bots go on: four passes void the deal, and a third one began.) It
    reads the room's state, not the frames: a commit can end on an event without a deal, so a
    wait for a frame with the host's legal actions at the room's game version could miss it."""
    room = await manager.create(
        "host",
        "Host",
        {"preset": "bulgarian"},
        # Not the preset's 151: random bots that double and redouble an all-trumps deal can
        # pass it in the first deal (about one run in a hundred), and the match would end
        # before the second deal this waits for.
        target=10_000,
        public=False,
        turn_seconds=0,
        bot_level="random",
        bots=(1, 2, 3),
        deal_pause_seconds=0,
    )
    inbox = Inbox("host")
    await room.connect(inbox, None)
    for i in range(CHAT_HISTORY + 2):  # more lines than a room keeps; ids of both kinds
        await room.say("host", "Host", i if i % 2 else f"c{i}", f"line {i}")
    await room.contribute("host", next_commitment(inbox.frames[0]), ENTROPY)
    await room.begin("host", fill_with_bots=False)
    host = room.seat_of("host")

    def hosts_turn(_: dict[str, Any]) -> bool:  # the room's state, woken by any frame
        deal = None if room.match is None else room.match.deal
        return deal is not None and deal.turn == host and bool(legal_actions(deal))

    while True:
        await inbox.wait(hosts_turn)
        match = room.match
        assert match is not None and match.deal is not None
        if match.number >= 2 and match.auto:
            return room.config.code
        action = action_to_dict(legal_actions(match.deal)[0])
        await room.act("host", None, room.version, action)


async def test_the_batch_load_builds_what_the_orm_load_built(database_url: str) -> None:
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    store = SqlStore(engine, chat_history=CHAT_HISTORY)
    store.start()
    manager = RoomManager(
        store,
        RoomTimings(bot_delay_seconds=0, chat_history=CHAT_HISTORY),
    )
    try:
        playing = await into_second_deal(manager)
        waiting = (
            await manager.create(
                "host", "Host", {"preset": "french"}, target=501, public=True, turn_seconds=20
            )
        ).config.code
        await manager.close()
        async with engine.begin() as connection:  # a match conceded: the scoresheet says so
            sheet: dict[str, Any] = {"conceded": 1, "deals": []}
            match_of = select(m.Room.current_match_id).where(m.Room.code == playing)
            await connection.execute(
                update(m.Match)
                .where(m.Match.id == match_of.scalar_subquery())
                .values(scoresheet=sheet)
            )
            votes = {"match": "x", "deal": 2, "rematch": [], "concede": [1, 3], "ready": [0]}
            await connection.execute(
                update(m.Room).where(m.Room.code == playing).values(votes=votes)
            )
            room_id = select(m.Room.id).where(m.Room.code == playing).scalar_subquery()
            await connection.execute(  # a seat's player away since a known time
                update(m.Seat)
                .where(m.Seat.room_id == room_id, m.Seat.seat == 2)
                .values(away_since=datetime(2026, 12, 4, 12, 0, tzinfo=UTC))
            )
            await connection.execute(  # a line of no seat (stored by an older version)
                insert(m.ChatMessage).values(
                    room_id=room_id, seat=None, player_id="host", name="Host", text="old", at=1.5
                )
            )
        async with make_sessionmaker(engine)() as session:
            old = {c: await orm_load(session, c, CHAT_HISTORY) for c in (playing, waiting)}

        batch = await store.load_rooms([playing, "no-such-room", waiting])
        assert batch == old
        assert await store.load_room(playing) == old[playing]
        assert await store.load_room("no-such-room") is None
        assert await store.load_rooms([]) == {}

        loaded = batch[playing]  # the comparison is about something: every field is there
        assert loaded.match is not None and loaded.match.conceded == 1
        finished = [d.finished for d in loaded.match.deals]  # a void deal is finished too
        assert len(finished) >= 2 and all(finished[:-1]) and not finished[-1]
        assert all(d.actions and d.auto for d in loaded.match.deals)
        assert loaded.match.deals[0].contributions == ({"seat": 0, "entropy": ENTROPY},)
        assert [c.text for c in loaded.chat] == ["line 3", "line 4", "old"]
        assert [c.seat for c in loaded.chat] == [0, 0, None]
        assert [c.command_id for c in loaded.chat] == [3, "c4", None]
        assert loaded.away == ((2, datetime(2026, 12, 4, 12, 0, tzinfo=UTC).timestamp()),)
        assert loaded.next_seed is not None and loaded.seats[0].player_id == "host"
        assert batch[waiting].match is None and batch[waiting].config.target == 501
        assert loaded.votes == TableVotes("x", 2, (), (1, 3), (0,))
        assert batch[waiting].votes is None
        assert loaded.match.moved_at is not None  # its last action's time, within seconds
        assert abs(loaded.match.moved_at - time.time()) < 60
    finally:
        await manager.close()
        await store.close()
        await engine.dispose()
