"""Quick play over REST: join the queue of a preset, ask how it goes, leave it
(``app.rooms.matchmaking`` forms the tables)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import Field

from app.api.bodies import Body
from app.api.errors import responses
from app.api.paths import HEX
from app.api.services import PlayerDep, ServicesDep, SignedInCreationLimit
from app.api.suspension import Unsuspended
from app.rooms.errors import RoomError
from app.rooms.matchmaking import WAIT_MAX, WAIT_MIN

router = APIRouter(
    prefix="/api/quickplay", tags=["quick play"], responses=responses(400, 401, 413, 422)
)


class QuickPlayIn(Body):
    preset: str = Field(default="bulgarian", max_length=32)
    rated: bool = False
    wait_seconds: float = Field(
        default=30.0,
        description=f"How long to wait for people ({WAIT_MIN:g} to {WAIT_MAX:g} s) before bots "
        "fill the empty seats.",
    )
    partner: str | None = Field(
        default=None,
        pattern=HEX,
        description="A friend's id: the two are seated as partners once they ask for each "
        "other (the same preset and rated-ness), at a game of two sides of two.",
    )


# A request becomes a new room (started at once, bots in the empty seats, after 5 s at least):
# it takes from the address's allowance of new guests and rooms, as ``POST /api/rooms`` does.
@router.post("", dependencies=[Unsuspended, SignedInCreationLimit], responses=responses(403, 429))
async def join(body: QuickPlayIn, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Wait for a table (replacing any earlier request); the reply is as ``GET``'s. 403
    `not_friends`: the partner named is not your friend."""
    partner = body.partner
    if partner is not None and partner != player.id:  # (oneself: refused by ``join``)
        friends = await services.friends.between(player.id, partner) == "friends"
        if not friends:
            raise RoomError("not_friends", "You may play as partners only with a friend.")
    return await services.quickplay.join(
        player, body.preset, body.rated, body.wait_seconds, body.partner
    )


@router.get("", responses=responses(404))
async def status(player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """``waiting``, or ``seated`` with the room's code. Ask every second or so while waiting:
    a request nobody asks about for a while leaves the queue."""
    return await services.quickplay.status(player)


@router.delete("", status_code=204)
async def leave(player: PlayerDep, services: ServicesDep) -> Response:
    await services.quickplay.leave(player)
    return Response(status_code=204)
