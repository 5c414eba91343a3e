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

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from app.api import errors, matches, my_rooms, players, rooms
from app.api.headers import ClientSecurityHeaders
from app.api.metrics import metrics_router
from app.api.services import Services
from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.db.lease import make_lease
from app.db.players import Players
from app.db.store import SqlStore
from app.rooms.manager import RoomManager
from app.rooms.room import RoomTimings
from app.rooms.thinking import BotPool
from app.settings import Settings
from app.transport.ratelimit import PerAddressLimiter
from app.transport.ws import WireLimits, WireStats, websocket_router

STATIC = Path(__file__).resolve().parent.parent / "static"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    store = SqlStore(engine, chat_history=settings.chat_history)
    bots = BotPool(settings.bot_processes or max(1, (os.cpu_count() or 2) - 1))
    manager = RoomManager(
        store,
        RoomTimings(
            grace_seconds=settings.grace_seconds,
            bot_delay_seconds=settings.bot_delay_seconds,
            deal_pause_seconds=settings.deal_pause_seconds,
            event_backlog=settings.event_backlog,
            chat_max_chars=settings.chat_max_chars,
            chat_history=settings.chat_history,
        ),
        policy_factory=bots.policy,
        idle_seconds=settings.room_idle_seconds,
    )
    player_repo = Players(sessions)

    lease = make_lease(engine)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await lease.acquire(settings.lease_wait_seconds)
        try:
            store.start()
            await manager.restore_all()
            manager.start_sweeping()
            yield
        finally:
            await manager.close()
            await bots.close()
            await store.close()
            await lease.release()
            await engine.dispose()

    app = FastAPI(
        title="Belote server",
        version="0.1.0",
        description="Bulgarian Belot and French Belote. WebSocket protocol: docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.services = Services(
        settings,
        player_repo,
        manager,
        History(sessions),
        PerAddressLimiter(settings.create_per_second, settings.create_burst),
    )
    errors.install(app)
    wire_stats = WireStats()
    app.add_middleware(ClientSecurityHeaders)
    app.include_router(my_rooms.router)
    app.include_router(players.router)
    app.include_router(rooms.router)
    app.include_router(matches.router)
    app.include_router(
        websocket_router(
            manager,
            player_repo,
            WireLimits(
                max_frame_bytes=settings.max_frame_bytes,
                rate_per_second=settings.rate_per_second,
                rate_burst=settings.rate_burst,
                outbox_limit=settings.outbox_limit,
            ),
            wire_stats,
        )
    )
    if settings.metrics:
        app.include_router(metrics_router(manager, store.stats, wire_stats))

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    index = STATIC / "index.html"
    if index.is_file():

        @app.get("/r/{code}", include_in_schema=False)
        async def invite(code: str) -> FileResponse:
            """An invite link opens the client, which reads the code from the address."""
            return FileResponse(index)

        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
