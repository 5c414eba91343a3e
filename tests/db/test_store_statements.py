"""The group commit's precompiled statements (``app.db.store._Raw``) store what SQLAlchemy's
Core would have stored for the same values, byte for byte, and a record stored through them
comes back as it was committed."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, insert, select, text

from app.db import models as m
from app.db.engine import make_engine
from app.db.store import SqlStore
from app.rooms.ports import (
    ActionTaken,
    ChatPosted,
    DealFinished,
    DealStarted,
    MatchProgress,
    MatchStarted,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    ShuffleCommitted,
    StatusChanged,
)
from tests.db.test_store import add_player

DECK = tuple(f"{r}{s}" for s in "SHDC" for r in "789TJQKA")
SEATS = (SeatRecord("host", "Host", False),) + (SeatRecord(None, None, True),) * 3
# Payloads as rooms store them, and the kinds of value JSON writers tell apart: non-ASCII
# text, nesting, floats, null, integer keys (written as strings).
PAYLOADS: list[dict[str, Any]] = [
    {"bid": "pass"},
    {"bid": "hearts", "seat": 1, "note": "é — 🂡"},
    {"play": "AS", "belote": True, "meld": [{"kind": "tierce", "cards": ["7H", "8H", "9H"]}]},
    {"x": 0.1, "y": None, "z": {1: "one"}},
]


def ops_of_a_deal(match_id: str) -> list[list[Any]]:
    """The batches of a room that starts a match, plays a deal and finishes it, with chat."""
    deal = DealStarted(match_id, 1, 0, "ab" * 32, 16, DECK, 2, "cd" * 32, ({"seat": 0, "e": "x"},))
    actions = [ActionTaken(match_id, 1, i, p, i == 2) for i, p in enumerate(PAYLOADS)]
    return [
        [StatusChanged("playing"), MatchStarted(match_id, {"preset": "bulgarian"}, 151, 0, SEATS)],
        [deal, actions[0], ChatPosted(0, "host", "Host", "bonne chance é", 12.5)],
        actions[1:3],
        [
            actions[3],
            DealFinished(match_id, 1, "hearts", {"points": [82, 80], "by": {0: 1}}),
            MatchProgress(match_id, {"deals": [[82, 80]]}, True, 0),
            ShuffleCommitted("ef" * 32),
        ],
    ]


def stored_text(connection: Connection, table: Table, where: str) -> list[tuple[Any, ...]]:
    """The rows of ``table`` as the database holds them: every column as text, so that two
    JSON writers or two timestamp formats cannot read back alike."""
    columns = ", ".join(f"CAST({c.name} AS TEXT)" for c in table.c if c.name != "id")
    sql = f"SELECT {columns} FROM {table.name} WHERE {where} ORDER BY 1, 2, 3"
    return [tuple(row) for row in connection.exec_driver_sql(sql).all()]


def core_copy(connection: Connection, table: Table, where: str, **changes: Any) -> None:
    """Write again the rows of ``table`` that match ``where``, read through SQLAlchemy's types
    and inserted by plain Core, with ``changes`` to their keys."""
    rows = connection.execute(select(table).where(text(where))).mappings().all()
    copies = [{k: v for k, v in row.items() if k != "id"} | changes for row in rows]
    connection.execute(insert(table), copies)


async def test_what_the_store_writes_is_what_core_writes(database_url: str) -> None:
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    store = SqlStore(engine)
    store.start()
    config = RoomConfig("RAW1", "host", {"preset": "bulgarian"}, 151, True, 0)
    await store.commit("RAW1", 1, [RoomCreated(config, SEATS)])
    for version, batch in enumerate(ops_of_a_deal("mraw"), start=2):
        await store.commit("RAW1", version, batch)
    await store.close()
    # PostgreSQL stores the batch of actions alone as one statement outside a transaction
    # (``SqlStore._write_single``): its rows are compared below with Core's too.
    postgres = engine.dialect.name == "postgresql"
    assert store.stats.single_statement_groups == (1 if postgres else 0)

    actions, deals, matches, chat = (
        m.Base.metadata.tables[n] for n in ("actions", "deals", "matches", "chat_messages")
    )

    def compare(connection: Connection) -> None:
        (deal_id,) = connection.execute(select(deals.c.id)).one()
        (room_id,) = connection.exec_driver_sql("SELECT id FROM rooms").one()
        # A second match, deal and room to hold Core's copies (every row keyed like the first).
        core_copy(connection, matches, "id = 'mraw'", id="mcore")
        core_copy(connection, deals, "match_id = 'mraw'", match_id="mcore")
        (copy_id,) = connection.execute(select(deals.c.id).where(deals.c.match_id == "mcore")).one()
        core_copy(connection, actions, f"deal_id = {deal_id}", deal_id=copy_id)
        core_copy(connection, chat, f"room_id = {room_id}", text="bonne chance é ")

        def without(rows: list[tuple[Any, ...]], at: int) -> list[tuple[Any, ...]]:
            return [row[:at] + row[at + 1 :] for row in rows]

        raw_actions = stored_text(connection, actions, f"deal_id = {deal_id}")
        assert len(raw_actions) == len(PAYLOADS)
        assert without(raw_actions, 0) == without(
            stored_text(connection, actions, f"deal_id = {copy_id}"), 0
        )
        assert without(stored_text(connection, deals, "match_id = 'mraw'"), 0) == without(
            stored_text(connection, deals, "match_id = 'mcore'"), 0
        )
        assert stored_text(connection, matches, "id = 'mraw'") == stored_text(
            connection, matches, "id = 'mcore'"
        )
        raw_chat = stored_text(connection, chat, "text = 'bonne chance é'")
        core_chat = stored_text(connection, chat, "text = 'bonne chance é '")
        text_at = [c.name for c in chat.c if c.name != "id"].index("text")
        assert len(raw_chat) == 1 and without(raw_chat, text_at) == without(core_chat, text_at)

    def core_room(connection: Connection) -> None:
        """The room row's version and time, as Core's UPDATE writes them, against the store's."""
        rooms = m.Base.metadata.tables["rooms"]
        stored = stored_text(connection, rooms, "code = 'RAW1'")
        (updated_at,) = connection.execute(select(rooms.c.updated_at)).one()
        connection.execute(
            rooms.update().values(version=5, updated_at=updated_at, next_seed="ef" * 32)
        )
        assert stored_text(connection, rooms, "code = 'RAW1'") == stored

    async with engine.begin() as connection:
        await connection.run_sync(compare)
        await connection.run_sync(core_room)
    await engine.dispose()


async def test_a_record_stored_in_groups_loads_as_it_was_committed(database_url: str) -> None:
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    store = SqlStore(engine)
    store.start()
    config = RoomConfig("RAW2", "host", {"preset": "bulgarian"}, 151, True, 0)
    before = datetime.now(UTC)
    await store.commit("RAW2", 1, [RoomCreated(config, SEATS)])
    for version, batch in enumerate(ops_of_a_deal("mrec"), start=2):
        await store.commit("RAW2", version, batch)
    loaded = await store.load_room("RAW2")
    await store.close()

    assert loaded is not None and loaded.version == 5 and loaded.next_seed == "ef" * 32
    assert loaded.match is not None and loaded.match.finished
    (deal,) = loaded.match.deals
    assert deal.actions == tuple({**p, "z": {"1": "one"}} if "z" in p else p for p in PAYLOADS)
    assert deal.auto == frozenset({2}) and deal.finished and deal.deck == DECK
    assert deal.hanging_in == 2 and deal.commitment == "cd" * 32
    assert deal.contributions == ({"seat": 0, "e": "x"},)
    assert [(c.text, c.at) for c in loaded.chat] == [("bonne chance é", 12.5)]
    async with engine.connect() as connection:
        row = (await connection.execute(select(m.ActionRow.created_at))).scalars().all()
        stamps = {s if s.tzinfo else s.replace(tzinfo=UTC) for s in row}
    assert len(stamps) == 3 and all(before <= s <= datetime.now(UTC) for s in stamps)
    await engine.dispose()


async def test_batches_of_one_room_in_one_group_leave_its_last_version(
    database_url: str,
) -> None:
    """A room commits one batch at a time, but should two of its batches share a group, the
    room's stored version is the last one's (as an executemany leaves it), not either."""
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    store = SqlStore(engine)
    store.start()
    config = RoomConfig("RAW3", "host", {"preset": "bulgarian"}, 151, True, 0)
    await store.commit("RAW3", 1, [RoomCreated(config, SEATS)])
    groups = store.stats.groups
    lines = [ChatPosted(0, "host", "Host", f"line {v}", float(v)) for v in range(2, 12)]
    # Queued in one go, before the writer runs again: one group.
    await asyncio.gather(*(store.commit("RAW3", int(c.at), [c]) for c in lines))
    assert store.stats.groups == groups + 1
    loaded = await store.load_room("RAW3")
    await store.close()
    await engine.dispose()
    assert loaded is not None and loaded.version == 11
    assert [c.text for c in loaded.chat] == [c.text for c in lines]
