"""Background tasks the server's parts own (the store's writer, a room's actor, the lease and
lobby loops): each part starts its own, and stops it the same way."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def next_round(soon: asyncio.Event, seconds: float) -> None:
    """Wait until ``soon`` is set or ``seconds`` pass, whichever comes first, and clear it: a
    loop's next round, brought forward by whoever sets the event."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(soon.wait(), seconds)
    soon.clear()


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` and wait until it has finished, so that nothing it holds outlives its
    owner's ``close``; a task that is None (never started, or stopped already) is left alone."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
