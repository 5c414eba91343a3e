"""``python -m app``: migrate the database, then serve (what ``make run`` does)."""

from __future__ import annotations

import asyncio

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


def main() -> None:
    settings = Settings()
    asyncio.run(migrate(settings))
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=settings.ws_per_message_deflate,
    )


if __name__ == "__main__":
    main()
