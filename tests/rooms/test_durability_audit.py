"""A command whose commit failed changes nothing a client can see (docs/architecture.md,
"Storage"): the room's votes stay as the clients were last told, so that a later command does
not count a vote that was never accepted, nor forget one that was."""

from __future__ import annotations

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.room import FINISHED, PLAYING, Room
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_deal_pause import first_deal_over
from tests.rooms.test_room import GUEST, HOST, partners_room


def memory_store(room: Room) -> MemoryStore:
    store = room._store
    assert isinstance(store, MemoryStore)
    return store


async def conceded_room(manager: RoomManager) -> tuple[Room, Inbox, Inbox]:
    """The host (seat 0) and the guest (seat 2), partners, both connected; their team conceded."""
    room, host, guest = await partners_room(manager)
    await room.concede(HOST)
    await room.concede(GUEST)
    assert room.status == FINISHED
    return room, host, guest


async def test_a_rematch_vote_whose_commit_failed_is_not_counted(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, host, _guest = await conceded_room(manager)
    store.fail_next = True
    with pytest.raises(RoomError) as error:
        await room.rematch(HOST)
    assert error.value.code == "server_error"  # the host was told it did not happen
    assert room.summary()["rematch"] == []
    # The guest asks: the host never did (as far as anyone was told), so nothing starts yet.
    await room.rematch(GUEST)
    assert room.status == FINISHED
    assert host.frames[-1]["d"]["rematch"] == [2]


async def test_a_rematch_vote_survives_a_failed_leave(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _host, _guest = await conceded_room(manager)
    await room.rematch(HOST)
    assert room.summary()["rematch"] == [0]
    store.fail_next = True
    with pytest.raises(RoomError):
        await room.leave(HOST)
    assert room.seat_of(HOST) == 0  # the leave did not happen: the host sits and still asks
    assert room.summary()["rematch"] == [0]
    await room.rematch(GUEST)  # everyone at the table asked: the rematch starts
    assert room.status == PLAYING


async def test_a_next_deal_request_whose_commit_failed_is_not_counted() -> None:
    manager, room, host, _guest = await first_deal_over(pause=60)
    try:
        await host.wait(lambda f: f["t"] == "room" and f["d"]["next_deal"] is not None)
        memory_store(room).fail_next = True
        with pytest.raises(RoomError) as error:
            await room.next_deal(HOST)
        assert error.value.code == "server_error"
        assert room.summary()["next_deal"]["ready"] == []
        # The guest asks: the host never did, so the pause goes on.
        await room.next_deal(GUEST)
        assert room.match is not None and room.match.deal is None
        assert room.summary()["next_deal"]["ready"] == [2]
    finally:
        await manager.close()
