"""Reports: a player tells the site's operator that another broke its rules (insults in the chat,
an offensive name, spoiling the game). The operator reads them (``python -m app.admin
reports``) and may suspend the player (``app.rooms.suspensions``); nobody else reads them, the
reported player included.

A report stays open until the operator closes it, ``upheld`` (they acted: a suspension, a
rename, a word with the player) or ``dismissed``, so that the list they read each day holds
what is still to be read, not what they already dealt with. Suspending a player closes the
open reports on them as upheld, and renaming one those about their name: the operator does not
have to close by hand what the remedy already answered.

The reporter reads their reports back (``GET /api/players/me/reports``): about whom, why, and
once closed whether the operator acted — not how, nor the evidence. A closed report is
*answered* until the reporter has read its outcome (``told``): the lobby tells each once, so
that a reporter learns that reporting was worth it without asking.

A chat line is kept by its room only among the last ``chat_history``, so a report made at a
table keeps the reported player's last lines there as its evidence. A reporter files one report
a day on each player: reporting again replaces it (a second thought, more words), so that one
person cannot make a player look reported by many. Both players' erasure deletes it
(``Accounts.erase``): its evidence is the reported person's words.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db import models as m
from app.db.players import stored_suspension
from app.rooms import phrases
from app.rooms.errors import RoomError
from app.rooms.suspensions import Suspension

REASONS = ("chat", "name", "play", "other")
"""Insults or abuse in the chat, an offensive name, cheating or spoiling the game, other."""
OUTCOMES = ("upheld", "dismissed")
"""How the operator closed a report: they acted on it, or found nothing to act on."""
EVIDENCE_LINES = 10
OWN_LISTED = 100
"""The reports a reporter reads back at most (the newest): a page, not an archive."""
ONCE_PER = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class FiledReport:
    """A report as the operator reads it."""

    reported_id: str
    reported_name: str
    reported_username: str | None
    reporter_id: str
    reporter_name: str
    room_code: str | None
    reason: str
    text: str | None
    evidence: list[dict[str, Any]]
    created_at: datetime
    suspension: Suspension | None
    """The reported player's suspension as stored now (it may have ended since)."""
    closed_at: datetime | None
    outcome: str | None
    """One of ``OUTCOMES`` once closed."""


@dataclass(frozen=True, slots=True)
class OwnReport:
    """A report as its reporter reads it: their own words, and what came of it."""

    id: int
    reported_id: str
    reported_name: str
    """The reported player's name now (a name the operator changed shows changed)."""
    room_code: str | None
    reason: str
    text: str | None
    created_at: datetime
    closed_at: datetime | None
    outcome: str | None
    told: bool
    """Whether the reporter has read its outcome (always False while it is open)."""


class Reports:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def check(self, reported_id: str, room_code: str | None) -> None:
        """``file``'s refusals, without filing."""
        async with self._sessions() as session:
            await _room_of(session, reported_id, room_code)

    async def file(
        self,
        reporter_id: str,
        reported_id: str,
        room_code: str | None,
        reason: str,
        text: str | None,
    ) -> None:
        """Keep the report (replacing the reporter's on that player within a day).
        ``unknown_player``: no such player (or erased); ``unknown_room``: no such room."""
        now = datetime.now(UTC)
        async with self._sessions.begin() as session:
            room_id = await _room_of(session, reported_id, room_code)
            evidence: list[dict[str, Any]] = []
            if room_id is not None:
                lines = await session.execute(
                    select(m.ChatMessage.at, m.ChatMessage.text)
                    .where(
                        m.ChatMessage.room_id == room_id,
                        m.ChatMessage.player_id == reported_id,
                    )
                    .order_by(m.ChatMessage.id.desc())
                    .limit(EVIDENCE_LINES)
                )
                evidence = [
                    {"at": at, "text": phrases.shown(said)} for at, said in reversed(lines.all())
                ]
            await session.execute(
                delete(m.Report).where(
                    m.Report.reporter_id == reporter_id,
                    m.Report.reported_id == reported_id,
                    m.Report.created_at > now - ONCE_PER,
                )
            )
            session.add(
                m.Report(
                    reporter_id=reporter_id,
                    reported_id=reported_id,
                    room_code=room_code,
                    reason=reason,
                    text=text,
                    evidence=evidence,
                    created_at=now,
                )
            )

    async def close(
        self, reported_id: str, outcome: str, reasons: Collection[str] = REASONS
    ) -> int:
        """Close the open reports on the player for ``reasons`` as ``outcome``; how many."""
        if outcome not in OUTCOMES:
            raise ValueError(f"an outcome is one of {OUTCOMES}, not {outcome!r}")
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(m.Report)
                .where(
                    m.Report.reported_id == reported_id,
                    m.Report.closed_at.is_(None),
                    m.Report.reason.in_(list(reasons)),
                )
                .values(closed_at=datetime.now(UTC), outcome=outcome)
            )
        return int(getattr(done, "rowcount", 0) or 0)

    async def of_reporter(self, reporter_id: str, answered: bool = False) -> list[OwnReport]:
        """The newest ``OWN_LISTED`` reports the player made, newest first (``answered``: only
        those closed and not yet told). Not the evidence: it is not theirs to read back, and
        ``GET /api/players/me`` asks this on every page."""
        r = m.Report
        query = (
            select(
                r.id,
                r.reported_id,
                m.Player.name,
                r.room_code,
                r.reason,
                r.text,
                r.created_at,
                r.closed_at,
                r.outcome,
                r.told_at.is_not(None),
            )
            .join(m.Player, m.Player.id == r.reported_id)
            .where(r.reporter_id == reporter_id)
            .order_by(r.created_at.desc(), r.id.desc())
            .limit(OWN_LISTED)
        )
        if answered:
            query = query.where(r.closed_at.is_not(None), r.told_at.is_(None))
        async with self._sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            OwnReport(id_, reported, name, room, reason, text, at, closed, outcome, bool(told))
            for id_, reported, name, room, reason, text, at, closed, outcome, told in rows
        ]

    async def told(self, reporter_id: str, ids: Collection[int]) -> int:
        """Mark these of the player's closed reports as read by them; how many were not yet.
        Others' reports, open ones and unknown ids are left as they are."""
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(m.Report)
                .where(
                    m.Report.reporter_id == reporter_id,
                    m.Report.id.in_(list(ids)),
                    m.Report.closed_at.is_not(None),
                    m.Report.told_at.is_(None),
                )
                .values(told_at=datetime.now(UTC))
            )
        return int(getattr(done, "rowcount", 0) or 0)

    async def since(self, when: datetime, closed: bool = False) -> list[FiledReport]:
        """The open reports made since ``when`` (``closed``: the closed ones too), the most
        reported player first, then the newest."""
        reporter = aliased(m.Player)
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Report, m.Player, m.Account.username, reporter.name)
                    .join(m.Player, m.Player.id == m.Report.reported_id)
                    .outerjoin(m.Account, m.Account.player_id == m.Report.reported_id)
                    .join(reporter, reporter.id == m.Report.reporter_id)
                    .where(
                        m.Report.created_at >= when,
                        true() if closed else m.Report.closed_at.is_(None),
                    )
                    .order_by(m.Report.created_at.desc())
                )
            ).all()
        found = [
            FiledReport(
                report.reported_id,
                reported.name,
                username,
                report.reporter_id,
                reporter_name,
                report.room_code,
                report.reason,
                report.text,
                list(report.evidence),
                report.created_at,
                stored_suspension(reported.suspension_reason, reported.suspended_until),
                report.closed_at,
                report.outcome,
            )
            for report, reported, username, reporter_name in rows
        ]
        counts: dict[str, int] = {}
        newest: dict[str, int] = {}
        for at, filed in enumerate(found):
            counts[filed.reported_id] = counts.get(filed.reported_id, 0) + 1
            newest.setdefault(filed.reported_id, at)
        # Each player's reports together, newest first (the sort is stable).
        return sorted(found, key=lambda f: (-counts[f.reported_id], newest[f.reported_id]))


async def _room_of(session: AsyncSession, reported_id: str, room_code: str | None) -> int | None:
    """The id of the room ``room_code`` names (None for none); ``unknown_player`` for a player
    who is not there or was erased, ``unknown_room`` for a code that names no room."""
    reported = await session.get(m.Player, reported_id)
    if reported is None or reported.erased_at is not None:
        raise RoomError("unknown_player", "No player has that id.")
    if room_code is None:
        return None
    room_id = await session.scalar(select(m.Room.id).where(m.Room.code == room_code))
    if room_id is None:
        raise RoomError("unknown_room", "No room has that code.")
    return int(room_id)
