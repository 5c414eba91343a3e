"""A conceded match in storage: the history and the match record say which team conceded,
the other team is the winner, and the deal that was being played stays secret."""

from __future__ import annotations

from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.rooms.room import FINISHED
from tests.db.test_shuffle_store import host_room, play_first_deal
from tests.db.test_store import add_player, running
from tests.rooms.test_room import finished


async def test_a_conceded_match_is_recorded_as_conceded(database_url: str) -> None:
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room, inbox, _ = await host_room(manager)
        await play_first_deal(room, inbox)
        await inbox.wait(lambda f: f["t"] == "deal" and f["d"]["number"] == 2)
        await room.concede("host")  # the host's partner is a bot: the host decides alone
        await inbox.wait(finished)
        assert room.match is not None
        match_id = room.match.match_id

    engine = make_engine(database_url)
    history = History(make_sessionmaker(engine))
    try:
        (listed,) = await history.matches_of("host", reader="host")
        assert (listed["finished"], listed["winner"], listed["conceded"]) == (True, 1, 0)
        assert listed["scoresheet"]["conceded"] == 0
        match = await history.match(match_id, reader="host")
        assert match is not None and match["conceded"] == 0
        assert [d["finished"] for d in match["deals"]] == [True, False]
        assert match["deals"][1]["result"] is None  # the deal in progress stays secret
        record = await history.match_record(match_id, reader="host")
        assert record is not None and record["conceded"] == 0
        assert len(record["deals"]) == 1  # finished deals only
        assert record["scoresheet"]["finished"] is False  # what the deals add up to
    finally:
        await engine.dispose()

    async with running(database_url) as (manager, _store):
        again = await manager.get(room.config.code)
        assert again is not None and again.status == FINISHED
        assert again.snapshot(0, "host")["deal"] is None  # the dropped deal is not dealt again
        assert again.summary()["conceded"] == 0  # the live view still says who conceded
