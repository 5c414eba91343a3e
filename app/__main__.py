"""``python -m app``: migrate the database, then serve (what ``make run`` does)."""

from __future__ import annotations

import asyncio
import gc
import logging
import resource
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn

from app.db.engine import make_engine
from app.db.migrate import upgrade
from app.main import create_app
from app.settings import Settings

log = logging.getLogger("app")
HAND_OVER_GRACE_SECONDS = 0.2
# After the hand-over, a request may still wait on a room that was stopped under it (a command
# queued as the actor stopped is never answered): uvicorn cancels what is left after this.
NODE_SHUTDOWN_SECONDS = 5
SPARE_FILES = 64  # the listening socket, the database, logs, the bot workers' pipes


async def migrate(settings: Settings) -> None:
    engine = make_engine(settings.database_url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


def tune_gc() -> None:
    """Run the cycle collector far less often than CPython's default (700, 10, 10).

    Every action allocates thousands of short-lived objects (views, frames) that reference
    counting frees, while connections and each room's event backlog keep about a million
    long-lived ones. With the default thresholds the collector ran ~50 times a second and
    scanned everything every few seconds: at 500 tables in bench.load that was 30% of the
    server's CPU, with pauses up to 0.6 s. Play itself makes almost no cyclic garbage (opening
    and closing connections makes a little), so a full collection every few minutes under full
    load is enough. ``freeze`` takes what startup built out of every later collection.
    """
    gc.freeze()
    gc.set_threshold(10_000, 10, 100)


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options. ``limit_concurrency`` bounds every open connection (uvicorn answers
    503 beyond it); the app itself bounds the WebSockets below that (app/transport/admission.py),
    so HTTP, ``/healthz`` included, keeps ``http_concurrency`` connections for itself."""
    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "ws_max_size": settings.ws_max_bytes,
        "ws_per_message_deflate": settings.ws_per_message_deflate,
        "limit_concurrency": settings.ws_max_connections + settings.http_concurrency,
    }


def raise_file_limit(connections: int) -> None:
    """Every connection holds a file descriptor, and the usual soft limit (1024) is far below
    what the connection bounds allow: without this, the descriptors would run out before any
    bound is reached. Raise the soft limit as far as the hard one allows; warn if short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if wanted < connections + SPARE_FILES:
        log.warning(
            "open files are limited to %d, below the %d connections allowed: lower "
            "BELOTE_WS_MAX_CONNECTIONS or raise the limit (ulimit -n)",
            wanted,
            connections,
        )


class Node(uvicorn.Server):
    """uvicorn's server for a node of a cluster: on SIGTERM it stops listening, then hands its
    rooms over (``RoomManager.close``: each room to a live node, its clients told which with
    4307) before uvicorn closes the remaining connections. Left to uvicorn, every WebSocket
    would be closed with 1012 first, and its client sent round robin to any node, which would
    redirect it once more while the rooms were still being handed over."""

    def __init__(self, config: uvicorn.Config, hand_over: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self._hand_over = hand_over

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        try:
            await self._hand_over()
        except Exception:  # the lifespan tries again; the leases expire by themselves anyway
            log.exception("handing the rooms over failed")
        # The closes the hand-over queued go out after the frames before them (each socket's
        # writer task); uvicorn would close whatever is still open with 1012.
        await asyncio.sleep(HAND_OVER_GRACE_SECONDS)
        await super().shutdown(sockets)


def main() -> None:
    settings = Settings()
    asyncio.run(migrate(settings))
    app = create_app(settings)
    tune_gc()
    options = server_options(settings)
    raise_file_limit(options["limit_concurrency"])
    if not settings.node_id:
        uvicorn.run(app, **options)
        return
    config = uvicorn.Config(app, **options, timeout_graceful_shutdown=NODE_SHUTDOWN_SECONDS)
    Node(config, app.state.services.rooms.close).run()


if __name__ == "__main__":
    main()
