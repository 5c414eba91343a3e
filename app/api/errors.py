"""One error shape for the whole REST API: ``{"error": {"code", "message"}}``.

Codes are the same stable strings the WebSocket protocol uses, so a client needs one table of
messages. FastAPI's own validation errors are folded into ``bad_request``, and anything that
escapes a route becomes a generic ``server_error``: the traceback goes to the server's log, never
to the client (it can hold SQL, bound values, a deck).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.headers import NOT_CLIENT
from app.rooms.errors import RoomError
from app.transport.ratelimit import PerAddressLimiter

log = logging.getLogger(__name__)

BODY_MAX = 64 * 1024
"""The largest request body read, in bytes: every body of the API is a few hundred bytes, and
a server that read whatever it was sent could be made to hold gigabytes by one address."""
TOO_LARGE = f"The request's body is above {BODY_MAX} bytes."

STATUS = {
    "not_authenticated": 401,
    "bad_token": 401,
    "bad_login": 401,
    "unknown_session": 404,
    "not_queued": 404,
    "bad_username": 422,
    "weak_password": 422,
    "login_limited": 429,
    "not_host": 403,
    "account_required": 403,
    "accounts_only": 403,
    "not_seated": 403,
    "not_friends": 403,
    "removed": 403,
    "removed_from_tournament": 403,
    "suspended": 403,
    "network_suspended": 403,
    "unknown_room": 404,
    "unknown_match": 404,
    "unknown_deal": 404,
    "unknown_player": 404,
    "unknown_tournament": 404,
    "bad_request": 422,
    "bad_name": 422,
    "bad_rules": 422,
    "bad_seat": 422,
    "rated_needs_clock": 422,
    "rate_limited": 429,
    "body_too_large": 413,
    "server_error": 500,
    "room_closed": 503,
}

# What each documented refusal means, for the OpenAPI page (``responses``).
MEANING = {
    400: "`http_error`: the body is not JSON.",
    401: "`not_authenticated` (no Bearer token), `bad_token` (an unknown one) or `bad_login` "
    "(a wrong username or password: the same answer for both).",
    403: "`not_host` or `not_seated`: the room does not let you do that; `removed`: the host "
    "removed you from the room, which you may watch but not sit in; `account_required`: "
    "rated play is for signed-in accounts, not guests; `accounts_only`: the host keeps this "
    "table for signed-in players (a guest may watch); `suspended`: the site's operator has "
    "suspended you (you may watch, not play: `GET /api/players/me` says why and until when); "
    "`not_friends`: you may invite only your friends; `network_suspended`: no new player is "
    "made from your network while a suspension of a player who used it holds.",
    404: "Nothing has that code or id, or you may not read it (the same answer: see "
    "docs/protocol.md, access).",
    409: "The state does not allow it now (`seat_taken`, `seat_empty`, `match_in_progress`, "
    "`username_taken`, `already_claimed`, `not_an_account`, `too_many_friends`, "
    "`tournament_closed`, `tournament_full`, `too_few_entrants`, …).",
    413: f"`body_too_large`: the request's body is above {BODY_MAX} bytes; it was not read.",
    422: "`bad_request` (a malformed field, path or query parameter), `bad_name`, `bad_rules`, "
    "`bad_seat`, `rated_needs_clock`.",
    429: "`rate_limited`: too many requests from your address (any call), or too many new "
    "players, rooms or quick-play requests: nothing was done; "
    "`login_limited`: too many failed logins for that username or from your address.",
    503: "`room_closed`: the room was being put away; retry.",
}


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    """The body of every REST refusal."""

    error: ErrorDetail


GENERIC = "The server could not answer; try again later."


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` for these refusals, each with the error body's schema."""
    return {status: {"model": ErrorOut, "description": MEANING[status]} for status in statuses}


class _HttpMiddleware:
    """An ASGI middleware of HTTP requests (``http``); WebSockets and the lifespan pass by."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class CatchAll(_HttpMiddleware):
    """ASGI middleware: an exception that escaped every handler is logged here, with its
    traceback, and answered with a generic JSON ``server_error``.

    Starlette's own last resort answers plain text and then re-raises, so the server logs the
    error a second time; this answers the error shape the API promises and logs it once.
    """

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:  # too late for an error body: the client sees the connection end
                raise
            await JSONResponse(error_body("server_error", GENERIC), 500)(scope, receive, send)


class BodyTooLarge(HTTPException):
    """A body that passed ``BODY_MAX`` while the route read it (FastAPI lets an
    ``HTTPException`` from reading the body through, as the route's own refusal)."""

    def __init__(self) -> None:
        super().__init__(413, TOO_LARGE)


def _too_large() -> JSONResponse:
    return JSONResponse(error_body("body_too_large", TOO_LARGE), 413)


class BodyLimit(_HttpMiddleware):
    """ASGI middleware: a request body above ``BODY_MAX`` bytes is refused with 413
    ``body_too_large`` before the route sees it; a ``Content-Length`` above it at once, a
    chunked body as soon as the bytes read pass it (the rest is never read)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = Headers(scope=scope).get("content-length", "")
        if length.isascii() and length.isdigit() and int(length) > BODY_MAX:
            await _too_large()(scope, receive, send)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > BODY_MAX:
                raise BodyTooLarge
            return message

        await self.app(scope, counted, send)


class RequestLimit(_HttpMiddleware):
    """ASGI middleware: a client address may make ``burst`` HTTP requests at once and
    ``per_second`` a second after that, counted by this node; one more is answered 429
    ``rate_limited`` before any route runs. New guests and rooms have their own stricter
    allowance (``CreationLimit``); this one keeps one address from taking a node's time with
    requests that are cheap to send and dear to answer (a quick-play poll forms tables, a
    profile reads every match of its player).

    The client's files (every path outside ``NOT_CLIENT``: the calls, and the service's
    ``/metrics``, ``/docs``, ``/openapi.json``, ``/healthz``) are counted apart, with ``FILES``
    times the allowance: a page of the client is some fifty files, and counted with the calls a
    few pages opened at once took the address's whole burst, so that the next page's modules
    were refused and it never drew (seen in the browser tests, 19 pages in 30 s)."""

    FILES = 10

    def __init__(self, app: ASGIApp, per_second: float, burst: int) -> None:
        super().__init__(app)
        self._calls = PerAddressLimiter(per_second, burst)
        self._files = PerAddressLimiter(per_second * self.FILES, burst * self.FILES)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        buckets = self._calls if scope.get("path", "").startswith(NOT_CLIENT) else self._files
        if not buckets.allow(client[0] if client else "?"):
            refused = error_body("rate_limited", "Too many requests from your address: slow down.")
            await JSONResponse(refused, 429, headers={"Retry-After": "1"})(scope, receive, send)
            return
        await self.app(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_middleware(CatchAll)
    app.add_middleware(BodyLimit)

    @app.exception_handler(RoomError)
    async def room_error(request: Request, error: RoomError) -> JSONResponse:
        if error.code == "server_error":  # its message may quote the database: for the log only
            log.error("%s %s failed: %s", request.method, request.url.path, error.message)
            return JSONResponse(error_body("server_error", GENERIC), 500)
        return JSONResponse(error_body(error.code, error.message), STATUS.get(error.code, 409))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        for item in error.errors()[:3]:
            where = ".".join(str(p) for p in item.get("loc", ()))
            parts.append(f"{where}: {item.get('msg')}")
        return JSONResponse(error_body("bad_request", "; ".join(parts)), 422)

    @app.exception_handler(BodyTooLarge)
    async def body_too_large(_request: Request, _error: BodyTooLarge) -> JSONResponse:
        return _too_large()

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = "not_found" if error.status_code == 404 else "http_error"
        return JSONResponse(error_body(code, str(error.detail)), error.status_code)
