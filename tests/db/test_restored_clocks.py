"""A restored room resumes its clocks and its votes where they stood.

Before, a room rebuilt after a restart or a node's failure dealt the next deal at once when it
was in the pause after a deal (the players lost the result they were reading), gave the person
to act a full turn clock again, and forgot every vote: rematch, concede and "next deal". The
clocks now count from the time the match last moved (its last action's stored time, or when
its deal was dealt), and the votes are stored with the match and deal they were cast at. An
away player's grace period before a stand-in started afresh too; it now counts from the stored
time they left the table.

Each test moves the stored times back, as if the room had been waiting that long before it was
restored: the restored clock must show that, where a fresh clock would not.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.rooms.config import MOST_TARGET
from app.rooms.manager import RoomManager
from app.rooms.room import RESUMED_TURN_SECONDS, Room, RoomTimings
from app.rules import action_to_dict, legal_actions
from tests.db.test_store import add_player, running
from tests.rooms.fakes import Inbox

PAUSE = 120.0  # the longest a room may have
TURN = 120.0


async def age(url: str, code: str, seconds: float) -> None:
    """Move back by ``seconds`` the stored times the room's clocks count from: when its deals
    were dealt and when their actions were stored. (Read and written back: SQLite has no
    arithmetic on stored times.)"""
    engine = make_engine(url)
    back = timedelta(seconds=seconds)
    async with make_sessionmaker(engine).begin() as session:
        match = select(m.Room.current_match_id).where(m.Room.code == code).scalar_subquery()
        for deal in await session.scalars(select(m.Deal).where(m.Deal.match_id == match)):
            assert deal.dealt_at is not None
            deal.dealt_at -= back
            actions = await session.scalars(
                select(m.ActionRow).where(m.ActionRow.deal_id == deal.id)
            )
            for action in actions:
                action.created_at -= back
    await engine.dispose()


async def table(
    manager: RoomManager, *, humans: tuple[str, ...], turn_seconds: float
) -> tuple[Room, dict[str, Inbox]]:
    """A Bulgarian room of ``humans`` in seats 0 and 2 (connected) and bots elsewhere, its
    match begun: the bots act at once, the people when told to."""
    bots = tuple(s for s in range(4) if s not in (0, 2)[: len(humans)])
    room = await manager.create(
        humans[0],
        humans[0],
        {"preset": "bulgarian"},
        # No deal can end the match (the host's first legal card and random bots: a recontra'd
        # all-trumps deal reached 151 in 0.33% of 20,000 first deals), so a pause follows it.
        target=MOST_TARGET,
        public=False,
        turn_seconds=turn_seconds,
        bot_level="random",
        deal_pause_seconds=PAUSE,
        bots=bots,
    )
    if len(humans) > 1:
        await room.sit(humans[1], humans[1], 2)
    inboxes = {p: Inbox(p) for p in humans}
    for inbox in inboxes.values():
        await room.connect(inbox, None)
    await room.begin(humans[0], fill_with_bots=False)
    return room, inboxes


async def until(room: Room, inbox: Inbox, *, pause: bool, players: dict[int, str]) -> None:
    """Play for the people of ``players`` (seat → id) until one of them is to act (``pause``
    False) or the first deal is over and the pause after it runs (``pause`` True)."""

    def settled(_: dict[str, object]) -> bool:
        match = room.match
        if match is None:
            return False
        if match.deal is None:
            return bool(match.finished_deals)
        return match.deal.turn in players and bool(legal_actions(match.deal))

    while True:
        await inbox.wait(settled)
        match = room.match
        assert match is not None
        if match.deal is None or not pause:
            return
        seat = match.deal.turn
        assert seat is not None
        action = action_to_dict(legal_actions(match.deal)[0])
        await room.act(players[seat], None, room.version, action)


async def restored(manager: RoomManager, code: str) -> Room:
    room = await manager.get(code)
    assert room is not None
    return room


def pause_ends(room: Room) -> int:
    info = room._next_deal_info()
    assert info is not None, "no pause runs"
    return int(info["at"])


def turn_deadline(room: Room) -> int:
    info = room._turn_info()
    assert info is not None and info["deadline"] is not None
    return int(info["deadline"])


async def test_the_pause_after_a_deal_goes_on_after_a_restart(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, inboxes = await table(manager, humans=("host",), turn_seconds=0)
        await until(room, inboxes["host"], pause=True, players={0: "host"})
        ends = pause_ends(room)
        code = room.config.code
    await age(database_url, code, 100)
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert room.match is not None and room.match.deal is None  # not dealt at once
        assert abs(pause_ends(room) - (ends - 100_000)) < 2_000  # the 20 s it had left
    await age(database_url, code, 50)  # 150 s in all: the pause ran out meanwhile
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert pause_ends(room) <= time.time() * 1000


async def test_a_turn_clock_goes_on_with_what_it_had_left(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, inboxes = await table(manager, humans=("host",), turn_seconds=TURN)
        await until(room, inboxes["host"], pause=False, players={0: "host"})
        deadline = turn_deadline(room)
        code = room.config.code
    await age(database_url, code, 100)
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert abs(turn_deadline(room) - (deadline - 100_000)) < 2_000  # 20 s left, not 120
    await age(database_url, code, 1_000)  # ran out while the room was away: a moment to act
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        left = turn_deadline(room) - time.time() * 1000
        assert RESUMED_TURN_SECONDS * 1000 - 2_000 < left <= RESUMED_TURN_SECONDS * 1000


async def test_votes_are_counted_again_after_a_restart(database_url: str) -> None:
    for player in ("host", "guest"):
        await add_player(database_url, player)
    people = {0: "host", 2: "guest"}
    async with running(database_url) as (manager, _store):
        room, inboxes = await table(manager, humans=("host", "guest"), turn_seconds=0)
        await until(room, inboxes["host"], pause=True, players=people)
        await room.next_deal("host")  # the guest has not asked: the pause goes on
        await room.concede("host", True)  # the partner has not offered: the match goes on
        code = room.config.code
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert room.next_deal_votes == {0}
        assert room.concede_votes == {0}
        for player in ("host", "guest"):
            await room.connect(Inbox(player), None)
        await room.concede("guest", True)  # with the host's standing offer: conceded
        assert room.status == "finished" and room.conceded == 0
        await room.rematch("host")
        assert room.rematch_votes == {0}
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert room.rematch_votes == {0}
        for player in ("host", "guest"):
            await room.connect(Inbox(player), None)
        await room.rematch("guest")  # with the host's standing vote: the rematch begins
        assert room.status == "playing"
        match_id = room.match.match_id if room.match else None
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)  # the last match's votes stand no more
        assert room.match is not None and room.match.match_id == match_id
        assert room.concede_votes == set() and room.next_deal_votes == set()


async def away_since(url: str, code: str) -> dict[int, float]:
    """The stored times each seat's player left the table."""
    engine = make_engine(url)
    async with make_sessionmaker(engine).begin() as session:
        room = select(m.Room.id).where(m.Room.code == code).scalar_subquery()
        rows = await session.execute(
            select(m.Seat.seat, m.Seat.away_since).where(
                m.Seat.room_id == room, m.Seat.away_since.is_not(None)
            )
        )
        found = {seat: since for seat, since in rows}
    await engine.dispose()
    return {seat: _epoch(since) for seat, since in found.items()}


def _epoch(at: datetime) -> float:
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


async def leave_earlier(url: str, code: str, seat: int, seconds: float) -> None:
    """As if the seat's player had left the table ``seconds`` before they did."""
    engine = make_engine(url)
    async with make_sessionmaker(engine).begin() as session:
        room = select(m.Room.id).where(m.Room.code == code).scalar_subquery()
        stored = await session.scalar(
            select(m.Seat).where(m.Seat.room_id == room, m.Seat.seat == seat)
        )
        assert stored is not None and stored.away_since is not None
        stored.away_since -= timedelta(seconds=seconds)
    await engine.dispose()


async def test_an_away_players_grace_goes_on_from_when_they_left(database_url: str) -> None:
    for player in ("host", "guest"):
        await add_player(database_url, player)
    grace = RoomTimings().grace_seconds
    async with running(database_url) as (manager, _store):
        room, inboxes = await table(manager, humans=("host", "guest"), turn_seconds=0)
        await until(room, inboxes["host"], pause=False, players={0: "host", 2: "guest"})
        left = time.time()
        await room.disconnect(inboxes["guest"])
        code = room.config.code
        assert abs((await away_since(database_url, code))[2] - left) < 2
        assert 2 not in room.standins
    await leave_earlier(database_url, code, 2, grace - 20)
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        deadline = room._away_timers[2].deadline
        assert abs(deadline - (left + 20)) < 2  # what was left of it, not a full grace again
        guest = Inbox("guest")
        await room.connect(guest, None)  # back: nothing is left on record
        assert 2 not in room._away_timers
        assert await away_since(database_url, code) == {}
        await room.disconnect(guest)  # and gone again
        assert set(await away_since(database_url, code)) == {2}
    await leave_earlier(database_url, code, 2, grace + 100)
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)  # it ran out while the room was away
        inbox = Inbox("host")
        await room.connect(inbox, None)
        await inbox.wait(lambda _frame: 2 in room.standins)


async def test_a_player_absent_when_the_match_begins_has_their_grace_go_on(
    database_url: str,
) -> None:
    """A player who sat down and left before the match began was never recorded as away (a
    disconnection is stored only during a match): a restored room gave them a full grace."""
    for player in ("host", "guest"):
        await add_player(database_url, player)
    grace = RoomTimings().grace_seconds
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host",
            "host",
            {"preset": "bulgarian"},
            target=None,
            public=False,
            turn_seconds=0,
            bot_level="random",
            bots=(1, 3),
        )
        await room.sit("guest", "guest", 2)  # and never connects
        await room.connect(Inbox("host"), None)
        began = time.time()
        await room.begin("host", fill_with_bots=False)
        code = room.config.code
        assert abs((await away_since(database_url, code))[2] - began) < 2
    await leave_earlier(database_url, code, 2, grace - 20)
    async with running(database_url) as (manager, _store):
        room = await restored(manager, code)
        assert abs(room._away_timers[2].deadline - (began + 20)) < 2
