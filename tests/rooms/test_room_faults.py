"""Faults must not wedge a room (issue 9): a timed step whose commit failed is tried again, a
failed connect leaves nothing behind, and a client never reads why the server failed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ActionTaken, ChatPosted, DealStarted, Op, StandinsChanged
from app.rooms.room import PLAYING, Room, RoomTimings
from app.rules import action_to_dict
from app.transport.ratelimit import PerAddressLimiter
from app.transport.ws import ChatAllowance
from tests.rooms.fakes import Inbox, MemoryStore

HOST, GUEST = "host", "guest"


@pytest.fixture
async def manager(store: MemoryStore) -> AsyncIterator[RoomManager]:
    timings = RoomTimings(
        bot_delay_seconds=0, grace_seconds=0.05, retry_seconds=0.01, retry_max_seconds=0.05
    )
    manager = RoomManager(store, timings)
    yield manager
    await manager.close()


def refuse_first(store: MemoryStore, count: int, matches: Callable[[list[Op]], bool]) -> None:
    """The store fails the first ``count`` commits that ``matches``; the rest go through."""

    def refuse(ops: list[Op]) -> bool:
        return matches(ops) and store.refused < count

    store.refuse = refuse


async def table(manager: RoomManager, *, guest: bool = False, turn_seconds: float = 0) -> Room:
    """A room the host watches from outside: bots, and the guest in seat 1 if asked."""
    room = await manager.create(
        HOST,
        "Host",
        {"preset": "bulgarian"},
        target=None,
        public=False,
        turn_seconds=turn_seconds,
        bots=(0, 2, 3) if guest else (0, 1, 2, 3),
        host_seat=None,
    )
    if guest:
        await room.sit(GUEST, "Guest", 1)
    return room


def assert_stored_as_played(store: MemoryStore, room: Room) -> None:
    """Nothing lost, nothing twice: the stored log of the deal is the one the room plays."""
    match = room.match
    assert match is not None
    deal = match.deal or match.finished_deals[-1]
    stored = [op for op in store.ops(ActionTaken) if op.number == match.number]
    assert [op.seq for op in stored] == list(range(len(deal.actions)))
    assert [op.action for op in stored] == [action_to_dict(a) for a in deal.actions]


@pytest.mark.parametrize("number", [1, 2], ids=["first deal (start)", "next deal (its timer)"])
async def test_a_deal_that_failed_to_store_is_dealt_when_storage_is_back(
    manager: RoomManager, store: MemoryStore, number: int
) -> None:
    room = await table(manager)
    watcher = Inbox(HOST)
    await room.connect(watcher, None)
    refuse_first(
        store, 3, lambda ops: any(isinstance(o, DealStarted) and o.number == number for o in ops)
    )
    await room.begin(HOST, fill_with_bots=False)  # the match is stored even if its deal is not
    assert room.status == PLAYING
    frame = await watcher.wait(lambda f: f["t"] == "deal" and f["d"]["number"] == number)
    assert store.refused == 3
    assert [op.number for op in store.ops(DealStarted)] == list(range(1, number + 1))
    versions = [f["v"] for f in watcher.frames if f["t"] != "snapshot"]
    assert versions == list(range(versions[0], versions[0] + len(versions)))  # gapless
    assert frame["v"] in versions


@pytest.mark.parametrize("who", ["bot", "clock"])
async def test_a_move_that_failed_to_store_is_made_when_storage_is_back(
    manager: RoomManager, store: MemoryStore, who: str
) -> None:
    """A bot's move (BG-2's turn order goes on) and the move the clock makes for a slow player
    are timed steps: a failed commit arms them again, and the retry does not apply twice."""
    room = await table(manager, guest=who == "clock", turn_seconds=0.01 if who == "clock" else 0)
    watcher = Inbox(HOST)
    await room.connect(watcher, None)
    seat = 1 if who == "clock" else None  # the guest never connects: the clock plays for them

    def is_move(ops: list[Op]) -> bool:
        return any(
            isinstance(o, ActionTaken) and (seat is None or o.action["seat"] == seat) for o in ops
        )

    refuse_first(store, 3, is_move)
    await room.begin(HOST, fill_with_bots=False)
    await store.refusals(3)
    await watcher.wait(
        lambda f: f["t"] == "action" and f["d"]["auto"] and (seat is None or f["d"]["seat"] == seat)
    )
    assert_stored_as_played(store, room)


async def test_a_stand_in_that_failed_to_store_comes_when_storage_is_back(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await table(manager, guest=True)  # the guest never comes: only a stand-in plays seat 1
    watcher = Inbox(HOST)
    await room.connect(watcher, None)
    await room.begin(HOST, fill_with_bots=False)
    refuse_first(store, 2, lambda ops: any(isinstance(o, StandinsChanged) for o in ops))
    frame = await watcher.wait(lambda f: f["t"] == "room" and f["d"]["seats"][1]["standin"])
    assert store.refused == 2 and frame["d"]["status"] == PLAYING
    await watcher.wait(lambda f: f["t"] == "action" and f["d"]["seat"] == 1 and f["d"]["auto"])


async def test_a_failed_connect_leaves_no_ghost_and_the_stand_in_stays(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await table(manager, guest=True)
    watcher = Inbox(HOST)
    await room.connect(watcher, None)
    await room.begin(HOST, fill_with_bots=False)
    await watcher.wait(lambda f: f["t"] == "room" and f["d"]["seats"][1]["standin"])
    store.refuse = lambda ops: True  # the database is down
    guest = Inbox(GUEST)
    with pytest.raises(RoomError) as error:
        await room.connect(guest, None)
    assert error.value.code == "server_error"
    assert room.subscriber_count == 1  # the watcher only
    seat = room.summary()["seats"][1]
    assert (seat["connected"], seat["standin"]) == (False, True)
    store.refuse = None
    await room.connect(guest, None)
    back = await watcher.wait(lambda f: f["t"] == "room" and f["d"]["seats"][1]["connected"])
    assert not back["d"]["seats"][1]["standin"]


async def test_a_failed_command_tells_the_client_nothing_of_the_cause(
    manager: RoomManager, store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    room = await table(manager)
    store.refuse = lambda ops: True
    caplog.set_level(logging.INFO, logger="app.rooms.room")
    messages: list[dict[str, Any]] = []
    for _ in range(3):
        with pytest.raises(RoomError) as error:
            await room.set_bot(HOST, 1, False)
        messages.append(error.value.to_dict())
    assert all(m == messages[0] for m in messages) and messages[0]["code"] == "server_error"
    assert "INSERT" not in messages[0]["message"] and "deck" not in messages[0]["message"]
    # The details are in the log, with the traceback once for the streak, not once a command.
    failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(failures) == 3
    assert [r.exc_info is not None for r in failures] == [True, False, False]
    assert "database is locked" in caplog.text
    store.refuse = None
    await room.set_bot(HOST, 1, False)
    assert any("works again" in r.message for r in caplog.records)


async def test_a_room_that_cannot_be_stored_or_loaded_is_a_plain_server_error(
    manager: RoomManager, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REST and the WebSocket then answer with the code, never the driver's text."""
    store.refuse = lambda ops: True
    with pytest.raises(RoomError) as error:
        await table(manager)
    assert error.value.code == "server_error" and "INSERT" not in error.value.message
    assert manager.census() == ({}, 0)

    async def unreachable(code: str) -> None:
        raise OSError(f"SELECT * FROM rooms WHERE code = {code!r}: connection refused")

    monkeypatch.setattr(store, "load_room", unreachable)
    with pytest.raises(RoomError) as error:
        await manager.get("private-code")
    assert error.value.code == "server_error" and "private-code" not in error.value.message


async def test_commands_caught_by_a_stop_are_answered_not_left_waiting(
    manager: RoomManager, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room stopped (handed to another node, put away) with a command in flight and another
    queued behind it: both callers are told ``room_closed``. Their futures used to stay pending
    for ever, and a stopping node waited on the WebSocket handlers awaiting them."""
    room = await table(manager, guest=True)
    writing, never = asyncio.Event(), asyncio.Event()

    async def stuck(code: str, version: int, ops: Sequence[Op]) -> None:
        writing.set()
        await never.wait()

    monkeypatch.setattr(store, "commit", stuck)
    in_flight = asyncio.create_task(room.say(GUEST, "Guest", None, "first"))
    await asyncio.wait_for(writing.wait(), 5)
    queued = asyncio.create_task(room.say(GUEST, "Guest", None, "second"))
    await asyncio.sleep(0)  # it runs up to waiting for its answer: it is in the room's queue
    await room.stop()
    for task in (in_flight, queued):
        with pytest.raises(RoomError) as refused:
            await asyncio.wait_for(task, 5)
        assert refused.value.code == "room_closed"


async def test_a_chat_line_that_failed_to_store_spends_no_allowance(
    manager: RoomManager, store: MemoryStore
) -> None:
    """Before, the line's allowance was spent before the commit: a player who met a storage
    fault and said it again found themselves silenced for a while."""
    room = await table(manager, guest=True)
    guests = PerAddressLimiter(rate=0.001, burst=2)
    rooms = PerAddressLimiter(rate=0.001, burst=10)
    refuse_first(store, 3, lambda ops: any(isinstance(op, ChatPosted) for op in ops))
    for _ in range(3):
        with pytest.raises(RoomError) as failed:
            await room.say(GUEST, "Guest", None, "hi", allowed=chat(guests, rooms))
        assert failed.value.code == "server_error"
    said = [await room.say(GUEST, "Guest", None, "hi", allowed=chat(guests, rooms))]
    said.append(await room.say(GUEST, "Guest", None, "hi", allowed=chat(guests, rooms)))
    assert len(store.ops(ChatPosted)) == 2 and said == sorted(said)
    with pytest.raises(RoomError) as limited:  # the guest's two, and no more
        await room.say(GUEST, "Guest", None, "hi", allowed=chat(guests, rooms))
    assert limited.value.code == "rate_limited"


def chat(guests: PerAddressLimiter, rooms: PerAddressLimiter) -> ChatAllowance:
    return ChatAllowance(guests, rooms, GUEST, "room")


def test_a_line_the_rooms_allowance_refuses_spends_none_of_the_guests() -> None:
    guests = PerAddressLimiter(rate=0.001, burst=1)
    rooms = PerAddressLimiter(rate=0.001, burst=1)
    assert ChatAllowance(guests, rooms, "other", "room").take()
    assert not chat(guests, rooms).take()  # the room's is spent
    assert guests.allow(GUEST)  # the guest's one line is still there
