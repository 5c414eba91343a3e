"""Writing a WebSocket's frames straight to uvicorn's connection, past the ASGI send chain.

Through ASGI, every frame a room sends costs a queue, a writer task woken for it, Starlette's
``WebSocket.send``, each middleware's wrapped ``send`` and uvicorn's own, before the
websockets library frames it and the transport writes it: at five frames per action that was
most of what an action cost the server beside the rules and the store (docs/architecture.md,
"Load"). ``DirectWriter`` does only the last two steps, with the library's own framing
(``send_text``, permessage-deflate included when it was negotiated), on the connection object
uvicorn's ``websockets-sansio`` implementation (its default) already holds, and writes all the
frames a connection was given during one turn of the event loop with one ``write``: the
events of a command and its ack reach a client in one system call.

It is found through ``KeepRawSend``, an ASGI middleware that remembers the server's own
``send`` in each WebSocket scope; the protocol object is that bound method's owner. Any other
server, WebSocket implementation or middleware order simply finds none, and the connection
keeps to ASGI (``app.transport.ws.Connection`` falls back to its outbox and writer task). The
fallback is also taken whenever the transport has paused writing (flow control: its buffer is
above the high-water mark), so a client that does not read still fills a bounded outbox and is
cut off (4408). uvicorn's attributes this relies on (``conn``, ``transport``, ``writable``, the
flow control of 0.52.1) are pinned by the ``uvicorn`` lower bound in pyproject.toml and
exercised on uvicorn's own protocol object in tests/transport/test_direct.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

RAW_SEND = "belote.raw_send"  # the scope key of the server's own ``send``


class KeepRawSend:
    """ASGI middleware (add it last, so that it runs first): puts the server's ``send`` into
    every WebSocket scope under ``RAW_SEND``, before any middleware wraps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope = {**scope, RAW_SEND: send}
        await self.app(scope, receive, send)


class DirectWriter:
    """The frames of one connection, written by the websockets library's framing into
    uvicorn's transport once per turn of the event loop."""

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol
        self._frames: list[str] = []  # given, not yet written (``flush`` is scheduled)
        self._loop = asyncio.get_running_loop()

    @classmethod
    def of(cls, scope: Scope) -> DirectWriter | None:
        """The writer of a WebSocket scope that ``KeepRawSend`` saw, if uvicorn serves it with
        its ``websockets-sansio`` implementation; None otherwise (send through ASGI)."""
        protocol: Any = getattr(scope.get(RAW_SEND), "__self__", None)
        if isinstance(protocol, WebSocketsSansIOProtocol):
            return cls(protocol)
        return None

    @property
    def usable(self) -> bool:
        """Whether a frame may be written now: the transport is not holding back
        (``pause_writing``: its buffer is above the high-water mark). A connection that closes
        or is lost meanwhile drops what it is given, as it would through ASGI (``flush``)."""
        return self._protocol.writable.is_set()

    def send(self, frame: str) -> None:
        """Write ``frame`` at the end of this turn of the loop, with the others given in it."""
        if not self._frames:
            self._loop.call_soon(self.flush)
        self._frames.append(frame)

    def flush(self) -> None:
        """Write the frames given so far now (in one ``write``); what comes after them, say a
        frame or a close sent through ASGI, must call this first."""
        frames, self._frames = self._frames, []
        if not frames:
            return
        protocol = self._protocol
        conn = protocol.conn
        try:
            for frame in frames:
                conn.send_text(frame.encode())
        except InvalidState:  # closed since: the reader sees the disconnect, as through ASGI
            return
        data = b"".join(conn.data_to_send())
        if not protocol.transport.is_closing():  # lost: nobody reads it any more
            protocol.transport.write(data)
