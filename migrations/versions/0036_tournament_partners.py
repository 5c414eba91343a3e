"""tournaments: whom an entrant asks to play with, in a game of partners (two who ask for each
other are drawn as one unit, app/rooms/bracket.py)

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-07 07:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain nullable ADD COLUMN: no batch, so SQLite copies no table (see 0033).
    op.add_column("tournament_entries", sa.Column("partner_id", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("tournament_entries", "partner_id")
