"""tournaments (knockout and Swiss): the tournaments, their entrants and their matches
(app.rooms.tournaments)

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-06 17:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None



def _tournament() -> sa.ForeignKey:
    return sa.ForeignKey("tournaments.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("host_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("swiss_rounds", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("champion", sa.Integer(), nullable=True),
    )
    op.create_index("ix_tournaments_host_id", "tournaments", ["host_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status", "created_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(32), _tournament(), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("unit", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_entries_player_id", "tournament_entries", ["player_id"])
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.String(32), _tournament(), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("unit_a", sa.Integer(), nullable=False),
        sa.Column("unit_b", sa.Integer(), nullable=True),
        sa.Column("room_code", sa.String(32), nullable=True),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("conceded", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_tournament_matches_room_code", "tournament_matches", ["room_code"])


def downgrade() -> None:
    op.drop_table("tournament_matches")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
