"""Reporting a player to the site's operator (``app.db.reports``): insults in the chat, an
offensive name, cheating or spoiling the game. The operator reads reports (``python -m
app.admin reports``) and may suspend the player; the reported player is not told. The reporter
reads their own reports back with what came of them — whether the operator acted, not how.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field, field_validator

from app.api.bodies import Body, written
from app.api.errors import responses
from app.api.paths import INT32_MAX, URL_SAFE, PlayerId
from app.api.services import PlayerDep, ServicesDep
from app.db.reports import OwnReport
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


class ReportedOut(BaseModel):
    id: str
    name: str = Field(description="Their name now.")


class OwnReportOut(BaseModel):
    """One of your reports, as you read it back."""

    id: int
    player: ReportedOut = Field(description="Whom you reported.")
    reason: Literal["chat", "name", "play", "other"]
    room: str | None = Field(description="The table's code you reported them at, if any.")
    text: str | None = Field(description="Your words.")
    at: datetime = Field(description="When you made it (a report again replaces it).")
    closed_at: datetime | None = Field(description="When the operator closed it; null while open.")
    outcome: Literal["upheld", "dismissed"] | None = Field(
        description="`upheld`: the operator acted on it (not said how); `dismissed`: they "
        "found nothing to act on; null while open."
    )
    told: bool = Field(description="Whether you marked its outcome read.")

    @classmethod
    def of(cls, report: OwnReport) -> OwnReportOut:
        return cls(
            id=report.id,
            player=ReportedOut(id=report.reported_id, name=report.reported_name),
            reason=report.reason,
            room=report.room_code,
            text=report.text,
            at=report.created_at,
            closed_at=report.closed_at,
            outcome=report.outcome,
            told=report.told,
        )


@router.get("/me/reports", response_model=list[OwnReportOut], responses=responses(401))
async def my_reports(player: PlayerDep, services: ServicesDep) -> list[OwnReportOut]:
    """The reports you made (kept as long as the site keeps reports), newest first, each with
    what came of it."""
    return [OwnReportOut.of(r) for r in await services.reports.of_reporter(player.id)]


class ReadIn(Body):
    ids: list[Annotated[int, Field(ge=1, le=INT32_MAX)]] = Field(
        min_length=1, max_length=100, description="Your closed reports whose outcome you read."
    )


@router.post("/me/reports/read", status_code=204, responses=responses(400, 401))
async def read_outcomes(body: ReadIn, player: PlayerDep, services: ServicesDep) -> Response:
    """Mark the outcome of these reports read: `GET /api/players/me` stops listing them among
    `answered_reports`. Ids that are not your closed reports are let be (so is marking twice)."""
    await services.reports.told(player.id, body.ids)
    return Response(status_code=204)
