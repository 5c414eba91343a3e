"""rooms' watch codes: a second address of a room that lets its holder watch and nothing more
(app/rooms/watching.py); every room, old ones included, gets its own

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-07 00:00:00
"""

import base64
import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _watch_code(code: str) -> str:
    """app.rooms.watching.watch_code as it was written when this migration was (a migration
    must not change with the code it migrates)."""
    digest = hashlib.sha256(b"belote-watch:" + code.encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def upgrade() -> None:
    # A plain ADD COLUMN, nullable, then filled: on SQLite a NOT NULL one would need a batch,
    # which copies ``rooms`` and whose drop would cascade to its seats (as 0031 says of players).
    op.add_column("rooms", sa.Column("watch_code", sa.String(32), nullable=True))
    rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("code", sa.String(32)))
    watch = sa.table("rooms", sa.column("id", sa.Integer), sa.column("watch_code", sa.String(32)))
    connection = op.get_bind()
    rows = connection.execute(sa.select(rooms.c.id, rooms.c.code)).all()
    for room_id, code in rows:
        connection.execute(
            sa.update(watch).where(watch.c.id == room_id).values(watch_code=_watch_code(code))
        )
    op.create_index("ix_rooms_watch_code", "rooms", ["watch_code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_rooms_watch_code", table_name="rooms")
    op.drop_column("rooms", "watch_code")  # SQLite 3.35 and later: no copy, so no cascade
