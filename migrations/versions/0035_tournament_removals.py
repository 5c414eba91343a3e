"""tournaments' removals: the host takes an entrant out before the start, and they may not
enter again (app/db/tournaments.py)

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-07 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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
