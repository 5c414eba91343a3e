"""moderation_log: what an operator did to a player with python -m app.admin, by whom and when
(app.db.moderation)

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06 05:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("operator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("detail", sa.String(400), nullable=True),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_index("ix_moderation_log_player_id", "moderation_log", ["player_id"])


def downgrade() -> None:
    op.drop_table("moderation_log")
