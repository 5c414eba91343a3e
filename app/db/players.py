"""Guests: created with a display name, known afterwards by the secret token they keep.

Only a SHA-256 of the token is stored, so a leaked database does not let anyone take a seat.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, Select, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.rooms.ports import Player
from app.rooms.suspensions import Suspension


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_TOKENS_PER_QUERY = 500
"""Parameters per query: well under SQLite's and asyncpg's limits."""


class Players:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def create(self, name: str) -> tuple[Player, str]:
        """A new guest and its secret token (returned once, never stored in clear)."""
        token = secrets.token_urlsafe(32)
        player = m.Player(id=secrets.token_hex(8), name=name, token_hash=hash_token(token))
        async with self._sessions.begin() as session:
            session.add(player)
        return Player(player.id, player.name), token

    async def by_token(self, token: str) -> Player | None:
        """A guest's own token, or the token of one of an account's signed-in devices."""
        digest = hash_token(token)
        async with self._sessions() as session:
            found = (
                await session.execute(
                    select(m.Player, m.Account.player_id)
                    .outerjoin(m.Account, m.Account.player_id == m.Player.id)
                    .where(m.Player.token_hash == digest)
                )
            ).first()
            if found is not None:
                guest, account = found
                return Player(guest.id, guest.name, account is not None)
            row = await session.scalar(
                select(m.Player)
                .join(m.AccountSession, m.AccountSession.player_id == m.Player.id)
                .where(m.AccountSession.token_hash == digest)
            )
        return None if row is None else Player(row.id, row.name, account=True)

    async def live_tokens(self, tokens: Collection[str]) -> set[str]:
        """Of ``tokens``, those that still resolve (``by_token``): the open sockets of the
        others were signed out (``app.transport.revocation``)."""
        by_digest = {hash_token(token): token for token in tokens}
        digests = list(by_digest)
        live: set[str] = set()
        async with self._sessions() as session:
            for start in range(0, len(digests), _TOKENS_PER_QUERY):
                chunk = digests[start : start + _TOKENS_PER_QUERY]
                for column in (m.Player.token_hash, m.AccountSession.token_hash):
                    found = await session.scalars(select(column).where(column.in_(chunk)))
                    live.update(by_digest[digest] for digest in found)
        return live

    async def by_id(self, player_id: str) -> Player | None:
        """The player with this id; None for an unknown id or an erased account's tombstone."""
        async with self._sessions() as session:
            row = await session.get(m.Player, player_id)
        return None if row is None or row.erased_at is not None else Player(row.id, row.name)

    async def rename(self, player_id: str, name: str) -> Player:
        """The new name, and at every table where the player holds a seat (stored: a room
        loaded from now on shows it; the rooms in memory are told by the caller, and by every
        server, ``app.db.player_news``, which reads ``renamed_at``)."""
        async with self._sessions.begin() as session:
            await session.execute(
                update(m.Player)
                .where(m.Player.id == player_id)
                .values(name=name, renamed_at=datetime.now(UTC))
            )
            await session.execute(
                update(m.Seat).where(m.Seat.player_id == player_id).values(name=name)
            )
        return Player(player_id, name)

    async def suspend(
        self, player_id: str, reason: str, until: datetime | None, networks: bool = False
    ) -> bool:
        """Suspend the player (``app.rooms.suspensions``) until ``until`` (None: until lifted),
        telling them ``reason``; with ``networks``, no new guest is made meanwhile from the
        networks they used (``app.db.networks``). Replaces a suspension in force. False for an
        unknown or erased player."""
        return await self._set_suspension(player_id, reason, until, networks)

    async def lift_suspension(self, player_id: str) -> bool:
        """End the player's suspension now; False for an unknown or erased player."""
        return await self._set_suspension(player_id, None, None, False)

    async def _set_suspension(
        self, player_id: str, reason: str | None, until: datetime | None, networks: bool
    ) -> bool:
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(m.Player)
                .where(m.Player.id == player_id, m.Player.erased_at.is_(None))
                .values(
                    suspension_reason=reason,
                    suspended_until=until,
                    suspension_networks=networks,
                    suspension_changed_at=datetime.now(UTC),
                    # An appeal answers one suspension (``app.db.appeals``).
                    appeal_text=None,
                    appealed_at=None,
                    appeal_read_at=None,
                )
            )
        return bool(getattr(done, "rowcount", 0))

    async def suspensions(self) -> dict[str, Suspension]:
        """The suspensions in force now, by player (what a server knows when it starts)."""
        now = datetime.now(UTC)
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Player.id, m.Player.suspension_reason, m.Player.suspended_until).where(
                    suspension_in_force(now)
                )
            )
            held = {
                player_id: stored_suspension(reason, until) for player_id, reason, until in rows
            }
        return {player_id: s for player_id, s in held.items() if s is not None}


def row_for_living(player: BindParameter[str], *values: ColumnElement[Any]) -> Select[Any]:
    """The row ``(player, *values)`` for an ``INSERT … SELECT``, empty for an erased (or
    unknown) player: a write about a player that lands after their erasure (a deal's counts,
    a network seen) must not bring back what erasure deleted."""
    return select(player, *values).where(m.Player.id == player, m.Player.erased_at.is_(None))


def suspension_in_force(now: datetime) -> ColumnElement[bool]:
    """The player's row holds a suspension that has not ended by ``now``."""
    return (
        m.Player.suspension_reason.is_not(None)
        & m.Player.erased_at.is_(None)
        & (m.Player.suspended_until.is_(None) | (m.Player.suspended_until > now))
    )


def stored_suspension(reason: str | None, until: datetime | None) -> Suspension | None:
    """The suspension a player's row holds (``reason`` None: none)."""
    if reason is None:
        return None
    return Suspension(reason, None if until is None else until.timestamp())
