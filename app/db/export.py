"""Everything the site keeps about a player, for the player (the right of access and to data
portability): ``GET /api/players/me/export`` answers it as one JSON document.

What is theirs goes in whole: their identity, account and signed-in devices (labels and
dates, never a token's hash), the networks they used lately (``app.db.networks``), ratings and
their history, their statistics per game, the matches they sat in (each match's full record is
at ``GET /api/matches/{id}/record``), the tables they host or sit at, their chat lines, the
reports they made (without the evidence, which is the reported player's words), their mutes,
their friendships and friend requests either way, the invitations made to them, a quick-play
request, the operator's suspension with their appeal, and what the operators' log says was
done to them (without the operators' names, which are not the player's data). What others
said about them stays out: reports about them, and the log's entries of reports about them
closed, would tell that someone reported them, and at a table of two or three, who.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.rooms import phrases
from app.rules import TALLY_COUNTERS


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


class DataExport:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def of(self, player_id: str) -> dict[str, Any]:
        """The player's data as a JSON-ready document (the player exists: the caller's
        token)."""
        async with self._sessions() as session:
            return await _document(session, player_id)


async def _document(session: AsyncSession, player_id: str) -> dict[str, Any]:
    player = await session.get(m.Player, player_id)
    assert player is not None  # a token's player
    account = await session.get(m.Account, player_id)
    stats = m.PlayStats.__table__
    ticket = await _rows(
        session,
        select(
            m.QuickPlayTicket.preset,
            m.QuickPlayTicket.rated,
            m.QuickPlayTicket.created_at,
            m.QuickPlayTicket.room_code,
        ).where(m.QuickPlayTicket.player_id == player_id),
        ("preset", "rated", "created_at", "table"),
    )
    return {
        "exported_at": datetime.now(UTC).isoformat(),
        "player": {
            "id": player.id,
            "name": player.name,
            "created_at": _when(player.created_at),
            "renamed_at": _when(player.renamed_at),
            "seen_at": _when(player.seen_at),
        },
        "account": None
        if account is None
        else {"username": account.username, "created_at": _when(account.created_at)},
        "networks": await _rows(
            session,
            select(m.PlayerNetwork.network, m.PlayerNetwork.seen_at)
            .where(m.PlayerNetwork.player_id == player_id)
            .order_by(m.PlayerNetwork.seen_at.desc()),
            ("network", "seen_at"),
        ),
        "devices": await _rows(
            session,
            select(m.AccountSession.label, m.AccountSession.created_at)
            .where(m.AccountSession.player_id == player_id)
            .order_by(m.AccountSession.created_at),
            ("label", "created_at"),
        ),
        "ratings": await _rows(
            session,
            select(m.Rating.preset, m.Rating.mu, m.Rating.sigma, m.Rating.matches, m.Rating.wins)
            .where(m.Rating.player_id == player_id)
            .order_by(m.Rating.preset),
            ("preset", "mu", "sigma", "matches", "wins"),
        ),
        "rating_changes": await _rows(
            session,
            select(
                m.RatingChange.match_id,
                m.RatingChange.preset,
                m.RatingChange.won,
                m.RatingChange.before,
                m.RatingChange.after,
                m.RatingChange.at,
            )
            .where(m.RatingChange.player_id == player_id)
            .order_by(m.RatingChange.at),
            ("match_id", "preset", "won", "before", "after", "at"),
        ),
        "tournaments": await _rows(
            session,
            select(
                m.Tournament.id,
                m.Tournament.name,
                m.Tournament.preset,
                m.Tournament.status,
                m.TournamentEntry.joined_at,
                m.TournamentEntry.checked_in_at,
                m.TournamentEntry.partner_id,
                m.TournamentEntry.unit,
            )
            .join(m.TournamentEntry, m.TournamentEntry.tournament_id == m.Tournament.id)
            .where(m.TournamentEntry.player_id == player_id)
            .order_by(m.TournamentEntry.joined_at),
            ("id", "name", "preset", "status", "entered_at", "checked_in_at", "partner", "unit"),
        ),
        "tournament_removals": await _rows(
            session,
            select(m.Tournament.id, m.Tournament.name, m.TournamentRemoval.at)
            .join(m.TournamentRemoval, m.TournamentRemoval.tournament_id == m.Tournament.id)
            .where(m.TournamentRemoval.player_id == player_id)
            .order_by(m.TournamentRemoval.at),
            ("id", "name", "at"),
        ),
        "play": await _rows(
            session,
            select(stats.c.preset, *(stats.c[name] for name in TALLY_COUNTERS))
            .where(stats.c.player_id == player_id)
            .order_by(stats.c.preset),
            ("preset", *TALLY_COUNTERS),
        ),
        "matches": await _matches(session, player_id),
        "tables": await _rows(
            session,
            select(m.Room.code, m.Room.host_id == player_id, m.Room.created_at)
            .where(
                or_(
                    m.Room.host_id == player_id,
                    m.Room.id.in_(select(m.Seat.room_id).where(m.Seat.player_id == player_id)),
                )
            )
            .order_by(m.Room.created_at),
            ("code", "host", "created_at"),
        ),
        "chat": [
            {**line, "text": phrases.shown(line["text"])}
            for line in await _rows(
                session,
                select(m.Room.code, m.ChatMessage.at, m.ChatMessage.name, m.ChatMessage.text)
                .join(m.Room, m.Room.id == m.ChatMessage.room_id)
                .where(m.ChatMessage.player_id == player_id)
                .order_by(m.ChatMessage.id),
                ("table", "at", "name", "text"),
            )
        ],
        "reports_made": await _rows(
            session,
            select(
                m.Report.reported_id,
                m.Report.room_code,
                m.Report.reason,
                m.Report.text,
                m.Report.created_at,
                m.Report.closed_at,
                m.Report.outcome,
                m.Report.told_at,
            )
            .where(m.Report.reporter_id == player_id)
            .order_by(m.Report.created_at),
            ("about", "table", "reason", "text", "at", "closed_at", "outcome", "told_at"),
        ),
        "mutes": await _rows(
            session,
            select(m.Mute.muted_id, m.Mute.created_at)
            .where(m.Mute.muter_id == player_id)
            .order_by(m.Mute.created_at),
            ("player", "at"),
        ),
        "friendships": await _rows(  # between the player and another: theirs as much
            session,
            select(
                m.Friendship.asker_id,
                m.Friendship.asked_id,
                m.Friendship.created_at,
                m.Friendship.accepted_at,
            )
            .where((m.Friendship.asker_id == player_id) | (m.Friendship.asked_id == player_id))
            .order_by(m.Friendship.created_at),
            ("asker", "asked", "at", "accepted_at"),
        ),
        "invitations": await _rows(  # made to the player, not yet put away
            session,
            select(m.Invitation.inviter_id, m.Invitation.room_code, m.Invitation.created_at)
            .where(m.Invitation.to_id == player_id)
            .order_by(m.Invitation.created_at),
            ("inviter", "table", "at"),
        ),
        "quickplay": ticket[0] if ticket else None,
        "suspension": None
        if player.suspension_reason is None
        else {
            "reason": player.suspension_reason,
            "until": _when(player.suspended_until),
            "appeal": None
            if player.appeal_text is None
            else {
                "text": player.appeal_text,
                "at": _when(player.appealed_at),
                "read_at": _when(player.appeal_read_at),
            },
        },
        "moderation": await _rows(
            session,
            select(m.ModerationEntry.at, m.ModerationEntry.action, m.ModerationEntry.detail)
            .where(m.ModerationEntry.player_id == player_id, m.ModerationEntry.action != "close")
            .order_by(m.ModerationEntry.at, m.ModerationEntry.id),
            ("at", "action", "detail"),
        ),
    }


async def _matches(session: AsyncSession, player_id: str) -> list[dict[str, Any]]:
    rows = await session.execute(
        select(
            m.Match.id,
            m.Match.rules,
            m.MatchSeat.seat,
            m.MatchSeat.name,
            m.Match.started_at,
            m.Match.finished_at,
            m.Match.finished,
        )
        .join(m.MatchSeat, m.MatchSeat.match_id == m.Match.id)
        .where(m.MatchSeat.player_id == player_id)
        .order_by(m.Match.started_at, m.Match.id)
    )
    return [
        {
            "match_id": match_id,
            "preset": rules.get("preset"),
            "seat": seat,
            "name": name,
            "started_at": _when(started),
            "finished_at": _when(ended),
            "finished": finished,
        }
        for match_id, rules, seat, name, started, ended, finished in rows
    ]


async def _rows(session: AsyncSession, query: Any, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The query's rows as objects with ``names`` for keys, times in ISO 8601."""
    rows = await session.execute(query)
    return [
        {
            k: v.isoformat() if isinstance(v, datetime) else v
            for k, v in zip(names, row, strict=True)
        }
        for row in rows
    ]
