"""A player's statistics (``play_stats``, app/rules/tally.py), on SQLite and PostgreSQL: the
store adds each finished deal's counts for the people who played it, in the transaction that
stores the deal's end; the migration that made the table (0030) counts the deals stored before
it alike."""

from __future__ import annotations

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


def keen() -> Callable[[list[Any]], Any]:
    """A player who, in every other deal, bids the highest contract it may each time it speaks
    (so that it is most often the bidder), and passes in the others (so that it defends); it
    plays its first legal card."""
    deals = 0
    bidding = False

    def choose(legal: list[Any]) -> Any:
        nonlocal deals, bidding
        calls = [a for a in legal if "bid" in a]
        if calls and not bidding:
            deals += 1  # a new deal's bidding
        bidding = bool(calls)
        contracts = [a for a in calls if a["bid"] not in NOT_A_CONTRACT]
        if contracts and deals % 2:
            return contracts[-1]
        return next((a for a in calls if a["bid"] == "pass"), legal[0])

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
    """The host (seat 0) plays Bulgarian matches to 151 against random bots until it has both
    bid a contract and defended one (the bots' calls are random: a match or two); its counts
    equal what the engine says of the stored deals, replayed; the bots have none."""
    await add_player(database_url, "host")
    states: list[Any] = []
    async with running(database_url) as (manager, _store):
        for _ in range(5):
            room = await host_and_bots_finished(manager, target=151, choose=keen())
            assert room.match is not None
            ruleset, more = await replayed(database_url, room.match.match_id)
            states += more
            played = [s for s in states if s.contract is not None]
            mine = [s for s in played if s.bidder == 0]
            if mine and len(mine) < len(played):
                break
    assert mine and len(mine) < len(played), "the host never both bid and defended"
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
        await host_and_bots_finished(manager, target=151, choose=keen())
        await host_and_bots_finished(manager, "bulgarian3", target=151, choose=keen())
    live = await all_stats(database_url)
    assert set(live) == {("host", "bulgarian"), ("host", "bulgarian3")}
    assert all(c["deals"] > 1 for c in live.values())

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
