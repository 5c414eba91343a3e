"""The floor of the server's stack (not a test): one WebSocket route that sends back every frame.

    python -m bench.echo_server   # BELOTE_PORT etc. as for ``python -m app``

bench.load runs it with the load's own client code to measure what one round trip (a text frame
in, the same frame out) costs the server's process when nothing of ours runs: the ASGI
framework, uvicorn with the same options as ``python -m app`` (``app.__main__.server_options``:
the same WebSocket implementation, frame limit and deflate setting), the event loop and the
kernel's socket work. The room's cost per action is then read against it
(``server_cpu_us_per_action / echo_cpu_us_per_round_trip``). A one-route Starlette app, not a
route of the production app: the production middleware would be counted as floor otherwise.
"""

from __future__ import annotations

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.__main__ import raise_file_limit, server_options, tune_gc
from app.settings import Settings


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        return


def main() -> None:
    options = server_options(Settings())
    tune_gc()
    raise_file_limit(options["limit_concurrency"])
    uvicorn.run(Starlette(routes=[WebSocketRoute("/echo", echo)]), **options)


if __name__ == "__main__":
    main()
