"""The pause after a deal (issue 11): no clock runs while the result is shown, and the players at
the table can end the pause together; bots and absent players do not hold it up."""

from __future__ import annotations

from typing import Any

from app.rooms.config import MOST_TARGET
from app.rooms.manager import RoomManager
from app.rooms.room import RoomTimings
from app.rules import action_to_dict, legal_actions
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import GUEST, HOST, partners_room


async def first_deal_over(pause: float) -> tuple[RoomManager, Any, Inbox, Inbox]:
    manager = RoomManager(MemoryStore(), RoomTimings(bot_delay_seconds=0))
    # No deal can end the match (a contra'd all-trumps deal can reach 151), so a pause follows.
    room, host, guest = await partners_room(
        manager, target=MOST_TARGET, turn_seconds=30, deal_pause_seconds=pause
    )
    players = {0: HOST, 2: GUEST}

    def next_step(f: dict[str, Any]) -> bool:
        turn = f.get("d", {}).get("turn") or {}
        return f["t"] == "deal_end" or (
            f.get("v") == room.game_version and turn.get("seat") in players
        )

    while (frame := await host.wait(next_step))["t"] != "deal_end":
        assert room.match is not None and room.match.deal is not None
        action = action_to_dict(legal_actions(room.match.deal)[0])
        await room.act(players[frame["d"]["turn"]["seat"]], None, room.version, action)
    return manager, room, host, guest


async def test_the_next_deal_waits_for_every_player_at_the_table() -> None:
    manager, room, host, _guest = await first_deal_over(pause=60)
    try:
        # The deal's end is followed by a room event that says until when the result is shown.
        shown = await host.wait(lambda f: f["t"] == "room" and f["d"]["next_deal"] is not None)
        assert shown["d"]["next_deal"]["ready"] == []
        assert room.match is not None and room.match.deal is None
        assert room.snapshot(0, HOST)["turn"] is None  # no clock runs during the pause
        await room.next_deal(HOST)
        assert room.summary()["next_deal"]["ready"] == [0] and room.match.deal is None
        await room.next_deal(HOST)  # asking twice changes nothing
        assert room.match.deal is None
        await room.next_deal(GUEST)  # the last person at the table: the bots do not wait
        assert room.match.deal is not None and room.match.number == 2
        assert room.summary()["next_deal"] is None
        await room.next_deal(GUEST)  # too late, the deal is dealt: nothing happens
        assert room.match.number == 2
    finally:
        await manager.close()


async def test_an_absent_player_does_not_hold_up_the_next_deal() -> None:
    manager, room, _host, guest = await first_deal_over(pause=60)
    try:
        await room.disconnect(guest)
        await room.next_deal(HOST)
        assert room.match is not None and room.match.number == 2 and room.match.deal is not None
    finally:
        await manager.close()


async def test_a_snapshot_in_the_pause_carries_the_result_those_at_the_table_see() -> None:
    # Before: a player back (or a spectator come in) during the pause got no deal and no
    # result, and the table said "Loading…" until the next deal.
    manager, room, host, _guest = await first_deal_over(pause=60)
    try:
        ended = next(f for f in host.frames if f["t"] == "deal_end")["d"]
        await host.wait(lambda f: f["t"] == "room" and f["d"]["next_deal"] is not None)
        for seat, player in ((0, HOST), (None, None)):  # a player, a spectator: the same words
            paused = room.snapshot(seat, player)
            assert paused["deal"] is None
            assert paused["last_deal"] == {
                "number": ended["number"],
                "result": ended["result"],
                "finished": ended["finished"],
                "winner": ended["winner"],
            }
        await room.next_deal(HOST)
        await room.next_deal(GUEST)
        assert room.match is not None and room.match.number == 2
        assert room.snapshot(0, HOST)["last_deal"] is None  # a deal is dealt: no pause
    finally:
        await manager.close()
