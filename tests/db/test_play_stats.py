"""A player's statistics (``play_stats``, app/rules/tally.py), on SQLite and PostgreSQL: the
store adds each finished deal's counts for the people who played it, in the transaction that
stores the deal's end; the migration that made the table (0030) counts the deals stored before
it alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from alembic import command
from sqlalchemy import Connection, select, update

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.migrate import alembic_config
from app.rules import DEAL_FORMAT, Ruleset, replay_deal
from app.rules.tally import NOT_A_CONTRACT
from tests.db.test_store import add_player, host_and_bots_finished, running

STATS = m.PlayStats.__table__


def keen(seed: int) -> Callable[[list[Any]], Any]:
    """A player who picks among the legal moves at random but, two times in three when it may
    bid a contract, bids one, so that it bids as well as defends in a few deals."""
    rng = random.Random(seed)

    def choose(legal: list[Any]) -> Any:
        bids = [a for a in legal if a.get("bid") not in (None, *NOT_A_CONTRACT)]
        return rng.choice(bids if bids and rng.random() > 1 / 3 else legal)

    return choose


async def all_stats(url: str) -> dict[tuple[str, str], dict[str, int]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(select(STATS))).mappings().all()
    finally:
        await engine.dispose()
    return {
        (row["player_id"], row["preset"]): {
            k: v for k, v in row.items() if k not in ("player_id", "preset")
        }
        for row in rows
    }


async def replayed(url: str, match_id: str) -> tuple[Ruleset, list[Any]]:
    """The match's finished deals replayed through the engine from what is stored."""
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session:
            match = await session.get(m.Match, match_id)
            assert match is not None
            ruleset = Ruleset.from_dict(match.rules)
            deals = (
                await session.scalars(
                    select(m.Deal)
                    .where(m.Deal.match_id == match_id, m.Deal.finished)
                    .order_by(m.Deal.number)
                )
            ).all()
            states = []
            for deal in deals:
                actions = await session.scalars(
                    select(m.ActionRow.action)
                    .where(m.ActionRow.deal_id == deal.id)
                    .order_by(m.ActionRow.seq)
                )
                record = {
                    "format": DEAL_FORMAT,
                    "rules": match.rules,
                    "dealer": deal.dealer,
                    "deck": deal.deck,
                    "hanging_in": deal.hanging_in,
                    "actions": list(actions),
                }
                states.append(replay_deal(record))
    finally:
        await engine.dispose()
    return ruleset, states


async def test_each_finished_deal_adds_to_the_stats_of_the_people_who_played_it(
    database_url: str,
) -> None:
    """The host (seat 0) plays a Bulgarian match to 151 against random bots, choosing at
    random; its counts equal what the engine says of the stored deals, replayed; the bots
    have none."""
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        room = await host_and_bots_finished(manager, target=151, choose=keen(3))
        assert room.match is not None
        match_id = room.match.match_id
    ruleset, states = await replayed(database_url, match_id)
    played = [s for s in states if s.contract is not None]
    mine = [s for s in played if s.bidder == 0]
    assert states and mine and len(mine) < len(played)  # the host both bid and defended
    stats = await all_stats(database_url)
    assert list(stats) == [("host", "bulgarian")]
    counts = stats["host", "bulgarian"]
    assert counts["deals"] == len(states)
    assert counts["bids"] == len(mine)
    outcomes = [s.result.itemised.settlement.outcome for s in mine]
    assert (counts["made"], counts["inside"], counts["hanging"]) == (
        outcomes.count("made"),
        outcomes.count("inside"),
        outcomes.count("tie"),
    )
    assert counts["defended"] == sum(ruleset.team_of(s.bidder) == 1 for s in played)
    assert counts["capots"] == sum(s.result.valat_team == 0 for s in played)
    assert counts["capots_lost"] == sum(s.result.valat_team == 1 for s in played)


async def test_the_migration_counts_the_deals_stored_before_as_the_server_did(
    database_url: str,
) -> None:
    """Matches of two presets counted as they are played; the table dropped and migration 0030
    run again over the same stored deals: the same counts."""
    await add_player(database_url, "host")
    async with running(database_url) as (manager, _store):
        await host_and_bots_finished(manager, target=151, choose=keen(5))
        await host_and_bots_finished(manager, "bulgarian3", target=151, choose=keen(6))
    live = await all_stats(database_url)
    assert set(live) == {("host", "bulgarian"), ("host", "bulgarian3")}
    assert all(c["bids"] and c["deals"] > c["bids"] for c in live.values())

    def again(connection: Connection) -> None:
        config = alembic_config(database_url)
        config.attributes["connection"] = connection
        command.downgrade(config, "0029")
        command.upgrade(config, "head")

    engine = make_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(again)
    finally:
        await engine.dispose()
    assert await all_stats(database_url) == live


async def test_an_erased_player_is_not_counted(database_url: str) -> None:
    """A deal that ends after its player was erased (their profile is gone) adds nothing."""
    await add_player(database_url, "host")
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            gone = update(m.Player).where(m.Player.id == "host")
            await session.execute(gone.values(erased_at=datetime.now(UTC)))
    finally:
        await engine.dispose()
    async with running(database_url) as (manager, _store):
        room = await host_and_bots_finished(manager)
        assert room.match is not None and room.match.finished_deals
    assert await all_stats(database_url) == {}
