"""Tournaments, knockout and Swiss: people enter one, its host starts it, and the server draws
the units, opens a table for each match, reads each table's result as its match is stored, and
makes the next matches — a knockout's winners sent on (``app.rooms.bracket``) until the final
is won, a Swiss tournament's next round paired by its standings (``app.rooms.swiss``) until
its last round is over.

A tournament is in the database (``TournamentBook``), not in a process: any node of a cluster
answers for it, and every step is a conditional write, so two nodes (or two requests) advancing
the same tournament at once make each match and each table once. A table is a private room
opened like a quick-play table: the units seated on the game's two sides, bots in the seats
nobody fills, begun at once with the turn clock on, so that an absent player's stand-in plays
and every match ends. A table's tournament moves on as soon as its match ends on a node
(``after_match``); a step that fails (a table that could not open, the database away) is tried
again by the sweep every node makes every ``BELOTE_TOURNAMENT_SWEEP_SECONDS``, which reads the
tournaments being played in one query and moves on those with something to do (``due``); the
start opens the first round's tables itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any, Protocol

from app.rooms import swiss
from app.rooms.bracket import (
    MIN_UNITS,
    Pairing,
    draw_units,
    first_round,
    mutual_partners,
    next_pairings,
    rounds_of,
)
from app.rooms.config import checked_game
from app.rooms.errors import RoomElsewhere, RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import Player
from app.rooms.room import WAITING
from app.rules import Ruleset
from app.tasks import next_round, stop_task

log = logging.getLogger(__name__)

MAX_ENTRANTS = 32
"""The most entrants a tournament takes: five rounds for singles, four for drawn pairs."""
CHECK_IN_MINUTES = range(5, 61)
"""How long before its start time a tournament's check-in may open: time to be reminded and
come back, and not an hour's more wait than a club's evening has."""

REGISTERING, PLAYING, FINISHED, CANCELLED = "registering", "playing", "finished", "cancelled"


def check_in_opens(starts_at: datetime | None, minutes: int | None) -> datetime | None:
    """When a tournament starting at ``starts_at`` opens its check-in of ``minutes``; None:
    it asks for none."""
    if starts_at is None or minutes is None:
        return None
    return starts_at - timedelta(minutes=minutes)


@dataclass(frozen=True, slots=True)
class Game:
    """What every table of a tournament plays: a game of two sides, its house rules (those at
    their default left out) and the match's target (None: the preset's), chosen by its host
    when they make it and the same at every table, so that every match is played alike."""

    preset: str
    house_rules: Mapping[str, bool | str] = field(default_factory=lambda: MappingProxyType({}))
    target: int | None = None

    @property
    def rules(self) -> dict[str, Any]:
        """As a room's ``rules`` take them."""
        return {"preset": self.preset, "house_rules": dict(self.house_rules)}


@dataclass(frozen=True, slots=True)
class Entry:
    player_id: str
    name: str | None
    """None: the player was erased since (the client says "Deleted player")."""
    unit: int | None
    """The unit the start drew them into; None before."""
    checked_in: bool = False
    """They checked in (a tournament with check-in: only those who did are drawn)."""
    partner_id: str | None = None
    """The entrant they asked to play with (a game of partners); None: drawn with anyone."""


@dataclass(frozen=True, slots=True)
class TableMatch:
    """A match of the bracket (``app.db.models.TournamentMatch``)."""

    round: int
    slot: int
    a: int
    b: int | None
    room_code: str | None
    match_id: str | None
    winner: int | None
    scores: tuple[int, ...] | None
    conceded: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    game: Game
    host_id: str
    host_name: str | None
    """None: the host was erased since."""
    size: int
    swiss_rounds: int | None
    """A Swiss tournament's rounds; None: a knockout."""
    starts_at: datetime | None
    """When it starts by itself, once enough have entered; None: when its host starts it."""
    check_in_minutes: int | None
    """With a start time: its entrants check in during its last minutes (``check_in_opens``),
    and the start draws only those who did; None: every entrant is drawn."""
    rated: bool
    """Its matches move ratings: only accounts enter it; a table with a bot is casual."""
    status: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    champion: int | None
    entries: tuple[Entry, ...]
    matches: tuple[TableMatch, ...]
    removed: frozenset[str]
    """The players its host took out before the start: they may not enter again."""

    @property
    def units(self) -> dict[int, list[Entry]]:
        """The drawn units' players, by unit."""
        units: dict[int, list[Entry]] = {}
        for entry in self.entries:
            if entry.unit is not None:
                units.setdefault(entry.unit, []).append(entry)
        return units

    @property
    def partners(self) -> dict[str, str]:
        """Each entrant who asked to play with another who asked for them back: their partner
        (the start draws the two as one unit)."""
        pairs = mutual_partners({e.player_id: e.partner_id for e in self.entries})
        return {a: b for pair in pairs for a, b in (pair, pair[::-1])}

    @property
    def check_in_opens(self) -> datetime | None:
        """When its entrants may check in, until it starts; None: it asks for no check-in."""
        return check_in_opens(self.starts_at, self.check_in_minutes)

    @property
    def rounds(self) -> int:
        """How many rounds it plays: a Swiss tournament's chosen number, a knockout's bracket's
        (0 before the draw)."""
        if self.swiss_rounds is not None:
            return self.swiss_rounds
        return rounds_of(len(self.units)) if self.units else 0

    def standings(self) -> list[swiss.Standing]:
        """A Swiss tournament's standings, best first, from its decided matches (a knockout's:
        none)."""
        if self.swiss_rounds is None or not self.units:
            return []
        return swiss.standings(len(self.units), _results(self.matches))


@dataclass(frozen=True, slots=True)
class YourTable:
    """A table where a player's unit plays now (``TournamentBook.tables_of``)."""

    tournament_id: str
    name: str
    preset: str
    room_code: str


@dataclass(frozen=True, slots=True)
class PartnerAsk:
    """An entrant who asked a player to play together in a tournament taking entries, and whom
    the player has not asked back (``TournamentBook.partner_asks_of``)."""

    tournament_id: str
    name: str
    preset: str
    by_id: str
    by_name: str


@dataclass(frozen=True, slots=True)
class CheckIn:
    """A tournament where a player has entered and may check in now, and has not
    (``TournamentBook.check_ins_of``)."""

    tournament_id: str
    name: str
    preset: str
    starts_at: datetime


@dataclass(frozen=True, slots=True)
class Played:
    """A table's stored result: the first match its room finished."""

    round: int
    slot: int
    match_id: str
    winner_side: int
    scores: tuple[int, ...]
    conceded: bool


def _results(matches: Sequence[TableMatch]) -> list[swiss.Result]:
    return [swiss.Result(t.a, t.b, t.winner, t.scores) for t in matches if t.winner is not None]


@dataclass(frozen=True, slots=True)
class Starting:
    """A tournament whose start time has come (``time_to_start``)."""

    tournament_id: str
    host_id: str
    preset: str
    entrants: int


@dataclass(frozen=True, slots=True)
class TableState:
    """A match of a tournament being played, as the sweep reads it (``tables_in_play``)."""

    round: int
    slot: int
    b: int | None
    winner: int | None
    room_code: str | None
    begun: bool
    """Its room has begun a match."""
    over: bool
    """Its room has finished a match with a winner."""


@dataclass(frozen=True, slots=True)
class InPlay:
    """A tournament being played, as the sweep reads it (``tables_in_play``)."""

    swiss_rounds: int | None
    tables: list[TableState]


def due(playing: InPlay) -> bool:
    """Whether a tournament being played has something to do: a table's result to record, a
    match to make, a table to open or begin, its champion to name. Only such a tournament is
    read whole and moved on by a sweep (``Director.advance``); one without matches (none
    should be) is due, so that a pass looks at it."""
    tables = playing.tables
    if not tables:
        return True
    if playing.swiss_rounds is not None:  # a round over: the next one, or the champion
        latest = max(t.round for t in tables)
        if all(t.winner is not None for t in tables if t.round == latest):
            return True
    else:
        winners = {(t.round, t.slot): t.winner for t in tables if t.winner is not None}
        rounds = (2 * sum(1 for t in tables if t.round == 0)).bit_length() - 1
        made = {(t.round, t.slot) for t in tables}
        if (rounds - 1, 0) in winners or next_pairings(winners, made):
            return True
    return any(
        t.winner is None and t.b is not None and (t.room_code is None or t.over or not t.begun)
        for t in tables
    )


Draw = Callable[[Sequence[str], Sequence[tuple[str, str]]], tuple[dict[str, int], list[Pairing]]]
"""The start's draw: of the entrants' ids, in the order they entered, and the pairs of them who
asked to play together, each one's unit and the first round (``drawer``)."""


class TournamentBook(Protocol):
    """Where tournaments are kept (``app.db.tournaments``). Every change is conditional on the
    state it was decided from, so that it happens once whoever tries it."""

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
        """Store a registering tournament with its host entered (and checked in, should its
        check-in be open already)."""

    async def load(self, tournament_id: str) -> Tournament | None: ...

    async def listing(self, limit: int) -> list[Tournament]:
        """The tournaments being played, and the others made lately, the newest first."""

    async def enter(self, tournament_id: str, player: Player) -> None:
        """``unknown_tournament``, ``tournament_closed`` (not registering), ``tournament_full``;
        entering twice changes nothing. One who enters while its check-in is open is checked
        in: they are here. ``account_required``: a guest, in a rated one."""

    async def check_in(self, tournament_id: str, player_id: str) -> None:
        """``unknown_tournament``, ``tournament_closed``, ``no_check_in`` (it asks for none),
        ``check_in_not_open`` (not yet), ``not_entered``; checking in twice changes nothing."""

    async def check_ins_of(self, player_id: str) -> list[CheckIn]:
        """The tournaments where the player may check in now and has not, the soonest first."""

    async def partner_asks_of(self, player_id: str) -> list[PartnerAsk]:
        """The asks to play together that the player, entered, has not answered, the oldest
        tournament first."""

    async def partner(self, tournament_id: str, player_id: str, partner_id: str | None) -> None:
        """Record whom an entrant asks to play with (None: nobody) while it takes entries:
        ``not_entered``, ``not_an_entrant`` (the partner), ``bad_request`` (themselves)."""

    async def withdraw(self, tournament_id: str, player_id: str) -> None:
        """``unknown_tournament``, ``tournament_closed``; not entered changes nothing."""

    async def remove(self, tournament_id: str, host_id: str, player_id: str) -> None:
        """The host takes an entrant out before the start, for good: ``unknown_tournament``,
        ``not_host``, ``tournament_closed``, ``not_an_entrant``, ``bad_request`` (the host
        themselves: they withdraw); removing one removed already changes nothing."""

    async def cancel(self, tournament_id: str, host_id: str) -> None:
        """``unknown_tournament``, ``not_host``, ``tournament_closed``."""

    async def start(
        self,
        tournament_id: str,
        host_id: str,
        draw: Draw,
    ) -> None:
        """Move a registering tournament to playing: ``draw`` gives each entrant their unit
        and the first round — with check-in, each entrant who checked in, the others' entries
        taken away. ``unknown_tournament``, ``not_host``, ``tournament_closed``; ``draw`` may
        refuse (``too_few_entrants``)."""

    async def played(self, tournament_id: str) -> list[Played]:
        """The results of the tournament's undecided tables whose rooms finished a match."""

    async def decide(self, tournament_id: str, played: Played, winner: int) -> None:
        """Record a table's result, unless it is recorded already."""

    async def add(self, tournament_id: str, pairings: Sequence[Pairing]) -> None:
        """Add the bracket's next matches (a bye is won as it is added), unless added already."""

    async def seat(self, tournament_id: str, round_: int, slot: int, room_code: str) -> bool:
        """Name a match's table, unless one is named already (then False)."""

    async def walk_over(self, tournament_id: str, round_: int, slot: int, winner: int) -> None:
        """A match nobody can play (no one of either unit may sit): ``winner`` goes on."""

    async def finish(self, tournament_id: str, champion: int) -> None: ...

    async def of_table(self, room_code: str) -> tuple[str, str] | None:
        """The id and name of the tournament whose table ``room_code`` is."""

    async def tables_of(self, player_id: str) -> list[YourTable]:
        """The tables where the player's unit plays now, in the tournaments being played."""

    async def tables_in_play(self) -> dict[str, InPlay]:
        """The tournaments being played, each with its matches as the sweep sees them (none
        yet: an empty list). One query, whatever their number."""

    async def of_match(self, match_id: str) -> str | None:
        """The tournament whose undecided table played the match ``match_id``, if any."""

    async def time_to_start(self, now: datetime) -> list[Starting]:
        """The tournaments taking entries whose start time has come, each with its entrants
        who would be drawn (with check-in, those who checked in)."""


def side_size(game: Game) -> int:
    """How many players a unit of the game has; ``bad_rules`` (or ``bad_request`` for the
    target) for a game a tournament cannot play. A tournament needs a game of two sides:
    Bulgarian for three, where each of three players scores alone, has no single winner of a
    table to send on."""
    sides = checked_game(game.rules, game.target).sides
    if len(sides) != 2:
        raise RoomError("bad_rules", "A tournament is played by a game of two sides.")
    return len(sides[0])


def least_entrants(game: Game) -> int:
    """The fewest entrants the game's tournament starts with: two units."""
    return side_size(game) * (MIN_UNITS - 1) + 1


def first_swiss_round(units: int) -> list[Pairing]:
    """A Swiss tournament's first round: the units in the draw's order, two by two."""
    return swiss.pairings(0, swiss.standings(units, []), [])


def drawer(
    side_size: int, rng: random.Random, first: Callable[[int], list[Pairing]] = first_round
) -> Draw:
    """The start's draw for a game whose sides seat ``side_size``: units at random (in a game
    of partners, two who asked for each other one unit), the first round (``first``: a
    knockout's bracket seeded in the draw's order, or a Swiss round)."""

    def draw(
        entrants: Sequence[str], pairs: Sequence[tuple[str, str]] = ()
    ) -> tuple[dict[str, int], list[Pairing]]:
        units = draw_units(entrants, side_size, rng, pairs if side_size == 2 else ())
        if len(units) < MIN_UNITS:
            raise RoomError(
                "too_few_entrants",
                f"A tournament needs at least {side_size + 1} entrants to start.",
            )
        unit_of = {player: unit for unit, players in enumerate(units) for player in players}
        return unit_of, first(len(units))

    return draw


def _next(tournament: Tournament) -> tuple[int | None, list[Pairing]]:
    """What the decided matches call for: the champion (a knockout's final won, a Swiss
    tournament's last round over: the top of the standings), or the next matches (a knockout's
    two decided slots, a Swiss tournament's next round once every table of the last is
    decided), or neither."""
    matches = tournament.matches
    if not matches:
        return None, []
    if tournament.swiss_rounds is not None:
        latest = max(t.round for t in matches)
        if any(t.winner is None for t in matches if t.round == latest):
            return None, []
        results = _results(matches)
        table = swiss.standings(len(tournament.units), results)
        if latest + 1 >= tournament.swiss_rounds:
            return table[0].unit, []
        return None, swiss.pairings(latest + 1, table, results)
    winners = {(t.round, t.slot): t.winner for t in matches if t.winner is not None}
    final = (tournament.rounds - 1, 0)
    if final in winners:
        return winners[final], []
    return None, next_pairings(winners, {(t.round, t.slot) for t in matches})


class Director:
    def __init__(
        self,
        book: TournamentBook,
        rooms: RoomManager,
        *,
        turn_seconds: float,
        sweep_seconds: float,
        rng: random.Random | None = None,
    ) -> None:
        self._book = book
        self._rooms = rooms
        self._turn_seconds = turn_seconds
        self._sweep_seconds = sweep_seconds
        self._rng = rng or random.SystemRandom()
        self._poked = asyncio.Event()
        self._ended: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        # Each tournament is moved on by one task of this node at a time (two at once would
        # only open tables that lose the race to name them); another's readers do not wait.
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def create(
        self,
        host: Player,
        name: str,
        game: Game,
        size: int,
        swiss_rounds: int | None = None,
        starts_at: datetime | None = None,
        check_in_minutes: int | None = None,
        rated: bool = False,
    ) -> Tournament:
        """A tournament taking entries: a knockout, or with ``swiss_rounds`` a Swiss one; with
        ``starts_at``, one that starts by itself then (or once enough have entered after); with
        ``check_in_minutes`` too, one whose entrants check in in those last minutes; ``rated``,
        one whose matches move ratings, entered by accounts alone."""
        if rated and not host.account:
            raise RoomError("account_required", "Sign in to make a rated tournament.")
        least = least_entrants(game)
        if not least <= size <= MAX_ENTRANTS:
            raise RoomError(
                "bad_request", f"A tournament takes {least} to {MAX_ENTRANTS} entrants."
            )
        if swiss_rounds is not None and not 1 <= swiss_rounds <= swiss.MAX_ROUNDS:
            raise RoomError(
                "bad_request", f"A Swiss tournament plays 1 to {swiss.MAX_ROUNDS} rounds."
            )
        if check_in_minutes is not None and (
            starts_at is None or check_in_minutes not in CHECK_IN_MINUTES
        ):
            raise RoomError(
                "bad_request",
                f"A check-in needs a start time and opens {CHECK_IN_MINUTES.start} to "
                f"{CHECK_IN_MINUTES.stop - 1} minutes before it.",
            )
        tournament_id = secrets.token_hex(8)
        # Stored as a room writes them (a house rule at its default left out).
        rules = checked_game(game.rules, game.target).to_dict()
        game = Game(game.preset, MappingProxyType(rules.get("house_rules", {})), game.target)
        await self._book.create(
            tournament_id, host, name, game, size, swiss_rounds, starts_at, check_in_minutes, rated
        )
        return await self.view(tournament_id)

    async def view(self, tournament_id: str) -> Tournament:
        """The tournament as stored. Reading it moves nothing on (a table's match end and the
        sweep do): a page that asks every few seconds costs four queries (with the removals),
        not a pass."""
        tournament = await self._book.load(tournament_id)
        if tournament is None:
            raise RoomError("unknown_tournament", "There is no such tournament.")
        return tournament

    async def listing(self, limit: int = 50) -> list[Tournament]:
        return await self._book.listing(limit)

    async def of_table(self, room_code: str) -> tuple[str, str] | None:
        return await self._book.of_table(room_code)

    async def tables_of(self, player_id: str) -> list[YourTable]:
        return await self._book.tables_of(player_id)

    async def enter(self, tournament_id: str, player: Player) -> Tournament:
        await self._book.enter(tournament_id, player)
        return await self.view(tournament_id)

    async def check_in(self, tournament_id: str, player_id: str) -> Tournament:
        await self._book.check_in(tournament_id, player_id)
        return await self.view(tournament_id)

    async def check_ins_of(self, player_id: str) -> list[CheckIn]:
        return await self._book.check_ins_of(player_id)

    async def partner_asks_of(self, player_id: str) -> list[PartnerAsk]:
        return await self._book.partner_asks_of(player_id)

    async def partner(
        self, tournament_id: str, player_id: str, partner_id: str | None
    ) -> Tournament:
        """Ask to play with ``partner_id`` (None: with anyone drawn): two who ask for each other
        are drawn as one unit. Only in a game of partners."""
        tournament = await self.view(tournament_id)
        if partner_id is not None and side_size(tournament.game) != 2:
            raise RoomError("bad_request", "Partners play only in a game of two sides of two.")
        await self._book.partner(tournament_id, player_id, partner_id)
        return await self.view(tournament_id)

    async def withdraw(self, tournament_id: str, player_id: str) -> Tournament:
        await self._book.withdraw(tournament_id, player_id)
        return await self.view(tournament_id)

    async def remove(self, tournament_id: str, host_id: str, player_id: str) -> Tournament:
        await self._book.remove(tournament_id, host_id, player_id)
        return await self.view(tournament_id)

    async def cancel(self, tournament_id: str, host_id: str) -> Tournament:
        await self._book.cancel(tournament_id, host_id)
        return await self.view(tournament_id)

    async def start(self, tournament_id: str, host_id: str) -> Tournament:
        tournament = await self._book.load(tournament_id)
        if tournament is None:
            raise RoomError("unknown_tournament", "There is no such tournament.")
        drawn_alone = tournament.host_id == host_id and tournament.status == REGISTERING
        if drawn_alone and tournament.check_in_opens is not None:
            checked_in = sum(e.checked_in for e in tournament.entries)
            if checked_in < least_entrants(tournament.game):
                raise RoomError(
                    "too_few_checked_in",
                    f"Only {checked_in} entrants have checked in: too few to start.",
                )
        first = first_round if tournament.swiss_rounds is None else first_swiss_round
        draw = drawer(side_size(tournament.game), self._rng, first)
        await self._book.start(tournament_id, host_id, draw)
        try:
            return await self.advance(tournament_id)  # the first round's tables, at once
        except Exception:  # started all the same: the sweep opens what could not open now
            log.exception("tournament %s: opening its first tables failed", tournament_id)
            return await self.view(tournament_id)

    async def advance(self, tournament_id: str) -> Tournament:
        """Take the tournament as far as what is decided allows: the tables' results read, the
        next matches made, their tables opened, the champion named."""
        lock, users = self._locks.get(tournament_id, (asyncio.Lock(), 0))
        self._locks[tournament_id] = (lock, users + 1)
        try:
            async with lock:
                while True:
                    tournament = await self._book.load(tournament_id)
                    if tournament is None:
                        raise RoomError("unknown_tournament", "There is no such tournament.")
                    if tournament.status != PLAYING:
                        return tournament
                    if not await self._step(tournament):
                        return tournament
        finally:
            lock, users = self._locks[tournament_id]
            if users == 1:
                del self._locks[tournament_id]
            else:
                self._locks[tournament_id] = (lock, users - 1)

    async def _step(self, tournament: Tournament) -> bool:
        """One pass of ``advance``; whether it changed anything."""
        by_slot = {(t.round, t.slot): t for t in tournament.matches}
        changed = False
        for played in await self._book.played(tournament.id):
            table = by_slot[(played.round, played.slot)]
            winner = table.a if played.winner_side == 0 else table.b
            if winner is not None:
                await self._book.decide(tournament.id, played, winner)
                changed = True
        if changed:
            return True
        champion, pairings = _next(tournament)
        if champion is not None:
            await self._book.finish(tournament.id, champion)
            return True
        if pairings:
            await self._book.add(tournament.id, pairings)
            return True
        for table in tournament.matches:
            if table.b is None or table.winner is not None:
                continue
            if table.room_code is None:
                changed = await self._open_table(tournament, table) or changed
            else:
                await self._begun(tournament, table.room_code)
        return changed

    async def _begun(self, tournament: Tournament, code: str) -> None:
        """A table whose beginning failed (the database away a moment) begins now: nobody
        may be there to start it. Another node's table is that node's to look after."""
        try:
            room = await self._rooms.get(code)
        except RoomElsewhere:
            return
        if room is not None and room.status == WAITING and room.match is None:
            log.info("tournament %s: table %s begins late", tournament.id, code)
            with contextlib.suppress(RoomError):  # begun meanwhile
                await room.begin(room.config.host_id, fill_with_bots=True)

    async def _open_table(self, tournament: Tournament, table: TableMatch) -> bool:
        """Open the match's table (as ``Matchmaker`` does): a private room with unit ``a`` on
        the first side and ``b`` on the second, bots in the seats nobody fills, begun at once.
        Should another node have named a table for the match meanwhile, this one never begins
        and its players leave it."""
        assert table.b is not None
        units = tournament.units
        sides = Ruleset.from_dict(tournament.game.rules).sides
        plan: list[tuple[int, Entry]] = []
        for side, unit in zip(sides, (table.a, table.b), strict=True):
            players = [e for e in units.get(unit, []) if e.name is not None]
            players = [e for e in players if not self._rooms.suspensions.holds(e.player_id)]
            plan.extend(zip(side, players, strict=False))
        if not plan:
            await self._book.walk_over(tournament.id, table.round, table.slot, table.a)
            return True
        (host_seat, host), *others = plan
        assert host.name is not None
        # A rated tournament's entrants are accounts; a table a bot fills is casual, as quick
        # play's (a bot's match would move its opponents' ratings).
        rated = tournament.rated and len(plan) == sum(len(side) for side in sides)
        room = await self._rooms.create(
            host.player_id,
            host.name,
            tournament.game.rules,
            target=tournament.game.target,
            public=False,
            turn_seconds=self._turn_seconds,
            host_seat=host_seat,
            rated=rated,
        )
        for seat, entry in others:
            assert entry.name is not None
            try:
                await room.sit(entry.player_id, entry.name, seat, account=rated)
            except RoomError:
                log.exception("tournament %s: a seat at table %s", tournament.id, room.config.code)
        if not await self._book.seat(tournament.id, table.round, table.slot, room.config.code):
            for _seat, entry in plan:
                with contextlib.suppress(RoomError):
                    await room.leave(entry.player_id)
            return False
        # Should the beginning fail, the next pass begins the table (``_begun``).
        await room.begin(host.player_id, fill_with_bots=True)
        return True

    def match_ended(self, match_id: str) -> None:
        """A match ended (stored) on this node: if it was a tournament's table, its tournament
        moves on now (its winner sent on, the next table opened), not at the next sweep."""
        self._ended.add(match_id)
        self._poked.set()

    async def after_match(self, match_id: str) -> None:
        """Move on the tournament whose table played ``match_id``: one indexed query for a
        match that was no tournament's. Every room's match end comes here, and a whole sweep
        for each cost a node 5 queries and 3 ms for every tournament being played
        (``bench.tournaments``)."""
        tournament_id = await self._book.of_match(match_id)
        if tournament_id is not None:
            await self.advance(tournament_id)

    async def sweep(self) -> None:
        """One pass: the tournaments whose start time has come and that have enough entrants
        start (one that has too few waits for them, its host may still start it by hand or
        call it off); and over the tournaments being played, one query, and each that has
        something to do (``due``) moved on — the safety net of the match-end moves: a table
        that could not open, a node that died between a result and the next match. One
        tournament that fails holds up no other: the next sweep tries it again."""
        for starting in await self._book.time_to_start(datetime.now(UTC)):
            if starting.entrants < least_entrants(Game(starting.preset)):
                continue
            try:
                await self.start(starting.tournament_id, starting.host_id)
            except RoomError as refused:  # started by its host or another node meanwhile
                log.info("tournament %s: not started (%s)", starting.tournament_id, refused)
        for tournament_id, playing in (await self._book.tables_in_play()).items():
            if due(playing):
                try:
                    await self.advance(tournament_id)
                except Exception:
                    log.exception("tournament %s: moving it on failed", tournament_id)

    def start_sweeping(self) -> None:
        self._task = asyncio.create_task(self._sweep(), name="tournaments")

    async def _sweep(self) -> None:
        """The node's loop: the tournaments of the matches that ended on it as soon as they
        end, and a sweep every ``sweep_seconds``."""
        loop = asyncio.get_running_loop()
        swept = loop.time()
        while True:
            await next_round(self._poked, self._sweep_seconds)
            ended, self._ended = self._ended, set()
            for match_id in ended:
                try:
                    await self.after_match(match_id)
                except Exception:  # the next sweep finds its tournament due
                    log.exception("the tournament of match %s: moving it on failed", match_id)
            if loop.time() - swept >= self._sweep_seconds:
                swept = loop.time()
                try:
                    await self.sweep()
                except Exception:  # the database away: the next sweep tries again
                    log.exception("sweeping the tournaments failed")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None
