"""A restored room still knows who played its last match (``match_seats``), on SQLite and
PostgreSQL: the finished table's words about the match name them after a restart too."""

from __future__ import annotations

from tests.db.test_store import add_player, host_and_bots_finished, running


async def test_a_restored_room_knows_who_played_its_last_match(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await host_and_bots_finished(manager, "bulgarian3")
        played = room.summary()["match_seats"]
        await room.set_bot("host", 2, False)  # after the match: the seat is empty now
        code = room.config.code
    async with running(database_url) as (manager, _store):
        restored = await manager.get(code)
        assert restored is not None
        summary = restored.summary()
        assert summary["match_seats"] == played
        assert [s["bot"] for s in played] == [False, True, True]
        assert summary["seats"][2]["bot"] is False
