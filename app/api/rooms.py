"""Rooms over REST: create, list public ones, look one up by invite code, seats, bots, start.

Everything that changes a room goes through its actor (``app.rooms``), exactly like the same
commands sent over the WebSocket; the REST reply carries the room's version after the change.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from app.api.bodies import Body, MatchTarget
from app.api.errors import responses
from app.api.paths import PlayerId, PresetFilter, RoomCode
from app.api.services import PlayerDep, ServicesDep, SignedInCreationLimit
from app.api.suspension import Unsuspended
from app.rooms.config import MOST_DEAL_PAUSE
from app.rooms.errors import RoomError
from app.rooms.room import Room
from app.rooms.watching import WATCH_CODE, watched
from app.rules import HOUSE_RULES, PRESETS, Ruleset, card_facts, ranks_in

router = APIRouter(prefix="/api", tags=["rooms"], responses=responses(413, 422))
ROOM_CALL = responses(404, 503)  # every call naming a room by its code
CHANGE = responses(401, 403, 404, 409, 503)  # every call that changes a room
PAGE_MAX = 100


class RulesIn(Body):
    preset: str = Field(default="bulgarian", examples=["bulgarian", "french"])
    house_rules: dict[str, bool | str] = Field(default_factory=dict)


class RoomIn(Body):
    rules: RulesIn = Field(default_factory=RulesIn)
    target: MatchTarget = Field(
        default=None, description="Match target; default 151 / 1000 by preset."
    )
    public: bool = False
    turn_seconds: int | None = Field(
        default=None, ge=0, description="Turn timer; 0 = none; default from the server settings."
    )
    deal_pause_seconds: float | None = Field(
        default=None,
        ge=0,
        le=MOST_DEAL_PAUSE,
        description="How long each deal's result is shown before the next deal (the players may "
        "cut it short); default from the server settings.",
    )
    bots: list[int] = Field(default_factory=list, description="Seats to fill with bots now.")
    bot_level: Literal["random", "basic", "strong", "expert"] = Field(
        default="basic",
        description="The bots of this room, in empty seats and standing in for absent players.",
    )
    seat: int | None = Field(default=0, description="Where the host sits (null: do not sit).")
    rated: bool = Field(default=False, description="Matches move ratings (see Ratings).")
    accounts_only: bool = Field(
        default=False, description="Only signed-in players may sit (guests may watch)."
    )


class SettingsIn(Body):
    """Only the settings given change; ``null`` leaves one as it is, except ``target``. A
    setting that cannot be changed (the preset, ``rated``) is refused, not ignored: the host
    must not believe it changed."""

    model_config = ConfigDict(strict=True, extra="forbid")

    house_rules: dict[str, bool | str] | None = Field(
        default=None,
        max_length=64,
        description="The room's whole set of house rules of its preset (one left out takes its "
        "default; see `GET /api/rules`).",
    )
    target: MatchTarget = Field(default=None, description="Match target; null: the preset's.")
    public: bool | None = None
    turn_seconds: int | None = Field(default=None, ge=0, description="Turn timer; 0 = none.")
    deal_pause_seconds: float | None = Field(default=None, ge=0, le=MOST_DEAL_PAUSE)
    bot_level: Literal["random", "basic", "strong", "expert"] | None = None
    accounts_only: bool | None = None


class HostIn(Body):
    seat: int = Field(description="The seat of the player who hosts the room from now on.")


class StartIn(Body):
    fill_with_bots: bool = Field(default=False, description="Put bots in the empty seats.")


class VersionOut(BaseModel):
    v: int = Field(description="The room's event version after the change.")
    room: dict[str, Any]


class RoomsPage(BaseModel):
    rooms: list[dict[str, Any]] = Field(description="ROOM summaries, as in `VersionOut.room`.")
    total: int = Field(description="How many public rooms the whole list holds.")
    offset: int
    limit: int


async def _room(services: ServicesDep, code: str) -> Room:
    room = await services.rooms.get(code)
    if room is None:
        raise RoomError("unknown_room", f"No room has the code {code!r}.")
    return room


def _out(room: Room) -> VersionOut:
    return VersionOut(v=room.version, room=room.summary())


@router.get("/rules")
async def rules() -> dict[str, Any]:
    """The presets (seats, default target, the ranks of their deck) and their house rules
    with defaults and short explanations; the cards' order and points, the declarations."""
    return {
        "presets": list(PRESETS),
        # What each preset fixes that a form needs: its seats (4, 3 or 2: which seats may get
        # a bot) and the target a room gets when none is chosen.
        "tables": {
            preset: {"seats": base.seats, "target": base.default_target, "ranks": ranks_in(base)}
            for preset, base in ((p, Ruleset.of(p)) for p in PRESETS)
        },
        # The cards' order and points, the declarations and belote (the "How to play" page).
        "cards": card_facts(),
        "house_rules": [
            {
                "name": rule.name,
                "presets": list(rule.presets),
                "default": rule.default,
                "choices": list(rule.choices),
                "rule": rule.rule,
                "explanation": rule.explanation,
            }
            for rule in HOUSE_RULES
        ],
    }


@router.post(
    "/rooms",
    status_code=201,
    response_model=VersionOut,
    dependencies=[Unsuspended, SignedInCreationLimit],
    responses=responses(400, 401, 403, 429),
)
async def create_room(body: RoomIn, player: PlayerDep, services: ServicesDep) -> VersionOut:
    """Create a room; the reply holds its invite ``code`` (share ``/r/{code}``)."""
    settings = services.settings
    turn = settings.default_turn_seconds if body.turn_seconds is None else body.turn_seconds
    if body.rated and not player.account:
        # Guests cost nothing to make: one person could seat their own and farm a rating.
        raise RoomError("account_required", "Sign in to create a rated room.")
    if body.accounts_only and not player.account:
        # The host sits at the table they make, and could not sit there again once up.
        raise RoomError("accounts_only", "Sign in to make a table for signed-in players.")
    room = await services.rooms.create(
        player.id,
        player.name,
        body.rules.model_dump(),
        target=body.target,
        public=body.public,
        turn_seconds=turn,
        bot_level=body.bot_level,
        deal_pause_seconds=(
            settings.deal_pause_seconds
            if body.deal_pause_seconds is None
            else body.deal_pause_seconds
        ),
        bots=tuple(body.bots),
        host_seat=body.seat,
        rated=body.rated,
        accounts_only=body.accounts_only,
    )
    return _out(room)


@router.get("/rooms", response_model=RoomsPage)
async def public_rooms(
    services: ServicesDep,
    offset: Annotated[int, Query(ge=0, description="How many rooms of the list to skip.")] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description="The page's size.")] = 50,
    preset: PresetFilter = None,
) -> RoomsPage:
    """Public rooms waiting for players (first) or being played, the newest first in each;
    refreshed at most once a second."""
    rooms, total = await services.lobby.page(offset, limit, preset)
    return RoomsPage(
        rooms=rooms,
        total=total,
        offset=offset,
        limit=limit,
    )


@router.get("/rooms/{code}", response_model=VersionOut, responses=ROOM_CALL)
async def get_room(code: RoomCode, services: ServicesDep) -> VersionOut:
    """A room by its invite code (this is how an invite link is joined), or by its watch code:
    then the room as a watcher sees it, named by that code (``watch_only``)."""
    if WATCH_CODE.fullmatch(code) is None:
        return _out(await _room(services, code))
    room = await services.rooms.get_watched(code)
    if room is None:
        raise RoomError("unknown_room", f"No room has the code {code!r}.")
    return VersionOut(v=room.version, room=watched(room.summary()))


@router.patch("/rooms/{code}", response_model=VersionOut, responses={**CHANGE, **responses(400)})
async def change_settings(
    code: RoomCode, body: SettingsIn, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only, between matches: change the room's settings (not its preset, nor whether it
    is rated); the next match is played by them. Rematch votes already cast are cleared."""
    room = await _room(services, code)
    await room.configure(player.id, body.model_dump(exclude_unset=True), account=player.account)
    return _out(room)


@router.put("/rooms/{code}/host", response_model=VersionOut, responses={**CHANGE, **responses(400)})
async def hand_over(
    code: RoomCode, body: HostIn, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only: the player sitting in ``seat`` hosts the room from now on (the settings,
    removing players); the old host keeps their seat."""
    room = await _room(services, code)
    await room.hand_over(player.id, body.seat)
    return _out(room)


@router.put("/rooms/{code}/seats/{seat}", response_model=VersionOut, responses=CHANGE)
async def take_seat(
    code: RoomCode, seat: int, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Sit in an empty seat, or move to it from your current one (before the match)."""
    room = await _room(services, code)
    await room.sit(player.id, player.name, seat, account=player.account)
    return _out(room)


@router.delete("/rooms/{code}/seats/me", response_model=VersionOut, responses=CHANGE)
async def leave_seat(code: RoomCode, player: PlayerDep, services: ServicesDep) -> VersionOut:
    """Stand up; during a match a stand-in bot plays the seat, which stays yours to take back."""
    room = await _room(services, code)
    await room.leave(player.id)
    return _out(room)


@router.delete("/rooms/{code}/seats/{seat}", response_model=VersionOut, responses=CHANGE)
async def remove_player(
    code: RoomCode, seat: int, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only, between matches: remove the player sitting in ``seat``; they may watch the
    room but not sit in it again."""
    room = await _room(services, code)
    await room.remove(player.id, seat)
    return _out(room)


@router.delete("/rooms/{code}/removed/{player_id}", response_model=VersionOut, responses=CHANGE)
async def readmit_player(
    code: RoomCode, player_id: PlayerId, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only, at any time: a player removed from the room may sit in it again."""
    room = await _room(services, code)
    await room.readmit(player.id, player_id)
    return _out(room)


@router.put("/rooms/{code}/seats/{seat}/bot", response_model=VersionOut, responses=CHANGE)
async def put_bot(
    code: RoomCode, seat: int, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only: seat a bot in an empty seat."""
    room = await _room(services, code)
    await room.set_bot(player.id, seat, True)
    return _out(room)


@router.delete("/rooms/{code}/seats/{seat}/bot", response_model=VersionOut, responses=CHANGE)
async def remove_bot(
    code: RoomCode, seat: int, player: PlayerDep, services: ServicesDep
) -> VersionOut:
    """Host only: take a bot out of its seat (before the match)."""
    room = await _room(services, code)
    await room.set_bot(player.id, seat, False)
    return _out(room)


@router.post(
    "/rooms/{code}/start", response_model=VersionOut, responses={**CHANGE, **responses(400)}
)
async def start(
    code: RoomCode, player: PlayerDep, services: ServicesDep, body: StartIn | None = None
) -> VersionOut:
    """Host only: start the match (all seats taken, or ``fill_with_bots``)."""
    room = await _room(services, code)
    await room.begin(player.id, body.fill_with_bots if body else False)
    return _out(room)
