"""The floor of the server's stack (not a test): a WebSocket route that sends back every frame,
and one that relays every frame to a table of four as an action's frames go.

    python -m bench.echo_server   # BELOTE_PORT etc. as for ``python -m app``

bench.load runs it with the load's own client code to measure what one round trip (a text frame
in, the same frame out) costs the server's process when nothing of ours runs: the ASGI
framework, uvicorn with the same options as ``python -m app`` (``app.__main__.server_options``:
the same WebSocket implementation, frame limit and deflate setting), the event loop and the
kernel's socket work. The room's cost per action is then read against it
(``server_cpu_us_per_action / echo_cpu_us_per_round_trip``). A one-route Starlette app, not a
route of the production app: the production middleware would be counted as floor otherwise.

Frames go back the way the app sends its own: through ``app.transport.ws.Connection``, which
writes them straight to uvicorn's connection (``app.transport.direct``, found through the same
``KeepRawSend`` middleware) and falls back to its outbox and writer task otherwise. The floor
is that of the stack the app ships, its send path included, not of Starlette's ``send_text``.

``/fanout?table=K`` is the floor of an action's shape rather than of one round trip: the four
sockets of table K play in turn, and each frame one of them sends goes to all four, padded to
the size of an action's event (``EVENT_BYTES``), and is followed by a short ack to its sender
(in the same write, as the room's reply is): one frame in and five out over four connections,
which is what the game's protocol costs an action at the least, before any of its own work.
``bench.load`` prints it as ``fanout_cpu_us_per_action`` and its ratio to the echo.
"""

from __future__ import annotations

import asyncio

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.__main__ import raise_file_limit, server_options, tune_gc
from app.settings import Settings
from app.transport.direct import DirectWriter, KeepRawSend
from app.transport.ws import Connection

OUTBOX_LIMIT = Settings().outbox_limit
SEATS = 4
EVENT_BYTES = 1200
"""About the size of an action's event for one seat (bench/send_path.py)."""
GO = '{"t":"go"}'
"""Sent to a table's first socket once its four are in: it plays first."""
ACK = '{"t":"ack","d":{"id":"a12345","v":123}}'
TABLES: dict[str, list[Connection]] = {}


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    connection = Connection(websocket, OUTBOX_LIMIT, DirectWriter.of(websocket.scope))
    writer = asyncio.create_task(connection.write_loop())
    try:
        while True:
            connection.send(await websocket.receive_text())
    except WebSocketDisconnect:
        return
    finally:
        writer.cancel()


async def fanout(websocket: WebSocket) -> None:
    await websocket.accept()
    connection = Connection(websocket, OUTBOX_LIMIT, DirectWriter.of(websocket.scope))
    writer = asyncio.create_task(connection.write_loop())
    table = TABLES.setdefault(websocket.query_params["table"], [])
    table.append(connection)
    if len(table) == SEATS:
        table[0].send(GO)
    try:
        while True:
            text = await websocket.receive_text()
            event = f'{{"e":{text},"pad":"{"x" * (EVENT_BYTES - len(text) - 16)}"}}'
            for seat in table:
                seat.send(event)
            connection.send(ACK)
    except WebSocketDisconnect:
        return
    finally:
        table.remove(connection)
        writer.cancel()


def main() -> None:
    options = server_options(Settings())
    tune_gc()
    raise_file_limit(options["limit_concurrency"])
    routes = [WebSocketRoute("/echo", echo), WebSocketRoute("/fanout", fanout)]
    uvicorn.run(Starlette(routes=routes, middleware=[Middleware(KeepRawSend)]), **options)


if __name__ == "__main__":
    main()
