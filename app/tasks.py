"""Background tasks the server's parts own (the store's writer, a room's actor, the lease and
lobby loops): each part starts its own, and stops it the same way."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` and wait until it has finished, so that nothing it holds outlives its
    owner's ``close``; a task that is None (never started, or stopped already) is left alone."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
