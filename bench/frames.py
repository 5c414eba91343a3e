"""What the WebSocket transport costs per client frame before the room sees it: the rate check,
the size check and ``schemas.parse`` (orjson decoding, bounded ids), for typical frames; and per
connection, the admission gate. Microseconds per operation, best of several runs.

    python -m bench.frames
"""

from __future__ import annotations

import argparse
import json
import timeit
from typing import Any

from app.transport import schemas
from app.transport.admission import ConnectionGate
from app.transport.ratelimit import TokenBucket

FRAMES = {
    "act": {"t": "act", "id": "17", "v": 42, "d": {"play": "AS", "declare": [["KD", "QD", "JD"]]}},
    "ping": {"t": "ping", "id": 123456, "d": {}},
    "chat": {"t": "chat", "id": "c9", "d": {"text": "good luck, have fun " * 5}},
}


def per_call(function: Any, number: int) -> float:
    """Microseconds per call, best of five runs."""
    return min(timeit.repeat(function, number=number, repeat=5)) / number * 1e6


def run(number: int) -> dict[str, float]:
    bucket = TokenBucket(rate=1e9, burst=10**9)  # never empty: the happy path
    results: dict[str, float] = {}
    for name, frame in FRAMES.items():
        text = json.dumps(frame)

        def handle(text: str = text) -> None:
            bucket.take()
            _ = len(text.encode()) > 4096
            schemas.parse(text)

        results[f"{name}_frame_us"] = round(per_call(handle, number), 2)
    gate = ConnectionGate(total=10**6, per_address=10**6)

    def connection() -> None:
        # The local gate's admit never waits: one step of its coroutine runs it to the end.
        admitting = gate.admit("203.0.113.7")
        try:
            admitting.send(None)
        except StopIteration as done:
            assert done.value is None, done.value
        else:
            raise RuntimeError("the local gate waited")
        gate.release("203.0.113.7")

    results["admit_release_us"] = round(per_call(connection, number), 3)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per run")
    args = parser.parse_args()
    print(json.dumps(run(args.number)))


if __name__ == "__main__":
    main()
