"""A tournament table's match is the bracket's the moment it ends (app/db/history.py,
``_deciding``): a watcher who follows the "Scoresheet" link at once reads it, though the
director records the table's result in its own time afterwards. While it is played it is its
players' alone, and a rematch its players then play in that room stays theirs."""

from __future__ import annotations

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.rooms.room import PLAYING
from tests.db.test_store import add_player, host_and_bots, running
from tests.rooms.fakes import Inbox
from tests.rooms.test_room import finished


async def _a_table(database_url: str, room_code: str) -> None:
    """A tournament being played whose round-0 table is the room ``room_code``, undecided."""
    engine = make_engine(database_url)
    async with make_sessionmaker(engine).begin() as session:
        session.add(
            m.Tournament(
                id="cup", name="Cup", preset="bulgarian", host_id="host", size=4, status="playing"
            )
        )
        await session.flush()
        session.add(
            m.TournamentMatch(
                tournament_id="cup", round=0, slot=0, unit_a=0, unit_b=1, room_code=room_code
            )
        )
    await engine.dispose()


async def _decided(database_url: str, match_id: str) -> None:
    """The director's record of the table (``SqlTournaments.decide``)."""
    engine = make_engine(database_url)
    async with make_sessionmaker(engine).begin() as session:
        table = await session.get(m.TournamentMatch, ("cup", 0, 0))
        assert table is not None
        table.winner, table.match_id = 1, match_id
    await engine.dispose()


async def test_a_tables_match_is_read_by_anyone_from_its_end_and_a_rematch_is_not(
    database_url: str,
) -> None:
    for player in ("host", "fay"):
        await add_player(database_url, player)
    engine = make_engine(database_url)
    history = History(make_sessionmaker(engine))
    try:
        async with running(database_url) as (manager, _store):
            room = await host_and_bots(manager, "bulgarian", target=None, public=False)
            await _a_table(database_url, room.config.code)
            inbox = Inbox("host")
            await room.connect(inbox, None)
            ids = []
            for _ in range(2):  # the table's match, then a rematch in the same room
                if ids:
                    await room.rematch("host")
                else:
                    await room.begin("host", fill_with_bots=False)
                assert room.status == PLAYING and room.match is not None
                ids.append(room.match.match_id)
                for reader in (None, "fay"):  # being played: the host's alone
                    assert await history.match(ids[-1], reader) is None
                inbox.frames.clear()
                await room.concede("host")  # the host's partner is a bot: conceded at once
                await inbox.wait(finished)
        table, rematch = ids
        for reader in (None, "fay"):
            read = await history.match(table, reader)
            assert read is not None and read["finished"] and read["room"] is None
            assert await history.match_record(table, reader) is not None
            assert await history.match(rematch, reader) is None
            listed = await history.matches_of("host", reader)
            assert [row["id"] for row in listed] == [table]
        assert [row["id"] for row in await history.matches_of("host", "host")] == [rematch, table]
        await _decided(database_url, table)  # recorded: nothing read changes
        for reader in (None, "fay"):
            assert [row["id"] for row in await history.matches_of("host", reader)] == [table]
            assert await history.match(rematch, reader) is None
    finally:
        await engine.dispose()
