"""Frames written straight to uvicorn's connection (app/transport/direct.py): what one turn of the
event loop gives a connection goes out in one write, in order; a transport that paused writing
(a client that does not read) sends the connection back to its outbox, which still cuts the
client off when full; and a close comes after every frame given before it.

uvicorn's own ``websockets-sansio`` protocol object runs here over a transport that records its
writes, so that every write and every pause is the test's to see and to cause.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from app.transport.direct import RAW_SEND, DirectWriter, KeepRawSend
from app.transport.ws import CLOSE_RELOAD, CLOSE_TOO_SLOW, Connection
from tests.conftest import Server, new_guest, ws_client

TEXT, CLOSE = 0x1, 0x8
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class RecordingTransport(asyncio.Transport):
    """Keeps every ``write`` (the HTTP response, then frames) as it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name)


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """The (opcode, payload) of each unmasked frame a server wrote."""
    out = []
    i = 0
    while i < len(data):
        opcode, size = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if size == 126:
            size = int.from_bytes(data[i : i + 2], "big")
            i += 2
        out.append((opcode, data[i : i + size]))
        i += size
    return out


class Harness:
    """One WebSocket served by uvicorn's protocol to a ``Connection``, as the app makes it."""

    def __init__(self, protocol: WebSocketsSansIOProtocol, transport: RecordingTransport) -> None:
        self.protocol = protocol
        self.transport = transport
        self.connection: asyncio.Future[Connection] = asyncio.get_running_loop().create_future()

    def written(self) -> list[list[tuple[int, bytes]]]:
        """The frames of each write since the handshake's response."""
        return [frames(w) for w in self.transport.writes[1:]]

    def texts(self) -> list[bytes]:
        return [payload for write in self.written() for op, payload in write if op == TEXT]


@pytest.fixture
async def harness() -> AsyncIterator[Harness]:
    holder: list[Harness] = []

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket, 3, DirectWriter.of(websocket.scope))
        writer = asyncio.create_task(connection.write_loop())
        holder[0].connection.set_result(connection)
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)], middleware=[Middleware(KeepRawSend)])
    config = uvicorn.Config(app, ws="websockets-sansio", log_level="warning")
    config.load()
    protocol = WebSocketsSansIOProtocol(config, ServerState(), {})
    transport = RecordingTransport()
    holder.append(Harness(protocol, transport))
    protocol.connection_made(transport)
    protocol.data_received(HANDSHAKE)
    await asyncio.wait_for(holder[0].connection, 5)
    yield holder[0]
    if not protocol.disconnected:
        protocol.connection_lost(None)
    await asyncio.wait_for(asyncio.gather(*protocol.tasks), 5)  # the endpoint has returned


async def turn() -> None:
    """Let the event loop run what is ready (the flush, the writer task), a few times over."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_the_frames_of_one_turn_go_out_in_one_write_in_order(harness: Harness) -> None:
    connection = await harness.connection
    assert connection.writes_directly
    for frame in ("e1", "e2", "ack"):
        connection.send(frame)
    assert harness.written() == []  # written at the end of the turn, not frame by frame
    await turn()
    assert harness.written() == [[(TEXT, b"e1"), (TEXT, b"e2"), (TEXT, b"ack")]]


async def test_a_paused_transport_sends_frames_through_the_outbox_in_order(
    harness: Harness,
) -> None:
    connection = await harness.connection
    connection.send("f0")
    await turn()
    harness.protocol.pause_writing()  # the client stopped reading: its buffer is full
    connection.send("f1")
    connection.send("f2")
    harness.protocol.resume_writing()
    connection.send("f3")  # the outbox is not empty yet: f3 waits behind f1 and f2
    await turn()
    connection.send("f4")  # the outbox is empty again: written directly, with f5
    connection.send("f5")
    await turn()
    assert harness.texts() == [b"f0", b"f1", b"f2", b"f3", b"f4", b"f5"]
    assert harness.written()[-1] == [(TEXT, b"f4"), (TEXT, b"f5")]


async def test_a_client_that_does_not_read_is_cut_off(harness: Harness) -> None:
    connection = await harness.connection
    connection.send("f0")
    await turn()
    harness.protocol.pause_writing()
    connection.send("f1")
    await turn()  # f1 is being sent, and waits for the transport
    for i in range(2, 6):  # f2..f4 fill the outbox of 3; f5 overflows it
        connection.send(f"f{i}")
    assert connection.overflowed
    connection.send("f6")  # nothing more for a client being cut off
    harness.protocol.resume_writing()
    await turn()
    assert harness.texts() == [b"f0", b"f1", b"f2", b"f3", b"f4"]
    opcode, payload = harness.written()[-1][-1]
    assert opcode == CLOSE and int.from_bytes(payload[:2], "big") == CLOSE_TOO_SLOW


async def test_a_close_comes_after_the_frames_given_before_it(harness: Harness) -> None:
    connection = await harness.connection
    connection.send("f1")
    connection.send("f2")
    connection.close(CLOSE_RELOAD, "room moved: reconnect")
    connection.send("f3")  # after the close: never written
    await turn()
    sent = [frame for write in harness.written() for frame in write]
    assert [op for op, _ in sent] == [TEXT, TEXT, CLOSE]
    assert [payload for _, payload in sent[:2]] == [b"f1", b"f2"]
    assert int.from_bytes(sent[2][1][:2], "big") == CLOSE_RELOAD


async def test_frames_given_after_the_connection_was_lost_are_dropped(harness: Harness) -> None:
    connection = await harness.connection
    connection.send("f1")
    harness.protocol.connection_lost(None)
    await turn()
    assert harness.texts() == []


def test_without_the_server_s_websockets_sansio_connection_frames_go_through_asgi() -> None:
    async def send(message: Any) -> None:
        pass

    assert DirectWriter.of({"type": "websocket"}) is None  # no KeepRawSend in front
    assert DirectWriter.of({"type": "websocket", RAW_SEND: send}) is None  # another server


async def test_the_app_writes_directly_under_python_m_app_s_options(
    server: Server, http: httpx.AsyncClient
) -> None:
    host = await new_guest(http, "Host")
    created = await http.post("/api/rooms", json={"seat": 0}, headers=host.auth)
    code = created.json()["room"]["code"]
    async with ws_client(server, code, host.token):
        assert server.app is not None
        room = await server.app.state.services.rooms.get(code)
        connections = list(room._subscribers)
        assert connections and all(c.writes_directly for c in connections)
