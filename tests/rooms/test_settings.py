"""The host changes the room's settings between matches; the next match is played by them.

A table that finished a match and wanted another with a longer target, a house rule, a clock,
stronger bots, or the room made public to find a fourth player, had to make a new room and send
everyone the new link. The checks are those of a new room (app.rooms.config), whichever way the
change comes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.rooms.manager import RoomManager, bot_for
from app.rooms.ports import BotPolicy, SettingsChanged, VotesChanged
from app.rooms.room import FINISHED, PLAYING, Room, RoomTimings
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_remove import OTHER, refused, waiting_room
from tests.rooms.test_room import GUEST, HOST, finished_match_of_two

LEVELS_ASKED: list[str] = []


def counted_bots(level: str) -> BotPolicy:
    """The bots of ``level``, remembering that a room asked for them."""
    LEVELS_ASKED.append(level)
    return bot_for(level)


@pytest.fixture
async def manager(store: MemoryStore) -> AsyncIterator[RoomManager]:
    """The room tests' manager, with its bots counted."""
    LEVELS_ASKED.clear()
    manager = RoomManager(
        store, RoomTimings(bot_delay_seconds=0, max_turn_seconds=120), policy_factory=counted_bots
    )
    yield manager
    await manager.close()


def settings_of(room: Room) -> dict[str, Any]:
    summary = room.summary()
    return {k: summary[k] for k in ("rules", "target", "public", "turn_seconds", "bot_level")}


async def test_the_host_changes_the_settings_and_the_match_is_played_by_them(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    guest = Inbox(GUEST)
    await room.connect(guest, None)
    before = room.version
    await room.configure(
        HOST,
        {
            "house_rules": {"must_undertrump": False, "sur_contra": "x8"},
            "target": 301,
            "public": True,
            "turn_seconds": 60,
            "deal_pause_seconds": 5,
            "bot_level": "strong",
        },
    )
    assert room.version == before + 1
    rules = {
        "preset": "bulgarian",
        "house_rules": {"must_undertrump": False, "sur_contra": "x8"},
    }
    assert settings_of(room) == {
        "rules": rules,
        "target": 301,
        "public": True,
        "turn_seconds": 60,
        "bot_level": "strong",
    }
    assert room.summary()["deal_pause_seconds"] == 5
    stored = store.ops(SettingsChanged)[-1].config
    assert stored == room.config and stored.rules == rules and stored.code == room.config.code
    # Everyone at the table is told on the room's stream.
    told = await guest.wait(lambda f: f["t"] == "room" and f["d"]["target"] == 301)
    assert told["d"]["rules"] == rules and told["d"]["bot_level"] == "strong"
    assert manager.public_rooms() == [room]  # made public: listed
    assert LEVELS_ASKED[-1] == "strong"  # the bots that will fill the seats are the new ones
    await room.begin(HOST, fill_with_bots=True)
    assert room.match is not None
    assert room.match.state.target == 301
    assert room.match.state.ruleset.to_dict() == rules
    assert room.match.state.ruleset.house_rules.must_undertrump is False


async def test_a_change_names_only_what_changes_and_house_rules_are_the_whole_set(
    manager: RoomManager,
) -> None:
    room = await waiting_room(manager)
    await room.configure(HOST, {"house_rules": {"kirtik": True}, "target": 501})
    await room.configure(HOST, {"turn_seconds": 30, "public": None})  # None: left as it is
    assert room.config.target == 501 and room.config.turn_seconds == 30
    assert room.config.public is False
    assert room.config.rules["house_rules"] == {"kirtik": True}
    await room.configure(HOST, {"house_rules": {"dealer_must_bid": True}})  # kirtik: default
    assert room.config.rules["house_rules"] == {"dealer_must_bid": True}
    await room.configure(HOST, {"target": None})  # the preset's target
    assert room.config.target is None and room.summary()["target"] == 151


async def test_a_change_to_what_is_already_set_writes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    version, commits = room.version, len(store.commits)
    # A house rule given at its default is the rules the room has (they are written without it).
    await room.configure(HOST, {"house_rules": {"must_undertrump": True}, "public": False})
    assert (room.version, len(store.commits)) == (version, commits)


async def test_only_the_host_changes_settings_only_between_matches_and_only_good_ones(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await waiting_room(manager)
    before, version, commits = room.config, room.version, len(store.commits)
    cases: list[tuple[str, dict[str, Any], str]] = [
        # The host is not connected: a seated player may start in their place, not do this.
        (GUEST, {"target": 1}, "not_host"),
        (OTHER, {"target": 1}, "not_host"),
        (HOST, {"house_rules": {"no_such_rule": True}}, "bad_rules"),
        (HOST, {"house_rules": {"deal_packets": "3-2"}}, "bad_rules"),  # the French preset's
        (HOST, {"house_rules": {"kirtik": "yes"}}, "bad_rules"),
        (HOST, {"house_rules": {"sur_contra": "twice"}}, "bad_rules"),
        (HOST, {"preset": "french"}, "bad_request"),  # the preset fixes the seats
        (HOST, {"rated": True}, "bad_request"),  # it fixes who may sit
        (HOST, {"code": "other"}, "bad_request"),
        (HOST, {"target": 0}, "bad_request"),
        (HOST, {"target": 100_001}, "bad_request"),
        (HOST, {"turn_seconds": 121}, "bad_request"),  # this server's longest
        (HOST, {"turn_seconds": -1}, "bad_request"),
        (HOST, {"deal_pause_seconds": 121}, "bad_request"),
        (HOST, {"bot_level": "godlike"}, "bad_request"),
    ]
    for player, changes, code in cases:
        assert await refused(room.configure(player, changes)) == code, changes
    assert (room.config, room.version, len(store.commits)) == (before, version, commits)
    await room.begin(HOST, fill_with_bots=True)
    assert room.status == PLAYING
    assert await refused(room.configure(HOST, {"target": 1001})) == "match_in_progress"
    assert room.config == before


async def test_a_rated_room_keeps_its_clock(manager: RoomManager) -> None:
    room = await manager.create(
        HOST,
        "Host",
        {"preset": "bulgarian"},
        target=None,
        public=False,
        turn_seconds=30,
        rated=True,
    )
    assert await refused(room.configure(HOST, {"turn_seconds": 0})) == "rated_needs_clock"
    await room.configure(HOST, {"turn_seconds": 60})
    assert room.config.turn_seconds == 60 and room.config.rated


async def test_after_a_match_a_change_clears_the_rematch_votes_and_the_rematch_plays_it(
    manager: RoomManager, store: MemoryStore
) -> None:
    """A vote for a rematch was a vote for the settings it saw."""
    room, _host, _guest = await finished_match_of_two(manager)
    assert room.match is not None and room.match.state.target == 1
    await room.rematch(GUEST)
    assert room.rematch_votes == {2}
    await room.configure(HOST, {"target": 51, "house_rules": {"kirtik": True}})
    assert room.status == FINISHED and room.rematch_votes == set()
    assert store.ops(VotesChanged)[-1].votes.rematch == ()
    assert room.summary()["rematch"] == []
    await room.rematch(HOST)
    assert room.status == FINISHED  # the guest has not agreed to the new settings yet
    await room.rematch(GUEST)
    assert room.status == PLAYING
    assert room.match.state.target == 51 and room.match.state.ruleset.house_rules.kirtik


async def test_a_change_that_cannot_be_stored_changes_nothing(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _host, _guest = await finished_match_of_two(manager)
    await room.rematch(GUEST)
    before, version, asked = room.config, room.version, len(LEVELS_ASKED)
    store.fail_next = True
    changes = {"target": 51, "public": True, "bot_level": "strong"}
    assert await refused(room.configure(HOST, changes)) == "server_error"
    assert (room.config, room.version, room.rematch_votes) == (before, version, {2})
    assert manager.public_rooms() == []
    await room.configure(HOST, changes)  # and it goes through once the store is back
    assert room.config.target == 51 and manager.public_rooms() == []  # finished: not listed
    assert LEVELS_ASKED[asked:] == ["strong", "strong"]


async def test_a_public_room_made_private_leaves_the_list(manager: RoomManager) -> None:
    older, room = [
        await manager.create(
            HOST, "Host", {"preset": "bulgarian"}, target=None, public=True, turn_seconds=0
        )
        for _ in range(2)
    ]
    assert manager.public_rooms() == [room, older]  # the most recently opened first
    await older.configure(HOST, {"target": 501})  # another setting: it keeps its place
    assert manager.public_rooms() == [room, older]
    await room.configure(HOST, {"public": False})
    assert manager.public_rooms() == [older] and manager.public_count() == 1
