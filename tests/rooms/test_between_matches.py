"""Between two matches the seats are open again, as before the first: players change seats
(another partner for the rematch) and a newcomer takes an empty seat, where before they needed a
new room. A rematch vote goes with the player who cast it; a newcomer must agree too."""

from __future__ import annotations

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import SeatsChanged, VotesChanged
from app.rooms.room import FINISHED, PLAYING
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import GUEST, HOST, finished_match_of_two


async def test_after_a_match_players_change_seats_and_a_newcomer_sits(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _host, _guest = await finished_match_of_two(manager)  # host 0, guest 2, bots 1 and 3
    await room.rematch(GUEST)
    await room.set_bot(HOST, 1, False)  # an empty seat for the guest: the host's opponent now
    await room.sit(GUEST, "Guest", 1)
    assert room.seat_of(GUEST) == 1 and room.seats[2].player_id is None
    assert room.rematch_votes == {1}  # the guest's vote moved with them
    assert store.ops(VotesChanged)[-1].votes.rematch == (1,)
    newcomer = Inbox("newcomer")
    await room.connect(newcomer, None)
    await room.sit("newcomer", "Newcomer", 2)  # the host's partner for the rematch
    assert store.ops(SeatsChanged)[-1].seats[2].player_id == "newcomer"
    await room.rematch(HOST)
    assert room.status == FINISHED  # the newcomer has not agreed yet
    await room.rematch("newcomer")
    assert room.status == PLAYING
    assert [s.player_id for s in room.seats] == [HOST, GUEST, "newcomer", None]
    assert room.seats[3].bot
    assert room.summary()["match_seats"][2]["player"] == {"id": "newcomer", "name": "Newcomer"}
    with pytest.raises(RoomError) as error:  # during the match the seats are the players'
        await room.sit("newcomer", "Newcomer", 3)
    assert error.value.code == "match_in_progress"


async def test_a_seat_change_after_a_match_that_cannot_be_stored_changes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _host, _guest = await finished_match_of_two(manager)
    await room.rematch(GUEST)
    await room.set_bot(HOST, 1, False)
    version = room.version
    store.fail_next = True
    with pytest.raises(RoomError) as error:
        await room.sit(GUEST, "Guest", 1)
    assert error.value.code == "server_error"
    assert (room.seat_of(GUEST), room.rematch_votes, room.version) == (2, {2}, version)
