"""A restored room still knows who played its last match (``match_seats``), on SQLite and
PostgreSQL: the finished table's words about the match name them after a restart too."""

from __future__ import annotations

from tests.db.test_store import add_player, running
from tests.rooms.fakes import Inbox
from tests.rooms.test_room import finished, is_my_turn


async def test_a_restored_room_knows_who_played_its_last_match(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await manager.create(
            "host",
            "Host",
            {"preset": "bulgarian3"},
            target=1,
            public=False,
            turn_seconds=0,
            bot_level="random",
            bots=(1, 2),
        )
        inbox = Inbox("host")
        await room.connect(inbox, None)
        await room.begin("host", fill_with_bots=False)
        while not finished(frame := await inbox.wait(lambda f: finished(f) or is_my_turn(f, room))):
            await room.act("host", None, room.version, frame["d"]["deal"]["legal"][0])
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
