"""when a player erased their account: the row stays as a nameless tombstone

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Players stored before this column erased nothing.
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("erased_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("erased_at")
