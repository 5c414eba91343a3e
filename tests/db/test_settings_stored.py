"""The settings a host changed are those of the room after a restart or a take-over: they are
stored with the room (``SettingsChanged``) and read back with it, on SQLite and PostgreSQL,
while a finished match keeps the rules and target it was played by."""

from __future__ import annotations

from tests.db.test_store import add_player, host_and_bots_finished, running


async def test_changed_settings_outlive_a_restart_and_the_match_keeps_its_own(
    database_url: str,
) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await host_and_bots_finished(manager, "bulgarian")
        changes = {
            "house_rules": {"kirtik": True},
            "target": 501,
            "public": True,
            "turn_seconds": 45,
            "deal_pause_seconds": 2.5,
            "bot_level": "strong",
            "accounts_only": True,
        }
        await room.configure("host", changes, account=True)
        code, config = room.config.code, room.config
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        assert restored.config == config and config.accounts_only
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
