"""reports the operator closed (app.db.reports): when, and whether upheld or dismissed, so that
``python -m app.admin reports`` lists what is still to be read

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06 05:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("outcome", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("outcome")
        batch.drop_column("closed_at")
