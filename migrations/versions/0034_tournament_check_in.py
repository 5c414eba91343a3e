"""tournaments' check-in: a tournament with a start time may ask its entrants to check in
during its last minutes, and its start draws only those who did (app/rooms/tournaments.py)

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-07 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain nullable columns: no batch, so SQLite copies no table (see 0033).
    op.add_column("tournaments", sa.Column("check_in_minutes", sa.Integer(), nullable=True))
    op.add_column(
        "tournament_entries",
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_column("tournament_entries", "checked_in_at")
    op.drop_column("tournaments", "check_in_minutes")
