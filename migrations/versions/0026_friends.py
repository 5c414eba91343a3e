"""friends and invitations (app.db.friends): a friendship asked and accepted, and a friend's
invitation to a table

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("asker_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("asked_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_friendships_asked_id", "friendships", ["asked_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("inviter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_code", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("to_id", "room_code"),
    )
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])
    op.create_index("ix_invitations_inviter_id", "invitations", ["inviter_id"])


def downgrade() -> None:
    op.drop_table("invitations")
    op.drop_table("friendships")
