"""A connection's outbox: frames go out in order, and a client that stops reading is cut off."""

from __future__ import annotations

import asyncio
from typing import cast

from fastapi import WebSocket

from app.transport.ws import CLOSE_TOO_SLOW, Connection


class GatedSocket:
    """A WebSocket whose sends wait while the gate is shut, like a client that stopped reading."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, frame: str) -> None:
        await self.gate.wait()
        self.sent.append(frame)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_frames_go_out_in_order_and_a_client_that_stops_reading_is_closed() -> None:
    socket = GatedSocket()
    connection = Connection(cast(WebSocket, socket), outbox_limit=3)
    writer = asyncio.create_task(connection.write_loop())
    for i in range(3):
        connection.send(f"f{i}")
    await settle()
    assert socket.sent == ["f0", "f1", "f2"]

    socket.gate.clear()
    connection.send("f3")
    await settle()  # f3 is being sent and waits at the gate
    for i in range(4, 8):  # f4..f6 fill the outbox; f7 overflows it
        connection.send(f"f{i}")
    assert connection.overflowed
    connection.send("f8")  # nothing more is queued for a client being cut off
    socket.gate.set()
    await asyncio.wait_for(writer, 1)
    assert socket.sent == ["f0", "f1", "f2", "f3", "f4", "f5", "f6"]
    assert socket.closed == (CLOSE_TOO_SLOW, "client too slow")
