"""Ratings over REST: the leaderboard of a preset and a player's profile (``app.db.ratings``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.errors import responses
from app.api.paths import PlayerId
from app.api.services import ReaderDep, ServicesDep
from app.rooms.errors import RoomError
from app.rules import PRESETS

router = APIRouter(prefix="/api", tags=["ratings"], responses=responses(422))


@router.get("/ratings/{preset}")
async def leaderboard(preset: str, services: ServicesDep) -> list[dict[str, Any]]:
    """The best rated players of ``preset``, best first (at most 100)."""
    if preset not in PRESETS:
        raise RoomError("bad_rules", f"Presets are {', '.join(PRESETS)}.")
    return await services.ratings.leaderboard(preset)


@router.get("/players/{player_id}/profile", responses=responses(401, 404))
async def profile(player_id: PlayerId, reader: ReaderDep, services: ServicesDep) -> dict[str, Any]:
    """A player's ratings, rating history, matches played and win rate; with your token, on
    another's profile, `with_you`: the finished matches you played together, as partners and
    as opponents, and how many your side won; and `friendship`: `friends`, `asked` (by you),
    `asking` (you) or null (both null without a token or on your own profile)."""
    found = await services.ratings.profile(player_id)
    if found is None:
        raise RoomError("unknown_player", f"No player has the id {player_id!r}.")
    if reader is None or reader == player_id:
        return {**found, "with_you": None, "friendship": None}
    return {
        **found,
        "with_you": await services.history.together(reader, player_id),
        "friendship": await services.friends.between(reader, player_id),
    }
