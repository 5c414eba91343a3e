"""Who is on the site now, for their friends: ``players.seen_at``, the last time a player's
token was used.

A person with any page of the site open is seen: every page asks the server something every few
seconds with their token (the lobby its panels, a table its WebSocket, the other pages their
invitations), and a third-party client that keeps a table's socket open is seen while it does.
Writing the time on every request would be a write per request; so each node notes who it saw
(``seen``, no I/O) and who holds an open socket (``hold``), and writes them all in one
statement every ``interval`` seconds. A friend is *online* while their ``seen_at`` is younger
than ``online_window(interval)``: a few rounds, so that a round a node missed (the database
busy or down: the names wait for the next round) or a page between two of its polls does not
show them gone. The times are the writing node's clock; nodes' clocks a few seconds apart move
the window by as much, which a window of minutes absorbs.

Only friends read it (``app.db.friends``): a friend already sees at which tables the other sits.

The same rounds note the network each player came from (``app.db.networks``), once a day per
player and network, so that a suspension may bar new guests from it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.networks import network_of, note_statement
from app.tasks import stop_task

log = logging.getLogger(__name__)

_IDS_PER_STATEMENT = 500
"""Ids in one ``IN (...)``: well below every driver's limit on bound parameters."""


def online_window(interval: float) -> timedelta:
    """How recently a player must have been seen to be shown online: four rounds of writing,
    and never under two minutes (the slowest page asks every 15 seconds)."""
    return timedelta(seconds=max(120.0, 4 * interval))


class Presence:
    """This node's part: the players it saw since its last round and those with a socket open
    here, written to ``players.seen_at`` every ``interval`` seconds."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], interval: float) -> None:
        self._sessions = sessions
        self._interval = interval
        self._seen: set[str] = set()
        self._held: Counter[str] = Counter()
        self._networks: set[tuple[str, str]] = set()  # (player, network) to write next round
        self._noted: set[tuple[str, str]] = set()  # … and those written today
        self._day = datetime.now(UTC).date()
        self._task: asyncio.Task[None] | None = None

    def seen(self, player_id: str, address: str | None = None) -> None:
        """The player's token was used just now (an authenticated request), from ``address``."""
        self._seen.add(player_id)
        self._note(player_id, address)

    def _note(self, player_id: str, address: str | None) -> None:
        network = None if address is None else network_of(address)
        if network is not None and (player_id, network) not in self._noted:
            self._networks.add((player_id, network))

    def hold(self, player_id: str, address: str | None = None) -> Callable[[], None]:
        """The player has a socket open here (from ``address``): seen every round until the
        returned function is called (the socket closed). Calling it twice releases once."""
        self._note(player_id, address)
        self._held[player_id] += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self._held[player_id] -= 1
            if self._held[player_id] <= 0:
                del self._held[player_id]

        return release

    async def write(self) -> int:
        """Write the time for everyone seen since the last round and everyone holding a
        socket; how many players. If the write fails, those seen wait for the next round."""
        ids = sorted(self._seen | self._held.keys())
        networks = sorted(self._networks)
        self._seen, self._networks = set(), set()
        if not ids and not networks:
            return 0
        now = datetime.now(UTC)
        try:
            async with self._sessions.begin() as session:
                for start in range(0, len(ids), _IDS_PER_STATEMENT):
                    chunk = ids[start : start + _IDS_PER_STATEMENT]
                    await session.execute(
                        update(m.Player)
                        .where(m.Player.id.in_(chunk), m.Player.erased_at.is_(None))
                        .values(seen_at=now)
                        .execution_options(synchronize_session=False)
                    )
                if networks:
                    dialect = session.get_bind().dialect.name
                    await session.execute(
                        note_statement(dialect),
                        [{"player_id": p, "network": n, "now": now} for p, n in networks],
                    )
        except BaseException:
            self._seen.update(ids)
            self._networks.update(networks)
            raise
        if now.date() != self._day:  # a new day: each network is written once more
            self._day, self._noted = now.date(), set()
        self._noted.update(networks)
        return len(ids)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="presence")

    async def close(self) -> None:
        """Stop, and write once more: a node leaving still says who was here."""
        await stop_task(self._task)
        self._task = None
        try:
            await self.write()
        except Exception:
            log.warning("writing who was seen failed as the node stopped", exc_info=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.write()
            except Exception:  # the database is busy or down: the next round writes them
                log.exception("writing who was seen failed")
