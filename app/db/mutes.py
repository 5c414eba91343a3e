"""Mutes: a player hides another's chat lines. Kept on the server, not only in one browser, so
that a mute holds on every device of an account, and so that quick play never seats the two at
one table (``QuickPlayQueue.apart``): someone who was rude to a player should not be dealt in
with them again by chance. Nobody but the one who muted reads it; the muted player is not told.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.engine import upsert
from app.rooms.errors import RoomError

MOST = 200
"""The mutes a player keeps; beyond, the oldest is forgotten (as the browser client did)."""


@dataclass(frozen=True, slots=True)
class Muted:
    id: str
    name: str


class Mutes:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def add(self, muter_id: str, muted_id: str) -> None:
        """Mute (again: it stays, as the newest); ``unknown_player`` for a player who is not
        there or was erased. Beyond ``MOST`` the oldest mutes are forgotten."""
        async with self._sessions.begin() as session:
            muted = await session.get(m.Player, muted_id)
            if muted is None or muted.erased_at is not None:
                raise RoomError("unknown_player", "No player has that id.")
            now = datetime.now(UTC)
            dialect = session.get_bind().dialect.name
            await session.execute(
                upsert(dialect, m.Mute)
                .values(muter_id=muter_id, muted_id=muted_id, created_at=now)
                .on_conflict_do_update(
                    index_elements=["muter_id", "muted_id"], set_={"created_at": now}
                )
            )
            kept = select(m.Mute.muted_id).where(m.Mute.muter_id == muter_id)
            newest = kept.order_by(m.Mute.created_at.desc()).limit(MOST)
            await session.execute(
                delete(m.Mute).where(
                    m.Mute.muter_id == muter_id, m.Mute.muted_id.not_in(newest.scalar_subquery())
                )
            )

    async def remove(self, muter_id: str, muted_id: str) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                delete(m.Mute).where(m.Mute.muter_id == muter_id, m.Mute.muted_id == muted_id)
            )

    async def of(self, muter_id: str) -> list[Muted]:
        """Whom the player muted, the oldest first (erased players are gone with their mutes)."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Player.id, m.Player.name)
                .join(m.Mute, m.Mute.muted_id == m.Player.id)
                .where(m.Mute.muter_id == muter_id)
                .order_by(m.Mute.created_at, m.Player.id)
            )
            return [Muted(player_id, name) for player_id, name in rows]


async def apart(session: AsyncSession, player_ids: Collection[str]) -> set[frozenset[str]]:
    """The pairs of these players where one muted the other."""
    if len(player_ids) < 2:
        return set()
    rows = await session.execute(
        select(m.Mute.muter_id, m.Mute.muted_id).where(
            m.Mute.muter_id.in_(list(player_ids)), m.Mute.muted_id.in_(list(player_ids))
        )
    )
    return {frozenset((muter, muted)) for muter, muted in rows}
