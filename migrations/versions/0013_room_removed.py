"""the players a room's host removed, who may not sit in it again

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rooms stored before this column have removed nobody.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("removed", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("removed")
