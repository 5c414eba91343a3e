"""Security headers for the pages of the browser client.

The client builds every piece of text as a text node (static/js/dom.js), so a name or a chat
line cannot become markup; the Content-Security-Policy is the second wall: should a bug ever let
markup in, the browser still runs no script and loads nothing from anywhere but this server.
The API's JSON and the OpenAPI pages (whose UI comes from a CDN) are left as they are.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CLIENT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",  # the favicon is a data: URL
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CLIENT_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # an invite link's code must not leak onwards
]
NOT_CLIENT = ("/api/", "/docs", "/redoc", "/openapi.json", "/healthz", "/metrics")


class ClientSecurityHeaders:
    """ASGI middleware: adds ``HEADERS`` to every HTTP response outside ``NOT_CLIENT``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(NOT_CLIENT):
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
