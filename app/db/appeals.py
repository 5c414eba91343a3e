"""A suspended player's appeal: they tell the site's operator, in their own words, why the
suspension (``app.rooms.suspensions``) should end. The operator reads the appeals with
``python -m app.admin appeals`` and either lifts the suspension or keeps it (``deny-appeal``),
which the player is told.

One appeal per suspension: a second would let a person flood the one who reads them, and a
player who has more to say can wait for the answer. It lives on the player's row beside the
suspension it answers, so suspending anew or lifting clears it (``Players.suspend``), and
erasure takes it with the suspension (``Accounts.erase``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.players import stored_suspension, suspension_in_force
from app.rooms.errors import RoomError
from app.rooms.suspensions import Suspension

TEXT_MAX = 1000


@dataclass(frozen=True, slots=True)
class Appeal:
    """An appeal as its author reads it."""

    text: str
    at: datetime
    read_at: datetime | None
    """When the operator read it and kept the suspension; None while unanswered."""


@dataclass(frozen=True, slots=True)
class FiledAppeal:
    """An appeal as the operator reads it: whose, against what."""

    player_id: str
    name: str
    username: str | None
    suspension: Suspension
    appeal: Appeal


class Appeals:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def make(self, player_id: str, text: str) -> Appeal:
        """Keep the player's appeal against their suspension in force. ``not_suspended``: none
        holds; ``already_appealed``: this suspension has its appeal."""
        now = datetime.now(UTC)
        if await self._change(
            player_id, now, m.Player.appealed_at.is_(None), appeal_text=text, appealed_at=now
        ):
            return Appeal(text, now, None)
        async with self._sessions() as session:
            suspended = await session.scalar(
                select(m.Player.id).where(m.Player.id == player_id, suspension_in_force(now))
            )
        if suspended is None:
            raise RoomError("not_suspended", "You are not suspended: there is nothing to appeal.")
        raise RoomError(
            "already_appealed", "You appealed against this suspension: the operator reads it."
        )

    async def of(self, player_id: str) -> Appeal | None:
        """The player's appeal against their latest suspension, if they made one."""
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(
                        m.Player.appeal_text, m.Player.appealed_at, m.Player.appeal_read_at
                    ).where(m.Player.id == player_id)
                )
            ).first()
        if row is None or row.appeal_text is None or row.appealed_at is None:
            return None
        return Appeal(row.appeal_text, row.appealed_at, row.appeal_read_at)

    async def deny(self, player_id: str) -> bool:
        """The operator read the appeal and keeps the suspension; False when the player has no
        unanswered appeal against a suspension in force."""
        now = datetime.now(UTC)
        return await self._change(
            player_id,
            now,
            m.Player.appealed_at.is_not(None),
            m.Player.appeal_read_at.is_(None),
            appeal_read_at=now,
        )

    async def _change(
        self, player_id: str, now: datetime, *holds: ColumnElement[bool], **values: object
    ) -> bool:
        """Set ``values`` on the player's row if a suspension is in force and ``holds``, in one
        conditional UPDATE (two at once: one wins); whether it did."""
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(m.Player)
                .where(m.Player.id == player_id, suspension_in_force(now), *holds)
                .values(**values)
            )
        return bool(getattr(done, "rowcount", 0))

    async def waiting(self, answered: bool = False) -> list[FiledAppeal]:
        """The appeals against suspensions in force that the operator has not answered
        (``answered``: those they kept the suspension on too), the oldest first."""
        now = datetime.now(UTC)
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Player, m.Account.username)
                    .outerjoin(m.Account, m.Account.player_id == m.Player.id)
                    .where(
                        suspension_in_force(now),
                        m.Player.appealed_at.is_not(None),
                        true() if answered else m.Player.appeal_read_at.is_(None),
                    )
                    .order_by(m.Player.appealed_at)
                )
            ).all()
        found: list[FiledAppeal] = []
        for player, username in rows:
            held = stored_suspension(player.suspension_reason, player.suspended_until)
            # The query asked for a suspension in force and an appeal.
            assert held is not None and player.appeal_text and player.appealed_at
            appeal = Appeal(player.appeal_text, player.appealed_at, player.appeal_read_at)
            found.append(FiledAppeal(player.id, player.name, username, held, appeal))
        return found
