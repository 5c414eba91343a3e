"""a room where only signed-in players may sit (the host's setting)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05 18:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rooms made before this column let guests sit, as they still do unless the host says not.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("accounts_only", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("accounts_only")
