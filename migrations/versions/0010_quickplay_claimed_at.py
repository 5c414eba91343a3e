"""when a quick-play ticket was claimed for a table: a claim whose node died before the table was
made is given back to the queue

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 19:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A ticket claimed before this column has no time: such a claim is not given back (it is
    # forgotten with its ticket when its player stops asking, as before).
    with op.batch_alter_table("quickplay_tickets") as batch:
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quickplay_tickets") as batch:
        batch.drop_column("claimed_at")
