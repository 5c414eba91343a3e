"""The settings a host changed are those of the room after a restart or a take-over: they are
stored with the room (``SettingsChanged``) and read back with it, on SQLite and PostgreSQL,
while a finished match keeps the rules and target it was played by."""

from __future__ import annotations

from tests.db.test_store import add_player, running
from tests.rooms.fakes import Inbox
from tests.rooms.test_room import finished, is_my_turn


async def test_changed_settings_outlive_a_restart_and_the_match_keeps_its_own(
    database_url: str,
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host",
            "Host",
            {"preset": "bulgarian"},
            target=1,
            public=False,
            turn_seconds=0,
            bot_level="random",
            bots=(1, 2, 3),
        )
        inbox = Inbox("host")
        await room.connect(inbox, None)
        await room.begin("host", fill_with_bots=False)
        while not finished(frame := await inbox.wait(lambda f: finished(f) or is_my_turn(f, room))):
            await room.act("host", None, room.version, frame["d"]["deal"]["legal"][0])
        changes = {
            "house_rules": {"kirtik": True},
            "target": 501,
            "public": True,
            "turn_seconds": 45,
            "deal_pause_seconds": 2.5,
            "bot_level": "strong",
        }
        await room.configure("host", changes)
        code, config = room.config.code, room.config
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        assert restored.config == config
        assert restored.summary()["rules"] == {
            "preset": "bulgarian",
            "house_rules": {"kirtik": True},
        }
        assert restored.summary()["deal_pause_seconds"] == 2.5
        assert manager.public_rooms() == []  # public, but its match is over: not listed
        # The finished match is shown as it was played: to 1 point, without the kirtik.
        assert restored.match is not None and restored.match.state.target == 1
        assert not restored.match.state.ruleset.house_rules.kirtik
        await restored.rematch("host")
        assert restored.match.state.target == 501
        assert restored.match.state.ruleset.house_rules.kirtik
