"""WebSockets per client address, counted over every node of a cluster (``Admission``).

Behind a round-robin proxy each node sees a share of an address's connections, so a bound kept
in one node's memory let an address open N times ``BELOTE_WS_PER_ADDRESS`` on N nodes. Here
each address is a Redis hash ``ws:addr:<address>`` of *member* (one process of a node) → its
open connections, and ``ws:members`` holds each member's heartbeat (an expiry on Redis's
clock, written every ``beat_seconds``). Admission is one Lua script, so atomic for the whole
cluster: it adds up the counts of the live members, deletes the fields of dead ones (a node
killed with its connections open stops counting once its heartbeat expires: self-healing),
and takes a place only below the bound. Each process is a member of its own (the node id and a
random suffix), so a node restarted under the same name does not inherit its dead self's count.

The total (``BELOTE_WS_MAX_CONNECTIONS``) stays per node: it protects each node's descriptors,
tasks and memory; the proxy bounds the cluster's. If Redis cannot be reached, the node falls
back to counting the address on its own (logged once per outage) and, once Redis answers
again, rewrites its fields from its own counts, so a write lost meanwhile does not stick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.tasks import stop_task
from app.transport.admission import ConnectionGate, Refusal

log = logging.getLogger(__name__)

# KEYS: the address's hash, the members' heartbeats. ARGV: this member, the bound, the key's
# lifetime in ms (an address nobody uses for that long is forgotten). 1: admitted.
_ADMIT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local open = 0
for i = 1, #fields, 2 do
  local member = fields[i]
  local beat = tonumber(redis.call('HGET', KEYS[2], member) or '0')
  if member == ARGV[1] or beat > now then
    open = open + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], member)
  end
end
if open >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the address's hash. ARGV: this member. One connection fewer.
_RELEASE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""
# KEYS: the address's hash. ARGV: this member, its count now (0: the field goes).
_SET = """
if tonumber(ARGV[2]) > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""
# KEYS: the members' heartbeats. ARGV: this member, the heartbeat's lifetime in ms. Members
# whose heartbeat expired long ago are forgotten here.
_BEAT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
local beats = redis.call('HGETALL', KEYS[1])
for i = 1, #beats, 2 do
  if tonumber(beats[i + 1]) < now - 3600000 then
    redis.call('HDEL', KEYS[1], beats[i])
  end
end
return 1
"""
ADDRESS_TTL_MS = 24 * 3600 * 1000


class RedisGate:
    """``Admission`` for a node of a cluster; ``start`` the heartbeat, ``close`` at the end."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        node_id: str,
        total: int,
        per_address: int,
        beat_seconds: float = 1.0,
    ) -> None:
        self._redis = redis
        self._addresses = f"{prefix}ws:addr:"
        self._members = f"{prefix}ws:members"
        self.member = f"{node_id}:{secrets.token_hex(4)}"
        self._local = ConnectionGate(total, per_address)
        self._beat_seconds = beat_seconds
        self._admit = redis.register_script(_ADMIT)
        self._release = redis.register_script(_RELEASE)
        self._set = redis.register_script(_SET)
        self._beat = redis.register_script(_BEAT)
        self._unsynced: set[str] = set()  # addresses whose field may be wrong (Redis failed)
        self._pending: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._beat_loop(), name="ws-gate")

    async def close(self) -> None:
        """Stop the heartbeat and leave: the other nodes stop counting this one at once."""
        await stop_task(self._task)
        self._task = None
        await self.drain()
        with contextlib.suppress(RedisError, OSError):
            await self._redis.hdel(self._members, self.member)

    async def drain(self) -> None:
        """Wait for the releases still on their way to Redis."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def admit(self, address: str) -> Refusal | None:
        busy = self._local.busy()
        if busy is not None:
            return busy
        try:
            keys = [self._addresses + address, self._members]
            args: list[str | int] = [self.member, self._local.per_address, ADDRESS_TTL_MS]
            admitted = await self._admit(keys=keys, args=args)
        except (RedisError, OSError) as error:
            self._warn(error)
            self._unsynced.add(address)
            return self._local.admit_here(address)
        self._ok()
        if not admitted:
            return self._local.too_many()
        self._local.count_in(address)
        return None

    def release(self, address: str) -> None:
        self._local.release(address)
        task = asyncio.get_running_loop().create_task(self._count_out(address))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _count_out(self, address: str) -> None:
        if address in self._unsynced:
            return  # the next beat writes the count as it is then
        try:
            await self._release(keys=[self._addresses + address], args=[self.member])
        except (RedisError, OSError) as error:
            self._warn(error)
            self._unsynced.add(address)

    async def _sync(self, address: str) -> None:
        """Write this member's count of ``address`` (what this process holds open now)."""
        self._unsynced.discard(address)
        try:
            keys = [self._addresses + address]
            await self._set(keys=keys, args=[self.member, self._local.open_at(address)])
        except (RedisError, OSError):
            self._unsynced.add(address)
            raise

    async def beat(self) -> None:
        """Tell the other nodes this member is alive, and repair what a Redis outage left."""
        ttl_ms = int(self._beat_seconds * 5000)  # a few missed beats: the node is gone
        await self._beat(keys=[self._members], args=[self.member, ttl_ms])
        self._ok()
        for address in list(self._unsynced):
            await self._sync(address)

    async def _beat_loop(self) -> None:
        while True:
            try:
                await self.beat()
            except (RedisError, OSError) as error:
                self._warn(error)
            await asyncio.sleep(self._beat_seconds)

    def _warn(self, error: Exception) -> None:
        if not self._failing:
            log.warning("Redis is unavailable (%r): connections are bounded per node", error)
            self._failing = True

    def _ok(self) -> None:
        self._failing = False
