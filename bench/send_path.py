"""What sending one action's frames costs the server's process, without the sockets (not a test).

    python -m bench.send_path

An action sends five frames: an event to each of four seats and the ack to the one who acted.
Here four WebSockets are served by uvicorn's own ``websockets-sansio`` protocol objects through
the production app's middleware stack (``errors.install``, ``ClientSecurityHeaders``,
``KeepRawSend`` on FastAPI, as in ``app.main.create_app``), over transports whose ``write``
only counts: what is measured is the Python from ``Connection.send`` to ``transport.write``,
the queue, the writer task and the event loop's turns included, and none of the kernel's work.
Two ways are timed on the same connections: ``direct`` (``DirectWriter``, what the app does)
and ``asgi`` (the outbox and writer task for every frame, through Starlette's ``send_text`` and
every middleware's wrapped ``send``, what it did before). Prints microseconds of CPU per action,
best of several runs, and the ``write`` calls each way makes per action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

import uvicorn
import uvloop
from fastapi import FastAPI, WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from app.api import errors
from app.api.headers import ClientSecurityHeaders
from app.transport.direct import DirectWriter, KeepRawSend
from app.transport.ws import Connection

SEATS = 4
EVENT = "x" * 1200  # about the size of an action event's frame for one seat
ACK = '{"t":"ack","d":{"id":"a17","v":1234}}'
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class CountingTransport(asyncio.Transport):
    """Takes every write and keeps only how many there were."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, data: Any) -> None:
        self.writes += 1

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name)


@dataclass
class Served:
    """``SEATS`` WebSockets served by uvicorn, each as a (direct, asgi) pair of Connections."""

    pairs: list[tuple[Connection, Connection]]
    transports: list[CountingTransport]
    protocols: list[WebSocketsSansIOProtocol]
    done: asyncio.Event

    async def close(self) -> None:
        self.done.set()
        for protocol in self.protocols:
            protocol.connection_lost(None)
        await asyncio.gather(*(task for p in self.protocols for task in p.tasks))


async def serve() -> Served:
    ready: asyncio.Queue[tuple[Connection, Connection]] = asyncio.Queue()
    done = asyncio.Event()

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        direct = Connection(websocket, 10**6, DirectWriter.of(websocket.scope))
        asgi = Connection(websocket, 10**6)
        writers = [asyncio.create_task(c.write_loop()) for c in (direct, asgi)]
        await ready.put((direct, asgi))
        await done.wait()
        for writer in writers:
            writer.cancel()
        await asyncio.gather(*writers, return_exceptions=True)

    app = FastAPI()
    errors.install(app)
    app.add_middleware(ClientSecurityHeaders)
    app.add_middleware(KeepRawSend)
    app.add_api_websocket_route("/ws", endpoint)
    config = uvicorn.Config(app, ws="websockets-sansio", log_level="warning")
    config.load()
    served = Served([], [], [], done)
    for _ in range(SEATS):
        protocol = WebSocketsSansIOProtocol(config, ServerState(), {})
        transport = CountingTransport()
        protocol.connection_made(transport)
        protocol.data_received(HANDSHAKE)
        served.pairs.append(await ready.get())
        served.transports.append(transport)
        served.protocols.append(protocol)
    return served


async def actions(conns: list[Connection], transports: list[CountingTransport], n: int) -> float:
    """CPU seconds for ``n`` actions' frames, each action's written before the next is sent."""
    start = time.process_time()
    for _ in range(n):
        before = sum(t.writes for t in transports)
        for connection in conns:
            connection.send(EVENT)
        conns[0].send(ACK)
        # Each seat's frames are written (the outboxes are empty again): the next action.
        while sum(t.writes for t in transports) - before < SEATS or any(c._unsent for c in conns):
            await asyncio.sleep(0)
    return time.process_time() - start


async def run(n: int, repeat: int) -> dict[str, float]:
    served = await serve()
    transports = served.transports
    results: dict[str, float] = {}
    for way, index in (("direct", 0), ("asgi", 1)):
        conns = [pair[index] for pair in served.pairs]
        best = min([await actions(conns, transports, n) for _ in range(repeat)])
        before = sum(t.writes for t in transports)
        await actions(conns, transports, 100)
        results[f"{way}_us_per_action"] = round(best / n * 1e6, 1)
        results[f"{way}_writes_per_action"] = (sum(t.writes for t in transports) - before) / 100
    await served.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=5000, help="actions per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is kept")
    args = parser.parse_args()
    print(json.dumps(uvloop.run(run(args.actions, args.repeat))))


if __name__ == "__main__":
    main()
