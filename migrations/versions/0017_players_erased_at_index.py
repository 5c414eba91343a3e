"""the players erased lately, read by every node of a cluster (app.db.erasures)

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 19:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_players_erased_at", "players", ["erased_at"])


def downgrade() -> None:
    op.drop_index("ix_players_erased_at", table_name="players")
