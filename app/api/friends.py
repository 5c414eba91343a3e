"""Friends (``app.db.friends``): asked and accepted, then each sees at which tables the other
sits (the code of a public one; a private table's code stays its players' to give) and may
invite the other to theirs. One call, ``GET /api/players/me/friends``, gives a client all it
shows (whether each friend is online too: ``app.db.presence``) and is cheap enough to ask every
few seconds; ``GET /api/players/me/invitations`` gives the invitations alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from app.api.bodies import Body
from app.api.errors import responses
from app.api.paths import HEX, InvitationId, PlayerId, RoomCode
from app.api.services import PlayerDep, ServicesDep
from app.api.suspension import Unsuspended
from app.api.tournaments import TournamentRef
from app.db.presence import online_window
from app.rooms.errors import RoomError

router = APIRouter(tags=["friends"], responses=responses(401, 422))


class PersonOut(BaseModel):
    id: str
    name: str


class TableOut(BaseModel):
    code: str | None = Field(description="The table's code if it is public; null if private.")
    preset: str
    status: Literal["waiting", "playing"]


class FriendOut(PersonOut):
    online: bool = Field(description="On the site now: a page of it open, a moment ago.")
    seen_at: datetime | None = Field(
        description="When they were last on the site, to the minute; null if not since the "
        "server kept it."
    )
    tables: list[TableOut] = Field(
        description="Where they hold a seat at a table waiting or being played, the most "
        "recently changed first."
    )


class InvitationOut(BaseModel):
    id: int
    inviter: PersonOut
    room: str = Field(description="The table's code: open `/r/{room}` to join it.")
    preset: str
    at: datetime


class PlayWithOut(BaseModel):
    friend: PersonOut
    preset: str
    rated: bool
    at: datetime = Field(description="When they asked.")


class TournamentTableOut(BaseModel):
    tournament: TournamentRef
    preset: str
    room: str = Field(description="The table's code: your match there is being played.")


class CheckInOut(BaseModel):
    tournament: TournamentRef
    preset: str
    starts_at: datetime


class PartnerAskOut(BaseModel):
    tournament: TournamentRef
    preset: str
    by: PersonOut = Field(description="The entrant who asks you to play together.")


class InvitationsOut(BaseModel):
    invitations: list[InvitationOut] = Field(
        description="Your friends' invitations to their tables, the newest first (an hour "
        "long, and only while the table waits or plays and you do not sit at it)."
    )
    play_with: list[PlayWithOut] = Field(
        description="Friends waiting in quick play to be seated with you as partners: "
        "`POST /api/quickplay` with the same preset and rated-ness and `partner` their id "
        "answers them. The newest first; not from friends you muted."
    )
    tournament_tables: list[TournamentTableOut] = Field(
        description="The tables where your match of a tournament being played is on (§9)."
    )
    tournament_check_ins: list[CheckInOut] = Field(
        description="The tournaments you entered whose check-in is open and where you have "
        "not checked in (`POST /api/tournaments/{id}/check-in`), the soonest first (§9)."
    )
    tournament_partner_asks: list[PartnerAskOut] = Field(
        description="Entrants who ask you to play together in a tournament taking entries and "
        "whom you have not asked back (`PUT /api/tournaments/{id}/partner` answers), the "
        "oldest tournament first (§9)."
    )


class FriendsOut(InvitationsOut):
    friends: list[FriendOut] = Field(description="Your friends: those online first, by name.")
    asked: list[PersonOut] = Field(description="Those you asked, who have not answered yet.")
    asking: list[PersonOut] = Field(
        description="Those who ask you: `PUT` accepts, `DELETE` declines."
    )


class AskedOut(BaseModel):
    friends: bool = Field(description="True: you are friends now; false: you asked them.")


@router.get("/api/players/me/friends", response_model=FriendsOut)
async def friends(player: PlayerDep, services: ServicesDep) -> FriendsOut:
    """Your friends with their tables and whether they are online, the requests either way,
    and your invitations."""
    listed = await services.friends.of(player.id)
    tables = await services.friends.tables_of([f.id for f in listed.friends])
    since = datetime.now(UTC) - online_window(services.settings.presence_seconds)
    shown = [
        FriendOut(
            id=f.id,
            name=f.name,
            online=f.seen_at is not None and f.seen_at >= since,
            seen_at=None if f.seen_at is None else f.seen_at.replace(second=0, microsecond=0),
            tables=[
                TableOut(code=t.code, preset=t.preset, status=t.status)
                for t in tables.get(f.id, [])
            ],
        )
        for f in listed.friends
    ]
    return FriendsOut(
        friends=sorted(shown, key=lambda f: not f.online),  # stable: by name within each
        asked=[PersonOut(id=p.id, name=p.name) for p in listed.asked],
        asking=[PersonOut(id=p.id, name=p.name) for p in listed.asking],
        **dict(await _invited(services, player.id)),
    )


@router.get("/api/players/me/invitations", response_model=InvitationsOut)
async def invitations(player: PlayerDep, services: ServicesDep) -> InvitationsOut:
    """Your invitations and asks to play together alone: what a page other than the lobby
    asks every few seconds."""
    return await _invited(services, player.id)


async def _invited(services: ServicesDep, player_id: str) -> InvitationsOut:
    return InvitationsOut(
        invitations=await _invitations(services, player_id),
        play_with=await _play_with(services, player_id),
        tournament_tables=[
            TournamentTableOut(
                tournament=TournamentRef(id=t.tournament_id, name=t.name),
                preset=t.preset,
                room=t.room_code,
            )
            for t in await services.tournaments.tables_of(player_id)
        ],
        tournament_check_ins=[
            CheckInOut(
                tournament=TournamentRef(id=c.tournament_id, name=c.name),
                preset=c.preset,
                starts_at=c.starts_at,
            )
            for c in await services.tournaments.check_ins_of(player_id)
        ],
        tournament_partner_asks=[
            PartnerAskOut(
                tournament=TournamentRef(id=a.tournament_id, name=a.name),
                preset=a.preset,
                by=PersonOut(id=a.by_id, name=a.by_name),
            )
            for a in await services.tournaments.partner_asks_of(player_id)
        ],
    )


async def _invitations(services: ServicesDep, player_id: str) -> list[InvitationOut]:
    return [
        InvitationOut(
            id=i.id,
            inviter=PersonOut(id=i.inviter.id, name=i.inviter.name),
            room=i.room_code,
            preset=i.preset,
            at=i.at,
        )
        for i in await services.friends.invitations(player_id)
    ]


async def _play_with(services: ServicesDep, player_id: str) -> list[PlayWithOut]:
    asks = await services.quickplay.asking(player_id)
    heard = await services.friends.heard(player_id, {t.player_id for t in asks}) if asks else set()
    return [
        PlayWithOut(
            friend=PersonOut(id=t.player_id, name=t.name),
            preset=t.preset,
            rated=t.rated,
            at=t.created_at,
        )
        for t in asks
        if t.player_id in heard
    ]


async def _allowed(services: ServicesDep, player_id: str) -> None:
    # Each request and invitation is shown to another player: bounded.
    if not await services.friend_limits.allow(player_id):
        raise RoomError("rate_limited", "You asked or invited a moment ago: wait a little.")


@router.put(
    "/api/players/me/friends/{player_id}",
    response_model=AskedOut,
    responses=responses(403, 404, 409, 429),
    dependencies=[Unsuspended],
)
async def ask(player_id: PlayerId, player: PlayerDep, services: ServicesDep) -> AskedOut:
    """Ask this player to be friends, or accept their request. You may have 200 friends and
    requests: 409 `too_many_friends` beyond."""
    if player_id == player.id:
        raise RoomError("bad_request", "You cannot befriend yourself.")
    await _allowed(services, player.id)
    return AskedOut(friends=await services.friends.ask(player.id, player_id))


@router.delete("/api/players/me/friends/{player_id}", status_code=204)
async def drop(player_id: PlayerId, player: PlayerDep, services: ServicesDep) -> Response:
    """Drop a friend, withdraw your request or decline theirs (nothing happens if there is
    none); the invitations between you go too."""
    await services.friends.drop(player.id, player_id)
    return Response(status_code=204)


@router.delete("/api/players/me/invitations/{invitation_id}", status_code=204)
async def dismiss(
    invitation_id: InvitationId, player: PlayerDep, services: ServicesDep
) -> Response:
    """Put an invitation away (nothing happens for an unknown one)."""
    await services.friends.dismiss(player.id, invitation_id)
    return Response(status_code=204)


class InviteIn(Body):
    player: str = Field(pattern=HEX, description="The friend's id.")


@router.post(
    "/api/rooms/{code}/invitations",
    status_code=204,
    responses=responses(400, 403, 404, 429),
    dependencies=[Unsuspended],
)
async def invite(
    code: RoomCode, body: InviteIn, player: PlayerDep, services: ServicesDep
) -> Response:
    """Invite a friend to this table, where you hold a seat or which you host: they see it
    among their invitations for an hour. 403 `not_seated` if you have no seat there and do
    not host it, `not_friends` if they are not your friend."""
    room = await services.rooms.look(code)
    if room is None:
        raise RoomError("unknown_room", f"No room has the code {code!r}.")
    if room.seat_of(player.id) is None and room.config.host_id != player.id:
        raise RoomError("not_seated", "Only the table's players may invite to it.")
    await _allowed(services, player.id)
    await services.friends.invite(player.id, body.player, code)
    return Response(status_code=204)
