"""accounts, sessions, login limits, ratings, quick play; rooms.rated

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOW = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "accounts",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
    )
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("window_start", NOW, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("at", NOW, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "at"])
    op.create_table(
        "quickplay_tickets",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("wait_seconds", sa.Float(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("seen_at", NOW, nullable=False),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("room_code", sa.String(32), nullable=True),
    )
    op.create_index("ix_quickplay_queue", "quickplay_tickets", ["preset", "rated", "room_code"])


def downgrade() -> None:
    op.drop_index("ix_quickplay_queue", "quickplay_tickets")
    op.drop_table("quickplay_tickets")
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("login_failures")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
