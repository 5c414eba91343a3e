"""Who may open a WebSocket: a bound per client address and one in total.

Every open socket holds a file descriptor and a task, so without a bound one address opening
sockets that never say hello ran the server out of descriptors and even ``/healthz`` stopped
answering. The total is checked first (``server_busy``: the server is full, whoever asks), then
the address (``too_many_connections``: this address holds its share). The per-address bound is
generous enough for a classroom behind one NAT; the deadline for ``hello`` (app/transport/ws.py)
keeps the sockets it lets in from lingering.

``ConnectionGate`` counts in this process: a single server, or a node without Redis. A cluster
counts each address over all its nodes (``app.cluster.admission``); the total stays per node,
since what it protects (descriptors, tasks, memory) is each node's own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Refusal:
    """What a refused client is told: an error frame with ``code``, then a close with
    ``close_code`` (docs/protocol.md §4)."""

    code: str
    message: str
    close_code: int


CLOSE_SERVER_BUSY = 1013  # "try again later", from RFC 6455's registry
CLOSE_TOO_MANY = 4429


class Admission(Protocol):
    """The transport's gate: ``admit`` and ``release`` come in pairs."""

    async def admit(self, address: str) -> Refusal | None:
        """Count the connection in, or say why not (then it is not counted)."""
        ...

    def release(self, address: str) -> None:
        """The connection admitted for ``address`` ended."""
        ...


class ConnectionGate:
    """Counts open connections per address in this process; ``admit`` and ``release`` pair."""

    def __init__(self, total: int, per_address: int) -> None:
        self._total = total
        self.per_address = per_address
        self._open: Counter[str] = Counter()
        self.count = 0

    async def admit(self, address: str) -> Refusal | None:
        return self.busy() or self.admit_here(address)

    def busy(self) -> Refusal | None:
        """``server_busy`` if this process holds its total."""
        if self.count >= self._total:
            return Refusal("server_busy", "The server is full: try again later.", CLOSE_SERVER_BUSY)
        return None

    def too_many(self) -> Refusal:
        return Refusal(
            "too_many_connections",
            f"At most {self.per_address} connections per address: close one first.",
            CLOSE_TOO_MANY,
        )

    def admit_here(self, address: str) -> Refusal | None:
        """Count the connection in if this process's share of the address allows it."""
        if self._open[address] >= self.per_address:
            return self.too_many()
        self.count_in(address)
        return None

    def count_in(self, address: str) -> None:
        self._open[address] += 1
        self.count += 1

    def open_at(self, address: str) -> int:
        return self._open[address]

    def release(self, address: str) -> None:
        self.count -= 1
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]  # forget addresses with nothing open: memory stays bounded
