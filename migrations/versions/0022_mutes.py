"""mutes: a player hides another's chat on every device, and quick play keeps them apart
(app.db.mutes)

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 06:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mutes",
        sa.Column("muter_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("muted_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_mutes_muted_id", "mutes", ["muted_id"])


def downgrade() -> None:
    op.drop_table("mutes")
