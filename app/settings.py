"""Server settings, read from the environment so one image runs anywhere.

Every knob the operator may turn lives here and nowhere else: the app factory receives a
``Settings`` value instead of reading the environment itself, which keeps tests free to build
apps with their own settings side by side.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/belote.sqlite3"


class Settings(BaseSettings):
    """Configuration of one server process (environment variables prefixed ``BELOTE_``)."""

    model_config = SettingsConfigDict(env_prefix="BELOTE_", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        validation_alias=AliasChoices("DATABASE_URL", "BELOTE_DATABASE_URL"),
        description="SQLAlchemy async URL: sqlite+aiosqlite:///... or postgresql+asyncpg://...",
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    log_level: str = "info"

    default_turn_seconds: int = Field(
        default=30,
        ge=0,
        le=600,
        description="Turn timer of a new room when none is asked; 0 = off.",
    )
    max_turn_seconds: int = Field(default=600, ge=1)
    grace_seconds: float = Field(
        default=60.0, gt=0, description="How long a seated player may be away before a bot sits in."
    )
    bot_delay_seconds: float = Field(
        default=0.6,
        ge=0,
        description="Pause before a bot acts, so that people can follow the table.",
    )
    last_card_seconds: float = Field(
        default=0.8,
        ge=0,
        le=10,
        description="Pause before a player's last card plays itself (it leaves no choice).",
    )
    bot_processes: int = Field(
        default=0,
        ge=0,
        description="Worker processes in which strong bots think; 0 = one fewer than the CPUs, "
        "at least one.",
    )
    deal_pause_seconds: float = Field(
        default=10.0,
        ge=0,
        le=120,
        description="How long a finished deal's result is shown before the next deal, in a room "
        'created without its own pause; the players can cut it short ("next deal").',
    )

    max_frame_bytes: int = Field(default=4096, ge=256, description="Largest accepted client frame.")
    ws_max_bytes: int = Field(
        default=65536,
        ge=1024,
        description="Hard limit of the WebSocket server: it closes above it.",
    )
    ws_per_message_deflate: bool = Field(
        default=False,
        description="Offer permessage-deflate. Off by default: frames are a few KB of JSON, and "
        "compressing each one for each connection (with a zlib state per connection) made an "
        "action cost the server about 30% more CPU in bench.load.",
    )
    create_per_second: float = Field(
        default=1.0, gt=0, description="Sustained new guests + rooms per client address per second."
    )
    create_burst: int = Field(
        default=60, ge=1, description="New guests + rooms one address may make in a burst."
    )
    rename_burst: int = Field(
        default=3,
        ge=1,
        description="Renames one player may make at once (then one per rename_seconds): every "
        "rename is told to everyone at the player's tables.",
    )
    rename_seconds: float = Field(
        default=20.0, gt=0, description="Seconds between a player's renames, past the burst."
    )
    report_burst: int = Field(
        default=5,
        ge=1,
        description="Reports one player may make at once (then one per report_seconds): the "
        "operator reads each of them.",
    )
    report_seconds: float = Field(
        default=60.0, gt=0, description="Seconds between a player's reports, past the burst."
    )
    friend_burst: int = Field(
        default=10,
        ge=1,
        description="Friend requests and invitations one player may send at once (then one "
        "per friend_seconds): each is shown to another player.",
    )
    friend_seconds: float = Field(
        default=6.0,
        gt=0,
        description="Seconds between a player's friend requests and invitations, past the burst.",
    )
    presence_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How often a node writes who used the site (their token) since its last "
        "round: a friend shows online for four rounds (at least two minutes) after.",
    )
    export_burst: int = Field(
        default=3,
        ge=1,
        description="Exports of their data one player may ask for at once (then one per "
        "export_seconds): each reads everything kept about them.",
    )
    export_seconds: float = Field(
        default=60.0, gt=0, description="Seconds between a player's exports, past the burst."
    )
    http_per_second: float = Field(
        default=50.0,
        gt=0,
        description="Sustained HTTP requests per client address per second (this node's count).",
    )
    http_burst: int = Field(
        default=300,
        ge=1,
        description="HTTP requests one address may make in a burst; beyond, 429 rate_limited.",
    )
    rate_per_second: float = Field(default=20.0, gt=0, description="Sustained client frames/s.")
    rate_burst: int = Field(default=40, ge=1, description="Client frames allowed in a burst.")
    flood_refusals: int = Field(
        default=40,
        ge=1,
        description="Frames refused as rate_limited one connection may send in a burst; one more "
        "and it is closed (flooding, 1008).",
    )
    flood_refusals_per_second: float = Field(
        default=1.0, gt=0, description="How fast that allowance of refused frames comes back."
    )
    ws_max_connections: int = Field(
        default=10_000,
        ge=1,
        description="Open WebSocket connections the server keeps; one more is refused "
        "(server_busy, 1013).",
    )
    ws_per_address: int = Field(
        default=64,
        ge=1,
        description="Open WebSocket connections per client address; one more is refused "
        "(too_many_connections, 4429).",
    )
    http_concurrency: int = Field(
        default=1000,
        ge=1,
        description="HTTP connections served beside the WebSockets: uvicorn's limit_concurrency "
        "is ws_max_connections plus this, so /healthz still answers when the WebSockets are "
        "full; beyond it uvicorn answers 503.",
    )
    hello_seconds: float = Field(
        default=10.0,
        gt=0,
        description="How long a new WebSocket may go without a successful hello before it is "
        "closed (hello_timeout, 4408).",
    )
    token_check_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often a node asks the database whether the tokens of its open "
        "WebSockets still work: a socket whose token was revoked on another node (a device "
        "signed out, a password changed) is closed (4401) within this time; on the node that "
        "revoked it, at once. The server reads, at the same pace, the players "
        "erased or renamed through another node of its cluster or by the operator (the rooms "
        "it holds stop naming them, or show the new name), and the operator's announcement.",
    )
    outbox_limit: int = Field(
        default=1000, ge=10, description="Frames queued for a slow client before it is cut off."
    )
    outbox_chars: int = Field(
        default=1_000_000,
        ge=65_536,
        description="Characters of frames queued for a slow client before it is cut off, "
        "however few the frames: a snapshot (the chat, the scoresheet) is up to a thousand "
        "times an ack, and one command can send one to each of a guest's sockets.",
    )
    event_backlog: int = Field(
        default=256, ge=1, description="Events kept per room for reconnecting clients."
    )
    lease_wait_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How long a starting server waits for another one on the same database to "
        "stop before it gives up (app/db/lease.py).",
    )
    node_id: str = Field(
        default="",
        pattern=r"^[A-Za-z0-9_-]{0,64}$",
        description="This server's name in a cluster of nodes sharing one PostgreSQL database "
        "(each room is leased to one node: app/db/ownership.py); also its server name in the "
        "proxy, which routes ?node=<id> to it. Empty: the only server of its database.",
    )
    redis_url: str = Field(
        default="",
        description="redis://host:port/db shared by the nodes of a cluster: creation limits "
        "per address and the lobby's list over all nodes (app/cluster). Empty: per node.",
    )
    redis_prefix: str = Field(
        default="belote:", description="Prefix of every Redis key (several sites on one Redis)."
    )
    node_lease_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a node's room leases last unless renewed: a node that stops "
        "(killed, frozen, cut off) loses its rooms to the others this long after its last "
        "renewal, plus one renewal period.",
    )
    node_renew_seconds: float = Field(
        default=1.0,
        gt=0,
        description="How often a node renews its leases and takes over rooms whose owner "
        "stopped renewing; well below node_lease_seconds.",
    )
    room_idle_seconds: float = Field(
        default=600.0,
        gt=0,
        description="A room nobody is connected to or acting in for this long is dropped from "
        "memory; it stays stored and is loaded again when someone opens it.",
    )
    room_retention_days: float = Field(
        default=30.0,
        ge=0,
        description="A room that never played a match and has not changed for this many days "
        "is deleted, with its seats and chat (0 keeps every room). Rooms that played are kept.",
    )
    report_retention_days: float = Field(
        default=180.0,
        ge=0,
        description="Reports players made of others are deleted this many days after they "
        "were made (0 keeps them): they hold the reported player's words.",
    )
    metrics: bool = Field(
        default=True, description="Serve GET /metrics (Prometheus text format) for operators."
    )
    sqlite_busy_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long an SQLite write waits for a lock held by another process before "
        "it fails (the command then gets server_error; a timed step is retried).",
    )
    retry_max_seconds: float = Field(
        default=30.0,
        gt=0,
        description="Longest pause before a room tries again a timed step (next deal, bot move, "
        "turn clock, stand-in) that failed, e.g. while the database was unavailable.",
    )
    login_failures_per_account: int = Field(
        default=10, ge=1, description="Failed logins to one username allowed per login window."
    )
    login_failures_per_address: int = Field(
        default=50, ge=1, description="Failed logins from one address allowed per login window."
    )
    login_window_seconds: float = Field(
        default=900.0, gt=0, description="The window in which failed logins are counted."
    )
    quickplay_turn_seconds: int = Field(
        default=30,
        ge=1,
        le=600,
        description="Turn timer of a quick-play table (never off: a rated room needs one).",
    )
    tournament_turn_seconds: int = Field(
        default=30,
        ge=1,
        le=600,
        description="Turn timer of a tournament's table (never off: an absent entrant's "
        "stand-in plays, so that every match of the bracket ends).",
    )
    tournament_sweep_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often each node moves the tournaments being played on (results read, "
        "next tables opened); also at once when one of its rooms ends a match.",
    )
    quickplay_forget_seconds: float = Field(
        default=20.0,
        gt=0,
        description="A quick-play ticket whose player has not asked about it for this long "
        "leaves the queue (the client asks every second or so while it waits).",
    )
    chat_max_chars: int = Field(default=300, ge=1)
    chat_history: int = Field(
        default=50, ge=0, description="Chat lines a room keeps, in memory and in the database."
    )
    chat_per_second: float = Field(
        default=0.5, gt=0, description="Sustained chat lines per guest, over all their sockets."
    )
    chat_burst: int = Field(default=5, ge=1, description="Chat lines a guest may post in a burst.")
    room_chat_per_second: float = Field(
        default=2.0, gt=0, description="Sustained chat lines per room, everyone together."
    )
    room_chat_burst: int = Field(
        default=20, ge=1, description="Chat lines a room takes in a burst."
    )

    @model_validator(mode="after")
    def _quick_play_clock_is_allowed(self) -> Settings:
        """A quick-play table is a room like any other: its timer must be one a room may have,
        or no quick-play table could be made."""
        if self.quickplay_turn_seconds > self.max_turn_seconds:
            raise ValueError("quickplay_turn_seconds is longer than max_turn_seconds")
        if self.tournament_turn_seconds > self.max_turn_seconds:
            raise ValueError("tournament_turn_seconds is longer than max_turn_seconds")
        return self

    def sqlite_path(self) -> Path | None:
        """The file behind an SQLite URL, so that its folder can be created before use."""
        prefix = "sqlite+aiosqlite:///"
        if not self.database_url.startswith(prefix):
            return None
        raw = self.database_url[len(prefix) :].split("?", 1)[0]
        if raw in ("", ":memory:"):
            return None
        return Path(raw)
