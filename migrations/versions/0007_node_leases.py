"""node leases: one renewed row per node; a room's row names its node and changes only with it

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "node_leases",
        sa.Column("node", sa.String(length=64), primary_key=True),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    # The nodes of 0006's rows keep their rooms until their latest room lease runs out.
    op.execute(
        "INSERT INTO node_leases (node, epoch, expires_at) "
        "SELECT node, 1, max(expires_at) FROM room_leases WHERE node <> '' GROUP BY node"
    )
    with op.batch_alter_table("room_leases") as batch:
        batch.drop_column("expires_at")
        batch.add_column(
            sa.Column("handed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_index(
        "ix_room_leases_handed",
        "room_leases",
        ["node"],
        postgresql_where=sa.text("handed"),
        sqlite_where=sa.text("handed"),
    )


def downgrade() -> None:
    op.drop_index("ix_room_leases_handed", table_name="room_leases")
    with op.batch_alter_table("room_leases") as batch:
        batch.drop_column("handed")
        batch.add_column(
            sa.Column(
                "expires_at",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.now(),
            )
        )
    op.drop_table("node_leases")
