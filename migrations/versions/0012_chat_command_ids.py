"""the command id of each chat line, so that a restored room refuses the line sent again

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04 22:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Lines stored before this column have no id on record: sent again, they are new lines.
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("command_id", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("command_id")
