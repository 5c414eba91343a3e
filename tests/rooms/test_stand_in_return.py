"""A player whose seat has a stand-in and who acts from a socket left open is back at the table.

Before, the action was applied and the stand-in went on: the player and a bot both played the
seat, and the table was told a bot plays it. Now the action takes the seat back first, as a new
hello does; an action the rules refuse changes nothing, the stand-in included.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ActionTaken, StandinsChanged
from app.rooms.room import Room, RoomTimings
from app.rules import action_to_dict, legal_actions
from tests.rooms.fakes import Inbox, MemoryStore

HOST, GUEST = "host", "guest"


@pytest.fixture
async def slow_bots(store: MemoryStore) -> AsyncIterator[RoomManager]:
    """Bots (the stand-in) wait an hour before they move: the player acts first."""
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=3600))
    yield manager
    await manager.close()


async def guests_turn(room: Room, inbox: Inbox) -> None:
    """Play as the host until the guest (seat 1) is to act in the first deal."""

    def settled(_: object) -> bool:
        deal = None if room.match is None else room.match.deal
        return deal is not None and deal.turn in (0, 1)

    while True:
        await inbox.wait(settled)
        assert room.match is not None and room.match.deal is not None
        if room.match.deal.turn == 1:
            return
        action = action_to_dict(legal_actions(room.match.deal)[0])
        await room.act(HOST, None, room.version, action)


async def test_acting_from_a_socket_left_open_takes_the_seat_back(
    slow_bots: RoomManager, store: MemoryStore
) -> None:
    room = await slow_bots.create(
        HOST, "Host", {"preset": "bulgarian2"}, target=None, public=False, turn_seconds=0
    )
    await room.sit(GUEST, "Guest", 1)
    host, guest = Inbox(HOST), Inbox(GUEST)
    await room.connect(host, None)
    await room.connect(guest, None)
    await room.begin(HOST, fill_with_bots=False)
    await guests_turn(room, host)
    await room.leave(GUEST)  # on the guest's socket, which stays open
    assert room.standins == {1}

    commits = len(store.commits)
    with pytest.raises(RoomError) as refused:  # no deal lets a card be played in the bidding
        await room.act(GUEST, None, room.version, {"play": "AS"})
    assert refused.value.code != "bad_action"  # the engine's refusal, not a malformed frame
    assert room.standins == {1} and len(store.commits) == commits  # nothing changed

    assert room.match is not None and room.match.deal is not None
    action = action_to_dict(legal_actions(room.match.deal)[0])
    await room.act(GUEST, None, room.version, action)
    assert room.standins == set()
    assert room.summary()["seats"][1]["standin"] is False
    ops = [op for _code, _v, batch in store.commits[commits:] for op in batch]
    assert ops[0] == StandinsChanged(())  # stored first: a restored room agrees
    assert isinstance(ops[1], ActionTaken) and ops[1].seq >= 0 and not ops[1].auto
