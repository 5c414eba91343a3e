"""The hook ratings hang on: a room tells the manager's ``on_match_end`` about each match it
finishes, once, after the finished match is stored (issue 13)."""

from __future__ import annotations

from app.rooms.manager import RoomManager
from app.rooms.ports import MatchProgress, RoomCreated
from app.rooms.room import RoomTimings
from tests.rooms.fakes import Inbox, MemoryStore
from tests.rooms.test_room import finished


async def test_a_finished_match_is_told_once_after_it_is_stored() -> None:
    store = MemoryStore()
    told: list[tuple[str, bool]] = []

    def on_match_end(match_id: str) -> None:
        stored = any(op.finished and op.match_id == match_id for op in store.ops(MatchProgress))
        told.append((match_id, stored))

    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), on_match_end=on_match_end)
    try:
        room = await manager.create(
            "host",
            "Host",
            {"preset": "bulgarian"},
            target=1,
            public=False,
            turn_seconds=60,  # a rated room needs a clock (bots do not wait for it)
            bots=(1, 2, 3),
            host_seat=None,
            rated=True,
        )
        assert room.summary()["rated"] is True
        assert store.ops(RoomCreated)[0].config.rated is True
        inbox = Inbox(None)
        await room.connect(inbox, None)
        await room.begin("host", fill_with_bots=True)
        await inbox.wait(finished, timeout=60)
        assert room.match is not None
        assert told == [(room.match.match_id, True)]
    finally:
        await manager.close()
