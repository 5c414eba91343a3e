"""``GET /api/players/me/export``: everything the site keeps about you, as one JSON file
(``app.db.export`` says what is in it and what is not)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.errors import responses
from app.api.services import PlayerDep, ServicesDep
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/players/me", tags=["players"])


@router.get(
    "/export",
    response_model=dict[str, Any],
    responses=responses(401, 429),
    response_description="Your data; `Content-Disposition` names it `belote-{id}.json`.",
)
async def export(player: PlayerDep, services: ServicesDep) -> JSONResponse:
    """Everything the site keeps about you: identity, account and devices, ratings, matches,
    tables, chat lines, reports you made, mutes, a quick-play request, a suspension and your
    appeal, and what the operators did. Three at once, then one a minute."""
    if not await services.export_limits.allow(player.id):
        raise RoomError("rate_limited", "You exported your data a moment ago: wait a little.")
    data = await services.data_export.of(player.id)
    disposition = f'attachment; filename="belote-{player.id}.json"'
    return JSONResponse(data, headers={"Content-Disposition": disposition})
