"""committed shuffles: the next deal's seed, each deal's commitment and players' entropy

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # All nullable: rooms and deals stored before keep loading and exporting as they were.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("next_seed", sa.String(length=64), nullable=True))
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("contributions", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("contributions")
        batch.drop_column("commitment")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("next_seed")
