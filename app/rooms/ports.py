"""What a room needs from the outside world, stated as Protocols the room owns.

The room layer never imports a database driver or a web framework. It describes its writes as
plain values (``Op``) and hands them, grouped per command, to a ``Store``; it pushes frames to
``Subscriber`` objects; it asks a ``BotPolicy`` for a bot's move. ``app.db`` and
``app.transport`` implement these, tests can implement them with a few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from app.rules import Action, SeatView, Tally


@dataclass(frozen=True, slots=True)
class Player:
    """A guest as the room knows it: a stable id and a display name."""

    id: str
    name: str
    account: bool = False
    """Signed up (a username and password), not a guest: only accounts play rated matches,
    since anyone can make guests without end (docs/protocol.md, "Ratings")."""


class Allowance(Protocol):
    """A rate limit's allowance for one thing (a chat line): taken when it is about to be
    stored, given back if storing it failed, so that a failure spends nothing."""

    def take(self) -> bool: ...

    def give_back(self) -> None: ...


class PlayerDirectory(Protocol):
    """Finds the guest holding a secret token (the transport and the API authenticate here)."""

    async def by_token(self, token: str) -> Player | None: ...


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits in a seat, as stored: a player, a bot, or nobody (both None/False)."""

    player_id: str | None = None
    name: str | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """The settings of a room: those it was created with, as the host may change them between
    matches (``Room.configure``), and its host (``Room.hand_over``); never the code, the preset
    or whether it is rated."""

    code: str
    host_id: str
    rules: dict[str, Any]
    target: int | None
    public: bool
    turn_seconds: float
    bot_level: str = "basic"
    """The level of the bots that fill seats and stand in for absent players (app.bots)."""
    rated: bool = False
    """Whether its matches may move ratings (docs/protocol.md, "Ratings", says which do)."""
    deal_pause_seconds: float | None = None
    """How long a finished deal's result is shown before the next deal is dealt (players may cut
    it short with "next deal"); None: the server's ``deal_pause_seconds``."""
    accounts_only: bool = False
    """Only signed-in players may sit (a guest still watches). A guest costs nothing to make, so
    without this a player the host removed comes back as a new guest; an account costs a
    sign-up, limited per address."""


# ---- writes -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomCreated:
    config: RoomConfig
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True, slots=True)
class SeatRenamed:
    """The player at ``seat`` was renamed: only the seat's name changes (a match being
    played keeps its stand-ins and away clocks, which a whole ``SeatsChanged`` would rewrite)."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class StandinsChanged:
    """The seats a stand-in bot plays for now (their players left or are away): stored so
    that a restored room goes on playing them, as its clients were told."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AwayChanged:
    """When the seat's player left the table (epoch seconds; None: back): stored so that a
    restored room's grace period before a stand-in goes on from then, not afresh."""

    seat: int
    since: float | None


@dataclass(frozen=True, slots=True)
class TableVotes:
    """What the seats have asked for and a restored room must still count: a rematch (after a
    match), conceding it (during one), the end of the pause after a deal. Tagged with the match
    and the deal number they were cast at, so that a restored room keeps only current ones."""

    match_id: str
    deal: int
    rematch: tuple[int, ...] = ()
    concede: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VotesChanged:
    """The room's votes as they are now (``TableVotes``), replacing those stored."""

    votes: TableVotes


@dataclass(frozen=True, slots=True)
class RemovedChanged:
    """The players the host has removed from the room, who may not sit in it again: stored so
    that a restored room still keeps them out. Each is its id and the name it sat under (None
    for an erased account), which the host reads to let one back in."""

    players: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class HostChanged:
    """The host handed the room over to a player at the table (``Room.hand_over``)."""

    host_id: str


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """The host changed the room's settings between matches (``Room.configure``): the whole new
    config, of which the code, the host and whether it is rated never change."""

    config: RoomConfig


@dataclass(frozen=True, slots=True)
class StatusChanged:
    status: str


@dataclass(frozen=True, slots=True)
class MatchStarted:
    match_id: str
    rules: dict[str, Any]
    target: int
    first_dealer: int
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True, slots=True)
class DealStarted:
    match_id: str
    number: int
    dealer: int
    seed: str
    cut: int
    deck: tuple[str, ...]
    hanging_in: int
    commitment: str | None = None
    contributions: tuple[dict[str, Any], ...] = ()
    """The players' entropy mixed into the shuffle (``{"seat", "entropy"}``, seat order)."""


@dataclass(frozen=True, slots=True)
class ShuffleCommitted:
    """The server seed of the room's next deal, drawn ahead so its commitment can be shown."""

    seed: str


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """One accepted action, in record notation; ``seq`` counts from 0 within the deal."""

    match_id: str
    number: int
    seq: int
    action: dict[str, Any]
    auto: bool


@dataclass(frozen=True, slots=True)
class DealFinished:
    match_id: str
    number: int
    contract: str | None
    result: dict[str, Any]
    preset: str = ""
    tallies: tuple[tuple[str, Tally], ...] = ()
    """What the deal adds to the statistics of each person who played the match (by player
    id; bots have none), stored with the deal's end."""


@dataclass(frozen=True, slots=True)
class MatchProgress:
    """The scoresheet after a deal; ``finished``/``winner`` once the match is over."""

    match_id: str
    scoresheet: dict[str, Any]
    finished: bool
    winner: int | None


@dataclass(frozen=True, slots=True)
class ChatPosted:
    seat: int | None
    player_id: str
    name: str
    text: str
    at: float
    command_id: str | int | None = None
    """The sender's id for the command (``StoredChat``)."""


Op = (
    RoomCreated
    | SeatsChanged
    | SeatRenamed
    | StandinsChanged
    | AwayChanged
    | VotesChanged
    | RemovedChanged
    | SettingsChanged
    | HostChanged
    | StatusChanged
    | MatchStarted
    | DealStarted
    | ShuffleCommitted
    | ActionTaken
    | DealFinished
    | MatchProgress
    | ChatPosted
)


# ---- reads (restoring a room after a restart) ------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredDeal:
    number: int
    dealer: int
    seed: str
    cut: int
    deck: tuple[str, ...]
    hanging_in: int
    actions: tuple[dict[str, Any], ...]
    finished: bool
    commitment: str | None = None
    contributions: tuple[dict[str, Any], ...] = ()
    auto: frozenset[int] = frozenset()
    """The sequence numbers of the actions the server made (a bot, a stand-in or the clock)."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    match_id: str
    rules: dict[str, Any]
    target: int
    first_dealer: int
    finished: bool
    deals: tuple[StoredDeal, ...]
    conceded: int | None = None
    """The side that conceded the match (its stored scoresheet says so), None if it did not."""
    seats: tuple[SeatRecord, ...] = ()
    """Who played each seat (``MatchStarted``): who the teams were, whoever sits there now."""
    moved_at: float | None = None
    """When its last deal last changed (dealt, or its last action stored), in seconds since the
    epoch; None if it has no deal. A restored room's clocks count from it: the turn clock of
    whoever is to act, and the pause after a finished deal."""


@dataclass(frozen=True, slots=True)
class StoredChat:
    seat: int | None
    player_id: str
    name: str
    text: str
    at: float
    command_id: str | int | None = None
    """The sender's id for the command that said it: a restored room still knows it was
    applied, so the line sent again after a restart or a take-over is a ``duplicate``."""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """Everything needed to rebuild a room actor exactly where it stood."""

    config: RoomConfig
    status: str
    version: int
    seats: tuple[SeatRecord, ...]
    match: StoredMatch | None
    chat: tuple[StoredChat, ...] = field(default=())
    next_seed: str | None = None
    """The committed seed of the next deal (None: none drawn yet)."""
    standins: tuple[int, ...] = ()
    """The seats played by a stand-in (``StandinsChanged``; only while a match is played)."""
    votes: TableVotes | None = None
    """The votes last stored (``VotesChanged``), whichever match and deal they were cast at."""
    away: tuple[tuple[int, float], ...] = ()
    """The seats whose player left the table, and when (``AwayChanged``)."""
    removed: tuple[tuple[str, str | None], ...] = ()
    """The players the host removed, and their names (``RemovedChanged``)."""


class Store(Protocol):
    """Durable storage of rooms. ``commit`` returns only once the writes are durable."""

    async def commit(self, code: str, version: int, ops: Sequence[Op]) -> None:
        """Apply ``ops`` for room ``code`` atomically and record ``version`` as its latest."""
        ...

    async def load_room(self, code: str) -> StoredRoom | None:
        """The stored room with this invite code, or None."""
        ...

    async def load_rooms(self, codes: Sequence[str]) -> dict[str, StoredRoom]:
        """The stored rooms of these codes (a code not stored is left out), read at once: a
        take-over restores a whole batch of rooms."""
        ...

    async def code_watched_by(self, watch: str) -> str | None:
        """The code of the room whose watch code is ``watch`` (app/rooms/watching.py), if any."""
        ...

    async def active_room_codes(self, waiting_since: datetime | None = None) -> Sequence[str]:
        """Rooms that were playing when the server stopped, and those waiting for players that
        changed at ``waiting_since`` or later (all of them when it is None)."""
        ...


class Subscriber(Protocol):
    """A connected client of a room: the room pushes ready-made frames into it."""

    @property
    def player_id(self) -> str | None:
        """The authenticated player, or None for an anonymous spectator."""
        ...

    def send(self, frame: str) -> None:
        """Queue one text frame; never blocks (a slow client is cut off by the transport)."""
        ...

    def moved(self, node: str = "") -> None:
        """The room left this server (another node owns it now): after the frames queued so
        far, end the connection so that the client reconnects to wherever the room lives
        (to ``node`` directly, if given)."""
        ...


class Ownership(Protocol):
    """Which rooms this server may serve. One server alone owns every room (``SingleNode``);
    in a cluster each room is leased to one node at a time (app/db/ownership.py), and the
    store refuses the writes of a node that lost a room's lease."""

    @property
    def node_id(self) -> str:
        """This node's name ("" for a single server)."""
        ...

    async def claim(self, code: str) -> str | None:
        """Take the room if nobody holds it; None if this node may now serve it (or no room has
        this code), else the node that holds it."""
        ...

    async def renew(self) -> list[str]:
        """Extend this node's lease (all its rooms at once); the codes of the rooms it lost."""
        ...

    async def wait(self, seconds: float) -> None:
        """Sleep until the next renewal, or less if another node handed rooms to this one."""
        ...

    async def take_over(self) -> list[str]:
        """Claim some active rooms whose owner stopped renewing; their codes."""
        ...

    async def release(self, code: str) -> None:
        """Give the room up (it left memory); the next node to open it claims it."""
        ...

    async def successors(self) -> list[str]:
        """The other live nodes, which could take this node's rooms."""
        ...

    async def hand_over(self, moves: Mapping[str, str]) -> dict[str, str]:
        """Shutting down: give each room of ``moves`` (code → node) to that node, and every
        other room up for the other nodes to take at once; the rooms moved (code → node)."""
        ...

    async def close(self) -> None:
        """Release what ``start`` took (connections); the node is stopping."""
        ...

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(code)`` when the store refuses a write for want of the lease."""
        ...


class BotPolicy(Protocol):
    """Chooses a bot's action from what its seat may see and the legal actions (awaitable:
    it may think in another process, ``app.rooms.thinking``)."""

    async def choose(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``."""
        ...
