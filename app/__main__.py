"""``python -m app``: migrate the database, then serve (what ``make run`` does)."""

from __future__ import annotations

import asyncio
import gc

import uvicorn

from app.db.engine import make_engine
from app.db.migrate import upgrade
from app.main import create_app
from app.settings import Settings


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


def main() -> None:
    settings = Settings()
    asyncio.run(migrate(settings))
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=settings.ws_per_message_deflate,
    )


if __name__ == "__main__":
    main()
