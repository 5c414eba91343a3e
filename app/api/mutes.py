"""Muting players (``app.db.mutes``): their chat lines are hidden on every device of the one
who muted, and quick play never seats the two together. Nobody else reads a player's mutes;
the muted player is not told.
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import BaseModel

from app.api.errors import responses
from app.api.paths import PlayerId
from app.api.services import PlayerDep, ServicesDep
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/players/me/mutes", tags=["players"], responses=responses(401))


class MutedOut(BaseModel):
    id: str
    name: str


@router.get("", response_model=list[MutedOut])
async def muted(player: PlayerDep, services: ServicesDep) -> list[MutedOut]:
    """Whom you muted, the oldest first."""
    return [MutedOut(id=m.id, name=m.name) for m in await services.mutes.of(player.id)]


@router.put("/{player_id}", status_code=204, responses=responses(404, 422))
async def mute(player_id: PlayerId, player: PlayerDep, services: ServicesDep) -> Response:
    """Hide this player's chat lines (the client hides them) and never be seated with them by
    quick play. You keep the newest 200 mutes: beyond, the oldest is forgotten."""
    if player_id == player.id:
        raise RoomError("bad_request", "You cannot mute yourself.")
    await services.mutes.add(player.id, player_id)
    return Response(status_code=204)


@router.delete("/{player_id}", status_code=204, responses=responses(422))
async def unmute(player_id: PlayerId, player: PlayerDep, services: ServicesDep) -> Response:
    """Show this player's chat lines again (nothing happens if they were not muted)."""
    await services.mutes.remove(player.id, player_id)
    return Response(status_code=204)
