"""tournaments: a check-in before the start (the start draws only those who checked in), the
host's removals of entrants (who may not enter again), and rated tournaments (app/db/tournaments.py)

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-07 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs (a NOT NULL one with its default): no batch, so SQLite copies no table
    # (see 0033).
    op.add_column("tournaments", sa.Column("check_in_minutes", sa.Integer(), nullable=True))
    op.add_column(
        "tournaments",
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "tournament_entries",
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "tournament_removals",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_removals_player_id", "tournament_removals", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_removals_player_id", table_name="tournament_removals")
    op.drop_table("tournament_removals")
    op.drop_column("tournament_entries", "checked_in_at")
    op.drop_column("tournaments", "rated")
    op.drop_column("tournaments", "check_in_minutes")
