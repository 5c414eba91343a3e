"""Quick play: players ask for a preset (rated or not) and are seated together at a new table.

The queue is a port (``QuickPlayQueue``, kept in the database by ``app.db.quickplay``), not a
structure in this process: any node may form a table from it, and a ticket is taken for a
table by an atomic claim, so two nodes never seat the same player twice. Tables are formed when
a waiting player joins or asks how it goes (the client asks every second or so), which is also
how a player's wait runs out: then bots fill the seats nobody came for. Two players one of
whom muted the other are never seated together (``app.db.mutes``).

Two friends may ask to play together (each ticket names the other as ``partner``): at a table
of two sides of two they are one unit of the queue, seated as partners (BG-9: across the table)
and matched against two others — two players, another pair, or bots when their wait runs out.
A ticket whose partner has not asked back waits for them and is seated with nobody else.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import Player
from app.rooms.room import Room
from app.rules import PRESETS, Ruleset

WAIT_MIN, WAIT_MAX = 5.0, 300.0
NEAR = 5.0
"""At first only players within this many rating points (OpenSkill ordinal) of the one who
has waited longest are seated with them ..."""
WIDEN_PER_SECOND = 0.5
"""... and the window widens by this much for every second they have waited."""
CLAIM_SECONDS = 60.0
"""A table is formed within a second or so of its players being claimed: a claim this old that
has no table belongs to a node that died (or froze) forming it, and its players go back to the
queue instead of waiting for ever."""


@dataclass(frozen=True, slots=True)
class Ticket:
    player_id: str
    name: str
    preset: str
    rated: bool
    rating: float
    wait_seconds: float
    created_at: datetime
    room_code: str | None = None
    partner_id: str | None = None
    """A friend to be seated with as partners, who must ask for the same with this player."""

    def waited(self, now: datetime) -> float:
        return (now - self.created_at).total_seconds()


@dataclass(frozen=True, slots=True)
class _Unit:
    """Who the queue seats together: one player, or two partners who asked for each other."""

    tickets: tuple[Ticket, ...]

    @property
    def rating(self) -> float:
        return sum(t.rating for t in self.tickets) / len(self.tickets)

    @property
    def since(self) -> datetime:
        """When the unit was complete: a pair waits from the second one's request."""
        return max(t.created_at for t in self.tickets)

    @property
    def wait_seconds(self) -> float:
        return min(t.wait_seconds for t in self.tickets)

    def waited(self, now: datetime) -> float:
        return (now - self.since).total_seconds()

    def ids(self) -> list[str]:
        return [t.player_id for t in self.tickets]


def _units(waiting: Sequence[Ticket]) -> list[_Unit]:
    """The queue as units, the longest complete first: each player alone, each two who named
    each other as partners together; a ticket whose partner has not asked back is left out
    (it waits for them). Two who named each other chose each other, so a mute between them
    (which keeps quick play from choosing them for each other) does not part them."""
    by_id = {t.player_id: t for t in waiting}
    units: list[_Unit] = []
    placed: set[str] = set()
    for ticket in waiting:
        if ticket.player_id in placed:
            continue
        if ticket.partner_id is None:
            units.append(_Unit((ticket,)))
            placed.add(ticket.player_id)
            continue
        mate = by_id.get(ticket.partner_id)
        if mate is not None and mate.partner_id == ticket.player_id:
            units.append(_Unit((ticket, mate)))
            placed.update((ticket.player_id, mate.player_id))
    return sorted(units, key=lambda u: (u.since, u.ids()))


class QuickPlayQueue(Protocol):
    """Durable storage of the queue: one ticket per player."""

    async def put(self, ticket: Ticket) -> None:
        """Add the ticket, replacing the player's previous one."""
        ...

    async def remove(self, player_id: str) -> None: ...

    async def seen(self, player_id: str, now: datetime) -> Ticket | None:
        """The player's ticket, marked as asked about at ``now``."""
        ...

    async def waiting(
        self, preset: str, rated: bool, seen_since: datetime, claimed_before: datetime
    ) -> list[Ticket]:
        """Unclaimed tickets of the queue asked about since ``seen_since``, oldest first; the
        tickets of a claim made before ``claimed_before`` that has no table are unclaimed first."""
        ...

    async def claim(self, tickets: Sequence[Ticket], claim: str, now: datetime) -> bool:
        """Take all these tickets for one table at ``now``, or none of them if any is taken
        already or was replaced by a request for another queue since it was read."""
        ...

    async def release(self, claim: str) -> None:
        """Give back the tickets of a table that could not be made."""
        ...

    async def apart(self, player_ids: Sequence[str]) -> set[frozenset[str]]:
        """The pairs of these players never to be seated together: one muted the other."""
        ...

    async def ticket(self, player_id: str) -> Ticket | None:
        """The player's ticket, read only (a partner's, to say whether they asked back)."""
        ...

    async def naming(self, partner_id: str, seen_since: datetime) -> list[Ticket]:
        """The waiting tickets, asked about since ``seen_since``, that name this player as
        their partner, the newest first."""
        ...

    async def seat(self, claim: str, room_code: str, rated: bool) -> bool:
        """The claimed tickets' table is ready at ``room_code``; ``rated`` is the table's (one
        with bots is casual whatever was asked), which the tickets say from then on. False if
        the claim is no longer held: it was given back (``CLAIM_SECONDS``) meanwhile."""
        ...


def pick_table(
    waiting: Sequence[Ticket],
    seats: int,
    now: datetime,
    apart: Collection[frozenset[str]] = (),
) -> tuple[list[Ticket], bool] | None:
    """Who sits at the next table, and whether bots fill the rest; None: keep waiting.

    Each unit (a player, or two partners), the longest complete first, is offered the nearest
    ratings within a window that widens as it waits, leaving out anyone ``apart`` pairs with
    one already chosen (a player who muted or was muted by them). A full table of people is
    formed as soon as one exists; once a unit has waited as long as it chose (a pair: the
    shorter of its two waits), it gets whoever is there and bots for the other seats.
    """
    units = _units(waiting)
    for anchor in units:
        waited = anchor.waited(now)
        window = NEAR + WIDEN_PER_SECOND * waited
        others = sorted(
            (u for u in units if u is not anchor), key=lambda u: abs(u.rating - anchor.rating)
        )
        near = [u for u in others if abs(u.rating - anchor.rating) <= window]
        table = _together(anchor, near, seats, apart)
        if len(table) >= seats:
            return table, False
        if waited >= anchor.wait_seconds:
            table = _together(anchor, others, seats, apart)
            return table, len(table) < seats
    return None


def _together(
    anchor: _Unit, candidates: Sequence[_Unit], seats: int, apart: Collection[frozenset[str]]
) -> list[Ticket]:
    """``anchor`` and the first candidates, in order, that fit in the seats left and that no
    one chosen before keeps apart."""
    table = list(anchor.tickets)
    for candidate in candidates:
        if len(table) == seats:
            break
        if len(table) + len(candidate.tickets) > seats:
            continue
        if not any(
            frozenset((t.player_id, c.player_id)) in apart for t in table for c in candidate.tickets
        ):
            table.extend(candidate.tickets)
    return table


def seat_plan(tickets: Sequence[Ticket], sides: Sequence[Sequence[int]]) -> list[Ticket | None]:
    """Each seat's player (None: a bot's), for ``tickets`` in the order they came: partners
    who asked for each other take a side of two together, the first pair the side of seat 0;
    the others take the seats left in order. Seat 0 (the host's) is always a person's."""
    seats: list[Ticket | None] = [None] * sum(len(side) for side in sides)
    pairs = [u for u in _units(tickets) if len(u.tickets) == 2]
    paired = {t.player_id for u in pairs for t in u.tickets}
    free_sides = sorted((side for side in sides if len(side) == 2), key=min)
    for unit, side in zip(pairs, free_sides, strict=False):
        for seat, ticket in zip(side, unit.tickets, strict=True):
            seats[seat] = ticket
    rest = [t for t in tickets if t.player_id not in paired]
    for seat in range(len(seats)):
        if seats[seat] is None and rest:
            seats[seat] = rest.pop(0)
    assert not rest, "more players than seats"
    return seats


class Matchmaker:
    def __init__(
        self,
        queue: QuickPlayQueue,
        rooms: RoomManager,
        rating_of: Callable[[str, str], Awaitable[float]],
        *,
        turn_seconds: float,
        forget_seconds: float,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._queue = queue
        self._rooms = rooms
        self._rating_of = rating_of
        self._turn_seconds = turn_seconds
        self._forget = timedelta(seconds=forget_seconds)
        self._clock = clock
        self._lock = asyncio.Lock()  # this node forms one table at a time (claims guard nodes)

    async def join(
        self,
        player: Player,
        preset: str,
        rated: bool,
        wait_seconds: float,
        partner_id: str | None = None,
    ) -> dict[str, Any]:
        """Queue the player (replacing any earlier request); ``partner_id``: a friend to be
        seated with as partners (the caller checks that they are friends), who must ask for
        the same with this player."""
        if preset not in PRESETS:
            raise RoomError("bad_rules", f"Presets are {', '.join(PRESETS)}.")
        if rated and not player.account:  # as for a rated room (``Room.sit``)
            raise RoomError("account_required", "Sign in to play rated matches.")
        if not WAIT_MIN <= wait_seconds <= WAIT_MAX:
            raise RoomError(
                "bad_request", f"Wait between {WAIT_MIN:g} and {WAIT_MAX:g} seconds for players."
            )
        if partner_id is not None:
            if partner_id == player.id:
                raise RoomError("bad_request", "You cannot be your own partner.")
            if not any(len(side) == 2 for side in Ruleset.from_dict({"preset": preset}).sides):
                raise RoomError("bad_request", "Partners play only in a game of two sides of two.")
        rating = await self._rating_of(player.id, preset)
        now = self._clock()
        ticket = Ticket(
            player.id, player.name, preset, rated, rating, wait_seconds, now, None, partner_id
        )
        await self._queue.put(ticket)
        return await self.status(player)

    async def status(self, player: Player) -> dict[str, Any]:
        """Where the player's ticket stands, after trying to form a table for its queue."""
        now = self._clock()
        ticket = await self._queue.seen(player.id, now)
        if ticket is None:
            raise RoomError("not_queued", "You are not waiting for a quick-play table.")
        if ticket.room_code is None:
            await self._form(ticket.preset, ticket.rated)
            ticket = await self._queue.seen(player.id, now) or ticket
        partner = None
        if ticket.partner_id is not None:
            partner = await self._queue.ticket(ticket.partner_id)
        return _status(ticket, partner, now)

    async def asking(self, player_id: str) -> list[Ticket]:
        """The friends waiting to play with this player as partners, who have not been
        answered: their tickets name the player, the player's does not name them back."""
        mine = await self._queue.ticket(player_id)
        since = self._clock() - self._forget
        return [
            t
            for t in await self._queue.naming(player_id, since)
            if mine is None or mine.partner_id != t.player_id or mine.room_code is not None
        ]

    async def leave(self, player: Player) -> None:
        await self._queue.remove(player.id)

    async def _form(self, preset: str, rated: bool) -> None:
        async with self._lock:
            now = self._clock()
            waiting = await self._queue.waiting(
                preset, rated, now - self._forget, now - timedelta(seconds=CLAIM_SECONDS)
            )
            suspended = self._rooms.suspensions.holds
            for ticket in waiting:
                if suspended(ticket.player_id):  # since they asked: they may not sit anywhere
                    await self._queue.remove(ticket.player_id)
            waiting = [ticket for ticket in waiting if not suspended(ticket.player_id)]
            seats = Ruleset.from_dict({"preset": preset}).seats
            # Keeping players apart only takes choices away: without a table there is none
            # with it, and the mutes are read only when a table is about to be formed (each
            # waiting client asks every second).
            if pick_table(waiting, seats, now) is None:
                return
            apart = await self._queue.apart([ticket.player_id for ticket in waiting])
            picked = pick_table(waiting, seats, now, apart)
            if picked is None:
                return
            tickets, with_bots = picked
            claim = secrets.token_hex(8)
            if not await self._queue.claim(tickets, claim, now):
                return  # taken by another node, or changed, meanwhile: the next poll tries again
            rated = rated and not with_bots
            tickets = sorted(tickets, key=lambda t: (t.created_at, t.player_id))
            try:
                room = await self._open_table(preset, rated, tickets)
            except BaseException:
                await self._queue.release(claim)
                raise
            # The match begins only once the tickets name the room. A node that stalled for
            # longer than ``CLAIM_SECONDS`` here finds its claim given back and its players
            # maybe seated elsewhere: it empties the room it made, which never begins (a
            # rated match played by stand-ins would have moved their ratings).
            if not await self._queue.seat(claim, room.config.code, rated):
                for ticket in tickets:
                    await room.leave(ticket.player_id)
                return
            # Should the beginning fail, the players find their table waiting, and any of
            # them may start it.
            await room.begin(tickets[0].player_id, fill_with_bots=True)

    async def _open_table(self, preset: str, rated: bool, tickets: Sequence[Ticket]) -> Room:
        """A private room with the players seated in the order they came (``tickets``, in
        that order; two who asked to be partners on one side: ``seat_plan``), not begun yet.
        A table with bots is never rated.

        ``pick_table`` offers them nearest rating first; the seats (and so the partners, and
        the host) follow the queue's order instead, as docs/protocol.md promises."""
        plan = seat_plan(tickets, Ruleset.from_dict({"preset": preset}).sides)
        host = plan[0]
        assert host is not None
        room = await self._rooms.create(
            host.player_id,
            host.name,
            {"preset": preset, "house_rules": {}},
            target=None,
            public=False,
            turn_seconds=self._turn_seconds,
            rated=rated,
        )
        # Only accounts join a rated queue (``join``), so at a rated table everyone has one.
        for seat, ticket in enumerate(plan):
            if ticket is not None and ticket is not host:
                await room.sit(ticket.player_id, ticket.name, seat, account=rated)
        return room


def _status(ticket: Ticket, partner: Ticket | None, now: datetime) -> dict[str, Any]:
    """``partner``: the ticket of the friend the player asked to play with, if any."""
    ready = (
        partner is not None
        and partner.partner_id == ticket.player_id
        and (partner.preset, partner.rated) == (ticket.preset, ticket.rated)
    )
    # A pair waits as one, from the second one's request, as long as the shorter wait.
    unit = _Unit((ticket, partner) if ready and partner is not None else (ticket,))
    return {
        "state": "waiting" if ticket.room_code is None else "seated",
        "room": ticket.room_code,
        "preset": ticket.preset,
        "rated": ticket.rated,
        "wait_seconds": unit.wait_seconds,
        "waited": round(max(0.0, unit.waited(now)), 1),
        "partner": None
        if ticket.partner_id is None
        else {"id": ticket.partner_id, "name": None if partner is None else partner.name},
        "partner_ready": ready,
    }
