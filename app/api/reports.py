"""Reporting a player to the site's operator (``app.db.reports``): insults in the chat, an
offensive name, cheating or spoiling the game. The operator alone reads reports
(``python -m app.admin reports``) and may suspend the player; the reported player is not told.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response
from pydantic import Field, field_validator

from app.api.bodies import Body, written
from app.api.errors import responses
from app.api.paths import URL_SAFE, PlayerId
from app.api.services import PlayerDep, ServicesDep
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/players", tags=["players"], responses=responses(413, 422))

TEXT_MAX = 500


class ReportIn(Body):
    reason: Literal["chat", "name", "play", "other"] = Field(
        description="`chat`: insults or abuse in the chat; `name`: an offensive name; `play`: "
        "cheating or spoiling the game; `other`."
    )
    room: str | None = Field(
        default=None,
        pattern=URL_SAFE,
        description="The table's code, where it happened: the player's last chat lines there "
        "are kept with the report.",
    )
    text: str | None = Field(
        default=None, max_length=TEXT_MAX, description="What happened, in your words."
    )

    @field_validator("text")
    @classmethod
    def _words(cls, value: str | None) -> str | None:
        return None if value is None else written(value, "a report")


@router.post("/{player_id}/reports", status_code=204, responses=responses(400, 401, 404, 429))
async def report(
    player_id: PlayerId, body: ReportIn, player: PlayerDep, services: ServicesDep
) -> Response:
    """Tell the site's operator that this player broke the site's rules. One report a day on
    each player: reporting them again replaces yours."""
    if player_id == player.id:
        raise RoomError("bad_request", "You cannot report yourself.")
    await services.reports.check(player_id, body.room)  # a refused report spends no allowance
    if not await services.report_limits.allow(player.id):
        raise RoomError("rate_limited", "You reported players a moment ago: wait a little.")
    await services.reports.file(player.id, player_id, body.room, body.reason, body.text)
    return Response(status_code=204)
