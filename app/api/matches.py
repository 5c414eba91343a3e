"""Match history: a match with its scoresheet and deals, and exports of deal and match records
in the format of docs/records.md (finished deals only: a deal in progress stays secret).

A private room's matches are read only by their players, with their token; anyone else gets
the very answer a missing match gets (``app.db.history``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.errors import responses
from app.api.paths import DealNumber, MatchId
from app.api.services import ReaderDep, ServicesDep
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/matches", tags=["history"], responses=responses(401, 404, 422))


@router.get("/{match_id}")
async def match(match_id: MatchId, reader: ReaderDep, services: ServicesDep) -> dict[str, Any]:
    """A match: seats, scoresheet, and each deal's contract and itemised result."""
    found = await services.history.match(match_id, reader)
    if found is None:
        raise RoomError("unknown_match", f"No match has the id {match_id!r}.")
    return found


@router.get("/{match_id}/record")
async def match_record(
    match_id: MatchId, reader: ReaderDep, services: ServicesDep
) -> dict[str, Any]:
    """The match record (``belote-match/1``) of its finished deals; replays to its scoresheet."""
    record = await services.history.match_record(match_id, reader)
    if record is None:
        raise RoomError("unknown_match", f"No match has the id {match_id!r}.")
    return record


@router.get("/{match_id}/deals/{number}/record")
async def deal_record(
    match_id: MatchId, number: DealNumber, reader: ReaderDep, services: ServicesDep
) -> dict[str, Any]:
    """One finished deal's record (``belote-deal/1``), with the seed and cut of its shuffle."""
    record = await services.history.deal_record(match_id, number, reader)
    if record is None:
        raise RoomError("unknown_deal", f"Match {match_id!r} has no finished deal number {number}.")
    return record
