"""A node taking over a dead node's rooms (issue 12: they come back within a bounded time):
it reads a batch of rooms from the store at once rather than one after the other, takes the
next batch as soon as one came rather than a renewal period later, and renews a period after
its last renewal rather than a period after the take-over (bench/takeover.py measures it)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import SimpleNamespace

import pytest

from app.rooms import manager as manager_module
from app.rooms.manager import RoomManager, SingleNode
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
        self.waits: list[float] = []  # how long each wait was asked to last
        self.waiting_again = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        self.waits.append(seconds)
        if len(self.waits) > 1:
            self.waiting_again.set()
            await asyncio.Event().wait()

    async def take_over(self) -> list[str]:
        self.calls += 1
        return self.batches.pop(0) if self.batches else []


class CountingLoads(MemoryStore):
    """A store that records each read: a batch (``load_rooms``) or a single room."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []
        self.singles: list[str] = []

    async def load_room(self, code: str) -> StoredRoom | None:
        self.singles.append(code)
        return None

    async def load_rooms(self, codes: Sequence[str]) -> dict[str, StoredRoom]:
        self.batches.append(list(codes))
        return {}


async def run_lease_loop(
    store: MemoryStore, ownership: TakingOver, renew_seconds: float = 600
) -> None:
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0), ownership=ownership)
    manager.keep_leases(renew_seconds=renew_seconds)
    try:
        await asyncio.wait_for(ownership.waiting_again.wait(), timeout=10)
    finally:
        await manager.close()


async def test_a_take_over_reads_its_batch_of_rooms_in_one_load() -> None:
    codes = [f"room{i}" for i in range(50)]
    store = CountingLoads()
    await run_lease_loop(store, TakingOver([codes]))
    assert store.batches == [codes]
    assert store.singles == []


async def test_batches_of_a_dead_node_s_rooms_are_taken_one_after_the_other_at_once() -> None:
    store = CountingLoads()
    ownership = TakingOver([["a", "b"], ["c"], ["d"]])
    await run_lease_loop(store, ownership)
    assert store.batches == [["a", "b"], ["c"], ["d"]]
    assert ownership.calls == 4  # three batches and the empty answer, before the next renewal


class SlowBatches(TakingOver):
    """Each batch takes 0.4 renewal periods on a fake clock (``now``)."""

    def __init__(self, batches: list[list[str]], period: float) -> None:
        super().__init__(batches)
        self.now = 1000.0
        self.period = period

    async def take_over(self) -> list[str]:
        self.now += 0.4 * self.period
        return await super().take_over()


async def test_the_renewal_after_a_long_take_over_comes_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The take-over goes on until a renewal is due, and the renewal then comes at once: the
    loop used to stop taking over after half a period and then idle a whole period, so a dead
    node's rooms came back at a third of the pace the survivors could restore them."""
    ownership = SlowBatches([["a"], ["b"], ["c"], ["d"]], period=10.0)
    clock = SimpleNamespace(monotonic=lambda: ownership.now)
    monkeypatch.setattr(manager_module, "time", clock)  # the manager's clock only
    await run_lease_loop(CountingLoads(), ownership, renew_seconds=10.0)
    assert ownership.calls == 3  # 1.2 periods: the renewal is due
    assert ownership.waits == [10.0, 0.0]
