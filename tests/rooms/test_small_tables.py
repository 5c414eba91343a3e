"""Rooms for 3 and 2 players (BG3, BG2, OB): the seats come from the ruleset, and such a room
fills, starts, plays, times out turns, stands in for an absent player and rematches as a table
of four does; a bot that fails or answers something illegal costs a random legal move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ActionTaken, DealFinished, MatchStarted
from app.rooms.room import FINISHED, PLAYING, Room, RoomTimings
from app.rules import Action, Bid, Ruleset, SeatView
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import GUEST, HOST, finished, is_my_turn, play_to_the_end

SMALL = ["bulgarian3", "bulgarian2", "open_belot"]


async def small_room(manager: RoomManager, preset: str, **kw: Any) -> Room:
    return await manager.create(
        HOST,
        "Host",
        {"preset": preset},
        target=kw.pop("target", None),
        public=False,
        turn_seconds=kw.pop("turn_seconds", 0),
        **kw,
    )


@pytest.mark.parametrize("preset", SMALL)
async def test_a_small_table_has_the_preset_s_seats_and_refuses_others(
    manager: RoomManager, store: MemoryStore, preset: str
) -> None:
    seats = Ruleset.of(preset).seats
    room = await small_room(manager, preset)
    assert len(room.seats) == len(room.summary()["seats"]) == seats
    for command in (room.sit(GUEST, "Guest", seats), room.set_bot(HOST, seats, True)):
        with pytest.raises(RoomError) as error:
            await command
        assert error.value.code == "bad_seat" and f"0 to {seats - 1}" in error.value.message
    with pytest.raises(RoomError) as error:
        await small_room(manager, preset, bots=(seats,))
    assert error.value.code == "bad_seat"
    with pytest.raises(RoomError) as error:
        await room.begin(HOST, fill_with_bots=False)
    assert error.value.code == "seats_empty"
    await room.sit(GUEST, "Guest", seats - 1)
    await room.begin(HOST, fill_with_bots=True)
    assert room.status == PLAYING
    started = store.ops(MatchStarted)[-1]
    assert len(started.seats) == seats and 0 <= started.first_dealer < seats
    assert [s.bot for s in room.seats] == [False] + [True] * (seats - 2) + [False]


@pytest.mark.parametrize("preset", SMALL)
async def test_a_person_and_bots_play_a_small_match_and_rematch(
    manager: RoomManager, preset: str
) -> None:
    seats = Ruleset.of(preset).seats
    room = await small_room(manager, preset, target=1, bots=tuple(range(1, seats)))
    inbox = Inbox(HOST)
    await room.connect(inbox, None)
    await room.begin(HOST, fill_with_bots=False)
    await play_to_the_end(room, inbox, {0: HOST}, timeout=60)
    assert room.status == FINISHED and room.match is not None
    assert room.match.state.winner in range(seats)
    assert len(room.match.state.scores) == seats  # one column per player (BGN-3)
    first = room.match.match_id
    await room.rematch(HOST)
    assert room.status == PLAYING and room.match.match_id != first


@pytest.mark.parametrize("preset", SMALL)
async def test_the_clock_plays_for_a_slow_player_of_a_small_table(
    store: MemoryStore, preset: str
) -> None:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0))
    try:
        seats = Ruleset.of(preset).seats
        room = await small_room(manager, preset, turn_seconds=0.05, bots=tuple(range(1, seats)))
        inbox = Inbox(HOST)
        await room.connect(inbox, None)
        await room.begin(HOST, fill_with_bots=False)
        await inbox.wait(lambda f: is_my_turn(f, room))
        await inbox.wait(lambda f: f["t"] == "action" and f["d"]["seat"] == 0)
        mine = [op for op in store.ops(ActionTaken) if op.action["seat"] == 0]
        assert mine and mine[0].auto
    finally:
        await manager.close()


@pytest.mark.parametrize("preset", SMALL)
async def test_an_absent_player_of_a_small_table_gets_a_stand_in(
    store: MemoryStore, preset: str
) -> None:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0, grace_seconds=0.05))
    try:
        seats = Ruleset.of(preset).seats
        last = seats - 1
        room = await small_room(manager, preset, host_seat=None, bots=tuple(range(last)))
        await room.sit(GUEST, "Guest", last)
        watcher = Inbox(HOST)
        await room.connect(watcher, None)
        await room.begin(HOST, fill_with_bots=False)
        await watcher.wait(lambda f: f["t"] == "room" and f["d"]["seats"][last]["standin"])
        await watcher.wait(
            lambda f: f["t"] == "action" and f["d"]["seat"] == last and f["d"]["auto"]
        )
    finally:
        await manager.close()


class _FailingBot:
    """A bot that cannot play: it raises, or answers a bid nobody may make."""

    def __init__(self, raises: bool) -> None:
        self.raises = raises
        self.asked = 0

    async def choose(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        self.asked += 1
        if self.raises:
            raise RuntimeError("this bot does not know the preset")
        return Bid(seat_view.seat or 0, "nonsense")  # type: ignore[arg-type]


@pytest.mark.parametrize("raises", [True, False], ids=["bot raises", "bot answers illegal"])
async def test_a_bot_that_fails_costs_a_random_legal_move_not_the_table(
    store: MemoryStore, raises: bool
) -> None:
    bot = _FailingBot(raises)
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), policy_factory=lambda _: bot)
    try:
        room = await small_room(manager, "bulgarian3", host_seat=None, target=1)
        inbox = Inbox(None)
        await room.connect(inbox, None)
        await room.begin(HOST, fill_with_bots=True)
        await inbox.wait(finished, timeout=60)  # the match was played to its end all the same
        # Asked for every move but the last trick's, where each of the three holds one card
        # and nothing is asked (app.rules.forced_last_card).
        played = sum(1 for deal in store.ops(DealFinished) if deal.contract is not None)
        assert bot.asked == len(store.ops(ActionTaken)) - 3 * played
    finally:
        await manager.close()
