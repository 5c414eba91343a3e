"""One error shape for the whole REST API: ``{"error": {"code", "message"}}``.

Codes are the same stable strings the WebSocket protocol uses, so a client needs one table of
messages. FastAPI's own validation errors are folded into ``bad_request``.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.rooms.errors import RoomError

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
    "not_seated": 403,
    "unknown_room": 404,
    "unknown_match": 404,
    "unknown_deal": 404,
    "unknown_player": 404,
    "bad_request": 422,
    "bad_name": 422,
    "bad_rules": 422,
    "bad_seat": 422,
    "rate_limited": 429,
    "server_error": 500,
    "room_closed": 503,
}


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def install(app: FastAPI) -> None:
    @app.exception_handler(RoomError)
    async def room_error(_request: Request, error: RoomError) -> JSONResponse:
        return JSONResponse(error_body(error.code, error.message), STATUS.get(error.code, 409))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        for item in error.errors()[:3]:
            where = ".".join(str(p) for p in item.get("loc", ()))
            parts.append(f"{where}: {item.get('msg')}")
        return JSONResponse(error_body("bad_request", "; ".join(parts)), 422)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = "not_found" if error.status_code == 404 else "http_error"
        return JSONResponse(error_body(code, str(error.detail)), error.status_code)
