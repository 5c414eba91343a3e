"""Rate limits: bursts are fine, sustained floods are refused.

A token bucket per WebSocket connection (its frames), one per client address for the REST
calls that create guests and rooms, and one per guest and per room for chat: those add rows
nobody may ever use, so a script on one address could otherwise fill the database. The address
limit is generous enough for a classroom behind one NAT joining at once.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; one token per client frame."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Spend a token if one is left; False means the frame must be refused."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def give_back(self) -> None:
        """Return a token taken for something that did not happen after all."""
        self._tokens = min(self._burst, self._tokens + 1.0)


class PerAddressLimiter:
    """A token bucket per key (a client address, a guest id, a room code); the least recently
    seen keys are forgotten past ``max_addresses`` (a forgotten key starts again with a full
    bucket)."""

    def __init__(
        self,
        rate: float,
        burst: int,
        max_addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rate = rate
        self._burst = burst
        self._max = max_addresses
        self._clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self._rate, self._burst, self._clock)
            if len(self._buckets) > self._max:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.take()

    def give_back(self, address: str) -> None:
        """Return the token ``allow`` took for ``address`` (if it is still remembered)."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.give_back()
