"""A person erases their player: an account (after its password, ``app.api.accounts``) or a
guest (``app.api.players``). The same for both: ``Accounts.erase`` says what goes and what
stays; first the player leaves the tables, through the rooms, so that no live room writes
their name back.
"""

from __future__ import annotations

from app.api.services import Services
from app.rooms.errors import RoomElsewhere, RoomError
from app.rooms.room import PLAYING


async def erase_player(services: Services, player_id: str) -> None:
    """Not while the player plays a match (409 `match_in_progress`: finish or concede it).
    Otherwise leave every table where they sit between matches, as
    `DELETE /api/rooms/{code}/seats/me` does, hand the rooms they host with someone else at the
    table to that person, then erase. In a cluster, this node leaves the tables it serves and
    sends the call on (``RoomElsewhere``: 307) to a node serving another, which does the same."""
    history = services.history
    if await history.open_rooms_of(player_id, limit=1, statuses=(PLAYING,)):
        raise RoomError("match_in_progress", "Finish or concede your match before erasing.")
    elsewhere: RoomElsewhere | None = None
    for code in await history.rooms_to_leave(player_id):
        try:
            room = await services.rooms.get(code)
        except RoomElsewhere as error:
            elsewhere = error
            continue
        if room is not None:
            await room.let_go(player_id)
    if elsewhere is not None:
        raise elsewhere
    await services.accounts.erase(player_id)
    services.rooms.forget_player(player_id)
    services.revoked()
