"""Tournaments in the database (``app.rooms.tournaments.TournamentBook``).

Each change is one transaction whose first write is conditional on the state it was decided
from (a status, a match without its winner or its table), so that nodes or requests racing on
one tournament change it once: the loser's write matches no row and it does nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from types import MappingProxyType

from sqlalchemy import Update, and_, delete, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db import models as m
from app.rooms.bracket import Pairing, mutual_partners
from app.rooms.errors import RoomError
from app.rooms.ports import Player
from app.rooms.tournaments import (
    CANCELLED,
    CHECK_IN_MINUTES,
    FINISHED,
    PLAYING,
    REGISTERING,
    CheckIn,
    Draw,
    Entry,
    Game,
    InPlay,
    PartnerAsk,
    Played,
    Starting,
    TableMatch,
    TableState,
    Tournament,
    YourTable,
    check_in_opens,
)

SHOWN_DAYS = 7
"""How long a tournament that is not being played stays in the listing after it was made: one
that ended, was called off, or still takes entries that long after (its host never started
it) — one taking entries for a start time stays until that long after the time. It stays
readable at its address, and its host may still start it."""


def _unknown() -> RoomError:
    return RoomError("unknown_tournament", "There is no such tournament.")


def _closed() -> RoomError:
    return RoomError("tournament_closed", "The tournament no longer takes entries.")


def _tournament(
    row: m.Tournament,
    names: dict[str, str | None],
    entries: Sequence[m.TournamentEntry],
    matches: Sequence[m.TournamentMatch],
    removed: set[str],
) -> Tournament:
    """``names``: the players' names as they are now, None for an erased one."""
    return Tournament(
        row.id,
        row.name,
        Game(row.preset, MappingProxyType(dict(row.house_rules)), row.target),
        row.host_id,
        names.get(row.host_id),
        row.size,
        row.swiss_rounds,
        row.starts_at,
        row.check_in_minutes,
        row.rated,
        row.status,
        row.created_at,
        row.started_at,
        row.finished_at,
        row.champion,
        tuple(
            Entry(
                e.player_id,
                names.get(e.player_id),
                e.unit,
                e.checked_in_at is not None,
                e.partner_id,
            )
            for e in entries
        ),
        tuple(
            TableMatch(
                t.round,
                t.slot,
                t.unit_a,
                t.unit_b,
                t.room_code,
                t.match_id,
                t.winner,
                None if t.scores is None else tuple(t.scores),
                t.conceded,
            )
            for t in matches
        ),
        frozenset(removed),
    )


class SqlTournaments:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def create(
        self,
        tournament_id: str,
        host: Player,
        name: str,
        game: Game,
        size: int,
        swiss_rounds: int | None,
        starts_at: datetime | None,
        check_in_minutes: int | None,
        rated: bool,
    ) -> None:
        async with self._sessions.begin() as session:
            tournament = m.Tournament(
                id=tournament_id,
                name=name,
                preset=game.preset,
                house_rules=dict(game.house_rules),
                target=game.target,
                host_id=host.id,
                size=size,
                swiss_rounds=swiss_rounds,
                starts_at=starts_at,
                check_in_minutes=check_in_minutes,
                rated=rated,
                status=REGISTERING,
            )
            session.add(tournament)
            await session.flush()
            session.add(_entry(tournament, host.id))

    async def load(self, tournament_id: str) -> Tournament | None:
        async with self._sessions() as session:
            row = await session.get(m.Tournament, tournament_id)
            if row is None:
                return None
            return (await self._read(session, [row]))[0]

    async def listing(self, limit: int) -> list[Tournament]:
        since = datetime.now(UTC) - timedelta(days=SHOWN_DAYS)
        async with self._sessions() as session:
            rows = list(
                await session.scalars(
                    select(m.Tournament)
                    .where(
                        or_(
                            m.Tournament.status == PLAYING,
                            m.Tournament.created_at >= since,
                            and_(
                                m.Tournament.status == REGISTERING,
                                m.Tournament.starts_at >= since,
                            ),
                        )
                    )
                    .order_by(m.Tournament.created_at.desc(), m.Tournament.id)
                    .limit(limit)
                )
            )
            return await self._read(session, rows)

    async def _read(self, session: AsyncSession, rows: Sequence[m.Tournament]) -> list[Tournament]:
        """The tournaments of ``rows`` with their entries, matches and removals, and everyone's
        name as it is now (a rename shows at once; an erased player's is None): four queries."""
        ids = [row.id for row in rows]
        entries = list(
            await session.scalars(
                select(m.TournamentEntry)
                .where(m.TournamentEntry.tournament_id.in_(ids))
                .order_by(m.TournamentEntry.joined_at, m.TournamentEntry.player_id)
            )
        )
        matches = await session.scalars(
            select(m.TournamentMatch)
            .where(m.TournamentMatch.tournament_id.in_(ids))
            .order_by(m.TournamentMatch.round, m.TournamentMatch.slot)
        )
        people = {row.host_id for row in rows} | {entry.player_id for entry in entries}
        found = await session.execute(
            select(m.Player.id, m.Player.name, m.Player.erased_at).where(m.Player.id.in_(people))
        )
        names = {i: None if erased else name for i, name, erased in found}
        entries_of: dict[str, list[m.TournamentEntry]] = {i: [] for i in ids}
        matches_of: dict[str, list[m.TournamentMatch]] = {i: [] for i in ids}
        for entry in entries:
            entries_of[entry.tournament_id].append(entry)
        for match in matches:
            matches_of[match.tournament_id].append(match)
        removed_of: dict[str, set[str]] = {i: set() for i in ids}
        removals = await session.execute(
            select(m.TournamentRemoval.tournament_id, m.TournamentRemoval.player_id).where(
                m.TournamentRemoval.tournament_id.in_(ids)
            )
        )
        for tournament_id, player_id in removals:
            removed_of[tournament_id].add(player_id)
        return [
            _tournament(row, names, entries_of[row.id], matches_of[row.id], removed_of[row.id])
            for row in rows
        ]

    async def _registering(
        self, session: AsyncSession, tournament_id: str, **values: object
    ) -> None:
        """Change the tournament's row while it takes entries — or, with no ``values``, touch
        it — else say why not (``unknown_tournament``, ``tournament_closed``). Entries and
        withdrawals are serialised on it (PostgreSQL locks the row until the commit; SQLite
        has one writer), so two last entries cannot both fit, nor one slip in past the start."""
        result = await session.execute(
            update(m.Tournament)
            .where(m.Tournament.id == tournament_id, m.Tournament.status == REGISTERING)
            .values(**(values or {"status": REGISTERING}))
        )
        if result.rowcount == 1:  # type: ignore[attr-defined]
            return
        if await session.get(m.Tournament, tournament_id) is None:
            raise _unknown()
        raise _closed()

    async def enter(self, tournament_id: str, player: Player) -> None:
        async with self._sessions.begin() as session:
            await self._registering(session, tournament_id)
            if await session.get(m.TournamentEntry, (tournament_id, player.id)) is not None:
                return
            if await session.get(m.TournamentRemoval, (tournament_id, player.id)) is not None:
                raise RoomError(
                    "removed_from_tournament", "The host removed you from this tournament."
                )
            size = await session.scalar(
                select(m.Tournament.size).where(m.Tournament.id == tournament_id)
            )
            entered = await session.scalar(
                select(func.count())
                .select_from(m.TournamentEntry)
                .where(m.TournamentEntry.tournament_id == tournament_id)
            )
            if size is not None and entered is not None and entered >= size:
                raise RoomError("tournament_full", "The tournament has all the entrants it takes.")
            row = await session.get(m.Tournament, tournament_id)
            assert row is not None
            if row.rated and not player.account:
                raise RoomError("account_required", "Sign in to enter a rated tournament.")
            session.add(_entry(row, player.id))

    async def check_in(self, tournament_id: str, player_id: str) -> None:
        async with self._sessions.begin() as session:
            await self._registering(session, tournament_id)
            row = await session.get(m.Tournament, tournament_id)
            assert row is not None
            if row.check_in_minutes is None:
                raise RoomError("no_check_in", "This tournament asks for no check-in.")
            now = _check_in_time(row)
            if now is None:
                raise RoomError(
                    "check_in_not_open",
                    f"Check-in opens {row.check_in_minutes} minutes before the start.",
                )
            entry = await session.get(m.TournamentEntry, (tournament_id, player_id))
            if entry is None:
                raise RoomError("not_entered", "You have not entered this tournament.")
            if entry.checked_in_at is None:
                entry.checked_in_at = now

    async def check_ins_of(self, player_id: str) -> list[CheckIn]:
        entries = m.TournamentEntry
        now = datetime.now(UTC)
        soonest = now + timedelta(minutes=CHECK_IN_MINUTES.stop)  # the longest check-in
        async with self._sessions() as session:
            rows = await session.scalars(
                select(m.Tournament)
                .join(entries, entries.tournament_id == m.Tournament.id)
                .where(
                    entries.player_id == player_id,
                    entries.checked_in_at.is_(None),
                    m.Tournament.status == REGISTERING,
                    m.Tournament.check_in_minutes.is_not(None),
                    m.Tournament.starts_at <= soonest,
                )
                .order_by(m.Tournament.starts_at, m.Tournament.id)
            )
            return [
                CheckIn(row.id, row.name, row.preset, row.starts_at)
                for row in rows
                if row.starts_at is not None and _check_in_time(row, now) is not None
            ]

    async def partner(self, tournament_id: str, player_id: str, partner_id: str | None) -> None:
        async with self._sessions.begin() as session:
            await self._registering(session, tournament_id)
            entry = await session.get(m.TournamentEntry, (tournament_id, player_id))
            if entry is None:
                raise RoomError("not_entered", "You have not entered this tournament.")
            if partner_id is not None:
                if partner_id == player_id:
                    raise RoomError("bad_request", "You cannot be your own partner.")
                if await session.get(m.TournamentEntry, (tournament_id, partner_id)) is None:
                    raise RoomError("not_an_entrant", "They have not entered this tournament.")
            entry.partner_id = partner_id

    async def partner_asks_of(self, player_id: str) -> list[PartnerAsk]:
        """The asks the bar shows the player: not those of one the player muted, as a friend
        request of theirs is not shown (app.db.friends); the ask still stands, and should the
        player ask them back the two are a pair."""
        asker, mine = aliased(m.TournamentEntry), aliased(m.TournamentEntry)
        muted = exists().where(m.Mute.muter_id == player_id, m.Mute.muted_id == asker.player_id)
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Tournament.id, m.Tournament.name, m.Tournament.preset, m.Player)
                .join(mine, mine.tournament_id == m.Tournament.id)
                .join(asker, asker.tournament_id == m.Tournament.id)
                .join(m.Player, m.Player.id == asker.player_id)
                .where(
                    mine.player_id == player_id,
                    asker.partner_id == player_id,
                    or_(mine.partner_id.is_(None), mine.partner_id != asker.player_id),
                    m.Tournament.status == REGISTERING,
                    ~muted,
                )
                .order_by(m.Tournament.created_at, m.Tournament.id, asker.joined_at)
            )
            return [
                PartnerAsk(tid, name, preset, player.id, player.name)
                for tid, name, preset, player in rows
            ]

    async def withdraw(self, tournament_id: str, player_id: str) -> None:
        async with self._sessions.begin() as session:
            await self._registering(session, tournament_id)
            await session.execute(
                delete(m.TournamentEntry).where(
                    m.TournamentEntry.tournament_id == tournament_id,
                    m.TournamentEntry.player_id == player_id,
                )
            )

    async def remove(self, tournament_id: str, host_id: str, player_id: str) -> None:
        async with self._sessions.begin() as session:
            await self._host_only(session, tournament_id, host_id)
            if player_id == host_id:
                raise RoomError("bad_request", "The host withdraws from their tournament.")
            await self._registering(session, tournament_id)
            if await session.get(m.TournamentRemoval, (tournament_id, player_id)) is not None:
                return
            entry = await session.get(m.TournamentEntry, (tournament_id, player_id))
            if entry is None:
                raise RoomError("not_an_entrant", "They have not entered this tournament.")
            await session.delete(entry)
            session.add(m.TournamentRemoval(tournament_id=tournament_id, player_id=player_id))

    async def _host_only(self, session: AsyncSession, tournament_id: str, host_id: str) -> None:
        row = await session.get(m.Tournament, tournament_id)
        if row is None:
            raise _unknown()
        if row.host_id != host_id:
            raise RoomError("not_host", "Only the tournament's host may do that.")

    async def cancel(self, tournament_id: str, host_id: str) -> None:
        async with self._sessions.begin() as session:
            await self._host_only(session, tournament_id, host_id)
            now = datetime.now(UTC)
            await self._registering(session, tournament_id, status=CANCELLED, finished_at=now)

    async def start(
        self,
        tournament_id: str,
        host_id: str,
        draw: Draw,
    ) -> None:
        async with self._sessions.begin() as session:
            await self._host_only(session, tournament_id, host_id)
            now = datetime.now(UTC)
            await self._registering(session, tournament_id, status=PLAYING, started_at=now)
            row = await session.get(m.Tournament, tournament_id)
            assert row is not None
            if row.check_in_minutes is not None:  # who did not check in is not drawn
                await session.execute(
                    delete(m.TournamentEntry).where(
                        m.TournamentEntry.tournament_id == tournament_id,
                        m.TournamentEntry.checked_in_at.is_(None),
                    )
                )
            rows = (
                await session.execute(
                    select(m.TournamentEntry.player_id, m.TournamentEntry.partner_id)
                    .where(m.TournamentEntry.tournament_id == tournament_id)
                    .order_by(m.TournamentEntry.joined_at, m.TournamentEntry.player_id)
                )
            ).all()
            entrants = [player_id for player_id, _ in rows]
            # The draw may refuse: the transaction is rolled back.
            unit_of, pairings = draw(entrants, mutual_partners(dict(rows)))
            for player_id, unit in unit_of.items():
                await session.execute(
                    update(m.TournamentEntry)
                    .where(
                        m.TournamentEntry.tournament_id == tournament_id,
                        m.TournamentEntry.player_id == player_id,
                    )
                    .values(unit=unit)
                )
            session.add_all(_match_rows(tournament_id, pairings))

    async def played(self, tournament_id: str) -> list[Played]:
        tables = m.TournamentMatch
        async with self._sessions() as session:
            rows = await session.execute(
                select(tables.round, tables.slot, m.Match.id, m.Match.winner, m.Match.scoresheet)
                .join(m.Room, m.Room.code == tables.room_code)
                .join(m.Match, m.Match.room_id == m.Room.id)
                .where(
                    tables.tournament_id == tournament_id,
                    tables.winner.is_(None),
                    m.Match.finished,
                    m.Match.winner.is_not(None),
                )
                .order_by(m.Match.started_at, m.Match.id)
            )
            first: dict[tuple[int, int], Played] = {}
            for round_, slot, match_id, winner, scoresheet in rows:
                scores = tuple(int(s) for s in (scoresheet or {}).get("scores", ()))
                conceded = m.conceded_side(scoresheet) is not None
                played = Played(round_, slot, match_id, winner, scores, conceded)
                first.setdefault((round_, slot), played)
            return list(first.values())

    async def decide(self, tournament_id: str, played: Played, winner: int) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                _undecided(tournament_id, played.round, played.slot).values(
                    winner=winner,
                    match_id=played.match_id,
                    scores=list(played.scores),
                    conceded=played.conceded,
                )
            )

    async def walk_over(self, tournament_id: str, round_: int, slot: int, winner: int) -> None:
        async with self._sessions.begin() as session:
            await session.execute(_undecided(tournament_id, round_, slot).values(winner=winner))

    async def add(self, tournament_id: str, pairings: Sequence[Pairing]) -> None:
        try:
            async with self._sessions.begin() as session:
                session.add_all(_match_rows(tournament_id, pairings))
        except IntegrityError:  # made by another node meanwhile: the next pass reads them
            pass

    async def seat(self, tournament_id: str, round_: int, slot: int, room_code: str) -> bool:
        async with self._sessions.begin() as session:
            result = await session.execute(
                _undecided(tournament_id, round_, slot)
                .where(m.TournamentMatch.room_code.is_(None))
                .values(room_code=room_code)
            )
            return result.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def finish(self, tournament_id: str, champion: int) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                update(m.Tournament)
                .where(m.Tournament.id == tournament_id, m.Tournament.status == PLAYING)
                .values(status=FINISHED, champion=champion, finished_at=datetime.now(UTC))
            )

    async def rename(self, tournament_id: str, name: str) -> tuple[str, str] | None:
        """The operator renames a tournament (``python -m app.admin rename-tournament``): its
        host's id and its name before, or None for no such tournament."""
        async with self._sessions.begin() as session:
            row = await session.get(m.Tournament, tournament_id)
            if row is None:
                return None
            before, row.name = row.name, name
            return row.host_id, before

    async def of_table(self, room_code: str) -> tuple[str, str] | None:
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(m.Tournament.id, m.Tournament.name)
                    .join(m.TournamentMatch, m.TournamentMatch.tournament_id == m.Tournament.id)
                    .where(m.TournamentMatch.room_code == room_code)
                    .limit(1)
                )
            ).first()
            return None if row is None else (row[0], row[1])

    async def tables_of(self, player_id: str) -> list[YourTable]:
        tables, entries = m.TournamentMatch, m.TournamentEntry
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Tournament.id, m.Tournament.name, m.Tournament.preset, tables.room_code)
                .join(entries, entries.tournament_id == m.Tournament.id)
                .join(tables, tables.tournament_id == m.Tournament.id)
                .where(
                    entries.player_id == player_id,
                    m.Tournament.status == PLAYING,
                    or_(tables.unit_a == entries.unit, tables.unit_b == entries.unit),
                    tables.winner.is_(None),
                    tables.room_code.is_not(None),
                )
                .order_by(m.Tournament.started_at, m.Tournament.id)
            )
            return [
                YourTable(tid, name, preset, code)
                for tid, name, preset, code in rows
                if code is not None  # (the query's own condition, for the type)
            ]

    async def tables_in_play(self) -> dict[str, InPlay]:
        tables, rooms, matches = m.TournamentMatch, m.Room, m.Match
        begun = select(matches.id).where(matches.room_id == rooms.id).exists()
        over = (
            select(matches.id)
            .where(matches.room_id == rooms.id, matches.finished, matches.winner.is_not(None))
            .exists()
        )
        query = (
            select(
                m.Tournament.id,
                m.Tournament.swiss_rounds,
                tables.round,
                tables.slot,
                tables.unit_b,
                tables.winner,
                tables.room_code,
                begun,
                over,
            )
            .select_from(m.Tournament)
            .outerjoin(tables, tables.tournament_id == m.Tournament.id)
            .outerjoin(rooms, rooms.code == tables.room_code)
            .where(m.Tournament.status == PLAYING)
        )
        found: dict[str, InPlay] = {}
        async with self._sessions() as session:
            rows = await session.execute(query)
            for tid, swiss_rounds, round_, slot, b, winner, code, has_begun, is_over in rows:
                into = found.setdefault(tid, InPlay(swiss_rounds, [])).tables
                if round_ is not None:
                    into.append(
                        TableState(round_, slot, b, winner, code, bool(has_begun), bool(is_over))
                    )
        return found

    async def time_to_start(self, now: datetime) -> list[Starting]:
        entries = (
            select(func.count())
            .where(
                m.TournamentEntry.tournament_id == m.Tournament.id,
                or_(
                    m.Tournament.check_in_minutes.is_(None),
                    m.TournamentEntry.checked_in_at.is_not(None),
                ),
            )
            .scalar_subquery()
        )
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Tournament.id, m.Tournament.host_id, m.Tournament.preset, entries).where(
                    m.Tournament.status == REGISTERING, m.Tournament.starts_at <= now
                )
            )
            return [Starting(*row) for row in rows]

    async def of_match(self, match_id: str) -> str | None:
        tables = m.TournamentMatch
        async with self._sessions() as session:
            found: str | None = await session.scalar(
                select(tables.tournament_id)
                .join(m.Room, m.Room.code == tables.room_code)
                .join(m.Match, m.Match.room_id == m.Room.id)
                .where(m.Match.id == match_id, tables.winner.is_(None))
                .limit(1)
            )
            return found


def _entry(tournament: m.Tournament, player_id: str) -> m.TournamentEntry:
    """A new entry, checked in as it is made while the tournament's check-in is open: one who
    enters then is here."""
    return m.TournamentEntry(
        tournament_id=tournament.id, player_id=player_id, checked_in_at=_check_in_time(tournament)
    )


def _check_in_time(row: m.Tournament, now: datetime | None = None) -> datetime | None:
    """``now`` (by default the time) if the tournament's check-in is open then, else None."""
    now = now or datetime.now(UTC)
    opens = check_in_opens(row.starts_at, row.check_in_minutes)
    return now if opens is not None and now >= opens else None


def _undecided(tournament_id: str, round_: int, slot: int) -> Update:
    """An update of the match at ``(round_, slot)`` while it has no winner."""
    return update(m.TournamentMatch).where(
        m.TournamentMatch.tournament_id == tournament_id,
        m.TournamentMatch.round == round_,
        m.TournamentMatch.slot == slot,
        m.TournamentMatch.winner.is_(None),
    )


def _match_rows(tournament_id: str, pairings: Sequence[Pairing]) -> list[m.TournamentMatch]:
    """The bracket's new matches; a bye is won by its one unit as it is made."""
    return [
        m.TournamentMatch(
            tournament_id=tournament_id,
            round=p.round,
            slot=p.slot,
            unit_a=p.a,
            unit_b=p.b,
            winner=p.a if p.b is None else None,
        )
        for p in pairings
    ]


async def forget(session: AsyncSession, player_id: str) -> None:
    """An erased player (``Accounts.erase``): out of the tournaments still taking entries, the
    ones they host among them called off (nobody else may start them); in a started one their
    entry stays, for the bracket, and their name goes with their player's (the client says
    "Deleted player"); the hosts' removals of them are forgotten."""
    registering = select(m.Tournament.id).where(m.Tournament.status == REGISTERING)
    await session.execute(
        update(m.Tournament)
        .where(m.Tournament.host_id == player_id, m.Tournament.status == REGISTERING)
        .values(status=CANCELLED, finished_at=datetime.now(UTC))
    )
    await session.execute(
        delete(m.TournamentEntry).where(
            m.TournamentEntry.player_id == player_id,
            m.TournamentEntry.tournament_id.in_(registering),
        )
    )
    await session.execute(
        delete(m.TournamentRemoval).where(m.TournamentRemoval.player_id == player_id)
    )
    await session.execute(  # nobody's ask to play with them outlives them
        update(m.TournamentEntry)
        .where(m.TournamentEntry.partner_id == player_id)
        .values(partner_id=None)
    )
