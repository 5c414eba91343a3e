"""A node taking over a dead node's rooms (issue 12: they come back within a bounded time):
it restores a batch of rooms at once rather than one after the other, and takes the next
batch as soon as one came rather than a renewal period later (bench/takeover.py measures it)."""

from __future__ import annotations

import asyncio

from app.rooms.manager import RESTORING_AT_ONCE, RoomManager, SingleNode
from app.rooms.ports import StoredRoom
from app.rooms.room import RoomTimings
from tests.rooms.fakes import MemoryStore


class TakingOver(SingleNode):
    """A cluster node's ownership that finds ``batches`` of a dead node's rooms, one batch per
    ``take_over``; the lease loop's first wait returns at once, the next one never does."""

    node_id = "n2"

    def __init__(self, batches: list[list[str]]) -> None:
        self.batches = batches
        self.calls = 0
        self.waits = 0
        self.waiting_again = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        self.waits += 1
        if self.waits > 1:
            self.waiting_again.set()
            await asyncio.Event().wait()

    async def take_over(self) -> list[str]:
        self.calls += 1
        return self.batches.pop(0) if self.batches else []


class OverlappingLoads(MemoryStore):
    """A store whose loads all wait until ``together`` of them are under way."""

    def __init__(self, together: int) -> None:
        super().__init__()
        self.together = together
        self.loading = 0
        self.loaded: list[str] = []
        self._enough = asyncio.Event()

    async def load_room(self, code: str) -> StoredRoom | None:
        self.loading += 1
        if self.loading >= self.together:
            self._enough.set()
        await self._enough.wait()  # one load at a time would wait here for ever
        self.loaded.append(code)
        return None


async def run_lease_loop(store: MemoryStore, ownership: TakingOver) -> None:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), ownership=ownership)
    manager.keep_leases(renew_seconds=600)
    try:
        await asyncio.wait_for(ownership.waiting_again.wait(), timeout=10)
    finally:
        await manager.close()


async def test_a_take_over_restores_its_batch_of_rooms_at_once() -> None:
    codes = [f"room{i}" for i in range(RESTORING_AT_ONCE)]
    store = OverlappingLoads(together=RESTORING_AT_ONCE)
    await run_lease_loop(store, TakingOver([codes]))
    assert sorted(store.loaded) == codes


async def test_batches_of_a_dead_node_s_rooms_are_taken_one_after_the_other_at_once() -> None:
    store = OverlappingLoads(together=1)
    ownership = TakingOver([["a", "b"], ["c"], ["d"]])
    await run_lease_loop(store, ownership)
    assert sorted(store.loaded) == ["a", "b", "c", "d"]
    assert ownership.calls == 4  # three batches and the empty answer, before the next renewal
