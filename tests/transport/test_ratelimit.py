from __future__ import annotations

from app.transport.ratelimit import TokenBucket


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3
