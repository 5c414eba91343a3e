"""Guests: create one (name → id + secret token), read or rename yourself, list your matches."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import AfterValidator, BaseModel, Field

from app.api.bodies import Body
from app.api.erasure import erase_player
from app.api.errors import responses
from app.api.paths import MatchCursor, PageSize, PlayerId, PresetFilter
from app.api.reports import OwnReportOut
from app.api.services import CreationLimit, PlayerDep, ReaderDep, ServicesDep, address_of
from app.api.suspension import SuspensionOut, Unsuspended, suspension_of
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/players", tags=["players"], responses=responses(413, 422))

NAME_MAX = 32


def clean_name(raw: str) -> str:
    """A display name: trimmed, 1..32 characters, no control or format characters."""
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name has 1 to {NAME_MAX} characters")
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise ValueError("a name cannot hold control characters")
    return name


CleanName = Annotated[str, Field(max_length=200), AfterValidator(clean_name)]
"""A name as a body gives it (a player's, a tournament's): ``clean_name``'s, else 422."""


class NameIn(Body):
    name: CleanName = Field(examples=["Ivana"])


class PlayerOut(BaseModel):
    id: str
    name: str


class NewPlayerOut(PlayerOut):
    token: str = Field(description="Secret: keep it; it identifies you. Shown only once.")


@router.post(
    "",
    status_code=201,
    response_model=NewPlayerOut,
    dependencies=[CreationLimit],
    responses=responses(400, 403, 429),
)
async def create_player(body: NameIn, request: Request, services: ServicesDep) -> NewPlayerOut:
    """Create a guest. The token is returned once; send it as a Bearer token afterwards.
    Refused (403 `network_suspended`) from a network that a suspension bars: the operator
    suspended a player who used it, and asked that no new player come from there meanwhile."""
    if await services.networks.barred(address_of(request)):
        raise RoomError(
            "network_suspended",
            "No new player can be made from your network for now: a player who used it is "
            "suspended. Players already made there may still play.",
        )
    player, token = await services.players.create(body.name)
    return NewPlayerOut(id=player.id, name=player.name, token=token)


class PlayerMeOut(PlayerOut):
    suspension: SuspensionOut | None = Field(
        description="Set while the site's operator has suspended you: you may watch, not play."
    )
    answered_reports: list[OwnReportOut] = Field(
        description="Your reports the operator closed whose outcome you have not marked read "
        "(`POST /api/players/me/reports/read`), newest first."
    )


@router.get("/me", response_model=PlayerMeOut, responses=responses(401))
async def me(player: PlayerDep, services: ServicesDep) -> PlayerMeOut:
    answered = await services.reports.of_reporter(player.id, answered=True)
    return PlayerMeOut(
        id=player.id,
        name=player.name,
        suspension=await suspension_of(services, player.id),
        answered_reports=[OwnReportOut.of(r) for r in answered],
    )


@router.patch(
    "/me",
    response_model=PlayerOut,
    responses=responses(400, 401, 403, 429),
    dependencies=[Unsuspended],
)
async def rename(body: NameIn, player: PlayerDep, services: ServicesDep) -> PlayerOut:
    """Change your display name: at every table where you hold a seat too (the matches keep the
    names they began with)."""
    if not await services.renames.allow(player.id):
        # Each rename is told at the player's tables: a stream of them would flood the others.
        raise RoomError("rate_limited", "You renamed yourself a moment ago: wait a little.")
    renamed = await services.players.rename(player.id, body.name)
    await services.rooms.rename_player(player.id, renamed.name)
    return PlayerOut(id=renamed.id, name=renamed.name)


@router.delete("/me", status_code=204, responses=responses(401, 409))
async def forget(player: PlayerDep, services: ServicesDep) -> Response:
    """Erase your guest for good (``app.api.erasure``: not during a match; what goes and what
    stays). An account is erased with its password (`DELETE /api/accounts/me`): 409
    `already_claimed` here, or a device left signed in could erase it."""
    if player.account:
        raise RoomError(
            "already_claimed", "Your player is an account: delete it with its password."
        )
    await erase_player(services, player.id)
    return Response(status_code=204)


@router.get("/{player_id}/matches", responses=responses(401, 404))
async def matches(
    player_id: PlayerId,
    reader: ReaderDep,
    services: ServicesDep,
    before: MatchCursor = None,
    limit: PageSize = 50,
    preset: PresetFilter = None,
) -> list[dict[str, Any]]:
    """A player's matches, newest first, with their scoresheets: all of them with the player's
    own token, otherwise only those the caller may read (public rooms', and private ones the
    caller played in too). A page at a time: ``limit`` of them, those after ``before``; with
    ``preset``, those of that game alone."""
    if await services.players.by_id(player_id) is None:
        raise RoomError("unknown_player", f"No player has the id {player_id!r}.")
    return await services.history.matches_of(player_id, reader, limit, before, preset)
