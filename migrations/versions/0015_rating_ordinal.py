"""ratings.ordinal (mu - 3 sigma), kept by the database and indexed for the leaderboard; the
ratings of guests from before rated play needed an account are dropped

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05 17:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every rating is an account's from now on (rated play needs one, and
    # ``rated_sides`` keeps a guest's seat casual): a player's rank is then counted on the
    # index alone. The guests' ratings from before were never ranked (the board joined
    # accounts) and no guest can earn one again.
    for table in ("rating_changes", "ratings"):
        op.execute(f"DELETE FROM {table} WHERE player_id NOT IN (SELECT player_id FROM accounts)")
    # A stored generated column: the database computes it for the ratings already there and
    # for every write after. SQLite cannot add a stored one to a table: its table is rebuilt.
    with op.batch_alter_table("ratings", recreate=_rebuild()) as batch:
        batch.add_column(
            sa.Column("ordinal", sa.Float(), sa.Computed("mu - 3 * sigma", persisted=True))
        )
    op.create_index("ix_ratings_board", "ratings", ["preset", sa.text("ordinal DESC"), "player_id"])


def downgrade() -> None:
    op.drop_index("ix_ratings_board", "ratings")
    with op.batch_alter_table("ratings", recreate=_rebuild()) as batch:
        batch.drop_column("ordinal")


def _rebuild() -> str:
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"
