"""players suspended by the operator (app.rooms.suspensions): the reason, the end, and when it
last changed (indexed: every server reads those changed lately, app.db.player_news)

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05 20:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("suspension_reason", sa.String(200), nullable=True))
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("suspension_changed_at", sa.DateTime(timezone=True), nullable=True)
        )
    op.create_index("ix_players_suspension_changed_at", "players", ["suspension_changed_at"])


def downgrade() -> None:
    op.drop_index("ix_players_suspension_changed_at", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("suspension_changed_at")
        batch.drop_column("suspended_until")
        batch.drop_column("suspension_reason")
