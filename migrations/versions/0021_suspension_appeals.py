"""a suspended player's appeal to the operator (app.db.appeals): their words, when, and when the
operator read it and kept the suspension

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06 05:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("appeal_text", sa.String(1000), nullable=True))
        batch.add_column(sa.Column("appealed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("appeal_read_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("appeal_read_at")
        batch.drop_column("appealed_at")
        batch.drop_column("appeal_text")
