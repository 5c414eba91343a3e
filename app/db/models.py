"""The tables: players, rooms and their seats, matches, deals, the action log, chat.

Deals keep what C-8 asks (seed, cut, the dealt deck, and the commitment and players' entropy
that make the shuffle checkable) and actions are an append-only log keyed by
(deal, seq): replaying that log through the engine is both the crash recovery and the export.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Computed,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.rules import TALLY_COUNTERS


def utcnow() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A moment, read back aware and in UTC from either database: PostgreSQL keeps the zone,
    SQLite keeps the wall time only (stored here in UTC) and gives it back naive. Without this
    every reader had to remember which (an ISO time sent to clients lacked its offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or value.tzinfo is None:  # naive: already UTC, as this code writes
            return value
        return value.astimezone(UTC)  # so that SQLite's wall time is UTC's

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UtcDateTime(),
    }


class Player(Base):
    """A guest: display name and the hash of the secret token the browser keeps."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When the person erased their account (``Accounts.erase``): the row stays, nameless, for
    # the rooms and match seats that point at its id.
    erased_at: Mapped[datetime | None] = mapped_column(index=True)
    """Indexed: every server asks for those erased lately (``app.db.player_news``)."""
    renamed_at: Mapped[datetime | None] = mapped_column(index=True)
    """When the player was last renamed (by themselves or the operator); every server asks for
    those renamed lately, to show the name at their seats (``app.db.player_news``)."""
    # The operator's suspension (``app.rooms.suspensions``): in force while the reason is set
    # and the end (None: none set) is still to come.
    suspension_reason: Mapped[str | None] = mapped_column(String(200))
    suspended_until: Mapped[datetime | None]
    suspension_changed_at: Mapped[datetime | None] = mapped_column(index=True)
    """When the operator last suspended the player or lifted it; every server asks for those
    changed lately (``app.db.player_news``)."""
    suspension_networks: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The suspension also bars new guests from the networks the player used
    (``app.db.networks``)."""
    # The player's appeal against the suspension (``app.db.appeals``): one per suspension, so a
    # new suspension or its lifting clears it.
    appeal_text: Mapped[str | None] = mapped_column(String(1000))
    appealed_at: Mapped[datetime | None]
    appeal_read_at: Mapped[datetime | None]
    """When the operator read the appeal and kept the suspension (the player is told)."""
    seen_at: Mapped[datetime | None]
    """When the player's token was last used, to a round of ``app.db.presence``: what their
    friends read as online or last seen."""


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    # ``watch_code(code)`` (app/rooms/watching.py), kept to find the room by it. Every row has
    # one; the column takes NULL only because SQLite adds a NOT NULL one by copying the table.
    watch_code: Mapped[str | None] = mapped_column(String(32), unique=True, index=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    rules: Mapped[dict[str, Any]]
    target: Mapped[int | None]
    public: Mapped[bool]
    turn_seconds: Mapped[float]
    bot_level: Mapped[str] = mapped_column(String(16), default="basic", server_default="basic")
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    deal_pause_seconds: Mapped[float | None]  # None: the server's default
    accounts_only: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Only signed-in players may sit (the host's choice; ``RoomConfig.accounts_only``)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(BigInteger, default=0)
    current_match_id: Mapped[str | None] = mapped_column(String(32))
    # The server seed of the room's next deal: secret, its SHA-256 is public (app.rooms.shuffle).
    next_seed: Mapped[str | None] = mapped_column(String(64))
    # The seats' standing votes (rematch, concede, next deal), tagged with the match and deal
    # they were cast at (``app.rooms.ports.TableVotes``): a restored room goes on counting them.
    votes: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The players the host removed, who may not sit here again (``RemovedChanged``).
    removed: Mapped[list[str] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Seat(Base):
    __tablename__ = "seats"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str | None] = mapped_column(String(64))
    bot: Mapped[bool] = mapped_column(default=False)
    standin: Mapped[bool] = mapped_column(default=False, server_default=false())
    """A stand-in bot plays this seat for its player (the room's ``standins``)."""
    away_since: Mapped[datetime | None]
    """When the seat's player left the table while a match was played (``AwayChanged``)."""


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    rules: Mapped[dict[str, Any]]
    target: Mapped[int]
    first_dealer: Mapped[int]
    scoresheet: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[int | None]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    def conceded_side(self) -> int | None:
        """The side that conceded the match, or None if it was played out (or is still played).

        The room stores it in the scoresheet it writes when the match ends that way; the
        engine's replayed scoresheet cannot know it, since no deal says so.
        """
        return conceded_side(self.scoresheet)


def conceded_side(scoresheet: dict[str, Any] | None) -> int | None:
    """``Match.conceded_side`` of a stored scoresheet (the store's loads read plain rows)."""
    conceded = (scoresheet or {}).get("conceded")
    return conceded if isinstance(conceded, int) else None


class MatchSeat(Base):
    """Who played a match in which seat: the index behind "a player's matches"."""

    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str | None] = mapped_column(String(64))
    bot: Mapped[bool] = mapped_column(default=False)


class Deal(Base):
    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int]
    dealer: Mapped[int]
    seed: Mapped[str] = mapped_column(String(128))
    cut: Mapped[int]
    deck: Mapped[list[Any]]
    hanging_in: Mapped[int] = mapped_column(default=0)
    # SHA-256 of the seed, shown before the deal, and the entropy players mixed in; both
    # null/absent for deals stored before commitments existed.
    commitment: Mapped[str | None] = mapped_column(String(64))
    contributions: Mapped[list[Any] | None] = mapped_column(JSON)
    contract: Mapped[str | None] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(default=False)
    # When it was dealt (null for deals stored before this column): until its first action,
    # the turn clock of a restored room counts from here.
    dealt_at: Mapped[datetime | None]


class ActionRow(Base):
    """The append-only action log: one row per accepted action, never updated."""

    __tablename__ = "actions"

    deal_id: Mapped[int] = mapped_column(
        ForeignKey("deals.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True)
    action: Mapped[dict[str, Any]]
    auto: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_room_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int | None]
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float]
    command_id: Mapped[str | None] = mapped_column(String(80))
    """The sender's command id (``StoredChat``), tagged ``s:`` or ``i:`` so that 7 and "7"
    stay two ids (a JSON column would not: SQLite stores the text ``7`` as a number)."""


# ---- accounts, sessions, ratings, quick play (issue 13) ----------------------------------


class Account(Base):
    """A guest who claimed their identity: a unique username and an Argon2 password hash.

    The account is the same row of ``players`` (same id), so every match played as a guest
    stays theirs; ``username_key`` is the case-folded name that must be unique.
    """

    __tablename__ = "accounts"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AccountSession(Base):
    """One signed-in device of an account: only the SHA-256 of its token is kept."""

    __tablename__ = "account_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LoginFailure(Base):
    """Failed logins counted per key (``user:<name>``, ``addr:<ip>``) in a window, in the
    database so that every server node sees the same count."""

    __tablename__ = "login_failures"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    count: Mapped[int] = mapped_column(default=0)
    window_start: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """An account's OpenSkill rating in one preset (guests are not rated: migration 0015
    dropped the ratings they had from before). ``ordinal`` (mu − 3σ, what the leaderboard
    ranks by) is kept by the database itself and indexed in the board's order, so that the
    board's first page and a player's rank are read from the index, not by sorting every
    rating."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    ordinal: Mapped[float] = mapped_column(Computed("mu - 3 * sigma", persisted=True))
    matches: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


# The board's order (app/db/ratings.py): best first, then by id.
Index("ix_ratings_board", Rating.preset, Rating.ordinal.desc(), Rating.player_id)


class RatingChange(Base):
    """What one rated match did to one player's rating: the history behind the chart. The key
    makes rating a match idempotent (a retry or a second node cannot rate it twice)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player_id", "at"),)

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    preset: Mapped[str] = mapped_column(String(32))
    won: Mapped[bool]
    mu: Mapped[float]
    sigma: Mapped[float]
    before: Mapped[float]
    after: Mapped[float]
    at: Mapped[datetime] = mapped_column(default=utcnow)


class PlayStats(Base):
    """A player's counts in one preset over every deal they finished (``app.rules.tally``):
    contracts bid and how they ended, contracts defended, contras, capots, belotes and
    declarations, for their profile. The store adds a deal's counts in the transaction that
    stores its end (so a count is never lost nor made twice); migration 0030 counted the deals
    stored before. One column per ``Tally`` counter."""

    __table__ = Table(
        "play_stats",
        Base.metadata,
        Column(
            "player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
        ),
        Column("preset", String(32), primary_key=True),
        *(Column(name, Integer, nullable=False, server_default="0") for name in TALLY_COUNTERS),
    )


class PlayerNetwork(Base):
    """A network (an IPv4 address, an IPv6 /64) a player used, and when last: what lets a
    suspension bar new guests from there (``app.db.networks``); kept 30 days after last use."""

    __tablename__ = "player_networks"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    network: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    seen_at: Mapped[datetime] = mapped_column(index=True)


class QuickPlayTicket(Base):
    """A player waiting in the quick-play queue (one ticket per player), until a table is
    formed for it (``room_code``). Kept in the database, not in a process, so that any node
    may form tables from the queue."""

    __tablename__ = "quickplay_tickets"
    __table_args__ = (Index("ix_quickplay_queue", "preset", "rated", "room_code"),)

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool]
    rating: Mapped[float]
    wait_seconds: Mapped[float]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    claim: Mapped[str | None] = mapped_column(String(32))
    # When it was claimed: a claim that never got its table (its node died forming it) is
    # given back after ``app.rooms.matchmaking.CLAIM_SECONDS``.
    claimed_at: Mapped[datetime | None]
    room_code: Mapped[str | None] = mapped_column(String(32))
    partner_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """A friend to be seated with as partners (``app.rooms.matchmaking``): the two are one
    unit of the queue once each ticket names the other. Indexed: a player's page asks who is
    waiting for them."""


class NodeLease(Base):
    """A node of a cluster is alive until ``expires_at`` (the database's clock), renewed once
    per period whatever its number of rooms; ``epoch`` is raised by each process started under
    the name (app/db/ownership.py)."""

    __tablename__ = "node_leases"

    node: Mapped[str] = mapped_column(String(64), primary_key=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime]


class RoomLease(Base):
    """Which node owns a room (``''``: nobody) and since when (``epoch``, raised by every change
    of owner); the room is free once its node's lease expired. ``handed``: a stopping node gave
    the room to ``node``, which is to load it. Only a cluster of nodes on PostgreSQL uses it
    (app/db/ownership.py): the room's writes are fenced on its row."""

    __tablename__ = "room_leases"
    __table_args__ = (
        Index("ix_room_leases_node", "node"),
        Index(
            "ix_room_leases_handed",
            "node",
            postgresql_where=text("handed"),
            sqlite_where=text("handed"),
        ),
    )

    room_code: Mapped[str] = mapped_column(String(32), primary_key=True)
    node: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(BigInteger)
    handed: Mapped[bool] = mapped_column(default=False, server_default=false())


class Report(Base):
    """A player told the operator that another broke the site's rules (``app.db.reports``).
    Read by the operator (``python -m app.admin reports``), who closes it, and by its reporter
    with its outcome; gone with either player's erasure. One per reporter and reported player a
    day: reporting again replaces it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    reported_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    room_code: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str | None] = mapped_column(String(500))
    evidence: Mapped[list[Any]]
    """The reported player's last chat lines at that table when the report was made (the room
    keeps only its last lines: the operator would find nothing later)."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    closed_at: Mapped[datetime | None]
    """When the operator closed it (``python -m app.admin close``, or a suspension or a rename
    that dealt with it); None while it waits to be read."""
    outcome: Mapped[str | None] = mapped_column(String(16))
    """``upheld`` (the operator acted on it) or ``dismissed``; None while open."""
    told_at: Mapped[datetime | None]
    """When the reporter read what came of it (``POST /api/players/me/reports/read``); None
    while they have not, or while it is open."""


class Mute(Base):
    """A player hides another's chat on every device and is never seated with them by quick
    play (``app.db.mutes``). Read by the one who muted alone; gone with either's erasure."""

    __tablename__ = "mutes"

    muter_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    muted_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Friendship(Base):
    """A player asked another to be friends (``app.db.friends``); accepted when the other
    agreed. Read by the two alone; gone with either's erasure."""

    __tablename__ = "friendships"

    asker_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    asked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    accepted_at: Mapped[datetime | None]


class Invitation(Base):
    """A friend's "come to my table" (``app.db.friends``): one per table and invitee, the
    latest inviter's. Read by the invitee alone; gone with either's erasure."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("to_id", "room_code"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    inviter_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    room_code: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ModerationEntry(Base):
    """What an operator did to a player, or to the site (an announcement), with ``python -m
    app.admin`` (``app.db.moderation``): who, when, what. Read by operators alone; erasure
    keeps the entry but not its words."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    operator: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    """None: a change to the whole site (an announcement), not to a player."""
    detail: Mapped[str | None] = mapped_column(String(400))


class Announcement(Base):
    """The operator's word to everyone on the site (``app.db.announcements``): one at a time,
    the row with id 1, shown by every client until it ends or is taken down."""

    __tablename__ = "announcements"

    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str] = mapped_column(String(300))
    texts: Mapped[dict[str, Any]]
    """The same in other languages, by language code (``{"fr": "…"}``), for those readers."""
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    until: Mapped[datetime | None]


class Tournament(Base):
    """A knockout tournament (``app.rooms.tournaments``): people enter while it is
    ``registering``, its host starts it (``playing``: units drawn, the first round's tables
    open) and it is ``finished`` once its final is won (``champion``: the winning unit), or
    ``cancelled`` by its host before it starts."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(32))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Every table's house rules, as a room's ``rules`` hold them (those at their default left
    out)."""
    target: Mapped[int | None]
    """Every table's match target; None: the preset's."""
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    size: Mapped[int]
    """The most entrants it takes."""
    swiss_rounds: Mapped[int | None]
    """A Swiss tournament's rounds (``app.rooms.swiss``); None: a knockout."""
    starts_at: Mapped[datetime | None]
    """When it starts by itself (with enough entrants; its host may start it before); None:
    when its host starts it."""
    check_in_minutes: Mapped[int | None]
    """With a start time: entrants check in during these last minutes before it, and the
    start draws only those who did (``app.rooms.tournaments``); None: no check-in."""
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Its matches move ratings: only accounts enter, and a table with a bot is casual."""
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    champion: Mapped[int | None]


class TournamentEntry(Base):
    """A player entered in a tournament, and the unit (the side they play as, alone or with a
    drawn partner) the start drew them into. Shown under the player's name as it is now;
    erasure keeps an entry of a started tournament, nameless as its player."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    unit: Mapped[int | None]
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    checked_in_at: Mapped[datetime | None]
    """When they checked in (a tournament with check-in); None: not (yet)."""
    partner_id: Mapped[str | None] = mapped_column(String(32))
    """The entrant they asked to play with (a game of partners): two who name each other are
    drawn as one unit; None: drawn with anyone."""


class TournamentRemoval(Base):
    """A player the host took out of a tournament before its start: they may not enter it
    again (a troll's entries, or one who entered a friends' evening uninvited)."""

    __tablename__ = "tournament_removals"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentMatch(Base):
    """One match of a tournament's bracket (``app.rooms.bracket``): unit ``a`` on the game's
    first side against unit ``b`` (None: a bye, won by ``a`` as it is made), at the table
    ``room_code`` once one is open; ``winner`` (a unit), the sides' ``scores`` and the stored
    match (``match_id``) once it is played."""

    __tablename__ = "tournament_matches"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(primary_key=True)
    slot: Mapped[int] = mapped_column(primary_key=True)
    unit_a: Mapped[int]
    unit_b: Mapped[int | None]
    room_code: Mapped[str | None] = mapped_column(String(32), index=True)
    match_id: Mapped[str | None] = mapped_column(String(32), index=True)
    winner: Mapped[int | None]
    scores: Mapped[list[Any] | None] = mapped_column(JSON)
    conceded: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The loser gave the match up (``Match.conceded_side``) rather than lose it on points."""
