"""the pause a room keeps after each deal, while its result is shown

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: the rooms stored before this column keep the server's default pause.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("deal_pause_seconds", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("deal_pause_seconds")
