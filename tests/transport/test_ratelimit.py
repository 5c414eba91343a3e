from __future__ import annotations

from app.transport.ratelimit import PerAddressLimiter, TokenBucket


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3


def test_each_address_has_its_own_allowance_and_the_oldest_are_forgotten() -> None:
    now = [0.0]
    limiter = PerAddressLimiter(rate=1.0, burst=2, max_addresses=2, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    assert limiter.allow("b")  # another address is not held back by a's flood
    now[0] += 1.0
    assert [limiter.allow("a"), limiter.allow("a")] == [True, False]
    assert limiter.allow("c")  # a third address: b, the least recently seen, is forgotten
    assert [limiter.allow("a"), limiter.allow("b"), limiter.allow("b")] == [False, True, True]
