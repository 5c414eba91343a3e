"""the players erased or renamed lately, which every server reads
(app.db.player_news): erased_at indexed, renamed_at added and indexed

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 19:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Players renamed before this column are not news any more.
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("renamed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_players_erased_at", "players", ["erased_at"])
    op.create_index("ix_players_renamed_at", "players", ["renamed_at"])


def downgrade() -> None:
    op.drop_index("ix_players_renamed_at", table_name="players")
    op.drop_index("ix_players_erased_at", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("renamed_at")
