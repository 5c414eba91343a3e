"""What the routers need, gathered once by ``create_app`` and reached through dependencies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.cluster.limits import Limiter
from app.cluster.lobby import Lobby
from app.db.accounts import Accounts
from app.db.announcements import Announcements
from app.db.appeals import Appeals
from app.db.export import DataExport
from app.db.friends import Friends
from app.db.history import History
from app.db.mutes import Mutes
from app.db.networks import Networks
from app.db.players import Players
from app.db.presence import Presence
from app.db.ratings import Ratings
from app.db.reports import Reports
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.matchmaking import Matchmaker
from app.rooms.ports import Player
from app.rooms.tournaments import Director
from app.settings import Settings


@dataclass(frozen=True, slots=True)
class Services:
    settings: Settings
    players: Players
    rooms: RoomManager
    history: History
    creations: Limiter
    renames: Limiter
    """Per player id: how often they may rename themselves (each rename reaches their tables)."""
    reports: Reports
    report_limits: Limiter
    """Per player id: how often they may report another (the operator reads every report)."""
    appeals: Appeals
    mutes: Mutes
    friends: Friends
    friend_limits: Limiter
    """Per player id: how often they may ask a friend or invite one (each is shown to them)."""
    presence: Presence
    """Who was seen: every request with a valid token counts (``app.db.presence``)."""
    networks: Networks
    """The networks a suspension bars new guests from (``app.db.networks``)."""
    data_export: DataExport
    announcements: Announcements
    export_limits: Limiter
    """Per player id: how often they may export their data (each export reads all of it)."""
    lobby: Lobby
    accounts: Accounts
    ratings: Ratings
    quickplay: Matchmaker
    revoked: Callable[[], None]
    """Tell the open sockets that a token stopped working (``app.transport.revocation``)."""
    tournaments: Director


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]

_bearer = HTTPBearer(auto_error=False, description="The secret token from POST /api/players.")


async def viewer(
    request: Request,
    services: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Player | None:
    """The guest whose token is in ``Authorization: Bearer <token>``, or None without one.

    An unknown token is refused rather than read as "nobody": the client should learn that the
    server forgot it (``bad_token``), and the answer does not depend on what was asked for.
    """
    if credentials is None:
        return None
    player = await services.players.by_token(credentials.credentials)
    if player is None:
        raise RoomError("bad_token", "The token is not known; create a player first.")
    services.presence.seen(player.id, address_of(request))
    return player


ViewerDep = Annotated[Player | None, Depends(viewer)]


async def reader(found: ViewerDep) -> str | None:
    """Who is reading history: the id of the token's player, or None (anonymous)."""
    return None if found is None else found.id


ReaderDep = Annotated[str | None, Depends(reader)]


async def current_player(found: ViewerDep) -> Player:
    """The guest whose token is in ``Authorization: Bearer <token>``; refused without one."""
    if found is None:
        raise RoomError("not_authenticated", "Send your token as 'Authorization: Bearer <token>'.")
    return found


PlayerDep = Annotated[Player, Depends(current_player)]


async def bearer_token(
    _player: PlayerDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The token of the authenticated caller (after ``current_player`` accepted it)."""
    assert credentials is not None
    return credentials.credentials


TokenDep = Annotated[str, Depends(bearer_token)]


def address_of(request: Request) -> str:
    """The caller's address: the proxy's ``X-Forwarded-For`` where the server trusts it
    (``FORWARDED_ALLOW_IPS``, read by uvicorn), else the peer's; ``?`` when there is none."""
    return request.client.host if request.client is not None else "?"


async def creation_allowed(request: Request, services: ServicesDep) -> None:
    """Refuse a new guest, room or sign-in (a password hashed) beyond the address's allowance
    (app/cluster/limits.py)."""
    if not await services.creations.allow(address_of(request)):
        raise RoomError(
            "rate_limited",
            "Too many new players, rooms or sign-ins from your address; try again shortly.",
        )


CreationLimit = Depends(creation_allowed)


async def signed_in_creation_allowed(
    _player: PlayerDep, request: Request, services: ServicesDep
) -> None:
    """``creation_allowed`` for a call that needs a token: the token is checked first, so a
    caller without a valid one is told 401 whatever the address's allowance, and spends none."""
    await creation_allowed(request, services)


SignedInCreationLimit = Depends(signed_in_creation_allowed)
