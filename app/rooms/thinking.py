"""Where bots think: cheap levels in the event loop, the strong level in worker processes.

A strong bot searches for tens to hundreds of milliseconds a move. In a thread of the server's
process it held the GIL all that time, and every other room and connection waited: with twenty
rooms of strong bots on a 2-core machine ``/healthz`` took 56 ms at the median and 250 ms at p99
(3 ms with basic bots); ``bench.bot_rooms`` measures it. In a worker process it only takes a
core. The random and basic levels decide in well under a millisecond, less than the trip to
another process would cost.

A worker gets the seat's view, the legal actions and a seed drawn from the room's bot's own
generator, so a room's bots stay reproducible for a given seed whichever process thinks. Where
no process can be started (no ``/dev/shm``, say) strong bots think in a thread, as they used
to; a worker that dies costs one move, which the basic bot plays.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from app.bots import BasicBot, make_bot
from app.bots.native import available as native_search
from app.rooms.ports import BotPolicy
from app.rules import Action, SeatView

log = logging.getLogger(__name__)

POOLED_LEVELS = frozenset({"strong", "expert"})


class InlineBot:
    """A bot that decides in the caller's event loop."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self._bot = make_bot(level, rng)

    async def choose(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        return self._bot.choose(seat_view, legal)


def _exit_with_parent(parent: int) -> None:
    """In a worker process: leave as soon as the server is gone, however it went (SIGKILL
    included, which runs no clean-up in the server), instead of waiting for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _think(level: str, seed: int, seat_view: SeatView, legal: Sequence[Action]) -> Action:
    """In a worker process: one decision of a fresh bot seeded for it."""
    return make_bot(level, random.Random(seed)).choose(seat_view, legal)


class BotPool:
    """Worker processes for the levels that search; started on the first move that needs one."""

    def __init__(self, processes: int) -> None:
        if not native_search():  # an operator should know the top level is the weaker search
            log.warning(
                "the expert bot's native search is not built (app/bots/native/_dd.so, which "
                "`make run` builds with a C compiler): expert bots play the pure-Python search"
            )
        self._processes = processes
        self._executor: ProcessPoolExecutor | None = None
        self._no_processes = False  # this system cannot start them: think in a thread instead

    def policy(self, level: str) -> BotPolicy:
        """A room's bot of ``level``, with a generator of its own."""
        rng = random.Random(secrets.randbits(64))
        if level in POOLED_LEVELS:
            return _PooledBot(self, level, rng)
        return InlineBot(level, rng)

    async def think(
        self, level: str, seed: int, seat_view: SeatView, legal: Sequence[Action]
    ) -> Action:
        if self._executor is None and not self._no_processes:
            try:
                # spawn: a fork of a process with threads (the SQLite writer...) is unsafe
                self._executor = ProcessPoolExecutor(
                    self._processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_exit_with_parent,
                    initargs=(os.getpid(),),
                )
            except OSError:  # e.g. no /dev/shm for its locks
                log.warning(
                    "cannot start bot processes; strong bots think in a thread", exc_info=True
                )
                self._no_processes = True
        if self._executor is None:
            return await asyncio.to_thread(_think, level, seed, seat_view, legal)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, _think, level, seed, seat_view, legal)
        except BrokenProcessPool:
            self._executor = None  # a worker died: the next move starts a fresh pool
            raise

    async def close(self) -> None:
        """Stop the workers and wait for them (a move being thought out is finished first)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


class _PooledBot:
    def __init__(self, pool: BotPool, level: str, rng: random.Random) -> None:
        self._pool = pool
        self._level = level
        self._rng = rng

    async def choose(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        try:
            return await self._pool.think(
                self._level, self._rng.getrandbits(64), seat_view, tuple(legal)
            )
        except Exception:
            # A worker that died must not stall the table: this move is the basic bot's.
            log.exception("a %s bot's worker failed; playing the basic move", self._level)
            return BasicBot().choose(seat_view, legal)
