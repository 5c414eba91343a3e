"""quick play with a friend (app.rooms.matchmaking): a ticket may name a partner, and the two
are seated together as partners once each names the other

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-06 12:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("quickplay_tickets") as batch:
        batch.add_column(sa.Column("partner_id", sa.String(32), nullable=True))
        batch.create_index("ix_quickplay_tickets_partner_id", ["partner_id"])


def downgrade() -> None:
    with op.batch_alter_table("quickplay_tickets") as batch:
        batch.drop_index("ix_quickplay_tickets_partner_id")
        batch.drop_column("partner_id")
