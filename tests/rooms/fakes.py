"""In-memory stand-ins for the rooms' ports: the store records commits, a subscriber records
frames and lets a test wait for one without sleeping."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from app.rooms.ports import Op, StoredRoom


class MemoryStore:
    """Records commits. ``fail_next`` fails one commit; ``refuse`` fails every commit whose ops
    it answers True for (an outage: ``lambda ops: True``), and ``refused`` counts those."""

    def __init__(self) -> None:
        self.commits: list[tuple[str, int, list[Op]]] = []
        self.fail_next = False
        self.refuse: Callable[[list[Op]], bool] | None = None
        self.refused = 0
        self._refusal = asyncio.Event()

    async def commit(self, code: str, version: int, ops: Sequence[Op]) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        if self.refuse is not None and self.refuse(list(ops)):
            self.refused += 1
            self._refusal.set()
            raise OSError(f"INSERT INTO deals (deck) VALUES ({list(ops)!r}): database is locked")
        self.commits.append((code, version, list(ops)))

    async def refusals(self, count: int, timeout: float = 10) -> None:
        """Wait until ``count`` commits in all were refused."""

        async def wait() -> None:
            while self.refused < count:
                self._refusal.clear()
                await self._refusal.wait()

        await asyncio.wait_for(wait(), timeout)

    async def load_room(self, code: str) -> StoredRoom | None:
        return None

    async def load_rooms(self, codes: Sequence[str]) -> dict[str, StoredRoom]:
        return {}

    async def code_watched_by(self, watch: str) -> str | None:
        return None

    async def active_room_codes(self, waiting_since: datetime | None = None) -> Sequence[str]:
        return []

    def ops(self, kind: type) -> list[Any]:
        return [op for _, _, ops in self.commits for op in ops if isinstance(op, kind)]


class Inbox:
    """A subscriber: keeps decoded frames; ``wait`` blocks until a matching frame arrives."""

    def __init__(self, player_id: str | None) -> None:
        self._player_id = player_id
        self.frames: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        self.gone = False  # the room told it it moved to another node
        self.sent_to = ""  # and to which, if it said

    @property
    def player_id(self) -> str | None:
        return self._player_id

    def send(self, frame: str) -> None:
        self.frames.append(json.loads(frame))
        self._arrived.set()

    def moved(self, node: str = "") -> None:
        self.gone = True
        self.sent_to = node

    async def wait(
        self, match: Callable[[dict[str, Any]], bool], timeout: float = 10
    ) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            seen = 0
            while True:
                for frame in self.frames[seen:]:
                    if match(frame):
                        return frame
                seen = len(self.frames)
                self._arrived.clear()
                await self._arrived.wait()

        return await asyncio.wait_for(scan(), timeout)

    def last_deal(self) -> dict[str, Any] | None:
        for frame in reversed(self.frames):
            deal = frame.get("d", {}).get("deal")
            if deal is not None:
                return deal
        return None
