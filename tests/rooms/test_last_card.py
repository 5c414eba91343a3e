"""The last card plays itself: at the last trick the server plays a person's one card (it leaves
no choice, `app.rules.forced_last_card`), as their own card, and says so ahead in TURN's
``forced`` (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ActionTaken
from app.rooms.room import Room, RoomTimings
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import HOST, is_my_turn, started_bot_room


def _forced(frame: dict[str, Any]) -> bool:
    return bool((frame["d"].get("turn") or {}).get("forced"))


async def _play_to_the_deal_end(room: Room, inbox: Inbox) -> int:
    """The host (seat 0) makes a contract and plays every card offered to it until the first
    deal ends; returns how many cards it played."""
    played = 0
    while True:
        frame = await inbox.wait(lambda f: is_my_turn(f, room) or f["t"] == "deal_end")
        if frame["t"] == "deal_end":
            return played
        action = _choice(frame["d"]["deal"]["legal"])
        played += "play" in action
        await room.act(HOST, None, frame["v"], action)


def _choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A contract (or a double) rather than a pass, so that the deal is played; else the first
    card."""
    return next((a for a in legal if a.get("bid", "pass") != "pass"), legal[0])


async def test_the_last_card_is_played_for_nobody_but_as_the_players_own(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, inbox = await started_bot_room(manager)
    assert await _play_to_the_deal_end(room, inbox) == 7  # the eighth played itself
    forced = [f for f in inbox.frames if f["t"] in ("deal", "action") and _forced(f)]
    assert sorted(f["d"]["turn"]["seat"] for f in forced) == [0, 1, 2, 3]
    for frame in forced:  # said only at the last trick, and when it will be played
        assert frame["d"]["deal"]["hand_sizes"][frame["d"]["turn"]["seat"]] == 1
    mine = next(f for f in forced if f["d"]["turn"]["seat"] == 0)["d"]["turn"]
    assert mine["deadline"] is not None and not mine["bot"]
    last = [f for f in inbox.frames if f["t"] == "action" and f["d"]["seat"] == 0][-1]
    assert last["d"]["auto"] is False  # the player's own: no "played for you"
    stored = [op for op in store.ops(ActionTaken) if op.action["seat"] == 0]
    assert stored and not any(op.auto for op in stored)  # the last card included
    bots = [op for op in store.ops(ActionTaken) if op.action["seat"] != 0]
    assert bots and all(op.auto for op in bots)  # a bot's last card is still the bot's


@pytest.mark.parametrize("first", ["player", "server"])
async def test_whoever_plays_the_last_card_first_plays_it_once(
    store: MemoryStore, first: str
) -> None:
    """A client that sends its last card before the server plays it has it accepted, and the
    server's timer then does nothing; one that sends it after is refused as a late click."""
    seconds = 3600.0 if first == "player" else 0.0
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0, last_card_seconds=seconds))
    try:
        room, inbox = await started_bot_room(manager)

        def mine(f: dict[str, Any]) -> bool:  # the host's last card is to play itself
            return f["t"] in ("deal", "action") and _forced(f) and f["d"]["turn"]["seat"] == 0

        while not mine(offered := await inbox.wait(lambda f: is_my_turn(f, room) or mine(f))):
            await room.act(HOST, None, offered["v"], _choice(offered["d"]["deal"]["legal"]))
        [card] = offered["d"]["deal"]["legal"]
        if first == "server":
            await inbox.wait(
                lambda f: (
                    f["t"] == "action" and f["d"]["seat"] == 0 and f["d"]["deal"]["hand"] == []
                )
            )
            with pytest.raises(RoomError) as late:
                await room.act(HOST, "late", offered["v"], card)
            # The table moved on (or the deal is over, the bots being quick), and nothing was
            # stored: the card is there once below.
            assert late.value.code in ("stale", "no_deal")
        else:
            await room.act(HOST, "mine", offered["v"], card)
        await inbox.wait(lambda f: f["t"] == "deal_end", timeout=30)
        last = [op for op in store.ops(ActionTaken) if op.action == card]
        assert len(last) == 1 and not last[0].auto
    finally:
        await manager.close()
