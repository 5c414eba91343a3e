"""tournaments: the stored match of each decided table indexed, as reading a match asks whether
it decided a tournament's table (such a match is read by anyone, app/db/history.py)

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-07 06:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_tournament_matches_match_id", "tournament_matches", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_matches_match_id", table_name="tournament_matches")
