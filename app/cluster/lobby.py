"""The lobby's list of public rooms (``GET /api/rooms``) of one node or of a whole cluster.

A single server lists the public rooms in its memory (``PublicList``). In a cluster every node
holds some of them, so each node writes the summaries of its public rooms to Redis every
``refresh_seconds``, under a key of its own that expires when the node stops writing (killed: its
rooms reappear in the list of whichever node took them over); a page merges every node's list.
The list is therefore as fresh as it is on one server (a second), and a request costs one read
of Redis at most every ``refresh_seconds`` per node, not one per request. Without Redis a page
falls back to this node's rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.rooms.manager import PUBLIC_LIST_SECONDS, RoomManager
from app.rooms.room import WAITING
from app.tasks import stop_task

log = logging.getLogger(__name__)


class Lobby(Protocol):
    async def page(
        self, offset: int, limit: int, preset: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """Room summaries, waiting rooms first, ``limit`` from ``offset``, of ``preset`` only if
        given; and how many in all."""
        ...


class LocalLobby:
    """The public rooms of this node (all of them, for a single server)."""

    def __init__(self, manager: RoomManager) -> None:
        self._manager = manager

    async def page(
        self, offset: int, limit: int, preset: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        rooms = self._manager.public_rooms(offset, limit, preset)
        return [room.summary() for room in rooms], self._manager.public_count(preset)


class RedisLobby:
    """Every node's public rooms, through Redis; ``start`` the publishing, ``close`` at the end."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        node_id: str,
        manager: RoomManager,
        refresh_seconds: float = PUBLIC_LIST_SECONDS,
    ) -> None:
        self._redis = redis
        self._pattern = f"{prefix}lobby:*"
        self._key = f"{prefix}lobby:{node_id}"
        self._manager = manager
        self._refresh = refresh_seconds
        self._local = LocalLobby(manager)
        self._task: asyncio.Task[None] | None = None
        self._merged: list[dict[str, Any]] = []
        self._of_preset: dict[str, list[dict[str, Any]]] = {}  # ``_merged``'s, by preset asked
        self._read_at: float | None = None
        self._failing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._publish_loop(), name="lobby")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None
        with contextlib.suppress(RedisError, OSError):
            await self._redis.delete(self._key)

    async def _publish_loop(self) -> None:
        while True:
            try:
                await self.publish()
            except (RedisError, OSError) as error:
                self._warn(error)
            await asyncio.sleep(self._refresh)

    async def publish(self) -> None:
        """Write this node's public rooms (``PublicList``'s order) for the other nodes."""
        summaries = [room.summary() for room in self._manager.public_rooms()]
        ttl = int(self._refresh * 3000)  # a few missed writes: the node is gone
        await self._redis.set(self._key, orjson.dumps(summaries), px=ttl)

    async def page(
        self, offset: int, limit: int, preset: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        now = time.monotonic()
        if self._read_at is None or now - self._read_at >= self._refresh:
            try:
                self._merged = await self._read_all()
            except (RedisError, OSError) as error:
                self._warn(error)
                return await self._local.page(offset, limit, preset)
            self._of_preset = {}
            self._read_at = now
            self._failing = False
        rooms = self._merged
        if preset is not None:
            if preset not in self._of_preset:  # once per read: a request costs its page
                self._of_preset[preset] = [s for s in rooms if s["rules"]["preset"] == preset]
            rooms = self._of_preset[preset]
        return rooms[offset : offset + limit], len(rooms)

    async def _read_all(self) -> list[dict[str, Any]]:
        keys = sorted([key async for key in self._redis.scan_iter(match=self._pattern)])
        lists = await self._redis.mget(keys) if keys else []
        seen: set[str] = set()
        waiting: list[dict[str, Any]] = []
        playing: list[dict[str, Any]] = []
        for raw in lists:
            for summary in orjson.loads(raw) if raw else ():
                if summary["code"] in seen:  # a room that just moved is in two lists
                    continue
                seen.add(summary["code"])
                (waiting if summary["status"] == WAITING else playing).append(summary)
        return waiting + playing

    def _warn(self, error: Exception) -> None:
        if not self._failing:
            log.warning("Redis is unavailable (%r): the lobby lists this node's rooms", error)
            self._failing = True
