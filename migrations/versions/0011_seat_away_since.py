"""when each seat's player left the table, so that a restored room's grace period goes on

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04 21:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Seats stored before this column have no time on record: a restored room gives an away
    # player a full grace period, as before.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_since")
