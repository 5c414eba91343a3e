"""The host hands the room over to a player at the table: a host who must go leaves it to a
friend, with what only the host may do (the settings, removing a player), rather than to the
stand-in powers every seated player has while the host is away (start, bots) alone."""

from __future__ import annotations

from app.rooms.manager import RoomManager
from app.rooms.ports import HostChanged
from app.rooms.room import PLAYING
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_remove import OTHER, refused, waiting_room
from tests.rooms.test_room import GUEST, HOST


async def test_the_host_hands_the_room_over_and_the_new_host_holds_its_powers(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)  # the host in seat 0, the guest in seat 2
    guest = Inbox(GUEST)
    await room.connect(guest, None)
    before = room.version
    await room.hand_over(HOST, 2)
    assert room.config.host_id == GUEST and room.version == before + 1
    assert store.ops(HostChanged)[-1] == HostChanged(GUEST)
    told = await guest.wait(lambda f: f["t"] == "room" and f["d"]["host"] == GUEST)
    assert told["d"]["seats"][0]["player"]["id"] == HOST  # the old host keeps their seat
    # The new host decides; the old one no longer does.
    await room.configure(GUEST, {"target": 501})
    assert await refused(room.configure(HOST, {"target": 301})) == "not_host"
    assert await refused(room.remove(HOST, 2)) == "not_host"
    await room.sit(OTHER, "Other", 1)
    await room.remove(GUEST, 1)
    assert list(room.removed) == [OTHER]
    await room.hand_over(GUEST, 0)  # and back
    assert room.config.host_id == HOST


async def test_only_the_host_hands_over_only_to_a_player(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    await room.set_bot(HOST, 1, True)
    version, commits = room.version, len(store.commits)
    cases = [
        # The host is not connected: a seated player acts for them, but may not take the room.
        (room.hand_over(GUEST, 2), "not_host"),
        (room.hand_over(OTHER, 2), "not_host"),
        (room.hand_over(HOST, 0), "bad_seat"),  # their own
        (room.hand_over(HOST, 1), "seat_empty"),  # a bot
        (room.hand_over(HOST, 3), "seat_empty"),
        (room.hand_over(HOST, 9), "bad_seat"),
    ]
    for command, code in cases:
        assert await refused(command) == code
    assert (room.config.host_id, room.version, len(store.commits)) == (HOST, version, commits)
    await room.begin(HOST, fill_with_bots=True)
    await room.hand_over(HOST, 2)  # during a match too: hosting changes nothing of it
    assert room.status == PLAYING and room.config.host_id == GUEST


async def test_a_hand_over_that_cannot_be_stored_changes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    version = room.version
    store.fail_next = True
    assert await refused(room.hand_over(HOST, 2)) == "server_error"
    assert room.config.host_id == HOST and room.version == version
