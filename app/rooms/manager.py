"""The registry of live rooms: creates them, finds them (loading from storage on demand) and
restores, at start-up, every room that was waiting or playing when the server stopped.

In a cluster (``Ownership`` with a node id) a room is served by the node holding its lease: the
manager claims a room before it loads it, renews its leases, takes over the rooms of nodes that
stopped renewing, and drops a room whose lease it lost (its clients reconnect elsewhere)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from app.rooms.config import checked
from app.rooms.errors import RoomElsewhere, RoomError, server_error
from app.rooms.ports import (
    BotPolicy,
    Ownership,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    ShuffleCommitted,
    Store,
    StoredRoom,
)
from app.rooms.room import FINISHED, WAITING, Room, RoomTimings, check_seat
from app.rooms.shuffle import new_seed
from app.rooms.suspensions import Suspension, Suspensions
from app.rooms.thinking import InlineBot
from app.tasks import stop_task

log = logging.getLogger(__name__)

CODE_BYTES = 12  # 96 random bits, written as 16 URL-safe characters
PUBLIC_LIST_SECONDS = 1.0  # how stale the public list may be (status changes show this late)


def new_code() -> str:
    """An invite code: unguessable (``secrets``), safe in a URL."""
    return secrets.token_urlsafe(CODE_BYTES)


def bot_for(level: str) -> BotPolicy:
    """A bot of ``level`` with its own generator (rooms never share a bot's randomness), deciding
    in the event loop; the server passes ``BotPool.policy`` instead, which sends strong bots to
    worker processes."""
    return InlineBot(level, random.Random(secrets.randbits(64)))


class PublicList:
    """The public rooms in memory, and the list of the open ones that ``GET /api/rooms`` pages.

    The list is a snapshot, taken again when a public room comes into memory or leaves it and
    otherwise at most every ``refresh_seconds`` (a room changes its status by itself). A flood of
    requests therefore costs one pass over the public rooms a second, not one a request, and a
    request costs the page it returns. Waiting rooms come first (they want players), then rooms
    being played; the most recently opened first in each.
    """

    def __init__(
        self,
        refresh_seconds: float = PUBLIC_LIST_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._refresh_seconds = refresh_seconds
        self._clock = clock
        self._rooms: dict[str, Room] = {}
        self._snapshot: list[Room] = []
        self._of_preset: dict[str, list[Room]] = {}  # the snapshot's rooms of each preset asked
        self._taken_at: float | None = None  # None: take it again at the next read

    def add(self, room: Room) -> None:
        if room.config.public:
            self._rooms[room.config.code] = room
            self._taken_at = None

    def discard(self, code: str) -> None:
        if self._rooms.pop(code, None) is not None:
            self._taken_at = None

    def clear(self) -> None:
        self._rooms.clear()
        self._taken_at = None

    def open_rooms(self, preset: str | None = None) -> list[Room]:
        """The snapshot, or its rooms of ``preset`` (not a copy: slice it, do not change it)."""
        now = self._clock()
        if self._taken_at is None or now - self._taken_at >= self._refresh_seconds:
            waiting: list[Room] = []
            playing: list[Room] = []
            for room in reversed(self._rooms.values()):
                if room.status == WAITING:
                    waiting.append(room)
                elif room.status != FINISHED:
                    playing.append(room)
            self._snapshot = waiting + playing
            self._of_preset = {}
            self._taken_at = now
        if preset is None:
            return self._snapshot
        if preset not in self._of_preset:  # once per snapshot: a request costs its page
            self._of_preset[preset] = [r for r in self._snapshot if r.ruleset.preset == preset]
        return self._of_preset[preset]


class SingleNode:
    """``Ownership`` of a server alone on its database (``app.db.lease`` keeps others out)."""

    node_id = ""

    async def claim(self, code: str) -> str | None:
        return None

    async def renew(self) -> list[str]:
        return []

    async def wait(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def take_over(self) -> list[str]:
        return []

    async def release(self, code: str) -> None:
        return None

    async def successors(self) -> list[str]:
        return []

    async def hand_over(self, moves: Mapping[str, str]) -> dict[str, str]:
        return {}

    async def close(self) -> None:
        return None

    def on_lost(self, callback: Callable[[str], None]) -> None:
        return None


class RoomManager:
    def __init__(
        self,
        store: Store,
        timings: RoomTimings,
        policy_factory: Callable[[str], BotPolicy] = bot_for,
        idle_seconds: float = 600.0,
        public: PublicList | None = None,
        on_match_end: Callable[[str], None] | None = None,
        ownership: Ownership | None = None,
        suspensions: Suspensions | None = None,
    ) -> None:
        self._ownership: Ownership = SingleNode() if ownership is None else ownership
        self._ownership.on_lost(self._lost)
        self._leaser: asyncio.Task[None] | None = None
        self._dropping: set[asyncio.Task[None]] = set()
        self._store = store
        self._timings = timings
        self._policy_factory = policy_factory
        self._idle_seconds = idle_seconds
        self._on_match_end = on_match_end  # told each finished match's id (ratings)
        self.suspensions = Suspensions() if suspensions is None else suspensions
        self._letting_go: set[asyncio.Task[None]] = set()
        self._rooms: dict[str, Room] = {}
        self._public = PublicList() if public is None else public
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    async def create(
        self,
        host_id: str,
        host_name: str,
        rules: dict[str, Any],
        *,
        target: int | None,
        public: bool,
        turn_seconds: float,
        bot_level: str = "basic",
        deal_pause_seconds: float | None = None,
        bots: tuple[int, ...] = (),
        host_seat: int | None = 0,
        rated: bool = False,
        accounts_only: bool = False,
    ) -> Room:
        """A new room, stored before it is returned; the host sits in ``host_seat``."""
        config, ruleset = checked(
            RoomConfig(
                code=new_code(),
                host_id=host_id,
                rules=rules,
                target=target,
                public=public,
                turn_seconds=turn_seconds,
                bot_level=bot_level,
                rated=rated,
                deal_pause_seconds=deal_pause_seconds,
                accounts_only=accounts_only,
            ),
            self._timings.max_turn_seconds,
        )
        seats = [SeatRecord() for _ in range(ruleset.seats)]
        for seat in bots:
            if not 0 <= seat < ruleset.seats or seat == host_seat:
                raise RoomError("bad_seat", f"Cannot put a bot in seat {seat}.")
            seats[seat] = SeatRecord(None, "Bot", True)
        if host_seat is not None:
            check_seat(host_seat, ruleset.seats)
            seats[host_seat] = SeatRecord(host_id, host_name, False)
        seed = new_seed()  # the first deal's: its commitment is public from the start
        try:
            await self._store.commit(
                config.code, 0, [RoomCreated(config, tuple(seats)), ShuffleCommitted(seed)]
            )
        except Exception as error:
            log.error("room %s could not be stored", config.code, exc_info=error)
            raise server_error() from error
        room = Room(
            config, self._store, self._policy_factory, self._timings, seats=seats, next_seed=seed
        )
        self._adopt(room)
        return room

    def _adopt(self, room: Room) -> None:
        """Serve ``room`` from now on: listed if it is public, told whom to tell of its news."""
        room.on_match_end = lambda match_id: self._match_ended(room, match_id)
        room.on_publicity_change = self._publicity_changed
        room.suspended = self.suspensions.holds
        self._rooms[room.config.code] = room
        self._public.add(room)
        room.start()
        # Stored before the suspension came, or while the room was away: let them go now.
        self._let_go_suspended(room)

    def _publicity_changed(self, room: Room) -> None:
        """The host made the room public or private: list it, or not, from now on (as newly
        opened, if public)."""
        self._public.discard(room.config.code)
        self._public.add(room)

    @property
    def node_id(self) -> str:
        return self._ownership.node_id

    async def get(self, code: str) -> Room | None:
        """The live room with this code, loading it from storage if it is not in memory;
        ``RoomElsewhere`` if another node of the cluster serves it."""
        return await self._open(code, claim=True)

    async def watched_code(self, watch: str) -> str | None:
        """The code of the room whose watch code is ``watch`` (app/rooms/watching.py)."""
        return await self._store.code_watched_by(watch)

    async def get_watched(self, watch: str) -> Room | None:
        """The live room whose watch code is ``watch``, as ``get``."""
        code = await self.watched_code(watch)
        return None if code is None else await self.get(code)

    async def rename_player(self, player_id: str, name: str) -> None:
        """Show a renamed player's new name at their seat in every room this node holds
        (``Room.rename``). A room being loaded may have read the old name: it is waited for. A
        room that cannot take it now (put away, or its store failing) is passed over: a room
        put away is read again with the new name, and a cluster's nodes tell their rooms again
        (``app.db.player_news``)."""
        if self._loading:
            await asyncio.wait(list(self._loading.values()))  # never cancels the loads
        for room in list(self._rooms.values()):
            seat = room.seat_of(player_id)
            if seat is None or room.seats[seat].name == name:
                continue
            try:
                await room.rename(player_id, name)
            except Exception:
                log.exception("room %s: the seat of a renamed player", room.config.code)

    def _match_ended(self, room: Room, match_id: str) -> None:
        """A finished match (stored) is rated; a suspended player it kept seated goes now."""
        if self._on_match_end is not None:
            self._on_match_end(match_id)
        self._let_go_suspended(room)

    def _let_go_suspended(self, room: Room) -> None:
        """Let every suspended player go from ``room`` (``Room.let_go``), in tasks of their own:
        told from inside the room's actor or while it is being handed out."""
        for player_id in {r.player_id for r in room.seats} | {room.config.host_id}:
            if player_id is not None and self.suspensions.holds(player_id):
                task = asyncio.create_task(self._let_go(room, player_id))
                self._letting_go.add(task)
                task.add_done_callback(self._letting_go.discard)

    async def suspend_player(self, player_id: str, suspension: Suspension | None) -> None:
        """The operator suspended the player (``suspension``) or lifted it (None). While it
        holds they may watch, not play (``Room.suspended``): every room this node holds lets
        them go (``Room.let_go``: the seat between matches, at once; during one, when it
        ends) and hands the tables they host to another player there."""
        if not self.suspensions.set(player_id, suspension):
            return
        if self._loading:
            await asyncio.wait(list(self._loading.values()))  # never cancels the loads
        for room in list(self._rooms.values()):
            await self._let_go(room, player_id)

    async def _let_go(self, room: Room, player_id: str) -> None:
        """``Room.let_go``; a room that cannot (put away, its store failing) is passed over:
        the player still may not play there, and the host may remove them."""
        if room.seat_of(player_id) is None and room.config.host_id != player_id:
            return
        try:
            await room.let_go(player_id)
        except Exception:
            log.exception("room %s: letting a suspended player go", room.config.code)

    def forget_player(self, player_id: str) -> None:
        """Stop naming an erased account in every room this node holds (``Room.forget_player``);
        a room another node holds reads the scrubbed storage when it is next loaded."""
        for room in self._rooms.values():
            room.forget_player(player_id)

    async def look(self, code: str) -> Room | None:
        """The room as a listing shows it: the live one if this node serves it (or may take
        it); if another node serves it, a copy restored from storage and never started (it
        plays nothing and writes nothing; who is connected is the owner's to know, so its
        seats show nobody). A player's rooms are on any nodes: redirecting the listing to the
        owner of one of them would only move the question to the next."""
        try:
            return await self.get(code)
        except RoomElsewhere:
            stored = await self._store.load_room(code)
        if stored is None:
            return None
        return Room.restore(stored, self._store, self._policy_factory, self._timings)

    async def _open(
        self,
        code: str,
        *,
        claim: bool,
        loaded: asyncio.Future[dict[str, StoredRoom]] | None = None,
    ) -> Room | None:
        """``get``; ``claim``: the lease is still to be claimed (not by a take-over);
        ``loaded``: the room is read with others (a take-over's batch), not on its own."""
        room = self._rooms.get(code)
        if room is not None:
            room.touch()
            return room
        pending = self._loading.get(code)
        if pending is not None:
            return await pending
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code, claim, loaded)
            future.set_result(room)
        except RoomElsewhere as elsewhere:
            future.set_exception(elsewhere)
            future.exception()
            raise
        except Exception as error:
            log.error("room %s could not be loaded", code, exc_info=error)
            failure = server_error()  # the cause (SQL, stored values) is for the log only
            future.set_exception(failure)
            future.exception()  # retrieved: nobody else may be waiting
            raise failure from error
        except BaseException as error:
            future.set_exception(error)
            raise
        finally:
            del self._loading[code]
        return room

    async def _load(
        self, code: str, claim: bool, loaded: asyncio.Future[dict[str, StoredRoom]] | None
    ) -> Room | None:
        owner = await self._ownership.claim(code) if claim else None
        if owner is not None:
            raise RoomElsewhere(owner)
        if loaded is None:
            stored = await self._store.load_room(code)
        else:
            stored = (await loaded).get(code)
        if stored is None:
            return None
        room = Room.restore(stored, self._store, self._policy_factory, self._timings)
        self._adopt(room)
        return room

    async def restore_all(self) -> int:
        """Bring back every room that was being played, and the rooms waiting for players that
        someone used within ``idle_seconds``; returns how many. Older waiting rooms stay in
        storage until someone opens them: years of abandoned rooms must not slow a start.
        A node of a cluster takes over only the rooms nobody holds (``keep_leases``)."""
        if self._ownership.node_id:
            return len(await self._take_over())
        since = datetime.now(UTC) - timedelta(seconds=self._idle_seconds)
        codes = await self._store.active_room_codes(waiting_since=since)
        for code in codes:
            with contextlib.suppress(RoomError):  # logged by get; it loads when someone opens it
                await self.get(code)
        return len(codes)

    def keep_leases(self, renew_seconds: float) -> None:
        """Every ``renew_seconds``: renew this node's leases, drop the rooms it lost, and take
        over rooms whose owner stopped renewing (a cluster's node only)."""
        if self._ownership.node_id:
            self._leaser = asyncio.create_task(self._lease_loop(renew_seconds), name="leases")

    async def _lease_loop(self, renew_seconds: float) -> None:
        failures = 0  # in a row: the database is down or out of reach; one traceback per streak
        renewed = time.monotonic()
        while True:
            # A period after the last renewal: a take-over that took most of it (or all of
            # it) does not add a whole period of idling before the next batch.
            await self._ownership.wait(max(0.0, renewed + renew_seconds - time.monotonic()))
            try:
                renewed = time.monotonic()
                for code in await self._ownership.renew():
                    await self.drop(code)
                # A dead node's rooms come a batch at a time: while batches come, take the next
                # at once rather than a renewal later, until the next renewal is due.
                while await self._take_over() and time.monotonic() - renewed < renew_seconds:
                    pass
            except Exception as error:
                failures += 1
                if failures == 1:
                    log.exception("renewing or taking over room leases failed")
                else:
                    log.warning("renewing leases failed again (%d in a row): %r", failures, error)
            else:
                if failures:
                    log.info("renewing leases works again after %d failures", failures)
                failures = 0

    async def _take_over(self) -> list[str]:
        """Claim a batch of free rooms and restore them. The batch is read from the store at
        once (``load_rooms``: a handful of queries for the whole batch) rather than room by
        room; each room then goes through ``_open``, so that a client asking for one of them
        meanwhile waits for it rather than claiming it again."""
        codes = await self._ownership.take_over()
        if not codes:
            return codes
        loaded = asyncio.ensure_future(self._store.load_rooms(codes))

        async def restore(code: str) -> None:
            with contextlib.suppress(RoomError):  # logged by _open
                await self._open(code, claim=False, loaded=loaded)

        await asyncio.gather(*(restore(code) for code in codes))
        with contextlib.suppress(Exception):  # retrieved: each room logged the failure
            await loaded
        log.info("node %s took over %d rooms", self._ownership.node_id, len(codes))
        return codes

    def _lost(self, code: str) -> None:
        """The store refused a write of this room: another node owns it now."""
        log.warning(
            "room %s: node %s lost its lease, the write was refused and the room is dropped "
            "(its clients reconnect to the new owner)",
            code,
            self._ownership.node_id,
        )
        task = asyncio.get_running_loop().create_task(self.drop(code))
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def drop(self, code: str) -> None:
        """Forget a room another node owns now; its clients are told to reconnect."""
        room = self._rooms.pop(code, None)
        self._public.discard(code)
        if room is not None:
            log.info("room %s moved to another node", code)
            await room.stop(moved=True)

    def public_rooms(
        self, offset: int = 0, limit: int | None = None, preset: str | None = None
    ) -> list[Room]:
        """Public rooms waiting or being played (``PublicList``), ``limit`` from ``offset``;
        of ``preset`` only, if given."""
        rooms = self._public.open_rooms(preset)
        return rooms[offset:] if limit is None else rooms[offset : offset + limit]

    def public_count(self, preset: str | None = None) -> int:
        """How many rooms ``public_rooms`` lists in all."""
        return len(self._public.open_rooms(preset))

    def start_sweeping(self) -> None:
        """Put idle rooms away every so often (see ``evict_idle``)."""
        self._sweeper = asyncio.create_task(self._sweep(), name="room-sweeper")

    async def _sweep(self) -> None:
        interval = min(60.0, self._idle_seconds / 4)
        while True:
            await asyncio.sleep(interval)
            try:
                await self.evict_idle()
            except Exception:
                log.exception("putting idle rooms away failed")

    async def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop from memory the rooms nobody has used for ``idle_seconds``; returns their codes.

        Without this a long-running server would keep every room ever opened, with its event
        backlog and finished deals. Nothing is lost: every accepted action is already stored,
        and ``get`` loads a room back on demand exactly as a restart restores it (a reconnecting
        client then gets a snapshot). A room is idle only with nobody connected and nothing
        queued; a room whose bots or clocks are still playing keeps itself awake.
        """
        now = time.monotonic() if now is None else now
        idle = []
        for code in [c for c, r in self._rooms.items() if r.idle_for(now) >= self._idle_seconds]:
            room = self._rooms.get(code)  # checked again: stopping the previous one awaited
            if room is None or room.idle_for(now) < self._idle_seconds:
                continue
            del self._rooms[code]
            self._public.discard(code)
            idle.append(code)
            await room.stop()
            await self._ownership.release(code)
        if idle:
            log.info("put %d idle rooms away; %d stay in memory", len(idle), len(self._rooms))
        return idle

    def held_codes(self) -> list[str]:
        """The codes of the rooms in this node's memory (``app.db.retention`` spares them)."""
        return list(self._rooms)

    def census(self) -> tuple[dict[str, int], int]:
        """Rooms in memory by status, and the connections to them (for ``/metrics``)."""
        rooms: dict[str, int] = {}
        connections = 0
        for room in self._rooms.values():
            rooms[room.status] = rooms.get(room.status, 0) + 1
            connections += room.subscriber_count
        return rooms, connections

    def __contains__(self, code: str) -> bool:
        """Whether the room is in memory now (it may still exist in storage)."""
        return code in self._rooms

    async def close(self) -> None:
        """Stop every room. A cluster's node then hands each room to one of the live nodes
        (in turn) and tells the room's clients which one, so that they reconnect to it
        directly; the rooms it could not hand over are free for the others at once, and their
        clients reconnect through the proxy."""
        for task in (self._sweeper, self._leaser, *self._letting_go):
            await stop_task(task)  # a suspended player let go by the room's next server
        self._sweeper = self._leaser = None
        rooms = dict(self._rooms)
        self._rooms.clear()
        self._public.clear()
        for room in rooms.values():
            await room.stop()  # its last commits are stored (or refused) before it moves
        if not self._ownership.node_id:
            return
        moved: dict[str, str] = {}
        try:
            nodes = await self._ownership.successors()
            codes = sorted(rooms)
            moves = {code: nodes[i % len(nodes)] for i, code in enumerate(codes)} if nodes else {}
            moved = await self._ownership.hand_over(moves)
        except Exception:  # the leases then expire by themselves
            log.exception("handing the rooms over failed")
        for code, room in rooms.items():
            await room.stop(moved=True, to=moved.get(code, ""))
        if moved:
            log.info("handed %d rooms to %d nodes", len(moved), len(set(moved.values())))
        await self._ownership.close()
