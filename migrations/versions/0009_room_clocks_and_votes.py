"""when each deal was dealt, and the seats' standing votes: a restored room keeps its clocks
and what its players asked for

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 19:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Deals and rooms stored before these columns have neither: a room restored in such a
    # deal before its first action gives the turn a full clock; no vote stands.
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("votes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("votes")
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("dealt_at")
