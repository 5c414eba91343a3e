"""One room: an actor that owns a table's seats, match, deal, clock and subscribers.

Every command is queued and run by a single task, one at a time, so the room's state needs no
locks and no two commands interleave. A command that changes anything follows the same order:
compute the new state and its events without touching the current one, commit the writes
(``Store.commit``, which returns once they are durable), then swap the state in and send the
events. A failed rule check or a failed commit therefore changes nothing, and no client ever
sees an event that a restart could lose.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from app.rooms import phrases, suspensions
from app.rooms.config import changed, checked
from app.rooms.errors import LeaseLost, RoomError, server_error
from app.rooms.events import WATCHER, Backlog, Event, Viewer, deal_view, encode
from app.rooms.ports import (
    ActionTaken,
    Allowance,
    AwayChanged,
    BotPolicy,
    ChatPosted,
    DealFinished,
    DealStarted,
    HostChanged,
    MatchProgress,
    MatchStarted,
    Op,
    RemovedChanged,
    RoomConfig,
    SeatRecord,
    SeatRenamed,
    SeatsChanged,
    SettingsChanged,
    ShuffleCommitted,
    StandinsChanged,
    StatusChanged,
    Store,
    StoredChat,
    StoredRoom,
    Subscriber,
    TableVotes,
    VotesChanged,
)
from app.rooms.shuffle import Contribution, DrawnDeck, commitment, draw_deck, new_seed
from app.rooms.watching import watch_code, watched
from app.rules import (
    Action,
    BadRecord,
    Card,
    DealState,
    MatchState,
    Phase,
    RuleError,
    Ruleset,
    SeatView,
    Tally,
    action_from_dict,
    action_to_dict,
    apply,
    forced_last_card,
    legal_actions,
    new_match,
    record_deal,
    tally_deal,
    view,
)
from app.tasks import stop_task

log = logging.getLogger(__name__)

T = TypeVar("T")
Reply = Callable[[int], None]
"""Told a command's result (the room's version) inside the actor: ``Room._call``."""
CommandId = str | int
"""A client's id for a command, a string or an integer: ``7`` and ``"7"`` are two ids."""
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"

RESUMED_TURN_SECONDS = 5.0
"""The least a person's turn clock has left when a restored room resumes it: one whose time ran
out while the room was away (a restart, a node's failure) could not act meanwhile."""

MOST_REMOVED = 100
"""The players a room keeps out at most: a host removing strangers all day does not grow its
stored list (written whole with each removal) without end; the earliest removed may sit again."""


# A queued command: what to run, the future its caller awaits, the reply it asked for.
_Queued = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any]", Callable[[Any], None] | None]


@dataclass(frozen=True, slots=True)
class RoomTimings:
    """The room-side knobs of ``app.settings.Settings``."""

    grace_seconds: float = 60.0
    bot_delay_seconds: float = 0.6
    last_card_seconds: float = 0.8  # a player's forced last card plays itself after this
    deal_pause_seconds: float = 0.0
    event_backlog: int = 256
    chat_max_chars: int = 300
    chat_history: int = 50
    retry_seconds: float = 0.5  # a timed step that failed waits this long before it tries again,
    retry_max_seconds: float = 30.0  # doubling with each failure in a row, up to this
    max_turn_seconds: float = 600.0  # the longest turn timer a room may have
    watchers_seconds: float = 2.0
    """How long after someone comes to watch, or goes, the table is told how many watch (ROOM's
    ``watchers``). Waiting bounds the cost: sockets opened and closed in a stream cost one ROOM,
    and one stored version, per this many seconds, whatever their number."""


@dataclass(slots=True)
class _Timer:
    handle: asyncio.TimerHandle
    deadline: float  # wall clock, seconds since the epoch


@dataclass(slots=True)
class _Match:
    match_id: str
    state: MatchState
    number: int = 0  # number of the current (or last) deal, from 1
    deal: DealState | None = None
    shuffle: DrawnDeck | None = None  # how the current deal's deck was drawn
    finished_deals: list[DealState] = field(default_factory=list)
    auto: frozenset[int] = frozenset()  # the current deal's actions the server made, by seq
    seats: tuple[SeatRecord, ...] = ()  # who played each seat: the teams, whoever sits now


class Room:
    """A room actor. Create with ``Room.new`` or ``Room.restore``, then ``start()``."""

    def __init__(
        self,
        config: RoomConfig,
        store: Store,
        policies: Callable[[str], BotPolicy],
        timings: RoomTimings,
        *,
        status: str = WAITING,
        version: int = 0,
        seats: Sequence[SeatRecord] = (),
        next_seed: str | None = None,
    ) -> None:
        self.config = config
        self.ruleset = Ruleset.from_dict(config.rules)
        self._store = store
        self._policies = policies  # the bots of each level (``config.bot_level`` may change)
        self._policy = policies(config.bot_level)
        self._timings = timings
        self.status = status
        self.version = version
        self.game_version = version  # version of the last event that changed the deal
        self.seats: list[SeatRecord] = list(seats) or [
            SeatRecord() for _ in range(self.ruleset.seats)
        ]
        self.match: _Match | None = None
        self.chat: list[dict[str, Any]] = []
        self.rematch_votes: set[int] = set()
        self.next_deal_votes: set[int] = set()  # seats that asked to end the pause after a deal
        self.standins: set[int] = set()  # human seats a bot plays for while they are away
        self.concede_votes: set[int] = set()  # seats that offered to concede the match
        self.conceded: int | None = None  # the team that conceded the current (last) match
        # The players the host removed (id: the name they sat under), the earliest first: they
        # may watch, not sit.
        self.removed: dict[str, str | None] = {}
        self.watch_code = watch_code(config.code)
        self._subscribers: dict[Subscriber, bool] = {}  # each with whether it came to watch
        self._backlog = Backlog(timings.event_backlog)
        self._recent_ids: dict[str, OrderedDict[CommandId, None]] = {}
        self._queue: asyncio.Queue[_Queued] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.closed = False  # stopped for good: this object is done, the room lives on in storage
        self.last_active = time.monotonic()  # when a command last ran or the room was handed out
        self._turn_timer: _Timer | None = None
        self._turn_gen = 0  # bumped whenever the turn clock is re-armed: stale firings are ignored
        self._away_timers: dict[int, _Timer] = {}
        # When each seat's player left the table during a match, as stored (``AwayChanged``):
        # a restored room's grace period goes on from then.
        self._away_since: dict[int, float] = {}
        self._next_deal_timer: _Timer | None = None
        self._watchers_timer: _Timer | None = None
        self._watchers_told = 0  # as the last ROOM sent said (``watchers_seconds``)
        # A restored room's clocks count from when its match last moved (``StoredMatch``),
        # until ``start`` has armed them; None for a new room, and from then on.
        self._moved_at: float | None = None
        # The next deal's server seed (its commitment is public) and the entropy seated
        # players sent for it, by player: mixed in when that deal is drawn (app.rooms.shuffle).
        self._next_seed = next_seed
        self._entropy: dict[str, str] = {}
        self._failures = 0  # commands that failed in a row (storage down): backoff, quiet logs
        self.on_match_end: Callable[[str], None] | None = None
        """Told the id of each match this room finishes, once it is stored (ratings)."""
        self.on_publicity_change: Callable[[Room], None] | None = None
        """Told of the room when the host made it public or private, once stored (the lobby)."""
        self.suspended: Callable[[str], bool] = _nobody
        """Whether the operator suspended a player (``app.rooms.suspensions``): they may watch,
        not sit, start, ask for a rematch or write in the chat."""

    # ---- life cycle ---------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        stored: StoredRoom,
        store: Store,
        policies: Callable[[str], BotPolicy],
        timings: RoomTimings,
    ) -> Room:
        """Rebuild a room from storage by replaying its action log through the engine."""
        room = cls(
            stored.config,
            store,
            policies,
            timings,
            status=stored.status,
            version=stored.version,
            seats=stored.seats,
            next_seed=stored.next_seed,
        )
        room.chat = [_chat_dict(c) for c in stored.chat]
        for line in stored.chat:  # oldest first, as they were said
            room._remember(line.player_id, line.command_id)
        if stored.status == PLAYING:  # a match's: those of a match over are stale
            room.standins = set(stored.standins)
        room._away_since = dict(stored.away)
        room.removed = dict(stored.removed)
        if stored.match is not None:
            ruleset = Ruleset.from_dict(stored.match.rules)
            state = new_match(ruleset, stored.match.first_dealer, stored.match.target)
            match = _Match(stored.match.match_id, state, seats=stored.match.seats)
            for deal in stored.match.deals:
                deal_state = match.state.start_deal([Card.parse(c) for c in deal.deck])
                for action in deal.actions:
                    deal_state = apply(deal_state, action_from_dict(action))
                match.number = deal.number
                if deal.finished:
                    match.state = record_deal(match.state, deal_state)
                    match.finished_deals.append(deal_state)
                # A finished room's unfinished deal is the one its match was conceded in: dropped.
                elif stored.status != FINISHED:
                    match.deal = deal_state
                    match.auto = deal.auto
                    match.shuffle = DrawnDeck(
                        deal.seed,
                        deal.cut,
                        tuple(deal_state.deck),
                        tuple(Contribution.from_dict(c) for c in deal.contributions),
                        deal.commitment,
                    )
            room.match = match
            room.conceded = stored.match.conceded
            room._moved_at = stored.match.moved_at
            room._restore_votes(stored.votes)
        return room

    def _restore_votes(self, votes: TableVotes | None) -> None:
        """Count again the stored votes that still stand: a rematch after the match they were
        cast at, offers to concede during it, and asks for the next deal in the pause after the
        deal they were cast at."""
        match = self.match
        if votes is None or match is None or votes.match_id != match.match_id:
            return
        if self.status == FINISHED:
            self.rematch_votes = set(votes.rematch)
        elif self.status == PLAYING:
            self.concede_votes = set(votes.concede)
            if match.deal is None and votes.deal == match.number:
                self.next_deal_votes = set(votes.ready)

    def start(self) -> None:
        """Run the actor; a restored room resumes its clocks (turn, away players, next deal)."""
        self._task = asyncio.create_task(self._run(), name=f"room-{self.config.code}")
        if self._next_seed is None:
            self._post(self._commit_next_seed)  # a room stored before commitments existed
        if self.status == PLAYING:
            for seat, record in enumerate(self.seats):
                if record.player_id is not None and not self._connected(seat):
                    self._start_away_timer(seat, self._grace_left(seat))
            match = self.match
            if match is not None and match.deal is None and not match.state.finished:
                ready = set(self.next_deal_votes)  # restored; a pause starts with none
                pause = self._clock_left(self._deal_pause()) if match.finished_deals else 0.0
                self._schedule_next_deal(pause)
                self.next_deal_votes = ready
            self._schedule_turn()
        self._moved_at = None

    def _clock_left(self, full: float, least: float = 0.0) -> float:
        """What is left of a clock of ``full`` seconds that a restored room resumes (it ran from
        when the match last moved), but at least ``least``; ``full`` for any other room."""
        if self._moved_at is None:
            return full
        return max(least, min(full, self._moved_at + full - time.time()))

    def _grace_left(self, seat: int) -> float:
        """What is left of the grace period of a seat's player who left the table at the
        stored time (a full one if none is stored: they were here when the room was last)."""
        full = self._timings.grace_seconds
        since = self._away_since.get(seat)
        return full if since is None else max(0.0, min(full, since + full - time.time()))

    async def stop(self, *, moved: bool = False, to: str = "") -> None:
        """Stop the actor and its clocks. ``moved``: the room now lives on another node (its
        lease was lost or handed over), and every client is told to reconnect to it (``to``,
        if this node knows which)."""
        for timer in self._all_timers():
            timer.handle.cancel()
        self.closed = True  # from here on, commands are refused
        task, self._task = self._task, None
        await stop_task(task)
        while not self._queue.empty():  # queued too late: refused, or their callers would hang
            _command, future, _reply = self._queue.get_nowait()
            if not future.done():
                future.set_exception(_closed())
        if moved:
            for subscriber in list(self._subscribers):
                subscriber.moved(to)

    def touch(self) -> None:
        """Someone is about to use the room: it is not idle."""
        self.last_active = time.monotonic()

    def idle_for(self, now: float) -> float:
        """How long nobody has watched, played in or asked anything of the room (0 if now)."""
        if self._subscribers or not self._queue.empty():
            return 0.0
        return max(0.0, now - self.last_active)

    async def _run(self) -> None:
        while True:
            command, future, reply = await self._queue.get()
            self.touch()
            if future.cancelled():
                continue
            try:
                result = await command()
            except asyncio.CancelledError:  # stopped under it (``stop``): answered, not hung
                if not future.done():
                    future.set_exception(_closed())
                raise
            except RoomError as error:
                if not future.done():
                    future.set_exception(error)
            except Exception as error:
                self._failed(error)
                if not future.done():
                    future.set_exception(server_error())
            else:
                if not future.done():
                    if reply is not None:
                        try:
                            reply(result)
                        except Exception as error:  # the transport's; the actor must go on
                            log.error("a command's reply failed", exc_info=error)
                    future.set_result(result)

    async def _call(
        self, command: Callable[[], Awaitable[T]], reply: Callable[[T], None] | None = None
    ) -> T:
        """Run ``command`` in the actor and return its result. ``reply``, if given, is told the
        result inside the actor, right after the command's events were sent and before the
        caller resumes: a transport's ack then goes out in the same write as those events,
        where the caller, woken a turn of the event loop later, would have needed its own."""
        if self.closed:
            raise _closed()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future, reply))
        return await future

    def _post(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Queue a command nobody waits for (timers); its errors are logged, not raised."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_log_failure)
        self._queue.put_nowait((command, future, None))

    def _post_retrying(
        self, step: Callable[[], Awaitable[None]], rearm: Callable[[float], None]
    ) -> None:
        """Queue a timer's step, to be armed again by ``rearm`` if it fails (``_retrying``)."""
        self._post(lambda: self._retrying(step, rearm))

    async def _retrying(
        self, step: Callable[[], Awaitable[None]], rearm: Callable[[float], None]
    ) -> None:
        """Run a step that no client waits for; if it fails, arm it again after a backoff.

        Timed steps (the next deal, a bot's move, the turn clock, a stand-in) are what moves a
        room when nobody asks: one that failed for good, say while the database was locked,
        would leave the room waiting for ever. A failed step changed nothing (it commits before
        it swaps its state in), so running it again cannot apply anything twice.
        """
        try:
            await step()
        except Exception as error:
            rearm(self._failed(error))

    def _failed(self, error: Exception) -> float:
        """Log a failed command and return how long a timed step waits before it tries again.

        The traceback is logged once per streak of failures: an outage of the database fails
        every command of every room, and one traceback per action would bury the log.
        """
        if isinstance(error, LeaseLost):  # the manager says so and drops the room
            return self._timings.retry_max_seconds
        self._failures += 1
        if self._failures == 1:
            log.error("room %s: a command failed", self.config.code, exc_info=error)
        else:
            log.warning(
                "room %s: failed again (%d in a row): %s",
                self.config.code,
                self._failures,
                type(error).__name__,
            )
        backoff = self._timings.retry_seconds * 2.0 ** min(self._failures - 1, 16)
        return min(self._timings.retry_max_seconds, backoff)

    # ---- public commands (each runs inside the actor) ------------------------------------

    async def connect(
        self, subscriber: Subscriber, last_version: int | None, *, watch_only: bool = False
    ) -> None:
        """Send the room to ``subscriber`` from now on; ``watch_only``: it came by the watch
        code (app/rooms/watching.py), so what it is sent names the room by that code."""
        await self._call(lambda: self._connect(subscriber, last_version, watch_only))

    async def disconnect(self, subscriber: Subscriber) -> None:
        await self._call(lambda: self._disconnect(subscriber))

    async def act(
        self,
        player_id: str,
        command_id: CommandId | None,
        base_version: int | None,
        data: dict[str, Any],
        *,
        reply: Reply | None = None,
    ) -> int:
        return await self._call(lambda: self._act(player_id, command_id, base_version, data), reply)

    async def say(
        self,
        player_id: str,
        name: str,
        command_id: CommandId | None,
        text: str,
        *,
        phrase: str | None = None,
        reply: Reply | None = None,
        allowed: Allowance | None = None,
    ) -> int:
        """A typed line (``text``), or a quick phrase by its name (``phrase``, ``text``
        unused: ``app.rooms.phrases``). ``allowed``: taken once the line would be stored (the
        chat's rate limits), so that a line refused for any other reason spends nobody's
        allowance, and given back if it could not be stored."""
        return await self._call(
            lambda: self._say(player_id, name, command_id, text, allowed, phrase), reply
        )

    async def sit(
        self,
        player_id: str,
        name: str,
        seat: int,
        command_id: CommandId | None = None,
        *,
        account: bool = False,
        reply: Reply | None = None,
    ) -> int:
        """Take ``seat`` before the match; ``account``: the player has one (``Player``), which
        a rated room asks of everyone who sits in it."""
        return await self._call(
            lambda: self._sit(player_id, name, seat, command_id, account), reply
        )

    async def leave(
        self, player_id: str, command_id: CommandId | None = None, *, reply: Reply | None = None
    ) -> int:
        return await self._call(lambda: self._leave(player_id, command_id), reply)

    async def remove(
        self,
        player_id: str,
        seat: int,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        """Host only, between matches: empty ``seat`` of its player, who may not sit here again."""
        return await self._call(lambda: self._remove(player_id, seat, command_id), reply)

    async def configure(
        self,
        player_id: str,
        changes: Mapping[str, Any],
        command_id: CommandId | None = None,
        *,
        account: bool = False,
        reply: Reply | None = None,
    ) -> int:
        """Host only, between matches: change the settings ``changes`` names (app.rooms.config,
        ``CHANGEABLE``); ``account``: the host has one, which keeping the table for accounts
        asks of them."""
        return await self._call(
            lambda: self._configure(player_id, changes, command_id, account), reply
        )

    async def rename(self, player_id: str, name: str) -> int:
        """The player was renamed, by themselves or the operator (``Players.rename``, which
        stored it at every seat of theirs already): their seat here shows ``name``
        from now on, to everyone at once. The match being played and those played keep the
        names they began with (``match_seats``, their records); chat lines the names they were
        written under."""
        return await self._call(lambda: self._rename(player_id, name))

    async def let_go(self, player_id: str) -> None:
        """The player leaves this table for good (erased) or for now (suspended): if they host
        it, it goes to the first other person at the table (only the host may change the
        settings or remove a player); between matches they stand up. During a match they
        keep their seat (``RoomManager`` lets them go once it ends)."""
        if self.config.host_id == player_id:
            heirs = [s for s, r in enumerate(self.seats) if r.player_id not in (None, player_id)]
            if heirs:
                await self.hand_over(player_id, heirs[0])
        if self.status != PLAYING and self.seat_of(player_id) is not None:
            await self.leave(player_id)

    async def readmit(
        self,
        player_id: str,
        removed: str,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        """Host only: the removed player ``removed`` may sit here again."""
        return await self._call(lambda: self._readmit(player_id, removed, command_id), reply)

    async def hand_over(
        self,
        player_id: str,
        seat: int,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        """Host only: the player in ``seat`` hosts the room from now on."""
        return await self._call(lambda: self._hand_over(player_id, seat, command_id), reply)

    async def set_bot(
        self,
        player_id: str,
        seat: int,
        bot: bool,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        return await self._call(lambda: self._set_bot(player_id, seat, bot, command_id), reply)

    async def begin(
        self,
        player_id: str,
        fill_with_bots: bool,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        return await self._call(lambda: self._begin(player_id, fill_with_bots, command_id), reply)

    async def rematch(
        self, player_id: str, command_id: CommandId | None = None, *, reply: Reply | None = None
    ) -> int:
        return await self._call(lambda: self._rematch(player_id, command_id), reply)

    async def contribute(
        self, player_id: str, for_commitment: str, entropy: str, *, reply: Reply | None = None
    ) -> int:
        return await self._call(lambda: self._contribute(player_id, for_commitment, entropy), reply)

    async def next_deal(
        self, player_id: str, command_id: CommandId | None = None, *, reply: Reply | None = None
    ) -> int:
        return await self._call(lambda: self._next_deal(player_id, command_id), reply)

    async def concede(
        self,
        player_id: str,
        on: bool = True,
        command_id: CommandId | None = None,
        *,
        reply: Reply | None = None,
    ) -> int:
        return await self._call(lambda: self._concede(player_id, on, command_id), reply)

    # ---- reading (safe outside the actor: it only reads) ----------------------------------

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    def forget_player(self, player_id: str) -> None:
        """An erased account (``Accounts.erase``, which scrubbed storage) is no longer named by
        what this room serves from now on: its seat in the last match and its place among those
        removed go nameless, and its chat lines go. Clients keep what they were already sent.
        In memory only, nothing to store: storage is already scrubbed, so a restored room
        agrees."""
        if self.match is not None:
            self.match.seats = tuple(
                replace(record, name=None) if record.player_id == player_id else record
                for record in self.match.seats
            )
        self.chat = [line for line in self.chat if line["player"] != player_id]
        if player_id in self.removed:
            self.removed[player_id] = None

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, record in enumerate(self.seats):
            if record.player_id == player_id:
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        """What anyone may know about the room: settings, seats, presence, status."""
        return {
            "code": self.config.code,
            "watch_code": self.watch_code,
            "watch_only": False,
            "rules": self.ruleset.to_dict(),
            "target": self._target(),
            "public": self.config.public,
            "turn_seconds": self.config.turn_seconds,
            "bot_level": self.config.bot_level,
            "rated": self.config.rated,
            "accounts_only": self.config.accounts_only,
            "watchers": self._watchers(),
            "deal_pause_seconds": self._deal_pause(),
            "next_deal": self._next_deal_info(),
            "host": self.config.host_id,
            "host_here": self._host_here(),
            "status": self.status,
            "match_id": None if self.match is None else self.match.match_id,
            "seats": [
                {
                    **played,
                    "connected": record.bot or self._connected(seat),
                    "standin": seat in self.standins,
                }
                for seat, (record, played) in enumerate(
                    zip(self.seats, _seat_list(self.seats), strict=True)
                )
            ],
            "rematch": sorted(self.rematch_votes),
            "concede": sorted(self.concede_votes),
            "conceded": self.conceded,
            "removed": [{"id": pid, "name": name} for pid, name in self.removed.items()],
            "match_seats": None if self.match is None else _seat_list(self.match.seats),
        }

    def snapshot(self, seat: Viewer, player_id: str | None) -> dict[str, Any]:
        """The full picture for one recipient, as of ``self.version`` (``WATCHER``: for one who
        came by the watch code, a spectator who knows the room by that code alone)."""
        match = self.match
        deal = None if match is None else match.deal
        summary = self.summary()
        if seat == WATCHER:
            seat, summary = None, watched(summary)
        return {
            "room": summary,
            "you": {"player_id": player_id, "seat": seat},
            "scoresheet": None if match is None else match.state.to_dict(),
            "number": None if match is None else match.number,
            "deal": None if match is None or deal is None else deal_view(deal, seat, match.auto),
            "last_deal": self._paused_result(),
            "shuffle": _shuffle_view(None if match is None else match.shuffle, self._next_seed),
            "turn": self._turn_info(),
            "chat": list(self.chat),
            "now": int(time.time() * 1000),  # so a client can read deadlines despite its clock
        }

    # ---- connections ------------------------------------------------------------------

    def _connected(self, seat: int) -> bool:
        player_id = self.seats[seat].player_id
        return player_id is not None and any(s.player_id == player_id for s in self._subscribers)

    async def _connect(
        self, subscriber: Subscriber, last_version: int | None, watch_only: bool = False
    ) -> None:
        """Subscribe, catch the client up, and tell the table that a player is back.

        If that news cannot be stored the connect fails as a whole: the subscriber is dropped
        again, and the seat keeps its stand-in and away clock. A subscriber left behind by a
        failed hello would be a ghost: nobody disconnects it, so the seat would look taken for
        ever, no stand-in would come, and the room would never be idle.
        """
        seat = self.seat_of(subscriber.player_id)
        was_connected = seat is not None and self._connected(seat)
        host_was_here = self._host_here()
        standins = set(self.standins)
        self._subscribers[subscriber] = watch_only
        try:
            self._catch_up(subscriber, WATCHER if watch_only else seat, last_version)
            # Back: from away, or after leaving the match on another of the player's sockets
            # (which left a stand-in, though a socket of the player stayed connected).
            if seat is not None and (not was_connected or seat in self.standins):
                await self._back(seat)
            elif self._host_here() != host_was_here:  # a watching host is back
                await self._commit([], [self._room_event()])
        except BaseException:
            self._subscribers.pop(subscriber, None)
            self.standins = standins
            raise
        self._schedule_watchers()

    async def _back(self, seat: int) -> None:
        """The seat's player is back at the table: no stand-in plays for them, no away clock
        runs, and everyone is told. Nothing changes if that cannot be stored."""
        played_for = seat in self.standins
        self.standins.discard(seat)
        ops: list[Op] = [self._stored_standins()] if played_for else []
        if seat in self._away_since:
            ops.append(AwayChanged(seat, None))
        try:
            await self._commit(ops, [self._room_event()])
        except BaseException:
            if played_for:
                self.standins.add(seat)
            raise
        self._away_since.pop(seat, None)
        self._cancel_away_timer(seat)
        self._schedule_turn()

    def _catch_up(self, subscriber: Subscriber, seat: Viewer, last_version: int | None) -> None:
        """The events a client missed since ``last_version``, or a snapshot if they are gone."""
        missed = None if last_version is None else self._backlog.since(last_version, self.version)
        if missed is None:
            snapshot = self.snapshot(seat, subscriber.player_id)
            subscriber.send(encode({"t": "snapshot", "v": self.version, "d": snapshot}))
        else:
            for event in missed:
                subscriber.send(event.frame(seat))
                event.release()

    async def _disconnect(self, subscriber: Subscriber) -> None:
        host_was_here = self._host_here()
        self._subscribers.pop(subscriber, None)
        seat = self.seat_of(subscriber.player_id)
        if seat is not None and not self._connected(seat):
            playing = self.status == PLAYING
            if playing:
                self._start_away_timer(seat)
            since = time.time()
            stored = playing and seat not in self._away_since
            await self._commit([AwayChanged(seat, since)] if stored else [], [self._room_event()])
            if stored:
                self._away_since[seat] = since
        elif self._host_here() != host_was_here:  # a watching host left
            await self._commit([], [self._room_event()])
        self._schedule_watchers()

    def _watchers(self) -> int:
        """How many watch without a seat: each player once (in any number of tabs), and each
        socket without a player (nobody knows who they are)."""
        seated = {record.player_id for record in self.seats}
        players = set()
        anonymous = 0
        for subscriber in self._subscribers:
            if subscriber.player_id is None:
                anonymous += 1
            elif subscriber.player_id not in seated:
                players.add(subscriber.player_id)
        return anonymous + len(players)

    def _schedule_watchers(self, delay: float | None = None) -> None:
        """Tell the table how many watch, ``watchers_seconds`` (or ``delay``) from now, unless
        it is told already (by then, any ROOM sent meanwhile may have said it)."""
        if self._watchers_timer is None and self._watchers() != self._watchers_told:
            self._watchers_timer = self._timer(
                self._timings.watchers_seconds if delay is None else delay,
                lambda: self._post_retrying(self._tell_watchers, self._schedule_watchers),
            )

    async def _tell_watchers(self) -> None:
        self._watchers_timer = None
        if self._watchers() != self._watchers_told:
            await self._commit([], [self._room_event()])

    # ---- the game -------------------------------------------------------------------------

    async def _act(
        self,
        player_id: str,
        command_id: CommandId | None,
        base_version: int | None,
        data: dict[str, Any],
    ) -> int:
        seat = self._require_seat(player_id)
        self._check_fresh(player_id, command_id)
        if self.match is None or self.match.deal is None:
            raise RoomError("no_deal", "There is no deal in progress.")
        if base_version is not None and base_version < self.game_version:
            raise RoomError(
                "stale",
                f"The table changed since version {base_version} (now {self.game_version}).",
            )
        if base_version is not None and base_version > self.version:
            raise RoomError(
                "bad_version", f"Version {base_version} is ahead of the room (now {self.version})."
            )
        claimed = data.get("seat", seat)
        if claimed != seat:
            raise RoomError("not_your_seat", f"You sit in seat {seat}, not {claimed}.")
        try:
            action = action_from_dict({**data, "seat": seat})
        except BadRecord as error:
            raise RoomError("bad_action", str(error)) from error
        if seat in self.standins:
            # Left the match (or away) but playing from a socket still open: back, as a new
            # hello would make them; a refused action changes nothing, the stand-in included.
            _applied(self.match.deal, action)
            await self._back(seat)
        await self._apply(action, auto=False)
        self._remember(player_id, command_id)
        return self.version

    async def _apply(self, action: Action, auto: bool) -> None:
        match = self.match
        assert match is not None and match.deal is not None
        state = _applied(match.deal, action)
        seq = state.action_count - 1
        ops: list[Op] = [
            ActionTaken(match.match_id, match.number, seq, action_to_dict(action), auto)
        ]
        events = [Event(0, "action", {"seat": action.seat, "auto": auto}, state)]
        new_match_state = match.state
        if state.phase is Phase.FINISHED:
            new_match_state = record_deal(match.state, state)
            end_ops, end_event = self._deal_end(match, state, new_match_state)
            ops += end_ops
            events.append(end_event)
        old_status = self.status
        if new_match_state.finished:
            self.status = FINISHED  # read by the room event while it is sent
            ops.append(StatusChanged(FINISHED))
            events.append(self._room_event())
        elif state.phase is Phase.FINISHED:
            # The result is shown during the pause: armed now so that the room event that
            # follows the deal's end tells every client until when (``next_deal``).
            self._schedule_next_deal(self._deal_pause())
            events.append(self._room_event())
        try:
            await self._commit(ops, events, game=True)
        except BaseException:
            self.status = old_status
            self._cancel_next_deal()
            raise
        match.deal = state
        if auto:
            match.auto |= {seq}
        if state.phase is Phase.FINISHED:
            match.deal = match.shuffle = None
            match.auto = frozenset()
            match.state = new_match_state
            match.finished_deals.append(state)
            if self.status == FINISHED:
                self._finish_match()
                if self.on_match_end is not None:
                    self.on_match_end(match.match_id)
        self._schedule_turn()

    def _deal_end(
        self, match: _Match, deal: DealState, after: MatchState
    ) -> tuple[list[Op], Event]:
        """The writes and the event of a finished deal, sharing one rendering of the result and
        the scoresheet (they are the largest dicts a room builds)."""
        result = deal.result
        assert result is not None
        result_dict = result.to_dict()
        sheet = after.to_dict()
        contract = result_dict.get("contract")
        ops: list[Op] = [
            DealFinished(
                match.match_id,
                match.number,
                contract if isinstance(contract, str) else None,
                result_dict,
                self.ruleset.preset,
                _tallies(self.ruleset, match.seats, deal, result_dict),
            ),
            MatchProgress(match.match_id, sheet, after.finished, after.winner),
        ]
        event = Event(
            0,
            "deal_end",
            {
                **_deal_outcome(match.number, result_dict, after),
                "scoresheet": sheet,
                "shuffle": None if match.shuffle is None else match.shuffle.revealed(),
            },
        )
        return ops, event

    def _finish_match(self) -> None:
        self.rematch_votes.clear()
        self.concede_votes.clear()
        self.standins.clear()
        for seat in list(self._away_timers):
            self._cancel_away_timer(seat)

    async def _start_deal(self) -> None:
        """Shuffle, cut and deal the next deal of the current match."""
        self._cancel_next_deal()
        match = self.match
        if match is None or match.deal is not None or match.state.finished:
            return
        previous = match.finished_deals[-1] if match.finished_deals else None
        # A room stored before seeds were committed ahead has none: its commitment comes now.
        seed = self._next_seed or new_seed()
        contributions = [
            Contribution(seat, self._entropy[record.player_id])
            for seat, record in enumerate(self.seats)
            if record.player_id is not None and record.player_id in self._entropy
        ]
        drawn = draw_deck(self.ruleset, previous, seed, contributions)
        next_seed = new_seed()  # the deal after this one: its commitment goes out now
        state = match.state.start_deal(list(drawn.deck))
        number = match.number + 1
        op = DealStarted(
            match.match_id,
            number,
            state.dealer,
            drawn.seed,
            drawn.cut,
            tuple(str(c) for c in drawn.deck),
            state.hanging_in,
            drawn.commitment,
            tuple(c.to_dict() for c in drawn.contributions),
        )
        shuffle = _shuffle_view(drawn, next_seed)
        event = Event(
            0, "deal", {"number": number, "dealer": state.dealer, "shuffle": shuffle}, state
        )
        await self._commit([op, ShuffleCommitted(next_seed)], [event], game=True)
        match.number, match.deal, match.shuffle, match.auto = number, state, drawn, frozenset()
        self._next_seed = next_seed
        self._entropy.clear()
        self._schedule_turn()

    async def _commit_next_seed(self) -> None:
        """Draw and store the next deal's seed, for a room stored without one (rooms made
        before commitments existed; a new room stores its first seed with itself)."""
        if self._next_seed is not None:
            return
        seed = new_seed()
        await self._commit([ShuffleCommitted(seed)], [])
        self._next_seed = seed

    async def _contribute(self, player_id: str, for_commitment: str, entropy: str) -> int:
        """Keep a seated player's entropy for the deal whose commitment it names. It is held in
        memory until that deal is drawn (a restart forgets it: the deal event lists what went
        in); a second one from the same player replaces the first."""
        self._require_seat(player_id)
        if self._next_seed is None or commitment(self._next_seed) != for_commitment:
            raise RoomError(
                "stale", "That commitment is not the next deal's any more: use the current one."
            )
        self._entropy[player_id] = entropy
        return self.version

    def _schedule_next_deal(self, delay: float) -> None:
        if self._next_deal_timer is not None:
            return
        self.next_deal_votes.clear()
        self._next_deal_timer = self._timer(
            delay, lambda: self._post_retrying(self._start_deal, self._schedule_next_deal)
        )

    def _cancel_next_deal(self) -> None:
        if self._next_deal_timer is not None:
            self._next_deal_timer.handle.cancel()
            self._next_deal_timer = None
        self.next_deal_votes.clear()

    def _deal_pause(self) -> float:
        pause = self.config.deal_pause_seconds
        return self._timings.deal_pause_seconds if pause is None else pause

    def _paused_result(self) -> dict[str, Any] | None:
        """During the pause after a deal, that deal's result as its ``deal_end`` event said it
        (the same for every viewer: the deal is over), so that a player back, or a spectator
        come in, during the pause sees what those at the table see, not an empty table."""
        match = self.match
        if self._next_deal_timer is None or match is None or not match.finished_deals:
            return None
        result = match.finished_deals[-1].result
        if match.deal is not None or result is None:
            return None
        return _deal_outcome(match.number, result.to_dict(), match.state)

    def _next_deal_info(self) -> dict[str, Any] | None:
        """While a deal's result is shown: when the next deal comes and who asked for it."""
        timer = self._next_deal_timer
        if timer is None:
            return None
        return {"at": int(timer.deadline * 1000), "ready": sorted(self.next_deal_votes)}

    async def _next_deal(self, player_id: str, command_id: CommandId | None) -> int:
        """A player has seen the result. Once every person at the table (connected, not played
        for by a stand-in) has asked, the pause ends; bots and absent players do not hold it
        up. Asked when no pause is running (it has just ended), it changes nothing."""
        seat = self._require_seat(player_id)
        self._check_fresh(player_id, command_id)
        if self._next_deal_timer is not None and seat not in self.next_deal_votes:
            self.next_deal_votes.add(seat)
            here = {
                i
                for i, s in enumerate(self.seats)
                if s.player_id is not None and self._connected(i) and i not in self.standins
            }
            if here <= self.next_deal_votes:  # a deal that cannot be stored now comes later
                await self._retrying(self._start_deal, self._schedule_next_deal)
            else:
                try:
                    await self._commit(self._stored_votes(), [self._room_event()])
                except BaseException:  # not told to anyone: not counted either
                    self.next_deal_votes.discard(seat)
                    raise
        self._remember(player_id, command_id)
        return self.version

    # ---- conceding ----------------------------------------------------------------------

    def _side(self, seat: int) -> int:
        """The side a seat plays for, which concedes and wins together: its team at four
        seats, the player alone at three and two (BGN-3)."""
        return self.ruleset.seat_sides[seat]

    async def _concede(self, player_id: str, on: bool, command_id: CommandId | None) -> int:
        """Offer (or withdraw an offer) to concede the match for the asker's side.

        A side concedes once every person of it who is at the table (connected, not played for
        by a stand-in) has offered: a partner cannot give the match away alone, but an absent
        one does not hold it up (docs/protocol.md, ``concede``). The match ends there, the
        other side wins, and the history says it was conceded.
        """
        seat = self._require_seat(player_id)
        self._check_fresh(player_id, command_id)
        if self.status != PLAYING or self.match is None:
            raise RoomError("not_playing", "There is no match in progress to concede.")
        if on == (seat in self.concede_votes):
            self._remember(player_id, command_id)
            return self.version
        votes = self.concede_votes | {seat} if on else self.concede_votes - {seat}
        side = self._side(seat)
        needed = {
            i
            for i, s in enumerate(self.seats)
            if self._side(i) == side
            and s.player_id is not None
            and self._connected(i)
            and i not in self.standins
        }
        if on and needed <= votes:
            await self._end_conceded(side)
        else:
            old = self.concede_votes
            self.concede_votes = votes
            try:
                await self._commit(self._stored_votes(), [self._room_event()])
            except BaseException:
                self.concede_votes = old
                raise
        self._remember(player_id, command_id)
        return self.version

    async def _end_conceded(self, side: int) -> None:
        """End the match now: the other side wins (of several, the one with the highest score,
        the first in seat order on equal scores); a deal in progress is left unfinished (its
        cards are never shown, as for any deal that was not played out)."""
        match = self.match
        assert match is not None
        scores = match.state.scores
        winner = max((s for s in range(len(scores)) if s != side), key=lambda s: (scores[s], -s))
        sheet = {**match.state.to_dict(), "finished": True, "winner": winner, "conceded": side}
        old = (self.status, self.conceded, self.concede_votes)
        # Read by the room event while it is sent:
        self.status, self.conceded, self.concede_votes = FINISHED, side, set()
        ops: list[Op] = [
            MatchProgress(match.match_id, sheet, True, winner),
            StatusChanged(FINISHED),
        ]
        try:
            await self._commit(ops, [self._room_event()], game=True)
        except BaseException:
            self.status, self.conceded, self.concede_votes = old
            raise
        match.deal = match.shuffle = None
        match.auto = frozenset()
        self._cancel_next_deal()
        self._schedule_turn()  # disarms the turn clock: the room is no longer playing
        self._finish_match()
        if self.on_match_end is not None:
            self.on_match_end(match.match_id)

    # ---- seats and starting ------------------------------------------------------------

    async def _sit(
        self, player_id: str, name: str, seat: int, command_id: CommandId | None, account: bool
    ) -> int:
        self._check_seat_number(seat)
        self._check_fresh(player_id, command_id)
        current = self.seat_of(player_id)
        if current == seat:
            self._remember(player_id, command_id)
            return self.version
        self._check_not_suspended(player_id)
        if self.status == PLAYING:
            raise RoomError("match_in_progress", "Seats can change only between matches.")
        if self.config.rated and not account:
            raise RoomError("account_required", "Sign in to play rated matches.")
        if self.config.accounts_only and not account:
            raise RoomError("accounts_only", "Only signed-in players may sit at this table.")
        if player_id in self.removed:
            raise RoomError("removed", "The host has removed you from this table.")
        target = self.seats[seat]
        if target.player_id is not None or target.bot:
            raise RoomError("seat_taken", f"Seat {seat} is taken.")
        seats = list(self.seats)
        if current is not None:
            seats[current] = SeatRecord()
        seats[seat] = SeatRecord(player_id, name, False)
        # After a match, a player who asked for the rematch and changes seats (to play with
        # another partner) still asks for it; a newcomer has not asked yet.
        votes = set(self.rematch_votes)
        moved = current is not None and current in votes
        if moved:
            self.rematch_votes = votes - {current} | {seat}
        try:
            await self._change_seats(seats, self._stored_votes() if moved else [])
        except BaseException:  # where they were, asking as they were
            self.rematch_votes = votes
            raise
        self._remember(player_id, command_id)
        self._resend_snapshots(player_id)
        return self.version

    async def _rename(self, player_id: str, name: str) -> int:
        seat = self.seat_of(player_id)
        if seat is None or self.seats[seat].name == name:
            return self.version
        old = self.seats
        self.seats = [*old[:seat], replace(old[seat], name=name), *old[seat + 1 :]]
        try:
            await self._commit([SeatRenamed(seat, name)], [self._room_event()])
        except BaseException:
            self.seats = old
            raise
        return self.version

    async def _leave(self, player_id: str, command_id: CommandId | None) -> int:
        seat = self._require_seat(player_id)
        self._check_fresh(player_id, command_id)
        if self.status == PLAYING:
            # The seat stays the player's (the match and its history are theirs, and they may
            # come back to it); a bot plays it from now on, as for a player whose grace ran out.
            await self._stand_in(seat)
            self._remember(player_id, command_id)
            return self.version
        seats = list(self.seats)
        seats[seat] = SeatRecord()
        votes = set(self.rematch_votes)
        self.rematch_votes.discard(seat)
        try:
            await self._change_seats(seats, self._stored_votes() if seat in votes else [])
        except BaseException:  # still seated, still asking for the rematch
            self.rematch_votes = votes
            raise
        self._remember(player_id, command_id)
        self._resend_snapshots(player_id)
        return self.version

    async def _remove(self, player_id: str, seat: int, command_id: CommandId | None) -> int:
        """Empty a seat of a person the host does not want at the table (a stranger in a public
        room who never starts, a rude one). They are kept out for the room's life (the latest
        ``MOST_REMOVED`` of them), or they could sit down again at once; they may still watch,
        as anyone with the code may. During a match the seat is the player's (the match and its
        history are theirs), so not then. Only the host themself: the seated players who may
        start while the host is away (``_require_host``) may not remove one another, or the
        host."""
        self._check_seat_number(seat)
        self._require_the_host(player_id)
        self._check_fresh(player_id, command_id)
        if self.status == PLAYING:
            raise RoomError("match_in_progress", "Players can be removed only between matches.")
        removed, name = self.seats[seat].player_id, self.seats[seat].name
        if removed is None:
            raise RoomError("seat_empty", f"No player sits in seat {seat}.")
        if removed == player_id:
            raise RoomError("bad_seat", "That is your own seat: stand up instead.")
        seats = list(self.seats)
        seats[seat] = SeatRecord()
        votes = set(self.rematch_votes)
        self.rematch_votes.discard(seat)
        kept = dict(self.removed)
        self.removed[removed] = name
        while len(self.removed) > MOST_REMOVED:  # the earliest is let back in
            del self.removed[next(iter(self.removed))]
        ops: list[Op] = [RemovedChanged(tuple(self.removed.items()))]
        if seat in votes:
            ops.extend(self._stored_votes())
        try:
            await self._change_seats(seats, ops)
        except BaseException:  # still seated, still asking for the rematch, not kept out
            self.rematch_votes = votes
            self.removed = kept
            raise
        self._remember(player_id, command_id)
        self._resend_snapshots(removed)
        return self.version

    async def _configure(
        self,
        player_id: str,
        changes: Mapping[str, Any],
        command_id: CommandId | None,
        account: bool,
    ) -> int:
        """Change the settings between matches: the next match is played by the new ones. A
        table that played a match and wants another with a longer target, a timer, a house
        rule, stronger bots, or a room made public to find a fourth, used to need a new room.

        The host themself only, as for removing a player: the settings are theirs. A rematch
        vote was cast for the settings it saw, so a change clears the votes: each player
        agrees again to what is played now."""
        self._require_the_host(player_id)
        self._check_fresh(player_id, command_id)
        if self.status == PLAYING:
            raise RoomError("match_in_progress", "Settings can be changed only between matches.")
        config, ruleset = checked(changed(self.config, changes), self._timings.max_turn_seconds)
        if config.accounts_only and not self.config.accounts_only and not account:
            # A guest host could not sit at their own table again once up.
            raise RoomError("accounts_only", "Sign in to keep this table for signed-in players.")
        if config == self.config:
            self._remember(player_id, command_id)
            return self.version
        before = self.config, self.ruleset, self._policy, self.rematch_votes
        ops: list[Op] = [SettingsChanged(config)]
        if config.bot_level != self.config.bot_level:
            self._policy = self._policies(config.bot_level)
        self.config, self.ruleset = config, ruleset
        if self.rematch_votes:
            self.rematch_votes = set()
            ops.extend(self._stored_votes())
        try:
            await self._commit(ops, [self._room_event()])
        except BaseException:  # as it was: settings, bots and votes
            self.config, self.ruleset, self._policy, self.rematch_votes = before
            raise
        self._remember(player_id, command_id)
        if config.public != before[0].public and self.on_publicity_change is not None:
            self.on_publicity_change(self)
        return self.version

    async def _readmit(self, player_id: str, removed: str, command_id: CommandId | None) -> int:
        """Let a player the host removed sit here again: a removal made in haste, or one the
        host has forgiven, used to be for the room's life. The host themself, at any time (it
        only lets them take a seat when seats are open); they are not seated by it."""
        self._require_the_host(player_id)
        self._check_fresh(player_id, command_id)
        if removed not in self.removed:
            raise RoomError("not_removed", "That player was not removed from this table.")
        kept = dict(self.removed)
        del self.removed[removed]
        try:
            await self._commit([RemovedChanged(tuple(self.removed.items()))], [self._room_event()])
        except BaseException:
            self.removed = kept
            raise
        self._remember(player_id, command_id)
        return self.version

    async def _hand_over(self, player_id: str, seat: int, command_id: CommandId | None) -> int:
        """Make the player in ``seat`` the host: a host who must go leaves the room to a friend
        at the table, with what only the host may do (the settings, removing a player), rather
        than to the seated players' stand-in powers alone. At any time: hosting changes nothing
        of a match being played."""
        self._check_seat_number(seat)
        self._require_the_host(player_id)
        self._check_fresh(player_id, command_id)
        new_host = self.seats[seat].player_id
        if new_host is None:
            raise RoomError("seat_empty", f"No player sits in seat {seat}.")
        if new_host == player_id:
            raise RoomError("bad_seat", "You already host this room.")
        before = self.config
        self.config = replace(before, host_id=new_host)
        try:
            await self._commit([HostChanged(new_host)], [self._room_event()])
        except BaseException:
            self.config = before
            raise
        self._remember(player_id, command_id)
        return self.version

    async def _set_bot(
        self, player_id: str, seat: int, bot: bool, command_id: CommandId | None
    ) -> int:
        self._check_seat_number(seat)
        self._require_host(player_id)
        self._check_fresh(player_id, command_id)
        if self.status == PLAYING:
            raise RoomError("match_in_progress", "Bots can be seated only between matches.")
        record = self.seats[seat]
        if record.player_id is not None:
            raise RoomError("seat_taken", f"Seat {seat} is taken by a player.")
        if record.bot == bot:
            self._remember(player_id, command_id)
            return self.version
        seats = list(self.seats)
        seats[seat] = SeatRecord(None, "Bot" if bot else None, bot)
        await self._change_seats(seats)
        self._remember(player_id, command_id)
        return self.version

    async def _change_seats(self, seats: list[SeatRecord], also: Sequence[Op] = ()) -> None:
        """Store and announce ``seats`` (with the writes ``also``)."""
        old = self.seats
        self.seats = seats
        try:
            await self._commit([SeatsChanged(tuple(seats)), *also], [self._room_event()])
        except BaseException:
            self.seats = old
            raise

    async def _begin(
        self, player_id: str, fill_with_bots: bool, command_id: CommandId | None
    ) -> int:
        self._require_host(player_id)
        self._check_fresh(player_id, command_id)
        self._check_not_suspended(player_id)
        if self.status != WAITING:
            raise RoomError("match_in_progress", "The match has already started.")
        empty = [i for i, s in enumerate(self.seats) if s.player_id is None and not s.bot]
        if empty and not fill_with_bots:
            raise RoomError("seats_empty", f"Seats {empty} are empty: seat players or bots.")
        await self._start_match()
        self._remember(player_id, command_id)
        return self.version

    async def _rematch(self, player_id: str, command_id: CommandId | None) -> int:
        seat = self._require_seat(player_id)
        self._check_fresh(player_id, command_id)
        self._check_not_suspended(player_id)
        if self.status != FINISHED:
            raise RoomError("match_in_progress", "A rematch is offered when the match is over.")
        votes = set(self.rematch_votes)
        self.rematch_votes.add(seat)
        # Everyone at the table must ask; a player who has gone does not hold the others up
        # (a stand-in bot plays for them until they come back), and a seat left empty after
        # the match gets a bot.
        here = {
            i for i, s in enumerate(self.seats) if s.player_id is not None and self._connected(i)
        }
        try:
            if here <= self.rematch_votes:
                await self._start_match()
            else:
                await self._commit(self._stored_votes(), [self._room_event()])
        except BaseException:
            if self.status == FINISHED:  # nothing was stored: the vote does not count
                self.rematch_votes = votes
            raise
        self._remember(player_id, command_id)
        return self.version

    async def _start_match(self) -> None:
        """A new match with the seats as they are; a seat nobody holds gets a bot."""
        seats = [
            s if s.player_id is not None or s.bot else SeatRecord(None, "Bot", True)
            for s in self.seats
        ]
        ops: list[Op] = [SeatsChanged(tuple(seats))] if seats != self.seats else []
        # BG-1 / FR-1: drawn by the server's RNG, among the preset's seats
        first_dealer = secrets.randbelow(self.ruleset.seats)
        state = new_match(self.ruleset, first_dealer, self.config.target)
        match = _Match(secrets.token_urlsafe(9), state, seats=tuple(seats))
        old = (self.seats, self.status, self.match, set(self.rematch_votes), self.conceded)
        self.seats, self.status, self.match = seats, PLAYING, match
        self.rematch_votes.clear()
        self.conceded = None
        # Players not at the table when it begins: their grace period starts now, and is
        # stored so that a restored room goes on with it.
        since = time.time()
        absent = [s for s, r in enumerate(seats) if r.player_id and not self._connected(s)]
        ops = [
            *ops,
            *(AwayChanged(seat, since) for seat in absent),
            StandinsChanged(()),  # the last match's are over (``_finish_match``)
            StatusChanged(PLAYING),
            MatchStarted(
                match.match_id,
                self.ruleset.to_dict(),
                self._target(),
                first_dealer,
                tuple(seats),
            ),
        ]
        try:
            await self._commit(ops, [self._room_event()])
        except BaseException:
            self.seats, self.status, self.match, self.rematch_votes, self.conceded = old
            raise
        for seat in absent:
            self._away_since[seat] = since
            self._start_away_timer(seat)
        # The match is stored: if its first deal cannot be, it comes with the retry.
        await self._retrying(self._start_deal, self._schedule_next_deal)

    # ---- chat --------------------------------------------------------------------------

    async def _say(
        self,
        player_id: str,
        name: str,
        command_id: CommandId | None,
        text: str,
        allowed: Allowance | None = None,
        phrase: str | None = None,
    ) -> int:
        self._check_fresh(player_id, command_id)
        if phrase is not None:
            if phrase not in phrases.PHRASES:
                raise RoomError("bad_chat", f"Quick phrases are {', '.join(phrases.PHRASES)}.")
            text = phrases.stored(phrase)
        else:
            text = _typed(text, self._timings.chat_max_chars)
        self._check_not_suspended(player_id)
        seat = self.seat_of(player_id)
        if seat is None:  # the chat is the players': spectators read it, they do not write in it
            raise RoomError("not_seated", "Only the players at the table write in its chat.")
        if allowed is not None and not allowed.take():
            raise RoomError("rate_limited", "Too many chat lines: wait a little.")
        # The seat's name, not the one the socket said hello with: a rename reaches the seat.
        name = self.seats[seat].name or name
        line = ChatPosted(seat, player_id, name, text, time.time(), command_id)
        entry = _chat_dict(StoredChat(line.seat, line.player_id, line.name, line.text, line.at))
        try:
            await self._commit([line], [Event(0, "chat", entry)])
        except BaseException:
            if allowed is not None:
                allowed.give_back()
            raise
        self.chat.append(entry)
        del self.chat[: -self._timings.chat_history or len(self.chat)]
        self._remember(player_id, command_id)
        return self.version

    # ---- clocks: turn timer, bots, away players ------------------------------------------

    def _timer(self, delay: float, callback: Callable[[], None]) -> _Timer:
        handle = asyncio.get_running_loop().call_later(delay, callback)
        return _Timer(handle, time.time() + delay)

    def _all_timers(self) -> list[_Timer]:
        timers = list(self._away_timers.values())
        timers += [
            t
            for t in (self._turn_timer, self._next_deal_timer, self._watchers_timer)
            if t is not None
        ]
        return timers

    def _bot_plays(self, seat: int) -> bool:
        return self.seats[seat].bot or seat in self.standins

    def _schedule_turn(self, retry: float | None = None) -> None:
        """Arm the clock for whoever is to act: a bot's move, or the turn timer of a person
        (``retry``: after that many seconds instead, since the last attempt failed). A restored
        room's clock goes on with what was left (``_clock_left``)."""
        if self._turn_timer is not None:
            self._turn_timer.handle.cancel()
            self._turn_timer = None
            self._turn_gen += 1
        match = self.match
        if self.status != PLAYING or match is None or match.deal is None:
            return
        state = match.deal
        seat = state.turn
        if seat is None:
            return
        if self._bot_plays(seat):
            delay = self._timings.bot_delay_seconds
        elif forced_last_card(state) is not None:
            delay = self._timings.last_card_seconds
        elif self.config.turn_seconds > 0:
            full = self.config.turn_seconds
            delay = self._clock_left(full, min(full, RESUMED_TURN_SECONDS))
        else:
            return
        self._turn_gen += 1
        gen = self._turn_gen
        self._turn_timer = self._timer(
            delay if retry is None else retry,
            lambda: self._post_retrying(lambda: self._auto_play(gen), self._schedule_turn),
        )

    async def _auto_play(self, gen: int) -> None:
        """A bot's move, a forced last card, or the move the clock makes for a person who ran
        out of time."""
        match = self.match
        if gen != self._turn_gen or match is None or match.deal is None:
            return  # the table moved on since this timer was armed
        expected = match.deal
        if expected.turn is None:
            return
        seat = expected.turn
        forced = forced_last_card(expected)
        if forced is not None:
            # Nobody chose it, so it is the player's own card: no "played for you" (unless a
            # bot sits in the seat), and no bot is asked.
            await self._apply(forced, auto=self._bot_plays(seat))
            return
        # A strong bot thinks in another process (app.rooms.thinking) while the other rooms
        # go on. This room waits: its state cannot change meanwhile.
        legal = legal_actions(expected)
        action = await self._bot_move(view(expected, seat), legal)
        await self._apply(action, auto=True)

    async def _bot_move(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        """The bot's choice, or a random legal action when the bot fails or offers something
        not legal: a bot that cannot play a preset (a new one, a house rule it does not know)
        must not stall the table, and a move the engine would refuse would be retried for
        ever by the clock."""
        try:
            action = await self._policy.choose(seat_view, legal)
        except Exception:
            log.exception("room %s: the bot failed; a random legal move", self.config.code)
            return secrets.choice(list(legal))
        if action not in legal:
            log.error(
                "room %s: the bot chose %r, not legal; a random move", self.config.code, action
            )
            return secrets.choice(list(legal))
        return action

    def _turn_info(self) -> dict[str, Any] | None:
        match = self.match
        if match is None or match.deal is None or match.deal.turn is None:
            return None
        seat, timer = match.deal.turn, self._turn_timer
        deadline = None if timer is None or self._bot_plays(seat) else timer.deadline
        return self._turn(seat, deadline, forced_last_card(match.deal) is not None)

    def _start_away_timer(self, seat: int, delay: float | None = None) -> None:
        """The grace period of an away player (``delay``: what a restored room has left of it,
        or a retry after a failed stand-in)."""
        if seat in self._away_timers or seat in self.standins:
            return
        self._away_timers[seat] = self._timer(
            self._timings.grace_seconds if delay is None else delay,
            lambda: self._post_retrying(
                lambda: self._replace_away(seat), lambda d: self._start_away_timer(seat, d)
            ),
        )

    def _cancel_away_timer(self, seat: int) -> None:
        timer = self._away_timers.pop(seat, None)
        if timer is not None:
            timer.handle.cancel()

    async def _replace_away(self, seat: int) -> None:
        """The grace period ran out: a bot plays this seat until its player comes back."""
        self._away_timers.pop(seat, None)
        if self.status != PLAYING or self._connected(seat) or self.seats[seat].player_id is None:
            return
        await self._stand_in(seat)

    async def _stand_in(self, seat: int) -> None:
        """A bot plays this seat until its player comes back (reconnects)."""
        if seat in self.standins:
            return
        votes = set(self.concede_votes)
        self.standins.add(seat)
        self.concede_votes.discard(seat)  # an offer stands for the player, not for the bot
        ops: list[Op] = [self._stored_standins()]
        if seat in votes:
            ops += self._stored_votes()
        try:
            await self._commit(ops, [self._room_event()])
        except BaseException:
            self.standins.discard(seat)
            self.concede_votes = votes
            raise
        self._cancel_away_timer(seat)
        self._schedule_turn()

    # ---- committing and sending ------------------------------------------------------------

    async def _commit(self, ops: list[Op], events: list[Event], *, game: bool = False) -> None:
        """Number the events, make the writes durable, then send the events to everyone."""
        version = self.version + len(events)
        await self._store.commit(self.config.code, version, ops)
        if self._failures:
            log.info(
                "room %s: storing works again after %d failures", self.config.code, self._failures
            )
            self._failures = 0
        for i, event in enumerate(events, start=self.version + 1):
            event.v = i
        self.version = version
        if game:
            self.game_version = version
        for event in events:
            if event.t == "room":
                event.data = self.summary()  # presence as of sending
                self._watchers_told = event.data["watchers"]
            elif event.deal is not None:
                event.data = {**event.data, "turn": self._turn_preview(event.deal)}
            self._backlog.append(event)
            self._broadcast(event)

    def _turn_preview(self, state: DealState) -> dict[str, Any] | None:
        """Whose turn it is after ``state``, and until when (the clock starts now)."""
        seat = state.turn
        if seat is None:
            return None
        forced = forced_last_card(state) is not None
        deadline = None
        if not self._bot_plays(seat) and (forced or self.config.turn_seconds > 0):
            delay = self._timings.last_card_seconds if forced else self.config.turn_seconds
            deadline = time.time() + delay
        return self._turn(seat, deadline, forced)

    def _turn(self, seat: int, deadline: float | None, forced: bool) -> dict[str, Any]:
        """TURN (docs/protocol.md): ``seat`` is to act, the server plays for them at
        ``deadline`` (seconds since the epoch; None when a bot sits there or nothing is timed),
        ``forced`` when what it plays is their last card, which leaves no choice."""
        return {
            "seat": seat,
            "deadline": None if deadline is None else int(deadline * 1000),
            "bot": self._bot_plays(seat),
            "forced": forced,
        }

    def _broadcast(self, event: Event) -> None:
        seat_of = self._seat_map()
        for subscriber, watch_only in self._subscribers.items():
            subscriber.send(
                event.frame(WATCHER if watch_only else seat_of.get(subscriber.player_id))
            )
        event.release()

    def _seat_map(self) -> dict[str | None, int]:
        """``seat_of`` for every player at once (a player in two seats has the first, as
        there), for a broadcast that asks it of every subscriber."""
        seats = enumerate(self.seats)
        return {r.player_id: i for i, r in reversed(list(seats)) if r.player_id is not None}

    def _resend_snapshots(self, player_id: str) -> None:
        """A player who changed seats sees the table from the new seat from now on."""
        seat = self.seat_of(player_id)
        frame: str | None = None  # the same for all the player's sockets: made once
        for subscriber in self._subscribers:
            if subscriber.player_id == player_id:
                if frame is None:
                    snapshot = self.snapshot(seat, player_id)
                    frame = encode({"t": "snapshot", "v": self.version, "d": snapshot})
                subscriber.send(frame)

    def _stored_standins(self) -> StandinsChanged:
        """The write that keeps ``standins`` as they are now: a restored room goes on."""
        return StandinsChanged(tuple(sorted(self.standins)))

    def _stored_votes(self) -> list[Op]:
        """The write that keeps the votes as they are now, tagged with the match and the deal
        number (``TableVotes``): a restored room goes on counting those still standing."""
        match = self.match
        if match is None:
            return []
        votes = TableVotes(
            match.match_id,
            match.number,
            tuple(sorted(self.rematch_votes)),
            tuple(sorted(self.concede_votes)),
            tuple(sorted(self.next_deal_votes)),
        )
        return [VotesChanged(votes)]

    def _room_event(self) -> Event:
        return Event(0, "room", {})

    # ---- checks ------------------------------------------------------------------------

    def _target(self) -> int:
        return self.config.target or self.ruleset.default_target

    def _check_seat_number(self, seat: int) -> None:
        check_seat(seat, self.ruleset.seats)

    def _require_seat(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("not_seated", "You do not sit at this table.")
        return seat

    def _host_here(self) -> bool:
        host = self.config.host_id
        return any(s.player_id == host for s in self._subscribers)

    def _require_the_host(self, player_id: str) -> None:
        """The host themself, connected or not: what is theirs to decide (the settings, who sits
        at the table, who hosts), not the stand-ins of ``_require_host``, who could otherwise
        take the room from the host, or remove one another."""
        if player_id != self.config.host_id:
            raise RoomError("not_host", "Only the host of the room can do this.")

    def _check_not_suspended(self, player_id: str) -> None:
        if self.suspended(player_id):
            raise suspensions.refusal()

    def _require_host(self, player_id: str) -> None:
        """The host, or, while the host is not connected, any seated player: a room whose host
        closed the tab must not leave the others unable to start or to seat bots."""
        if player_id == self.config.host_id:
            return
        if self._host_here() or self.seat_of(player_id) is None:
            raise RoomError("not_host", "Only the host of the room can do this.")

    def _check_fresh(self, player_id: str, command_id: CommandId | None) -> None:
        if command_id is not None and command_id in self._recent_ids.get(player_id, ()):
            raise RoomError("duplicate", f"Command {command_id!r} was already applied.")

    def _remember(self, player_id: str, command_id: CommandId | None) -> None:
        if command_id is None:
            return
        recent = self._recent_ids.setdefault(player_id, OrderedDict())
        recent[command_id] = None
        while len(recent) > 256:
            recent.popitem(last=False)


def _seat_list(seats: Sequence[SeatRecord]) -> list[dict[str, Any]]:
    """Who sits in each seat, as ROOM says it: a player (id and name), a bot, or nobody."""
    return [
        {
            "seat": seat,
            "player": None if r.player_id is None else {"id": r.player_id, "name": r.name},
            "bot": r.bot,
        }
        for seat, r in enumerate(seats)
    ]


def check_seat(seat: int, seats: int) -> None:
    """Refuse a seat number the table does not have: its preset fixes the seats (2, 3 or 4)."""
    if not 0 <= seat < seats:
        raise RoomError("bad_seat", f"Seats are numbered 0 to {seats - 1}.")


def _applied(deal: DealState, action: Action) -> DealState:
    """The deal after ``action``, or the engine's refusal as the room's error."""
    try:
        return apply(deal, action)
    except RuleError as error:
        raise RoomError(error.code, error.message, error.rule) from error


def _tallies(
    ruleset: Ruleset, seats: Sequence[SeatRecord], deal: DealState, result: dict[str, Any]
) -> tuple[tuple[str, Tally], ...]:
    """Each person's counts from a finished deal, by who played the match's seats (a stand-in
    bot's play counts for the person it stands in for, as the match does)."""
    calls = [(bid.seat, bid.call.value) for bid in deal.auction.bids]
    tallies = tally_deal(ruleset, calls, result)
    return tuple(
        (record.player_id, tallies[seat])
        for seat, record in enumerate(seats)
        if record.player_id is not None and not record.bot
    )


def _deal_outcome(number: int, result: dict[str, Any], after: MatchState) -> dict[str, Any]:
    """How a deal ended and where it left the match: the part of a ``deal_end`` event that a
    snapshot repeats as ``last_deal`` while the pause after the deal runs."""
    return {"number": number, "result": result, "finished": after.finished, "winner": after.winner}


def _nobody(_player_id: str) -> bool:
    return False


def _chat_dict(line: StoredChat) -> dict[str, Any]:
    return {
        "seat": line.seat,
        "player": line.player_id,
        "name": line.name,
        "text": phrases.shown(line.text),
        "phrase": phrases.phrase_of(line.text),
        "at": int(line.at * 1000),
    }


def _typed(text: str, most: int) -> str:
    """A typed chat line as kept (trimmed), or ``bad_chat``."""
    text = text.strip()
    if not text:
        raise RoomError("bad_chat", "A chat message cannot be empty.")
    if len(text) > most:
        raise RoomError("bad_chat", f"A chat message has at most {most} characters.")
    if not chat_writable(text):
        raise RoomError("bad_chat", "A chat message cannot hold control characters.")
    return text


def _shuffle_view(drawn: DrawnDeck | None, next_seed: str | None) -> dict[str, Any]:
    """The shuffle as every viewer may know it: the current deal's commitment and
    contributions (if one is dealt), and the commitment of the next deal."""
    shown = drawn.published() if drawn is not None else {"commitment": None, "contributions": []}
    return {**shown, "next_commitment": None if next_seed is None else commitment(next_seed)}


def _closed() -> RoomError:
    return RoomError("room_closed", "The room was just put away; please try again.")


_JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiner: 👩‍💻, and Persian or Indic words
_REFUSED = frozenset(("Cc", "Cs", "Co", "Zl", "Zp"))


def chat_writable(text: str) -> bool:
    """No control characters in a chat line: none of C0/C1, surrogates, private use, line or
    paragraph separators, nor the invisible format characters (a bidi override turns the rest
    of a line around) but the joiners and the tags of subdivision flags (🏴 of Scotland).
    ``str.isprintable`` refused too much: every emoji joined by a ZWJ and the ideographic
    space (U+3000) of Japanese and Chinese text. Unassigned code points pass: emoji newer than
    this Python's Unicode tables are among them."""
    for char in text:
        category = unicodedata.category(char)
        if category in _REFUSED:
            return False
        if category == "Cf" and char not in _JOINERS and not "\U000e0020" <= char <= "\U000e007f":
            return False
    return True


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        error = future.exception()
        if isinstance(error, RoomError):
            log.warning("timed room command refused: %s", error.message)
        else:
            log.error("timed room command failed: %r", error)
