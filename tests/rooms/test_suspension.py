"""A player the operator suspended (``app.rooms.suspensions``) may watch a table but not play at
it: a seat, a match started, a rematch asked for and a chat line are refused with ``suspended``.
The tables where they sit between matches let them go at once, and hand on a table they host; a
match they are playing goes on with them to its end, and then they stand up."""

from __future__ import annotations

from typing import Any

from app.rooms.manager import RoomManager
from app.rooms.room import PLAYING
from app.rooms.suspensions import Suspension, Suspensions
from tests.rooms.fakes import Inbox
from tests.rooms.test_remove import refused, waiting_room
from tests.rooms.test_room import GUEST, HOST, finished, finished_match_of_two, partners_room

RUDE = Suspension("Insults in the chat", None)


def seat_empty(seat: int) -> Any:
    return lambda f: f["t"] == "room" and f["d"]["seats"][seat]["player"] is None


async def test_a_suspended_player_stands_up_and_may_watch_but_not_sit_or_write(
    manager: RoomManager,
) -> None:
    room = await waiting_room(manager)  # the host in seat 0, the guest in seat 2
    await manager.suspend_player(GUEST, RUDE)
    assert room.seat_of(GUEST) is None and room.seats[0].player_id == HOST
    assert await refused(room.sit(GUEST, "Guest", 1)) == "suspended"
    assert await refused(room.say(GUEST, "Guest", None, "hello?")) == "suspended"
    version = room.version
    watcher = Inbox(GUEST)
    await room.connect(watcher, None)  # watching is still allowed
    assert watcher.frames[0]["t"] == "snapshot"
    assert room.version == version and room.seat_of(GUEST) is None  # refusals changed nothing
    assert "Insults" not in str(room.summary())  # the reason is the player's alone
    await manager.suspend_player(GUEST, None)  # lifted
    await room.sit(GUEST, "Guest", 2)
    await room.say(GUEST, "Guest", None, "sorry")
    assert room.seat_of(GUEST) == 2 and room.chat[-1]["text"] == "sorry"


async def test_a_suspended_host_hands_the_table_on_or_may_not_start_it(
    manager: RoomManager,
) -> None:
    room = await waiting_room(manager)
    await manager.suspend_player(HOST, RUDE)
    assert room.config.host_id == GUEST and room.seat_of(HOST) is None
    alone = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
    )
    assert alone.seat_of(HOST) == 0
    await manager.suspend_player(HOST, RUDE)  # nobody to hand it to: stays the host, stands up
    assert alone.config.host_id == HOST and alone.seat_of(HOST) is None
    assert await refused(alone.begin(HOST, fill_with_bots=True)) == "suspended"
    assert alone.status != PLAYING


async def test_a_match_goes_on_with_them_and_they_stand_up_at_its_end(
    manager: RoomManager,
) -> None:
    room, host, _guest = await partners_room(manager)
    await manager.suspend_player(GUEST, RUDE)
    assert room.status == PLAYING and room.seat_of(GUEST) == 2  # the match is not broken up
    assert await refused(room.say(GUEST, "Guest", None, "…")) == "suspended"
    await room.concede(HOST)
    await room.concede(GUEST)  # a suspended player may still give the match up
    await host.wait(finished)
    await host.wait(seat_empty(2))  # let go once the match is over
    assert room.seats[0].player_id == HOST


async def test_a_rematch_is_refused_to_a_suspended_player(manager: RoomManager) -> None:
    room, _host, _guest = await finished_match_of_two(manager)
    manager.suspensions.set(GUEST, RUDE)  # the registry alone: the room checks it itself
    assert await refused(room.rematch(GUEST)) == "suspended"
    assert room.rematch_votes == set()


def test_a_suspension_ends_by_itself_or_when_lifted() -> None:
    now = [1000.0]
    held = Suspensions(clock=lambda: now[0])
    assert held.set("a", Suspension("spam", until=1060.0)) is True
    assert held.set("b", Suspension("spam", until=None)) is True
    assert held.set("c", Suspension("already served", until=999.0)) is False
    assert held.of("a") == Suspension("spam", 1060.0) and held.holds("b")
    now[0] = 1060.0
    assert not held.holds("a") and held.holds("b")  # served; the other is until lifted
    assert held.set("b", None) is False and not held.holds("b")
