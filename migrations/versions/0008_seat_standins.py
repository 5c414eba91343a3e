"""the seats a stand-in bot plays, stored so that a restored room keeps them

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 18:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rooms stored before this column had no stand-in on record: nobody is played for.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("standin", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("standin")
