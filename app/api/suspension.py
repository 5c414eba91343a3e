"""The operator's suspensions as the API shows and enforces them (``app.rooms.suspensions``).

The rooms refuse a suspended player's seat, match, rematch and chat themselves; what happens
outside a room (making one, quick play, renaming) is refused here. The player reads their own
suspension, reason and end, on ``GET /api/players/me`` and ``GET /api/accounts/me``; nobody
else is told. They may appeal against it once (``app.db.appeals``), and read there whether the
operator has answered.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field, field_validator

from app.api.bodies import Body, written
from app.api.errors import responses
from app.api.services import PlayerDep, ServicesDep
from app.db.appeals import TEXT_MAX, Appeal
from app.rooms.suspensions import refusal

router = APIRouter(prefix="/api/players", tags=["players"], responses=responses(413, 422))


class AppealOut(BaseModel):
    text: str = Field(description="What the player wrote.")
    at: datetime
    read_at: datetime | None = Field(
        description="When the operator read it and kept the suspension; None: not answered yet "
        "(an appeal the operator grants ends the suspension)."
    )

    @classmethod
    def of(cls, appeal: Appeal) -> AppealOut:
        return cls(text=appeal.text, at=appeal.at, read_at=appeal.read_at)


class SuspensionOut(BaseModel):
    reason: str = Field(description="What the site's operator told the player.")
    until: datetime | None = Field(description="When it ends; None: when the operator lifts it.")
    appeal: AppealOut | None = Field(
        description="The player's appeal against it (`POST /api/players/me/appeal`), if made."
    )


async def suspension_of(services: ServicesDep, player_id: str) -> SuspensionOut | None:
    """The player's suspension in force on this server, if any, with their appeal."""
    held = services.rooms.suspensions.of(player_id)
    if held is None:
        return None
    until = None if held.until is None else datetime.fromtimestamp(held.until, UTC)
    appeal = await services.appeals.of(player_id)
    return SuspensionOut(
        reason=held.reason, until=until, appeal=None if appeal is None else AppealOut.of(appeal)
    )


class AppealIn(Body):
    text: str = Field(
        min_length=1,
        max_length=TEXT_MAX,
        description="Why the suspension should end, in the player's words.",
    )

    @field_validator("text")
    @classmethod
    def _words(cls, value: str) -> str:
        words = written(value, "an appeal")
        if words is None:
            raise ValueError("an appeal says something")
        return words


@router.post("/me/appeal", response_model=AppealOut, responses=responses(400, 401, 409))
async def appeal(body: AppealIn, player: PlayerDep, services: ServicesDep) -> AppealOut:
    """Appeal against your suspension: the site's operator reads it, then lifts the suspension
    or keeps it (`GET /api/players/me` says which). One appeal per suspension: 409
    `already_appealed` for a second, `not_suspended` when none holds."""
    return AppealOut.of(await services.appeals.make(player.id, body.text))


async def not_suspended(player: PlayerDep, services: ServicesDep) -> None:
    """Refuse a suspended player (403 ``suspended``) what would seat them or be told to others."""
    if services.rooms.suspensions.holds(player.id):
        raise refusal()


Unsuspended = Depends(not_suspended)
