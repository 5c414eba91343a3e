"""reports: a player tells the operator that another broke the site's rules (app.db.reports)

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-05 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_code", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created_at", "reports", ["created_at"])


def downgrade() -> None:
    op.drop_table("reports")
