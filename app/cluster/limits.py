"""The creation limit (new guests and rooms per client address) of one node or of all nodes.

Behind a round-robin proxy each node sees a share of an address's requests, so a limit kept in
one node's memory lets an address create N times as much on N nodes. ``RedisLimiter`` keeps one
token bucket per address in Redis instead, updated by a Lua script on Redis's clock (atomic,
and the same for every node). If Redis cannot be reached the node falls back to its own bucket:
creating rooms keeps working, limited per node, and the failure is logged once per outage.
"""

from __future__ import annotations

import logging
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.transport.ratelimit import PerAddressLimiter

log = logging.getLogger(__name__)

# KEYS[1]: the bucket; ARGV: rate per second, burst. Returns 1 if a token was taken.
_TAKE = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return taken
"""


class Limiter(Protocol):
    async def allow(self, key: str) -> bool:
        """Spend one of ``key``'s tokens; False: refuse the request."""
        ...


class LocalLimiter:
    """This node's own buckets (``PerAddressLimiter``)."""

    def __init__(self, rate: float, burst: int) -> None:
        self._buckets = PerAddressLimiter(rate, burst)

    async def allow(self, key: str) -> bool:
        return self._buckets.allow(key)


class RedisLimiter:
    """One bucket per key for every node, in Redis under ``prefix``."""

    def __init__(self, redis: Redis, prefix: str, rate: float, burst: int) -> None:
        self._redis = redis
        self._prefix = prefix
        self._rate = rate
        self._burst = burst
        self._script = redis.register_script(_TAKE)
        self._fallback = LocalLimiter(rate, burst)
        self._failing = False

    async def allow(self, key: str) -> bool:
        try:
            taken = await self._script(keys=[self._prefix + key], args=[self._rate, self._burst])
        except (RedisError, OSError) as error:
            if not self._failing:
                log.warning("Redis is unavailable (%r): creation limits are per node", error)
                self._failing = True
            return await self._fallback.allow(key)
        self._failing = False
        return bool(taken)
