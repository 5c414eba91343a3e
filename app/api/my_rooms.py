"""The caller's own open tables: where a player finds the way back to a game they left.

A room is listed while the caller holds a seat in it and it is waiting or being played. The
seats are read from storage (so a waiting room put away while idle is still found), the room
itself from its actor, as anyone holding its code would see it (in a cluster, a room another
node serves is read from storage: ``RoomManager.look``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.services import PlayerDep, ServicesDep
from app.rooms.room import FINISHED

router = APIRouter(prefix="/api/players/me", tags=["players"])


@router.get(
    "/rooms",
    responses={
        401: {"description": "The token is missing or unknown (`not_authenticated`, `bad_token`)."}
    },
)
async def my_rooms(player: PlayerDep, services: ServicesDep) -> list[dict[str, Any]]:
    """Your open rooms (waiting or playing), most recently changed first, each with
    ``your_seat``."""
    out = []
    for code in await services.history.open_rooms_of(player.id):
        room = await services.rooms.look(code)  # served here or by another node
        seat = None if room is None else room.seat_of(player.id)
        if room is None or seat is None or room.status == FINISHED:
            continue  # changed since it was stored
        out.append({**room.summary(), "your_seat": seat})
    return out
