"""The room actor, with in-memory ports: whole matches, refusals that change nothing, clocks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import ActionTaken, MatchProgress
from app.rooms.room import FINISHED, PLAYING, Room, RoomTimings
from app.rules import PRESETS, Ruleset, action_to_dict, legal_actions
from tests.rooms.fakes import Inbox, MemoryStore

HOST, GUEST = "host", "guest"


async def make_manager(store: MemoryStore, **timings: Any) -> RoomManager:
    return RoomManager(store, RoomTimings(bot_delay_seconds=0, last_card_seconds=0, **timings))


async def bot_room(manager: RoomManager, preset: str = "bulgarian", **kw: Any) -> Room:
    return await manager.create(
        HOST,
        "Host",
        {"preset": preset},
        target=kw.pop("target", None),
        public=True,
        turn_seconds=kw.pop("turn_seconds", 0),
        bots=(1, 2, 3),
        **kw,
    )


async def started_bot_room(manager: RoomManager, **kw: Any) -> tuple[Room, Inbox]:
    """A room of ``bot_room`` begun by its host (seat 0), connected: the room and its inbox."""
    room = await bot_room(manager, **kw)
    inbox = Inbox(HOST)
    await room.connect(inbox, None)
    await room.begin(HOST, fill_with_bots=False)
    return room, inbox


def finished(frame: dict[str, Any]) -> bool:
    return frame["t"] == "room" and frame["d"]["status"] == FINISHED


def is_my_turn(frame: dict[str, Any], room: Room) -> bool:
    """The latest deal frame, and it offers the recipient something to do: not a last card,
    which the server plays (TURN's ``forced``), as a client leaves it."""
    deal = frame.get("d", {}).get("deal")
    forced = bool((frame["d"].get("turn") or {}).get("forced"))
    return bool(deal and deal["legal"]) and not forced and frame.get("v") == room.game_version


async def my_turn(inbox: Inbox, room: Room) -> dict[str, Any]:
    """Wait until the host (seat 0) is to act; return the view it was sent."""
    frame = await inbox.wait(lambda f: is_my_turn(f, room))
    deal: dict[str, Any] = frame["d"]["deal"]
    return deal


@pytest.mark.parametrize("preset", PRESETS)
async def test_bots_play_a_whole_match_of_every_preset_and_every_action_is_committed(
    manager: RoomManager, store: MemoryStore, preset: str
) -> None:
    room = await manager.create(  # the host only watches; the seats come from the preset
        HOST, "Host", {"preset": preset}, target=None, public=True, turn_seconds=0, host_seat=None
    )
    assert len(room.seats) == Ruleset.of(preset).seats
    inbox = Inbox(None)
    await room.connect(inbox, None)
    await room.begin(HOST, fill_with_bots=True)
    await inbox.wait(finished, timeout=60)
    match = room.match
    assert match is not None and match.state.finished
    assert match.state.winner in range(len(Ruleset.of(preset).sides))
    logged = store.ops(ActionTaken)
    assert len(logged) == sum(len(d.actions) for d in match.finished_deals)
    assert all(op.auto for op in logged)
    versions = [f["v"] for f in inbox.frames if "v" in f and f["t"] != "snapshot"]
    assert versions == list(range(versions[0], versions[0] + len(versions)))  # gapless


async def test_an_illegal_action_changes_nothing(manager: RoomManager, store: MemoryStore) -> None:
    room, inbox = await started_bot_room(manager)
    view = await my_turn(inbox, room)
    assert view["phase"] == "bidding"
    before = (room.version, len(store.commits), room.match.deal if room.match else None)
    attempts = {
        "illegal_bid": {"bid": "recontra"},
        "wrong_phase": {"play": view["hand"][0]},
        "bad_action": {"play": "XX"},
        "not_your_seat": {"seat": 1, "bid": "pass"},
    }
    for code, data in attempts.items():
        with pytest.raises(RoomError) as error:
            await room.act(HOST, None, room.version, data)
        assert error.value.code == code
    assert (room.version, len(store.commits), room.match.deal if room.match else None) == before


async def test_a_reply_is_told_right_after_the_command_s_events_and_never_for_a_refusal(
    manager: RoomManager,
) -> None:
    room, inbox = await started_bot_room(manager)
    view = await my_turn(inbox, room)
    told: list[tuple[int, list[dict[str, Any]]]] = []  # each version told, and the frames then

    def reply(version: int) -> None:
        told.append((version, list(inbox.frames)))

    with pytest.raises(RoomError):
        await room.act(HOST, "r1", room.version, {"bid": "recontra"}, reply=reply)
    assert told == []
    before = len(inbox.frames)
    version = await room.act(HOST, "r2", room.version, view["legal"][0], reply=reply)
    assert [v for v, _ in told] == [version]
    # The client holds the command's events when it reads the reply: its action first, then
    # whatever it caused (a room frame; a new deal when everybody passed, whose version is the
    # command's result), and nothing after them yet.
    held = [(f["t"], f.get("v"), f["d"].get("seat")) for f in told[0][1][before:]]
    assert held and (held[0][0], held[0][2]) == ("action", 0)
    assert held[-1][1] == version


async def test_a_reply_that_fails_does_not_stop_the_room(
    manager: RoomManager, store: MemoryStore
) -> None:
    """A reply is the transport's code run inside the actor: if it raises, the command still
    stands (it was stored and broadcast) and the room goes on taking commands."""
    room, inbox = await started_bot_room(manager)
    view = await my_turn(inbox, room)

    def broken(version: int) -> None:
        raise ConnectionError("the socket went away")

    acted = room.act(HOST, "b1", room.version, view["legal"][0], reply=broken)
    version = await asyncio.wait_for(acted, timeout=10)  # a dead actor never answers
    assert version in [v for _code, v, _ops in store.commits]  # stored, and broadcast
    view = await my_turn(inbox, room)
    acted = room.act(HOST, "b2", room.version, view["legal"][0])
    assert await asyncio.wait_for(acted, timeout=10) > version


async def test_stale_and_repeated_commands_are_refused(manager: RoomManager) -> None:
    room, inbox = await started_bot_room(manager)
    view = await my_turn(inbox, room)
    base = room.version
    with pytest.raises(RoomError) as stale:
        await room.act(HOST, "x1", room.game_version - 1, view["legal"][0])
    assert stale.value.code == "stale"
    await room.act(HOST, "x2", base, view["legal"][0])
    with pytest.raises(RoomError) as repeated:
        await room.act(HOST, "x2", room.version, view["legal"][0])
    assert repeated.value.code == "duplicate"


async def test_a_failed_commit_changes_nothing_and_the_room_goes_on(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, inbox = await started_bot_room(manager)
    view = await my_turn(inbox, room)
    deal, version, frames = room.match.deal if room.match else None, room.version, len(inbox.frames)
    store.fail_next = True
    with pytest.raises(RoomError) as error:
        await room.act(HOST, "a", room.version, view["legal"][0])
    assert error.value.code == "server_error"
    assert (room.match.deal if room.match else None, room.version) == (deal, version)
    assert len(inbox.frames) == frames  # nothing was broadcast
    await room.act(HOST, "a", room.version, view["legal"][0])
    assert room.version > version


async def test_the_turn_timer_plays_for_a_slow_player(store: MemoryStore) -> None:
    manager = await make_manager(store)
    try:
        room, inbox = await started_bot_room(manager, turn_seconds=0.05)
        await my_turn(inbox, room)
        await inbox.wait(lambda f: f["t"] == "action" and f["d"]["seat"] == 0)
        mine = [op for op in store.ops(ActionTaken) if op.action["seat"] == 0]
        assert mine and mine[0].auto
    finally:
        await manager.close()


async def test_an_away_player_is_replaced_by_a_bot_and_takes_the_seat_back(
    store: MemoryStore,
) -> None:
    manager = await make_manager(store, grace_seconds=0.05)
    try:
        room = await manager.create(
            HOST,
            "Host",
            {"preset": "bulgarian"},
            target=None,
            public=False,
            turn_seconds=0,
            bots=(0, 2, 3),
            host_seat=None,  # the host watches: only the guest's seat can hold the game up
        )
        await room.sit(GUEST, "Guest", 1)
        watcher = Inbox(HOST)
        await room.connect(watcher, None)
        await room.begin(HOST, fill_with_bots=False)
        frame = await watcher.wait(lambda f: f["t"] == "room" and f["d"]["seats"][1]["standin"])
        assert frame["d"]["seats"][1]["player"]["id"] == GUEST
        await watcher.wait(lambda f: f["t"] == "action" and f["d"]["seat"] == 1 and f["d"]["auto"])
        guest = Inbox(GUEST)
        await room.connect(guest, None)
        assert guest.frames[0]["t"] == "snapshot"
        assert 1 not in room.standins
        back = await watcher.wait(
            lambda f: (
                f["t"] == "room"
                and f["d"]["seats"][1]["connected"]
                and not f["d"]["seats"][1]["standin"]
            )
        )
        assert back["d"]["status"] == PLAYING
    finally:
        await manager.close()


async def test_seats_bots_and_start_check_who_asks(manager: RoomManager) -> None:
    room = await manager.create(
        HOST, "Host", {"preset": "french"}, target=501, public=False, turn_seconds=0
    )
    cases = [
        (room.set_bot(GUEST, 1, True), "not_host"),
        (room.begin(GUEST, True), "not_host"),
        (room.sit(GUEST, "Guest", 0), "seat_taken"),
        (room.sit(GUEST, "Guest", 7), "bad_seat"),
        (room.begin(HOST, False), "seats_empty"),
        (room.leave(GUEST), "not_seated"),
        (room.rematch(HOST), "match_in_progress"),
        (room.act(HOST, None, 0, {"bid": "pass"}), "no_deal"),
        (room.say(HOST, "Host", None, "   "), "bad_chat"),
        (room.say(HOST, "Host", None, "x" * 301), "bad_chat"),
        (room.say(HOST, "Host", None, "bell\x07"), "bad_chat"),
    ]
    for command, code in cases:
        with pytest.raises(RoomError) as error:
            await command
        assert error.value.code == code
    assert room.version == 0
    await room.sit(GUEST, "Guest", 2)
    await room.set_bot(HOST, 1, True)
    await room.begin(HOST, fill_with_bots=True)
    assert room.status == PLAYING
    assert [s.bot for s in room.seats] == [False, True, False, True]
    with pytest.raises(RoomError) as error:
        await room.sit(GUEST, "Guest", 1)
    assert error.value.code == "match_in_progress"


async def test_chat_takes_joined_emoji_and_wide_spaces_not_invisible_controls(
    manager: RoomManager,
) -> None:
    """``str.isprintable`` refused every emoji joined by a ZWJ and the ideographic space of
    CJK text; the chat refuses only what hides or breaks a line: C0/C1 controls, line and
    paragraph separators, private use, bidi overrides and other invisible format characters."""
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
    )
    written = [
        "gg 👩\u200d💻",  # a ZWJ sequence
        "東京\u3000大阪",  # the ideographic space
        "ну 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # tags: a flag
        "می\u200cخواهم",  # the zero-width non-joiner of Persian
        "bravo\u00a0!",  # a no-break space
    ]
    for text in written:
        await room.say(HOST, "Host", None, text)
    assert [line["text"] for line in room.chat] == written
    for text in ["abc\u202edcba", "one\u2028two", "bell\x07", "tab\tx", "pua\ue000", "\u200b"]:
        with pytest.raises(RoomError) as error:
            await room.say(HOST, "Host", None, text)
        assert error.value.code == "bad_chat", repr(text)
    assert len(room.chat) == len(written)


async def test_while_the_host_is_away_a_seated_player_may_start(manager: RoomManager) -> None:
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
    )
    await room.sit(GUEST, "Guest", 2)
    host, guest = Inbox(HOST), Inbox(GUEST)
    await room.connect(host, None)
    await room.connect(guest, None)
    assert room.summary()["host_here"]
    with pytest.raises(RoomError) as error:
        await room.set_bot(GUEST, 1, True)
    assert error.value.code == "not_host"  # the host is here: only the host
    await room.disconnect(host)
    away = await guest.wait(lambda f: f["t"] == "room" and not f["d"]["host_here"])
    assert away["d"]["seats"][0]["connected"] is False
    with pytest.raises(RoomError) as error:
        await room.set_bot("passer-by", 1, True)
    assert error.value.code == "not_host"  # nor anyone who has no seat
    await room.set_bot(GUEST, 1, True)
    await room.begin(GUEST, fill_with_bots=True)
    assert room.status == PLAYING and room.seats[0].player_id == HOST


async def test_a_watching_host_coming_and_going_is_announced(manager: RoomManager) -> None:
    room = await manager.create(
        HOST,
        "Host",
        {"preset": "french"},
        target=None,
        public=False,
        turn_seconds=0,
        host_seat=None,
    )
    await room.sit(GUEST, "Guest", 1)
    guest, host = Inbox(GUEST), Inbox(HOST)
    await room.connect(guest, None)
    assert not guest.frames[0]["d"]["room"]["host_here"]
    await room.connect(host, None)
    await guest.wait(lambda f: f["t"] == "room" and f["d"]["host_here"])
    await room.disconnect(host)
    await guest.wait(lambda f: f["t"] == "room" and not f["d"]["host_here"])


async def test_chat_reaches_everyone(manager: RoomManager) -> None:
    room = await bot_room(manager)
    watcher = Inbox(None)
    await room.connect(watcher, None)
    await room.say(HOST, "Host", "m1", " hello <b>all</b> ")
    frame = await watcher.wait(lambda f: f["t"] == "chat")
    assert frame["d"]["text"] == "hello <b>all</b>" and frame["d"]["seat"] == 0
    assert room.chat[-1]["text"] == "hello <b>all</b>"


async def test_rematch_starts_a_new_match_when_every_player_asks(manager: RoomManager) -> None:
    room, inbox = await started_bot_room(manager, target=1)
    while True:
        frame = await inbox.wait(lambda f: finished(f) or is_my_turn(f, room))
        if finished(frame):
            break
        await room.act(HOST, None, room.version, frame["d"]["deal"]["legal"][0])
    first = room.match.match_id if room.match else None
    await room.rematch(HOST)
    assert room.status == PLAYING and room.match is not None and room.match.match_id != first


async def finished_match_of_two(manager: RoomManager) -> tuple[Room, Inbox, Inbox]:
    """The host (seat 0) and a guest (seat 2) with two bots, their match (to 1 point) over."""
    room, host, guest = await partners_room(manager, target=1)
    await play_to_the_end(room, host, {0: HOST, 2: GUEST})
    return room, host, guest


async def play_to_the_end(
    room: Room, inbox: Inbox, players: dict[int, str], timeout: float = 10
) -> None:
    """Answer every turn of the people in ``players`` (seat: player id) with their first legal
    action, as ``inbox`` (a subscriber of the room) hears of it, until the match ends; a last
    card is left to the server, which plays it."""

    def next_step(f: dict[str, Any]) -> bool:
        turn = f.get("d", {}).get("turn") or {}
        mine = turn.get("seat") in players and not turn.get("forced")
        return finished(f) or (f.get("v") == room.game_version and mine)

    while not finished(frame := await inbox.wait(next_step, timeout)):
        assert room.match is not None and room.match.deal is not None
        action = action_to_dict(legal_actions(room.match.deal)[0])
        await room.act(players[frame["d"]["turn"]["seat"]], None, room.version, action)


async def test_a_player_who_went_away_does_not_hold_up_a_rematch(manager: RoomManager) -> None:
    room, _host, guest = await finished_match_of_two(manager)
    await room.rematch(HOST)
    assert room.status == FINISHED  # the guest is here and has not asked
    await room.disconnect(guest)
    await room.rematch(HOST, "again")
    assert room.status == PLAYING
    assert room.seats[2].player_id == GUEST  # still theirs: a stand-in plays after the grace


async def test_a_seat_left_after_the_match_gets_a_bot_in_the_rematch(manager: RoomManager) -> None:
    room, _host, _guest = await finished_match_of_two(manager)
    await room.leave(GUEST)
    await room.rematch(HOST)
    assert room.status == PLAYING
    assert [s.bot for s in room.seats] == [False, True, True, True]


async def test_versions_are_gapless_and_a_reconnect_gets_what_it_missed(
    manager: RoomManager,
) -> None:
    room = await bot_room(manager)
    early = Inbox(HOST)
    await room.connect(early, None)
    seen = room.version
    await room.disconnect(early)
    await room.begin(HOST, fill_with_bots=False)
    late = Inbox(HOST)
    await room.connect(late, seen)
    versions = [f["v"] for f in late.frames]
    assert versions[: room.version - seen] == list(range(seen + 1, room.version + 1))
    assert all(f["t"] != "snapshot" for f in late.frames)
    far = Inbox(HOST)
    await room.connect(far, room.version + 5)
    assert far.frames[0]["t"] == "snapshot"


async def test_every_frame_a_room_sends_comes_from_the_view(manager: RoomManager) -> None:
    """Spectator frames carry no hand; a seat's frames carry only its own hand."""
    room = await bot_room(manager)
    spectator, host = Inbox(None), Inbox(HOST)
    await room.connect(spectator, None)
    await room.connect(host, None)
    await room.begin(HOST, fill_with_bots=False)
    await my_turn(host, room)
    assert room.match is not None and room.match.deal is not None
    deal = room.match.deal
    for frame in spectator.frames:
        view = frame["d"].get("deal")
        assert view is None or view["hand"] is None
    others = {str(c) for seat in (1, 2, 3) for c in deal.hand(seat)}
    for frame in host.frames:
        view = frame["d"].get("deal")
        if view is not None:
            assert not others & set(view["hand"])


async def test_the_sweeper_puts_away_a_room_nobody_uses(store: MemoryStore) -> None:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), idle_seconds=0.2)
    manager.start_sweeping()
    try:
        idle = await manager.create(
            HOST, "Host", {"preset": "french"}, target=None, public=True, turn_seconds=0
        )
        watched = await manager.create(
            HOST, "Host", {"preset": "french"}, target=None, public=True, turn_seconds=0
        )
        await watched.connect(Inbox(None), None)

        async def put_away() -> None:
            while idle.config.code in manager:
                await asyncio.sleep(0.05)

        await asyncio.wait_for(put_away(), timeout=5)
        assert watched.config.code in manager
        assert [r.config.code for r in manager.public_rooms()] == [watched.config.code]
    finally:
        await manager.close()


async def partners_room(manager: RoomManager, **settings: Any) -> tuple[Room, Inbox, Inbox]:
    """The host in seat 0 and the guest in seat 2 (one team), bots in seats 1 and 3; playing.
    ``settings``: the room's target, turn_seconds or deal_pause_seconds, where not the
    defaults (no target of its own, no turn clock)."""
    options: dict[str, Any] = {"target": None, "turn_seconds": 0, **settings}
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, public=False, bots=(1, 3), **options
    )
    await room.sit(GUEST, "Guest", 2)
    host, guest = Inbox(HOST), Inbox(GUEST)
    await room.connect(host, None)
    await room.connect(guest, None)
    await room.begin(HOST, fill_with_bots=False)
    return room, host, guest


async def test_a_team_concedes_only_when_every_member_at_the_table_agrees(
    manager: RoomManager, store: MemoryStore
) -> None:
    with pytest.raises(RoomError) as error:
        await (await bot_room(manager)).concede(HOST)
    assert error.value.code == "not_playing"  # no match yet
    room, host, _ = await partners_room(manager)
    with pytest.raises(RoomError) as error:
        await room.concede("watcher")
    assert error.value.code == "not_seated"
    await room.concede(HOST)
    offered = await host.wait(lambda f: f["t"] == "room" and f["d"]["concede"] == [0])
    assert offered["d"]["status"] == PLAYING  # one partner cannot give the match away alone
    await room.concede(HOST, on=False)
    await host.wait(lambda f: f["t"] == "room" and f["d"]["concede"] == [])
    await room.concede(HOST)
    await room.concede(GUEST)
    over = await host.wait(finished)
    assert over["d"]["conceded"] == 0 and over["d"]["concede"] == []
    assert room.match is not None and room.match.deal is None  # the deal in progress is dropped
    (last,) = [op for op in store.ops(MatchProgress) if op.finished]
    assert (last.winner, last.scoresheet["conceded"], last.scoresheet["winner"]) == (1, 0, 1)
    with pytest.raises(RoomError) as error:
        await room.concede(GUEST)
    assert error.value.code == "not_playing"
    await room.rematch(HOST)
    await room.rematch(GUEST)
    assert room.status == PLAYING and room.summary()["conceded"] is None


async def test_an_absent_partner_does_not_hold_a_concession_up(manager: RoomManager) -> None:
    room, host, guest = await partners_room(manager)
    await room.disconnect(guest)
    await room.concede(HOST)
    over = await host.wait(finished)
    assert over["d"]["conceded"] == 0


async def test_a_player_who_leaves_a_match_gets_a_stand_in_at_once_and_may_come_back(
    manager: RoomManager,
) -> None:
    room, host, guest = await partners_room(manager)  # grace period: the default minute
    await room.leave(GUEST)
    left = await host.wait(lambda f: f["t"] == "room" and f["d"]["seats"][2]["standin"])
    assert left["d"]["seats"][2]["player"]["id"] == GUEST  # the seat stays the guest's
    await room.disconnect(guest)
    assert 2 in room.standins  # still played for by the bot, with no grace period to wait out
    back = Inbox(GUEST)
    await room.connect(back, None)
    assert 2 not in room.standins


async def test_a_player_who_left_on_one_socket_comes_back_on_a_new_one_while_another_is_open(
    manager: RoomManager,
) -> None:
    """A new hello from a player whose seat has a stand-in takes the seat back, even while
    another socket of that player stayed connected (a second tab): it took the seat back only
    when no socket of the player was connected, so the player could not come back at all."""
    room, host, _open = await partners_room(manager)
    await room.leave(GUEST)  # on the guest's socket, which stays open
    assert 2 in room.standins
    told = len(host.frames)
    back = Inbox(GUEST)
    await room.connect(back, None)  # the news is committed and sent before this returns
    assert 2 not in room.standins
    news = [f["d"]["seats"][2] for f in host.frames[told:] if f["t"] == "room"]
    assert [(s["standin"], s["connected"]) for s in news] == [(False, True)]


async def test_a_concession_that_cannot_be_stored_changes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await bot_room(manager)  # the host's partner is a bot: the host concedes alone
    inbox = Inbox(HOST)
    await room.connect(inbox, None)
    await room.begin(HOST, fill_with_bots=False)
    await my_turn(inbox, room)
    version = room.version
    store.fail_next = True
    with pytest.raises(RoomError) as error:
        await room.concede(HOST)
    assert error.value.code == "server_error"
    summary = room.summary()
    assert (room.status, room.version, summary["conceded"], summary["concede"]) == (
        PLAYING,
        version,
        None,
        [],
    )
    assert room.match is not None and room.match.deal is not None  # the deal goes on
    await room.concede(HOST)  # asked again, it goes through
    assert room.status == FINISHED and room.summary()["conceded"] == 0
