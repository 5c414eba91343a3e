"""Signing out reaches the sockets already open: a token that stops working (its device signed
out, a logout, a password changed) stops working on every WebSocket that said hello with it.

The transport checks a token once, at ``hello``; the REST calls that revoke one only delete its
row. So each node keeps the tokens of its open sockets and asks the database, every
``interval`` seconds and at once after a revocation it served itself, which of them still
resolve (one query per few hundred tokens); the sockets of the others are closed with 4401 and
their clients, reconnecting, meet ``bad_token``. This needs no message between nodes and
costs nothing per frame, where checking the token on every command would cost a query each;
the price is that another node's sockets go on for at most ``interval`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection

from app.tasks import next_round, stop_task

log = logging.getLogger(__name__)

LiveTokens = Callable[[Collection[str]], Awaitable[set[str]]]
"""Of these tokens, those that still resolve to a player (``Players.live_tokens``)."""


class TokenWatch:
    """The tokens that open sockets said hello with, and who to close when one is revoked."""

    def __init__(self, live: LiveTokens, interval: float) -> None:
        self._live = live
        self._interval = interval
        self._watched: dict[str, dict[int, Callable[[], None]]] = {}
        self._next = 0
        self._soon = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def watch(self, token: str, close: Callable[[], None]) -> Callable[[], None]:
        """Call ``close`` once ``token`` no longer resolves; the returned function forgets it
        (the socket ended on its own)."""
        key = self._next
        self._next += 1
        self._watched.setdefault(token, {})[key] = close

        def forget() -> None:
            closers = self._watched.get(token)
            if closers is not None:
                closers.pop(key, None)
                if not closers:
                    del self._watched[token]

        return forget

    def check_soon(self) -> None:
        """A token was revoked here: check now rather than at the next interval."""
        self._soon.set()

    async def check(self) -> int:
        """Close the sockets whose tokens no longer resolve; how many were closed."""
        tokens = list(self._watched)
        if not tokens:
            return 0
        live = await self._live(tokens)
        closed = 0
        for token in tokens:
            if token in live:
                continue
            for close in list(self._watched.pop(token, {}).values()):
                close()
                closed += 1
        return closed

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="token-watch")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            await next_round(self._soon, self._interval)
            try:
                await self.check()
            except Exception:  # the database is down: the next round tries again
                log.exception("checking the open sockets' tokens failed")
