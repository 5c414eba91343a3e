"""room leases: which node of a cluster owns each room, fenced by an epoch

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Keyed by the room's code, not its id: a node claims a code before it loads the room.
    op.create_table(
        "room_leases",
        sa.Column("room_code", sa.String(length=32), primary_key=True),
        sa.Column("node", sa.String(length=64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_room_leases_node", "room_leases", ["node"])


def downgrade() -> None:
    op.drop_index("ix_room_leases_node", table_name="room_leases")
    op.drop_table("room_leases")
