"""Ratings in the database: rating a finished match, the leaderboard and a player's profile.

A room tells ``schedule`` the id of each match it finishes, after the match is stored; the
rating is then computed from what is stored (the match's rules, seats and final scores), so it
needs nothing from the room and gives the same answer on any node. ``rating_changes`` is keyed
by (match, player): a match is rated once however often it is scheduled, and ``catch_up`` at
start-up rates the matches a stopped server finished but did not rate. A rating that fails (the
database down for a while) is tried again, less and less often, until it is stored or the
server stops; ``catch_up`` at the next start takes what was left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db import models as m
from app.rooms.rating import START_MU, START_SIGMA, MatchSeatInfo, Skill, places, rate, rated_sides
from app.rules import TALLY_COUNTERS, Ruleset

log = logging.getLogger(__name__)


async def _standing(session: AsyncSession, player_id: str) -> dict[str, dict[str, int]]:
    """The account's rank in each preset it is rated in, in the leaderboard's order (rating,
    then id), and how many accounts are ranked there: two counts grouped by preset, read from
    the board's index (``ix_ratings_board``; every rating is an account's), however far down
    the board the player is."""
    mine = aliased(m.Rating)
    theirs, own = m.Rating.ordinal, mine.ordinal
    ranked = (
        select(m.Rating.preset, func.count())
        .join(mine, and_(mine.player_id == player_id, mine.preset == m.Rating.preset))
        .group_by(m.Rating.preset)
    )
    above = ranked.where(or_(theirs > own, and_(theirs == own, m.Rating.player_id < player_id)))
    totals: dict[str, int] = {preset: n for preset, n in await session.execute(ranked)}
    before: dict[str, int] = {preset: n for preset, n in await session.execute(above)}
    return {
        preset: {"rank": before.get(preset, 0) + 1, "ranked": total}
        for preset, total in totals.items()
    }


def _rounded(value: float) -> float:
    return round(value, 2)


class Ratings:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        retry_seconds: float = 1.0,
        retry_max_seconds: float = 60.0,
    ) -> None:
        self._sessions = sessions
        self._lock = asyncio.Lock()  # one rating at a time in this process: read-modify-write
        self._tasks: set[asyncio.Task[None]] = set()
        self._retry = (retry_seconds, retry_max_seconds)  # the first wait, and the longest
        self._closing = asyncio.Event()

    # ---- rating matches ----------------------------------------------------------------

    def schedule(self, match_id: str) -> None:
        """Rate ``match_id`` soon, without holding up the room that finished it."""
        task = asyncio.create_task(self._record_logged(match_id), name=f"rate-{match_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Wait for the ratings scheduled so far (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """The server stops: a rating being stored is finished, one waiting to be tried again
        is left to the next start's ``catch_up``."""
        self._closing.set()
        await self.settled()

    async def _record_logged(self, match_id: str) -> None:
        """Rate the match, trying again after each failure (logged, the traceback once)."""
        wait, longest = self._retry
        failures = 0
        while True:
            try:
                await self.record(match_id)
                return
            except Exception as error:
                failures += 1
                if failures == 1:
                    log.exception("rating match %s failed; trying again", match_id)
                else:
                    log.warning("rating match %s failed again (%d): %r", match_id, failures, error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), wait)
            if self._closing.is_set():
                return
            wait = min(longest, wait * 2)

    async def record(self, match_id: str) -> bool:
        """Rate a finished match if the rule allows it; True when ratings moved."""
        async with self._lock:
            for _ in range(3):
                try:
                    return await self._record(match_id)
                except IntegrityError:
                    # Rated already (by a retry, or another node), or another node created one
                    # of these players' first rating row meanwhile: then read it and try again.
                    if await self._rated(match_id):
                        return False
            raise RuntimeError(f"match {match_id} could not be rated: rows keep conflicting")

    async def _rated(self, match_id: str) -> bool:
        async with self._sessions() as session:
            found = await session.scalar(
                select(m.RatingChange.match_id).where(m.RatingChange.match_id == match_id).limit(1)
            )
        return found is not None

    async def _record(self, match_id: str) -> bool:
        async with self._sessions.begin() as session:
            row = (
                await session.execute(
                    select(m.Match, m.Room.rated)
                    .join(m.Room, m.Room.id == m.Match.room_id)
                    .where(m.Match.id == match_id)
                )
            ).first()
            if row is None:
                return False
            match, room_rated = row
            if not (room_rated and match.finished and match.scoresheet):
                return False
            seats = (
                await session.execute(
                    select(m.MatchSeat, m.Account.player_id)
                    .outerjoin(m.Account, m.Account.player_id == m.MatchSeat.player_id)
                    .where(m.MatchSeat.match_id == match_id)
                )
            ).all()
            sides = rated_sides(
                match.rules,
                [MatchSeatInfo(s.seat, s.player_id, s.bot, a is not None) for s, a in seats],
            )
            if sides is None:
                return False
            preset = Ruleset.from_dict(match.rules).preset
            scores = [int(x) for x in match.scoresheet["scores"]]
            ranks = places(scores, match.winner)
            await self._apply(session, match_id, preset, sides, ranks)
        return True

    async def _apply(
        self,
        session: AsyncSession,
        match_id: str,
        preset: str,
        sides: Sequence[Sequence[str]],
        ranks: Sequence[int],
    ) -> None:
        ids = [p for side in sides for p in side]
        rows = {
            r.player_id: r
            for r in await session.scalars(
                select(m.Rating)
                .where(m.Rating.preset == preset, m.Rating.player_id.in_(ids))
                .order_by(m.Rating.player_id)  # locked in one order on every node: no deadlock
                .with_for_update()
            )
        }
        before = [
            [Skill(rows[p].mu, rows[p].sigma) if p in rows else Skill() for p in side]
            for side in sides
        ]
        after = rate(before, ranks)
        now = datetime.now(UTC)
        for side, old_side, new_side, place in zip(sides, before, after, ranks, strict=True):
            for player_id, old, new in zip(side, old_side, new_side, strict=True):
                won = place == 0
                session.add(
                    m.RatingChange(
                        match_id=match_id,
                        player_id=player_id,
                        preset=preset,
                        won=won,
                        mu=new.mu,
                        sigma=new.sigma,
                        before=old.ordinal,
                        after=new.ordinal,
                        at=now,
                    )
                )
                row = rows.get(player_id)
                if row is None:
                    row = m.Rating(player_id=player_id, preset=preset, matches=0, wins=0)
                    session.add(row)
                row.mu, row.sigma, row.updated_at = new.mu, new.sigma, now
                row.matches += 1
                row.wins += int(won)
        await session.flush()

    async def catch_up(self) -> int:
        """Rate the finished matches of rated rooms that have no rating yet, oldest first
        (those with a bot, casual by rule, are left out of the query: they would be read again
        at every start)."""
        async with self._sessions() as session:
            pending = (
                await session.scalars(
                    select(m.Match.id)
                    .join(m.Room, m.Room.id == m.Match.room_id)
                    .where(
                        m.Room.rated,
                        m.Match.finished,
                        ~exists().where(m.RatingChange.match_id == m.Match.id),
                        ~exists().where(m.MatchSeat.match_id == m.Match.id, m.MatchSeat.bot),
                    )
                    .order_by(m.Match.finished_at)
                )
            ).all()
        rated = 0
        for match_id in pending:
            rated += await self.record(match_id)
        return rated

    # ---- reading ---------------------------------------------------------------------------

    async def rating_of(self, player_id: str, preset: str) -> float:
        async with self._sessions() as session:
            row = await session.get(m.Rating, (player_id, preset))
        return Skill().ordinal if row is None else Skill(row.mu, row.sigma).ordinal

    async def leaderboard(self, preset: str, limit: int = 100) -> list[dict[str, Any]]:
        """The best rated players of a preset, best first (the board's index,
        ``ix_ratings_board``, gives them in that order): accounts only, as every rating is."""
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Rating, m.Player.name, m.Account.username)
                    .join(m.Player, m.Player.id == m.Rating.player_id)
                    .join(m.Account, m.Account.player_id == m.Rating.player_id)
                    .where(m.Rating.preset == preset)
                    .order_by(m.Rating.ordinal.desc(), m.Rating.player_id)
                    .limit(limit)
                )
            ).all()
        return [
            {
                "rank": i,
                "player": rating.player_id,
                "name": name,
                "username": username,
                "rating": _rounded(rating.ordinal),
                "mu": _rounded(rating.mu),
                "sigma": _rounded(rating.sigma),
                "matches": rating.matches,
                "wins": rating.wins,
            }
            for i, (rating, name, username) in enumerate(rows, start=1)
        ]

    async def profile(self, player_id: str, limit: int = 200) -> dict[str, Any] | None:
        """A player's ratings per preset, rating history (oldest first), matches and win rate."""
        async with self._sessions() as session:
            player = await session.get(m.Player, player_id)
            if player is None or player.erased_at is not None:
                return None
            account = await session.get(m.Account, player_id)
            ratings = (
                await session.scalars(select(m.Rating).where(m.Rating.player_id == player_id))
            ).all()
            changes = (
                await session.scalars(
                    select(m.RatingChange)
                    .where(m.RatingChange.player_id == player_id)
                    .order_by(m.RatingChange.at.desc())
                    .limit(limit)
                )
            ).all()
            # Counted by the database, grouped by what decides a win (the preset's sides, the
            # seat, the winner): a few rows however long the history. Reading every match and
            # its rules here cost ≈ 19 µs a match on the event loop (bench.profile_page).
            preset = m.Match.rules["preset"].as_string()
            played = (
                await session.execute(
                    select(preset, m.MatchSeat.seat, m.Match.winner, func.count())
                    .join(m.MatchSeat, m.MatchSeat.match_id == m.Match.id)
                    .where(m.MatchSeat.player_id == player_id, m.Match.finished)
                    .group_by(preset, m.MatchSeat.seat, m.Match.winner)
                )
            ).all()
            standing = await _standing(session, player_id) if account is not None else {}
            stats = m.PlayStats.__table__
            play = (
                await session.execute(
                    select(stats).where(stats.c.player_id == player_id).order_by(stats.c.preset)
                )
            ).all()
        per_preset: dict[str, dict[str, int]] = {}
        for name, seat, winner, count in played:
            ruleset = Ruleset.from_dict({"preset": name})  # house rules never change the sides
            tally = per_preset.setdefault(name, {"matches": 0, "wins": 0})
            tally["matches"] += count
            tally["wins"] += count if winner is not None and ruleset.team_of(seat) == winner else 0
        matches = sum(t["matches"] for t in per_preset.values())
        wins = sum(t["wins"] for t in per_preset.values())
        return {
            "id": player.id,
            "name": player.name,
            "username": None if account is None else account.username,
            "matches": matches,
            "wins": wins,
            "win_rate": None if matches == 0 else round(wins / matches, 3),
            "presets": {preset: tally for preset, tally in sorted(per_preset.items())},
            "ratings": [
                {
                    "preset": r.preset,
                    "rating": _rounded(Skill(r.mu, r.sigma).ordinal),
                    "mu": _rounded(r.mu),
                    "sigma": _rounded(r.sigma),
                    "matches": r.matches,
                    "wins": r.wins,
                    # Where the leaderboard places them (which shows only its first 100), and
                    # among how many; null for a guest's old rating, which is not ranked.
                    **standing.get(r.preset, {"rank": None, "ranked": None}),
                }
                for r in sorted(ratings, key=lambda r: r.preset)
            ],
            "history": [
                {
                    "match_id": c.match_id,
                    "preset": c.preset,
                    "at": c.at.isoformat(),
                    "before": _rounded(c.before),
                    "after": _rounded(c.after),
                    "won": c.won,
                }
                for c in reversed(changes)
            ],
            "start": {"mu": START_MU, "sigma": START_SIGMA},
            # Every finished deal's counts per preset (``app.rules.tally``).
            "play": {
                row.preset: {name: row._mapping[name] for name in TALLY_COUNTERS} for row in play
            },
        }
