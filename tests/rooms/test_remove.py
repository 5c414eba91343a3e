"""The host removes a player from the table between matches, and they may not sit again.

A public room's stranger who sits and never plays, or a rude one, used to hold a seat for as
long as they liked: the host's only way out was to make a new room. Now the host can empty the
seat; the player keeps watching (anyone with the code may) but is refused a seat in that room
for its life, or they could sit down again at once.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import RemovedChanged, SeatsChanged
from app.rooms.room import FINISHED, MOST_REMOVED, Room
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import GUEST, HOST, finished_match_of_two

OTHER = "other"


async def waiting_room(manager: RoomManager) -> Room:
    """A private Bulgarian room: the host in seat 0, the guest in seat 2, nobody else."""
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
    )
    await room.sit(GUEST, "Guest", 2)
    return room


async def refused(command: Awaitable[Any]) -> str:
    """The code the room refuses ``command`` with."""
    with pytest.raises(RoomError) as error:
        await command
    return error.value.code


async def test_the_host_removes_a_player_who_then_watches_and_may_not_sit_again(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    guest = Inbox(GUEST)
    await room.connect(guest, None)
    before = room.version
    await room.remove(HOST, 2)
    assert room.seats[2].player_id is None and room.seat_of(GUEST) is None
    assert room.version == before + 1
    assert store.ops(RemovedChanged)[-1] == RemovedChanged(((GUEST, "Guest"),))
    assert store.ops(SeatsChanged)[-1].seats[2].player_id is None
    # The removed player is told, on the room's stream, that the table goes on without them:
    # the seats and the list of those removed, and a snapshot from no seat.
    told = await guest.wait(
        lambda f: f["t"] == "room" and {"id": GUEST, "name": "Guest"} in f["d"]["removed"]
    )
    assert all((s["player"] or {}).get("id") != GUEST for s in told["d"]["seats"])
    snapshot = await guest.wait(lambda f: f["t"] == "snapshot" and f["v"] == room.version)
    assert snapshot["d"]["you"] == {"player_id": GUEST, "seat": None}
    for seat in (1, 2, 3):
        assert await refused(room.sit(GUEST, "Guest", seat)) == "removed"
    assert room.seat_of(GUEST) is None and room.version == before + 1
    # Anyone else may take the seat.
    await room.sit(OTHER, "Other", 2)
    assert room.seat_of(OTHER) == 2


async def test_only_the_host_removes_only_a_player_and_never_during_a_match(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    await room.set_bot(HOST, 1, True)
    # The host is not connected, so a seated player may start or seat bots in their place,
    # but not remove anyone: not another player, not the host.
    await room.set_bot(GUEST, 3, True)
    await room.set_bot(GUEST, 3, False)
    version, commits = room.version, len(store.commits)
    cases = [
        (room.remove(GUEST, 0), "not_host"),
        (room.remove(OTHER, 2), "not_host"),
        (room.remove(HOST, 7), "bad_seat"),
        (room.remove(HOST, 0), "bad_seat"),  # their own: they stand up instead
        (room.remove(HOST, 1), "seat_empty"),  # a bot: "remove bot" takes it away
        (room.remove(HOST, 3), "seat_empty"),
    ]
    for command, code in cases:
        assert await refused(command) == code
    assert (room.version, len(store.commits)) == (version, commits)
    assert list(room.removed) == [] and room.seat_of(GUEST) == 2
    await room.begin(HOST, fill_with_bots=True)
    assert await refused(room.remove(HOST, 2)) == "match_in_progress"
    assert room.seat_of(GUEST) == 2 and list(room.removed) == []


async def test_a_removal_that_cannot_be_stored_changes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    version = room.version
    store.fail_next = True
    assert await refused(room.remove(HOST, 2)) == "server_error"
    assert room.seat_of(GUEST) == 2 and list(room.removed) == [] and room.version == version
    await room.remove(HOST, 2)  # and it goes through once the store is back
    assert list(room.removed) == [GUEST]


async def test_after_a_match_a_removed_player_s_rematch_vote_goes_with_them(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _host, _guest = await finished_match_of_two(manager)
    await room.rematch(GUEST)
    assert room.rematch_votes == {2}
    await room.remove(HOST, 2)
    assert room.status == FINISHED and room.rematch_votes == set()
    assert store.ops(RemovedChanged)[-1] == RemovedChanged(((GUEST, "Guest"),))
    await room.rematch(HOST)  # the rematch no longer waits for, or seats, the removed player
    assert room.match is not None and room.seat_of(GUEST) is None
    assert [s.bot for s in room.seats] == [False, True, True, True]


async def test_a_room_keeps_out_the_latest_hundred_it_removed(
    manager: RoomManager, store: MemoryStore
) -> None:
    """The list is written whole with each removal: a host removing strangers without end
    must not grow it without end. Beyond ``MOST_REMOVED`` the earliest may sit again."""
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=True, turn_seconds=0
    )
    strangers = [f"stranger-{i}" for i in range(MOST_REMOVED + 2)]
    for stranger in strangers:
        await room.sit(stranger, "Stranger", 1)
        await room.remove(HOST, 1)
    assert list(room.removed) == strangers[2:]
    assert store.ops(RemovedChanged)[-1].players == tuple((s, "Stranger") for s in strangers[2:])
    assert await refused(room.sit(strangers[2], "Stranger", 1)) == "removed"
    await room.sit(strangers[0], "Stranger", 1)  # forgiven: the earliest
    assert room.seat_of(strangers[0]) == 1


async def test_the_host_lets_a_removed_player_back_in(
    manager: RoomManager, store: MemoryStore
) -> None:
    """A removal was for the room's life: one made in haste, or forgiven, could not be undone
    but by making a new room."""
    room = await waiting_room(manager)
    await room.remove(HOST, 2)
    version, commits = room.version, len(store.commits)
    cases = [
        (room.readmit(GUEST, GUEST), "not_host"),
        (room.readmit(OTHER, GUEST), "not_host"),
        (room.readmit(HOST, OTHER), "not_removed"),
        (room.readmit(HOST, HOST), "not_removed"),
    ]
    for command, code in cases:
        assert await refused(command) == code
    assert (room.version, len(store.commits)) == (version, commits)
    store.fail_next = True  # a change that cannot be stored changes nothing
    assert await refused(room.readmit(HOST, GUEST)) == "server_error"
    assert room.removed == {GUEST: "Guest"} and room.version == version
    watcher = Inbox(OTHER)
    await room.connect(watcher, None)
    await room.readmit(HOST, GUEST)
    assert room.removed == {} and room.version == version + 1
    assert store.ops(RemovedChanged)[-1] == RemovedChanged(())
    told = await watcher.wait(lambda f: f["t"] == "room" and f["v"] == room.version)
    assert told["d"]["removed"] == []
    assert room.seat_of(GUEST) is None  # let in, not seated
    await room.sit(GUEST, "Guest", 3)
    assert room.seat_of(GUEST) == 3
