"""the networks players used lately, and suspensions that bar new guests from them
(app.db.networks)

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-06 15:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_networks",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("network", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_networks_network", "player_networks", ["network"])
    op.create_index("ix_player_networks_seen_at", "player_networks", ["seen_at"])
    # A plain ALTER TABLE … ADD COLUMN, also on SQLite: a batch would copy ``players`` into a
    # new table and drop the old one, and the drop would cascade to every row that points at
    # a player (ratings, friendships …) — tests/db/test_migrations.py's 0015 test saw it.
    op.add_column(
        "players",
        sa.Column("suspension_networks", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("players", "suspension_networks")  # SQLite 3.35 and later: no copy either
    op.drop_table("player_networks")
