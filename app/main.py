"""``create_app(settings)``: builds the FastAPI application and wires the layers together.

Nothing happens at import time. The database engine, the store's writer task and the room
manager are created in the lifespan, and every unfinished room is restored from the database
before the first request is served.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from starlette.middleware.gzip import GZipMiddleware

from app.api import (
    accounts,
    announcement,
    errors,
    friends,
    matches,
    mutes,
    my_data,
    my_rooms,
    players,
    quickplay,
    ratings,
    reports,
    rooms,
    suspension,
    tournaments,
)
from app.api.client_files import PAGE, mount_client
from app.api.headers import ClientSecurityHeaders
from app.api.metrics import metrics_router
from app.api.services import Services
from app.cluster.admission import RedisGate
from app.cluster.client import redis_client
from app.cluster.limits import Limiter, LocalLimiter, RedisLimiter
from app.cluster.lobby import Lobby, LocalLobby, RedisLobby
from app.db.accounts import Accounts, LoginLimits
from app.db.announcements import Announcements
from app.db.appeals import Appeals
from app.db.engine import make_engine, make_sessionmaker
from app.db.export import DataExport
from app.db.friends import Friends
from app.db.history import History
from app.db.lease import Lease, make_lease
from app.db.models import utcnow
from app.db.mutes import Mutes
from app.db.networks import Networks
from app.db.ownership import RoomLeases, session_name
from app.db.player_news import PlayerNews
from app.db.players import Players
from app.db.presence import Presence
from app.db.quickplay import SqlQuickPlayQueue
from app.db.ratings import Ratings
from app.db.reports import Reports
from app.db.retention import Retention
from app.db.store import SqlStore
from app.db.tournaments import SqlTournaments
from app.rooms.errors import RoomElsewhere
from app.rooms.manager import RoomManager
from app.rooms.matchmaking import Matchmaker
from app.rooms.room import RoomTimings
from app.rooms.thinking import BotPool
from app.rooms.tournaments import Director
from app.settings import Settings
from app.transport.direct import KeepRawSend
from app.transport.revocation import TokenWatch
from app.transport.ws import WireLimits, WireStats, websocket_router

STATIC = Path(__file__).resolve().parent.parent / "static"
GZIP_FROM_BYTES = 1024


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    engine = make_engine(
        settings.database_url, settings.sqlite_busy_seconds, session_name(settings.node_id)
    )
    sessions = make_sessionmaker(engine)
    leases = None
    if settings.node_id:
        if engine.url.get_backend_name() != "postgresql":
            raise ValueError("BELOTE_NODE_ID (a cluster of nodes) needs a PostgreSQL database")
        leases = RoomLeases(
            engine, settings.node_id, settings.node_lease_seconds, settings.room_idle_seconds
        )
    store = SqlStore(
        engine,
        chat_history=settings.chat_history,
        sqlite_busy_seconds=settings.sqlite_busy_seconds,
        fence=leases,
    )
    bots = BotPool(settings.bot_processes or max(1, (os.cpu_count() or 2) - 1))
    ratings_repo = Ratings(sessions)

    def match_ended(match_id: str) -> None:
        """A stored match is rated, and may be a tournament's table: its bracket moves on."""
        ratings_repo.schedule(match_id)
        director.match_ended(match_id)

    manager = RoomManager(
        store,
        RoomTimings(
            grace_seconds=settings.grace_seconds,
            bot_delay_seconds=settings.bot_delay_seconds,
            last_card_seconds=settings.last_card_seconds,
            deal_pause_seconds=settings.deal_pause_seconds,
            event_backlog=settings.event_backlog,
            chat_max_chars=settings.chat_max_chars,
            chat_history=settings.chat_history,
            retry_max_seconds=settings.retry_max_seconds,
            max_turn_seconds=settings.max_turn_seconds,
        ),
        policy_factory=bots.policy,
        idle_seconds=settings.room_idle_seconds,
        on_match_end=match_ended,
        ownership=leases,
    )
    director = Director(
        SqlTournaments(sessions),
        manager,
        turn_seconds=settings.tournament_turn_seconds,
        sweep_seconds=settings.tournament_sweep_seconds,
    )
    player_repo = Players(sessions)
    retention = Retention(
        sessions,
        settings.room_retention_days,
        manager.held_codes,
        report_days=settings.report_retention_days,
    )
    token_watch = TokenWatch(player_repo.live_tokens, settings.token_check_seconds)
    presence = Presence(sessions, settings.presence_seconds)
    # Each server hears of the players erased or renamed through another node of its cluster,
    # or by the operator (``python -m app.admin rename``), and of the operator's suspensions.
    player_news = PlayerNews(
        sessions,
        manager.forget_player,
        manager.rename_player,
        settings.token_check_seconds,
        suspend=manager.suspend_player,
    )

    # A single server keeps others off its database; a cluster's nodes share it by room.
    lease: Lease | None = make_lease(engine) if leases is None else None
    redis = redis_client(settings.redis_url) if settings.redis_url else None

    def limiter(kind: str, per_second: float, burst: int) -> Limiter:
        """Counted by this process, or across the cluster when Redis is shared."""
        if redis is None:
            return LocalLimiter(per_second, burst)
        return RedisLimiter(redis, f"{settings.redis_prefix}{kind}:", per_second, burst)

    creations = limiter("create", settings.create_per_second, settings.create_burst)
    # Each rename is news at the player's tables (a seat, a line for the others): bounded.
    renames = limiter("rename", 1 / settings.rename_seconds, settings.rename_burst)
    report_limits = limiter("report", 1 / settings.report_seconds, settings.report_burst)
    export_limits = limiter("export", 1 / settings.export_seconds, settings.export_burst)
    friend_limits = limiter("friend", 1 / settings.friend_seconds, settings.friend_burst)
    lobby: Lobby = LocalLobby(manager)
    shared_lobby = None
    gate = None  # WebSockets per address: counted by this process unless Redis is shared
    if redis is not None:
        gate = RedisGate(
            redis,
            settings.redis_prefix,
            settings.node_id or "server",
            settings.ws_max_connections,
            settings.ws_per_address,
        )
        if settings.node_id:
            lobby = shared_lobby = RedisLobby(
                redis, settings.redis_prefix, settings.node_id, manager
            )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if lease is not None:
            await lease.acquire(settings.lease_wait_seconds)
        try:
            store.start()
            if leases is not None:
                await leases.start()
            for player_id, suspension in (await player_repo.suspensions()).items():
                manager.suspensions.set(player_id, suspension)  # before any room is served
            await manager.restore_all()
            await ratings_repo.catch_up()
            manager.start_sweeping()
            manager.keep_leases(settings.node_renew_seconds)
            retention.start()
            if shared_lobby is not None:
                shared_lobby.start()
            if gate is not None:
                gate.start()
            token_watch.start()
            player_news.start()
            presence.start()
            director.start_sweeping()
            yield
        finally:
            await director.close()
            await retention.close()
            await token_watch.close()
            await player_news.close()
            await presence.close()
            if shared_lobby is not None:
                await shared_lobby.close()
            if gate is not None:
                await gate.close()
            await manager.close()
            await ratings_repo.close()
            await bots.close()
            await store.close()
            if lease is not None:
                await lease.release()
            if redis is not None:
                await redis.aclose()
            await engine.dispose()

    app = FastAPI(
        title="Belote server",
        version="0.1.0",
        description="Bulgarian Belot and French Belote. WebSocket protocol: docs/protocol.md.",
        lifespan=lifespan,
        responses=errors.responses(429),  # any call, beyond an address's requests (RequestLimit)
    )
    app.state.services = Services(
        settings,
        player_repo,
        manager,
        History(sessions),
        creations,
        renames,
        Reports(sessions),
        report_limits,
        Appeals(sessions),
        Mutes(sessions),
        Friends(sessions),
        friend_limits,
        presence,
        Networks(sessions),
        DataExport(sessions),
        Announcements(sessions, settings.token_check_seconds),
        export_limits,
        lobby,
        Accounts(
            sessions,
            LoginLimits(
                settings.login_failures_per_account,
                settings.login_failures_per_address,
                settings.login_window_seconds,
            ),
        ),
        ratings_repo,
        Matchmaker(
            SqlQuickPlayQueue(sessions),
            manager,
            ratings_repo.rating_of,
            turn_seconds=settings.quickplay_turn_seconds,
            forget_seconds=settings.quickplay_forget_seconds,
            # A cluster's nodes stamp and age the tickets by the database's clock, so that
            # their own need not agree; a single server's is the only one.
            clock=utcnow if leases is None else leases.now,
        ),
        token_watch.check_soon,
        director,
    )
    errors.install(app)
    app.add_middleware(
        errors.RequestLimit, per_second=settings.http_per_second, burst=settings.http_burst
    )

    @app.exception_handler(RoomElsewhere)
    async def elsewhere(request: Request, error: Exception) -> RedirectResponse:
        """A REST call for a room another node serves: the same call again, with ``node=`` for
        the proxy to route on (307 keeps the method and the body)."""
        assert isinstance(error, RoomElsewhere)
        url = request.url.include_query_params(node=error.node)
        return RedirectResponse(str(url), status_code=307)

    wire_stats = WireStats()
    # The API's answers of 1 KB and more gzipped to a client that takes it (a match's record,
    # a history, the rules: tens of KB that shrink five- to tenfold, on a phone's slow link).
    # The client's files come gzipped already (client_files.py) and are passed through.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM_BYTES, compresslevel=6)
    app.add_middleware(ClientSecurityHeaders)
    app.add_middleware(KeepRawSend)  # added last, so it runs first: the server's own send
    app.include_router(my_rooms.router)
    app.include_router(players.router)
    app.include_router(rooms.router)
    app.include_router(matches.router)
    app.include_router(accounts.router)
    app.include_router(ratings.router)
    app.include_router(quickplay.router)
    app.include_router(tournaments.router)
    app.include_router(reports.router)
    app.include_router(suspension.router)
    app.include_router(mutes.router)
    app.include_router(friends.router)
    app.include_router(my_data.router)
    app.include_router(announcement.router)
    app.include_router(
        websocket_router(
            manager,
            player_repo,
            WireLimits.from_settings(settings),
            wire_stats,
            gate,
            token_watch,
            presence.hold,
        )
    )
    if settings.metrics:
        app.include_router(metrics_router(manager, store.stats, wire_stats))

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    if (STATIC / PAGE).is_file():
        mount_client(app, STATIC)
    return app
