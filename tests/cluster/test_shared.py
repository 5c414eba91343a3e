"""What the nodes share through Redis: one creation limit per address for all nodes, and one
lobby merged from every node's public rooms (each test uses keys of its own)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.cluster.admission import RedisGate
from app.cluster.client import redis_client
from app.cluster.limits import RedisLimiter
from app.cluster.lobby import RedisLobby

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        await client.ping()
    except (RedisError, OSError):
        await client.aclose()
        pytest.skip(f"Redis is not reachable at {REDIS_URL} (TEST_REDIS_URL)")
    yield client
    await client.aclose()


@pytest.fixture
def prefix() -> str:
    return f"test-{secrets.token_hex(4)}:"


async def test_the_creation_limit_is_one_for_all_nodes(redis: Redis, prefix: str) -> None:
    node_a = RedisLimiter(redis, prefix, rate=0.001, burst=3)
    node_b = RedisLimiter(redis, prefix, rate=0.001, burst=3)
    allowed = [await node.allow("10.0.0.1") for node in (node_a, node_b, node_a, node_b)]
    assert allowed == [True, True, True, False]  # a round robin does not double the burst
    assert await node_b.allow("10.0.0.2")  # another address has its own


async def test_without_redis_each_node_limits_on_its_own() -> None:
    unreachable = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    limiter = RedisLimiter(unreachable, "x:", rate=0.001, burst=2)
    assert [await limiter.allow("a") for _ in range(3)] == [True, True, False]
    await unreachable.aclose()


@dataclass
class FakeRoom:
    code: str
    status: str
    preset: str = "bulgarian"

    def summary(self) -> dict[str, Any]:
        return {"code": self.code, "status": self.status, "rules": {"preset": self.preset}}


@dataclass
class FakeManager:
    rooms: list[FakeRoom]

    def public_rooms(self) -> list[FakeRoom]:
        return self.rooms


async def test_the_lobby_lists_every_node_s_rooms_waiting_first(redis: Redis, prefix: str) -> None:
    a = FakeManager([FakeRoom("a1", "waiting"), FakeRoom("a2", "playing")])
    b = FakeManager([FakeRoom("b1", "waiting"), FakeRoom("a2", "playing")])  # a2 just moved
    lobby_a = RedisLobby(redis, prefix, "a", a)  # type: ignore[arg-type]
    lobby_b = RedisLobby(redis, prefix, "b", b)  # type: ignore[arg-type]
    await lobby_a.publish()
    await lobby_b.publish()
    rooms, total = await lobby_b.page(0, 10)
    assert [r["code"] for r in rooms] == ["a1", "b1", "a2"] and total == 3
    assert [r["code"] for r in (await lobby_a.page(1, 1))[0]] == ["b1"]
    await lobby_a.close()  # a stopping node's rooms leave the list (here: at once)
    lobby_b._read_at = None  # the next page reads again (it caches for a second)
    assert [r["code"] for r in (await lobby_b.page(0, 10))[0]] == ["b1", "a2"]


async def test_the_lobby_lists_every_node_s_rooms_of_one_preset(redis: Redis, prefix: str) -> None:
    a = FakeManager([FakeRoom("a1", "playing", "french"), FakeRoom("a2", "waiting")])
    b = FakeManager([FakeRoom("b1", "waiting", "french"), FakeRoom("b2", "waiting", "french")])
    lobby_a = RedisLobby(redis, prefix, "a", a)  # type: ignore[arg-type]
    lobby_b = RedisLobby(redis, prefix, "b", b)  # type: ignore[arg-type]
    await lobby_a.publish()
    await lobby_b.publish()
    rooms, total = await lobby_a.page(0, 10, "french")
    assert [r["code"] for r in rooms] == ["b1", "b2", "a1"] and total == 3
    assert [r["code"] for r in (await lobby_a.page(1, 1, "french"))[0]] == ["b2"]
    assert (await lobby_a.page(0, 10, "bulgarian"))[1] == 1
    assert (await lobby_a.page(0, 10, "open_belot")) == ([], 0)
    assert (await lobby_a.page(0, 10))[1] == 4
    await lobby_a.close()
    await lobby_b.close()


async def test_connections_per_address_are_counted_over_every_node(
    redis: Redis, prefix: str
) -> None:
    """A round-robin proxy spreads one address over the nodes: the bound is the cluster's."""
    node_a = RedisGate(redis, prefix, "a", total=100, per_address=2)
    node_b = RedisGate(redis, prefix, "b", total=100, per_address=2)
    for gate in (node_a, node_b):
        await gate.beat()
    admitted = [await gate.admit("10.0.0.1") for gate in (node_a, node_b, node_a, node_b)]
    assert admitted[:2] == [None, None]
    assert [r.code if r else None for r in admitted[2:]] == ["too_many_connections"] * 2
    assert await node_b.admit("10.0.0.2") is None  # another address has its own
    node_a.release("10.0.0.1")
    await node_a.drain()
    assert await node_b.admit("10.0.0.1") is None  # the place freed on a is one on b
    assert (await node_a.admit("10.0.0.1")) is not None


async def test_a_dead_node_s_connections_stop_counting(redis: Redis, prefix: str) -> None:
    """A node killed with its connections open never releases them: once its heartbeat is
    over (moved into the past here, not waited for), the others stop counting them."""
    dead = RedisGate(redis, prefix, "a", total=100, per_address=2)
    alive = RedisGate(redis, prefix, "b", total=100, per_address=2)
    for gate in (dead, alive):
        await gate.beat()
    assert [await dead.admit("10.0.0.1") for _ in range(2)] == [None, None]
    assert await alive.admit("10.0.0.1") is not None
    await redis.hset(f"{prefix}ws:members", dead.member, 0)
    assert await alive.admit("10.0.0.1") is None
    assert await redis.hkeys(f"{prefix}ws:addr:10.0.0.1") == [alive.member.encode()]


async def test_without_redis_each_node_bounds_connections_on_its_own() -> None:
    unreachable = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    gate = RedisGate(unreachable, "x:", "a", total=100, per_address=2)
    admitted = [await gate.admit("a") for _ in range(3)]
    assert admitted[:2] == [None, None] and admitted[2] is not None
    gate.release("a")
    await gate.drain()
    assert await gate.admit("a") is None
    await unreachable.aclose()


async def test_a_burst_of_connections_waits_for_redis_rather_than_falling_back(
    redis: Redis, prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Hundreds of sockets opening at once (clients reconnecting through the proxy) each ask the
    gate for a place: the node's client queues them on its connections instead of failing the
    ones beyond its pool, which would count them on this node alone."""
    client = redis_client(REDIS_URL)
    try:
        gate = RedisGate(client, prefix, "a", total=10_000, per_address=10_000)
        await gate.beat()
        addresses = [f"10.9.{i // 200}.{i % 200}" for i in range(400)]
        admitted = await asyncio.gather(*(gate.admit(a) for a in addresses))
        assert admitted == [None] * len(addresses)
        assert not [r for r in caplog.records if "Redis is unavailable" in r.getMessage()]
        counted = await redis.hget(f"{prefix}ws:addr:{addresses[-1]}", gate.member)
        assert counted == b"1"  # counted in Redis, for every node to see
    finally:
        await client.aclose()
