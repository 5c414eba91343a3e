"""players' statistics per preset (app.rules.tally): contracts bid and how they ended, contras,
capots, belotes, declarations; counted here for every finished deal stored before

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-06 15:00:00

The store adds each deal's counts as it ends; this migration counts the deals already stored,
with the same ``tally_deal`` (the rules engine's, pure), so that a count made here equals the
one the server would have made. It reads every stored action once (the calls are among them),
in order, a deal at a time: a database with millions of actions takes a while, once.
Only the columns created here are written, whatever counters ``Tally`` gains later.
"""

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from app.rules import Ruleset, record_calls, tally_deal

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTERS = (
    "deals",
    "bids",
    "made",
    "inside",
    "hanging",
    "defended",
    "beaten",
    "contras",
    "contras_won",
    "capots",
    "capots_lost",
    "belotes",
    "declarations",
    "declaration_points",
)

players = sa.table("players", sa.column("id", sa.String), sa.column("erased_at", sa.DateTime))
matches = sa.table("matches", sa.column("id", sa.String), sa.column("rules", sa.JSON))
match_seats = sa.table(
    "match_seats",
    sa.column("match_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("player_id", sa.String),
    sa.column("bot", sa.Boolean),
)
deals = sa.table(
    "deals",
    sa.column("id", sa.Integer),
    sa.column("match_id", sa.String),
    sa.column("result", sa.JSON),
    sa.column("finished", sa.Boolean),
)
actions = sa.table(
    "actions",
    sa.column("deal_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("action", sa.JSON),
)


def upgrade() -> None:
    play_stats = op.create_table(
        "play_stats",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False, server_default="0") for name in COUNTERS),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "preset"),
    )
    counts = _counts(op.get_bind())
    if counts:
        op.bulk_insert(
            play_stats,
            [
                {"player_id": player, "preset": preset, **dict(zip(COUNTERS, values, strict=True))}
                for (player, preset), values in counts.items()
            ],
        )


def _counts(bind: sa.Connection) -> dict[tuple[str, str], list[int]]:
    """Every finished deal's counts, summed per (player, preset): people only, not bots nor
    erased players (whose profile is gone)."""
    rules: dict[str, Ruleset] = {}
    for match_id, match_rules in bind.execute(sa.select(matches.c.id, matches.c.rules)):
        rules[match_id] = Ruleset.from_dict(match_rules)
    people: dict[str, dict[int, str]] = {}
    living = sa.select(players.c.id).where(players.c.erased_at.is_(None))
    seated = sa.select(match_seats.c.match_id, match_seats.c.seat, match_seats.c.player_id).where(
        match_seats.c.player_id.in_(living), sa.not_(match_seats.c.bot)
    )
    for match_id, seat, player in bind.execute(seated):
        people.setdefault(match_id, {})[seat] = player
    finished = {
        deal_id: (match_id, result)
        for deal_id, match_id, result in bind.execute(
            sa.select(deals.c.id, deals.c.match_id, deals.c.result).where(deals.c.finished)
        )
        if match_id in people
    }
    counts: dict[tuple[str, str], list[int]] = {}
    for deal_id, deal_actions in _actions_by_deal(bind):
        if deal_id not in finished:
            continue
        match_id, result = finished[deal_id]
        ruleset = rules[match_id]
        tallies = tally_deal(ruleset, record_calls(deal_actions), result)
        for seat, player in people[match_id].items():
            total = counts.setdefault((player, ruleset.preset), [0] * len(COUNTERS))
            for i, name in enumerate(COUNTERS):
                total[i] += getattr(tallies[seat], name)
    return counts


def _actions_by_deal(bind: sa.Connection) -> Iterator[tuple[int, list[Any]]]:
    """Each deal's actions in order, read as one stream."""
    query = sa.select(actions.c.deal_id, actions.c.action).order_by(
        actions.c.deal_id, actions.c.seq
    )
    current: int | None = None
    batch: list[Any] = []
    streamed = bind.execute(query, execution_options={"stream_results": True})
    for deal_id, action in streamed:
        if deal_id != current:
            if current is not None:
                yield current, batch
            current, batch = deal_id, []
        batch.append(action)
    if current is not None:
        yield current, batch


def downgrade() -> None:
    op.drop_table("play_stats")
