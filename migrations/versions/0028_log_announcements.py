"""the operators' log holds announcements too (app.db.moderation): an entry about no player,
so moderation_log.player_id may be null

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-06 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("moderation_log") as batch:
        batch.alter_column("player_id", existing_type=sa.String(32), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM moderation_log WHERE player_id IS NULL")
    with op.batch_alter_table("moderation_log") as batch:
        batch.alter_column("player_id", existing_type=sa.String(32), nullable=False)
