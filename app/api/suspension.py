"""The operator's suspensions as the API shows and enforces them (``app.rooms.suspensions``).

The rooms refuse a suspended player's seat, match, rematch and chat themselves; what happens
outside a room (making one, quick play, renaming) is refused here. The player reads their own
suspension, reason and end, on ``GET /api/players/me`` and ``GET /api/accounts/me``; nobody
else is told.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import Depends
from pydantic import BaseModel, Field

from app.api.services import PlayerDep, ServicesDep
from app.rooms.suspensions import refusal


class SuspensionOut(BaseModel):
    reason: str = Field(description="What the site's operator told the player.")
    until: datetime | None = Field(description="When it ends; None: when the operator lifts it.")


def suspension_of(services: ServicesDep, player_id: str) -> SuspensionOut | None:
    """The player's suspension in force on this server, if any."""
    held = services.rooms.suspensions.of(player_id)
    if held is None:
        return None
    until = None if held.until is None else datetime.fromtimestamp(held.until, UTC)
    return SuspensionOut(reason=held.reason, until=until)


async def not_suspended(player: PlayerDep, services: ServicesDep) -> None:
    """Refuse a suspended player (403 ``suspended``) what would seat them or be told to others."""
    if services.rooms.suspensions.holds(player.id):
        raise refusal()


Unsuspended = Depends(not_suspended)
