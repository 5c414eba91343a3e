"""The quick-play queue in the database (``app.rooms.matchmaking.QuickPlayQueue``).

A ticket is taken for a table by one conditional UPDATE in a transaction: it succeeds only if
every ticket is still unclaimed, so concurrent nodes (or requests) cannot seat a player twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db import mutes
from app.db.engine import upsert
from app.rooms.matchmaking import Ticket


def _ticket(row: m.QuickPlayTicket) -> Ticket:
    return Ticket(
        row.player_id,
        row.name,
        row.preset,
        row.rated,
        row.rating,
        row.wait_seconds,
        row.created_at,
        row.room_code,
        row.partner_id,
    )


class _Taken(Exception):
    """One of the tickets was claimed by someone else first."""


class SqlQuickPlayQueue:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def put(self, ticket: Ticket) -> None:
        # One upsert, not a delete and an insert: two joins of one player at once (a double
        # click) would both insert after deleting nothing, and one fail on the key.
        async with self._sessions.begin() as session:
            dialect = session.get_bind().dialect.name
            values = {
                "name": ticket.name,
                "preset": ticket.preset,
                "rated": ticket.rated,
                "rating": ticket.rating,
                "wait_seconds": ticket.wait_seconds,
                "created_at": ticket.created_at,
                "seen_at": ticket.created_at,
                "claim": None,
                "claimed_at": None,
                "room_code": None,
                "partner_id": ticket.partner_id,
            }
            statement = upsert(dialect, m.QuickPlayTicket).values(
                player_id=ticket.player_id, **values
            )
            await session.execute(
                statement.on_conflict_do_update(
                    index_elements=[m.QuickPlayTicket.player_id], set_=values
                )
            )

    async def remove(self, player_id: str) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                delete(m.QuickPlayTicket).where(m.QuickPlayTicket.player_id == player_id)
            )

    async def ticket(self, player_id: str) -> Ticket | None:
        async with self._sessions() as session:
            row = await session.get(m.QuickPlayTicket, player_id)
            return None if row is None else _ticket(row)

    async def naming(self, partner_id: str, seen_since: datetime) -> list[Ticket]:
        async with self._sessions() as session:
            rows = await session.scalars(
                select(m.QuickPlayTicket)
                .where(
                    m.QuickPlayTicket.partner_id == partner_id,
                    m.QuickPlayTicket.seen_at >= seen_since,
                    m.QuickPlayTicket.claim.is_(None),
                    m.QuickPlayTicket.room_code.is_(None),
                )
                .order_by(m.QuickPlayTicket.created_at.desc(), m.QuickPlayTicket.player_id)
            )
            return [_ticket(r) for r in rows]

    async def seen(self, player_id: str, now: datetime) -> Ticket | None:
        async with self._sessions.begin() as session:
            row = await session.get(m.QuickPlayTicket, player_id)
            if row is None:
                return None
            row.seen_at = now
            return _ticket(row)

    async def waiting(
        self, preset: str, rated: bool, seen_since: datetime, claimed_before: datetime
    ) -> list[Ticket]:
        async with self._sessions.begin() as session:
            # Tickets nobody asked about lately belong to players who closed the page.
            await session.execute(
                delete(m.QuickPlayTicket).where(m.QuickPlayTicket.seen_at < seen_since)
            )
            await session.execute(  # claims whose node died forming their table
                update(m.QuickPlayTicket)
                .where(
                    m.QuickPlayTicket.claim.is_not(None),
                    m.QuickPlayTicket.room_code.is_(None),
                    m.QuickPlayTicket.claimed_at < claimed_before,
                )
                .values(claim=None, claimed_at=None)
            )
            rows = await session.scalars(
                select(m.QuickPlayTicket)
                .where(
                    m.QuickPlayTicket.preset == preset,
                    m.QuickPlayTicket.rated == rated,
                    m.QuickPlayTicket.claim.is_(None),
                    m.QuickPlayTicket.room_code.is_(None),
                )
                .order_by(m.QuickPlayTicket.created_at, m.QuickPlayTicket.player_id)
            )
            return [_ticket(r) for r in rows]

    async def claim(self, tickets: Sequence[Ticket], claim: str, now: datetime) -> bool:
        # Each ticket is matched on its queue too: one its player replaced since it was read,
        # by a request for another preset or rated-ness, is not taken for this table.
        read = [(t.player_id, t.preset, t.rated) for t in tickets]
        row = tuple_(m.QuickPlayTicket.player_id, m.QuickPlayTicket.preset, m.QuickPlayTicket.rated)
        try:
            async with self._sessions.begin() as session:
                result = await session.execute(
                    update(m.QuickPlayTicket)
                    .where(
                        row.in_(read),
                        m.QuickPlayTicket.claim.is_(None),
                        m.QuickPlayTicket.room_code.is_(None),
                    )
                    .values(claim=claim, claimed_at=now)
                )
                if getattr(result, "rowcount", 0) != len(tickets):
                    raise _Taken  # leaving the block by an exception rolls the claim back
        except _Taken:
            return False
        return True

    async def release(self, claim: str) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                update(m.QuickPlayTicket)
                .where(m.QuickPlayTicket.claim == claim)
                .values(claim=None, claimed_at=None)
            )

    async def apart(self, player_ids: Sequence[str]) -> set[frozenset[str]]:
        async with self._sessions() as session:
            return await mutes.apart(session, player_ids)

    async def seat(self, claim: str, room_code: str, rated: bool) -> bool:
        async with self._sessions.begin() as session:
            result = await session.execute(
                update(m.QuickPlayTicket)
                .where(m.QuickPlayTicket.claim == claim, m.QuickPlayTicket.room_code.is_(None))
                .values(room_code=room_code, rated=rated)
            )
        return bool(getattr(result, "rowcount", 0))
