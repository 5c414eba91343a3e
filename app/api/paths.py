"""The path (and query) parameters of the REST API, checked against the format of what they name
before any of them reaches a room or the database.

A value that cannot name anything — a NUL byte, a non-URL-safe character, a string longer than
its column, an integer beyond the column's 32 bits — is answered 422 ``bad_request`` by FastAPI's
validation, so the database never sees it (PostgreSQL refuses a NUL in text, and both backends
an integer out of range, as a server error).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

from app.rules import PRESETS

URL_SAFE = r"^[A-Za-z0-9_-]{1,32}$"  # secrets.token_urlsafe, within the String(32) columns
HEX = r"^[0-9a-f]{1,32}$"  # secrets.token_hex, within the String(32) column
INT32_MAX = 2**31 - 1  # the Integer columns

RoomCode = Annotated[
    str, Path(pattern=URL_SAFE, description="The room's invite code (16 URL-safe characters).")
]
MatchId = Annotated[str, Path(pattern=URL_SAFE, description="A match id (`match_id` of a room).")]
PlayerId = Annotated[str, Path(pattern=HEX, description="A player id (16 hex digits).")]
DealNumber = Annotated[int, Path(ge=1, le=INT32_MAX, description="The deal's number, from 1.")]
InvitationId = Annotated[int, Path(ge=1, le=INT32_MAX, description="An invitation's id.")]
SessionId = Annotated[str, Path(pattern=HEX, description="A signed-in device id (16 hex digits).")]
MatchCursor = Annotated[
    str | None,
    Query(
        pattern=URL_SAFE,
        description="The id of the last match of the page before: the matches after it.",
    ),
]
PageSize = Annotated[int, Query(ge=1, le=100, description="How many matches at the most.")]
PresetFilter = Annotated[
    str | None,
    Query(pattern=f"^({'|'.join(PRESETS)})$", description="Only those of this preset."),
]
