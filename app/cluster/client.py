"""The node's one Redis client, shared by the admission gate, the creation limit and the lobby."""

from __future__ import annotations

from redis.asyncio import BlockingConnectionPool, Redis

CONNECTIONS = 64
"""Connections to Redis per node at most. A burst of sockets opening (a proxy sending a thousand
reconnecting clients at once) asks the gate for that many places together: with redis-py's
default pool (100 connections, then ``MaxConnectionsError`` at once) the rest failed and the
node fell back to counting its own connections only; a blocking pool makes them wait their
turn instead."""
WAIT_SECONDS = 5.0
"""How long a call waits for a free connection before it fails (and its caller falls back)."""


def redis_client(url: str) -> Redis:
    pool = BlockingConnectionPool.from_url(url, max_connections=CONNECTIONS, timeout=WAIT_SECONDS)
    return Redis(connection_pool=pool)
