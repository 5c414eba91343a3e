"""Reading finished play back: a player's matches, a match's scoresheet and deals, records.

Only finished deals ever leave through here: the deck of a deal in progress is the most secret
thing the server holds. Records are rebuilt by replaying the stored action log through the
engine, so an export is validated by the same code that validated the play.

Who may read what (docs/protocol.md, "Who may read history"): a public room's matches, anyone; a
private room's, only the players who sat in them — but for the match that decides a
tournament's table, which is the bracket's result from its end and read by anyone, as the
bracket is. A private room's code is a capability and a match names its room, so a private
room's match names it only to those who sat in it (``room`` is null for anyone else). A match
the reader may not read is answered exactly as a missing one (None), so its existence does not
leak either.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db import models as m
from app.rooms.errors import RoomError
from app.rules import (
    DEAL_FORMAT,
    DealState,
    Ruleset,
    deal_record,
    match_record,
    new_match,
    record_deal,
    replay_deal,
)


def _seats(rows: list[m.MatchSeat]) -> list[dict[str, Any]]:
    return [
        {"seat": r.seat, "player": r.player_id, "name": r.name, "bot": r.bot}
        for r in sorted(rows, key=lambda r: r.seat)
    ]


def _deciding() -> ColumnElement[bool]:
    """The match that decided a tournament's table, or the one that is about to: the director
    records a table's result in its own time after the match ends (``SqlTournaments.played``:
    the first match of the table's room that ended with a winner), and its match is the
    bracket's from the moment it ends — else a watcher of the table who follows its
    scoresheet at once is told it does not exist. A later match in that room (a rematch among
    its players) stays theirs."""
    table = m.TournamentMatch
    earlier = aliased(m.Match)
    first_ended = and_(
        m.Match.finished.is_(True),
        m.Match.winner.is_not(None),
        ~exists().where(
            earlier.room_id == m.Match.room_id,
            earlier.finished.is_(True),
            earlier.winner.is_not(None),
            or_(
                earlier.started_at < m.Match.started_at,
                and_(earlier.started_at == m.Match.started_at, earlier.id < m.Match.id),
            ),
        ),
    )
    undecided_table = exists().where(table.room_code == m.Room.code, table.winner.is_(None))
    return or_(exists().where(table.match_id == m.Match.id), and_(undecided_table, first_ended))


def _readable_by(reader: str | None) -> ColumnElement[bool]:
    """The matches ``reader`` (a player id; None: anonymous) may read, in a query that joins
    ``Match`` to its ``Room``: a public room's, one that decides a tournament's table
    (``_deciding``), or one the reader played in."""
    public = m.Room.public.is_(True)
    decided = _deciding()
    if reader is None:
        return or_(public, decided)
    seat = aliased(m.MatchSeat)
    played = exists().where(seat.match_id == m.Match.id, seat.player_id == reader)
    return or_(public, decided, played)


def _room_for(
    reader: str | None, public: bool, code: str, seats: list[dict[str, Any]]
) -> str | None:
    """The room's code as ``reader`` may see it: a public room's, or a private one's to those who
    sat in the match (they held the code); None to anyone else, who reads a tournament table's
    match without the capability its code is."""
    if public or (reader is not None and any(s["player"] == reader for s in seats)):
        return code
    return None


class History:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def matches_of(
        self,
        player_id: str,
        reader: str | None,
        limit: int = 50,
        before: str | None = None,
        preset: str | None = None,
    ) -> list[dict[str, Any]]:
        """A player's matches that ``reader`` may read (all of them for the player), newest
        first — of the game ``preset`` alone if given —: ``limit`` of them, after the match
        ``before`` if given (the last of the page before: a key, not an offset, so a match
        begun meanwhile neither repeats nor hides one). ``before`` must be one of those
        matches, else ``unknown_match``."""
        mine = m.MatchSeat.player_id == player_id
        readable = mine if reader == player_id else and_(mine, _readable_by(reader))
        if preset is not None:
            readable = and_(readable, m.Match.rules["preset"].as_string() == preset)
        query = (
            select(m.Match, m.MatchSeat.seat, m.Room.code, m.Room.public)
            .join(m.MatchSeat, m.MatchSeat.match_id == m.Match.id)
            .join(m.Room, m.Room.id == m.Match.room_id)
            .where(readable)
            .order_by(m.Match.started_at.desc(), m.Match.id.desc())
            .limit(limit)
        )
        async with self._sessions() as session:
            if before is not None:
                cursor = (
                    await session.execute(
                        select(m.Match.started_at, m.Match.id)
                        .join(m.MatchSeat, m.MatchSeat.match_id == m.Match.id)
                        .join(m.Room, m.Room.id == m.Match.room_id)
                        .where(m.Match.id == before, readable)
                    )
                ).first()
                if cursor is None:
                    raise RoomError("unknown_match", f"No match has the id {before!r}.")
                at, key = cursor
                query = query.where(
                    or_(m.Match.started_at < at, and_(m.Match.started_at == at, m.Match.id < key))
                )
            rows = (await session.execute(query)).all()
            seats = await self._seats_of(session, [match.id for match, *_ in rows])
        out = []
        for match, seat, code, public in rows:
            sat = seats.get(match.id, [])
            summary = self._summary(match, _room_for(reader, public, code, sat), sat)
            side = next(i for i, members in enumerate(summary["sides"]) if seat in members)
            out.append({**summary, "your_seat": seat, "your_side": side})
        return out

    async def together(self, reader_id: str, player_id: str) -> dict[str, Any]:
        """The finished matches ``reader_id`` and ``player_id`` both sat in, from the reader's
        side: as partners and as opponents, each with how many the reader's side won. Only
        the reader learns it, of matches they played: nothing another could not read of
        their own history. Counted by the database, a few rows however many matches."""
        mine, theirs = aliased(m.MatchSeat), aliased(m.MatchSeat)
        preset = m.Match.rules["preset"].as_string()
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(preset, mine.seat, theirs.seat, m.Match.winner, func.count())
                    .join(mine, mine.match_id == m.Match.id)
                    .join(theirs, theirs.match_id == m.Match.id)
                    .where(mine.player_id == reader_id, theirs.player_id == player_id)
                    .where(m.Match.finished)
                    .group_by(preset, mine.seat, theirs.seat, m.Match.winner)
                )
            ).all()
        tally = {"partners": {"matches": 0, "wins": 0}, "opponents": {"matches": 0, "wins": 0}}
        for name, my_seat, their_seat, winner, count in rows:
            rules = Ruleset.from_dict({"preset": name})  # house rules never change the sides
            side = rules.team_of(my_seat)
            kind = tally["partners" if rules.team_of(their_seat) == side else "opponents"]
            kind["matches"] += count
            kind["wins"] += count if winner == side else 0
        return {"matches": sum(k["matches"] for k in tally.values()), **tally}

    async def match(self, match_id: str, reader: str | None) -> dict[str, Any] | None:
        """A match with its scoresheet and the finished deals' results (None: no such match
        that ``reader`` may read)."""
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(m.Match, m.Room.code, m.Room.public)
                    .join(m.Room, m.Room.id == m.Match.room_id)
                    .where(m.Match.id == match_id, _readable_by(reader))
                )
            ).first()
            if row is None:
                return None
            match, code, public = row
            sat = (await self._seats_of(session, [match_id])).get(match_id, [])
            deals = (
                await session.scalars(
                    select(m.Deal).where(m.Deal.match_id == match_id).order_by(m.Deal.number)
                )
            ).all()
        return {
            **self._summary(match, _room_for(reader, public, code, sat), sat),
            "deals": [
                {
                    "number": d.number,
                    "dealer": d.dealer,
                    "finished": d.finished,
                    "contract": d.contract,
                    "result": d.result,
                }
                for d in deals
            ],
        }

    async def deal_record(
        self, match_id: str, number: int, reader: str | None
    ) -> dict[str, Any] | None:
        """The record of one finished deal (None: no such finished deal that ``reader`` may
        read)."""
        states = await self._finished_deals(match_id, reader, number)
        if not states:
            return None
        (state, extra), *_ = states
        return {**deal_record(state), **extra}

    async def match_record(self, match_id: str, reader: str | None) -> dict[str, Any] | None:
        """The record of a match: its finished deals and the scoresheet they give (None: no
        such match that ``reader`` may read)."""
        async with self._sessions() as session:
            match_row = await session.scalar(
                select(m.Match)
                .join(m.Room, m.Room.id == m.Match.room_id)
                .where(m.Match.id == match_id, _readable_by(reader))
            )
            if match_row is None:
                return None
            seats = await self._seats_of(session, [match_id])
        ruleset = Ruleset.from_dict(match_row.rules)
        state = new_match(ruleset, match_row.first_dealer, match_row.target)
        deals = await self._finished_deals(match_id, reader)
        for deal, _ in deals:
            state = record_deal(state, deal)
        record = match_record(state, [deal for deal, _ in deals])
        record["deals"] = [
            {**body, **extra} for body, (_, extra) in zip(record["deals"], deals, strict=True)
        ]
        return {
            **record,
            "id": match_id,
            "seats": seats.get(match_id, []),
            "conceded": match_row.conceded_side(),
        }

    async def _finished_deals(
        self, match_id: str, reader: str | None, number: int | None = None
    ) -> list[tuple[DealState, dict[str, Any]]]:
        async with self._sessions() as session:
            query = (
                select(m.Deal, m.Match.rules)
                .join(m.Match, m.Match.id == m.Deal.match_id)
                .join(m.Room, m.Room.id == m.Match.room_id)
                .where(
                    m.Deal.match_id == match_id,
                    m.Deal.finished.is_(True),
                    _readable_by(reader),
                )
                .order_by(m.Deal.number)
            )
            if number is not None:
                query = query.where(m.Deal.number == number)
            deals = (await session.execute(query)).all()
            actions: dict[int, list[dict[str, Any]]] = {d.id: [] for d, _ in deals}
            for row in await session.scalars(
                select(m.ActionRow)
                .where(m.ActionRow.deal_id.in_(list(actions)))
                .order_by(m.ActionRow.deal_id, m.ActionRow.seq)
            ):
                actions[row.deal_id].append(row.action)
        out = []
        for deal, rules in deals:
            core = {
                "format": DEAL_FORMAT,
                "rules": rules,
                "dealer": deal.dealer,
                "deck": deal.deck,
                "hanging_in": deal.hanging_in,
                "actions": actions[deal.id],
            }
            extra = {
                "match": match_id,
                "number": deal.number,
                "seed": deal.seed,
                "cut": deal.cut,
                "commitment": deal.commitment,  # null: dealt before shuffles were committed
                "contributions": deal.contributions or [],
            }
            out.append((replay_deal(core), extra))
        return out

    @staticmethod
    async def _seats_of(
        session: AsyncSession, match_ids: list[str]
    ) -> dict[str, list[dict[str, Any]]]:
        rows = (
            await session.scalars(select(m.MatchSeat).where(m.MatchSeat.match_id.in_(match_ids)))
        ).all()
        grouped: dict[str, list[m.MatchSeat]] = {}
        for row in rows:
            grouped.setdefault(row.match_id, []).append(row)
        return {key: _seats(value) for key, value in grouped.items()}

    @staticmethod
    def _summary(match: m.Match, code: str | None, seats: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "id": match.id,
            "room": code,
            "rules": match.rules,
            # Who scores together, from the match's rules (a team of two, or one player):
            # the scoresheet's columns and `winner` count sides, not seats.
            "sides": [list(side) for side in Ruleset.from_dict(match.rules).sides],
            "target": match.target,
            "first_dealer": match.first_dealer,
            "started_at": match.started_at.isoformat(),
            "finished": match.finished,
            "winner": match.winner,
            "scoresheet": match.scoresheet,
            "conceded": match.conceded_side(),
            "seats": seats,
        }

    async def rooms_to_leave(self, player_id: str) -> list[str]:
        """The codes of the rooms a player being erased must leave first: those where it holds a
        seat, and those it hosts where someone else sits (the room is handed to them)."""
        others = (
            select(m.Seat.room_id)
            .where(
                m.Seat.room_id == m.Room.id,
                m.Seat.player_id.is_not(None),
                m.Seat.player_id != player_id,
            )
            .exists()
        )
        seated = select(m.Seat.room_id).where(m.Seat.player_id == player_id)
        async with self._sessions() as session:
            rows = await session.scalars(
                select(m.Room.code)
                .where(m.Room.id.in_(seated) | ((m.Room.host_id == player_id) & others))
                .order_by(m.Room.id)
            )
            return list(rows)

    async def open_rooms_of(
        self,
        player_id: str,
        limit: int | None = 20,
        statuses: tuple[str, ...] = ("waiting", "playing"),
    ) -> list[str]:
        """The codes of the rooms where the player holds a seat and that are waiting or being
        played (by default: ``statuses``), most recently changed first: the player's way back
        to an unfinished table, or (playing only) a match that erasing the account waits for."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(m.Room.code)
                .join(m.Seat, m.Seat.room_id == m.Room.id)
                .where(m.Seat.player_id == player_id, m.Room.status.in_(statuses))
                .order_by(m.Room.updated_at.desc(), m.Room.id.desc())
                .limit(limit)
            )
            return list(rows)
