"""ROOM's ``match_seats``: who played the current or last match, whoever sits there now.

After a match the seats change (a player stands up, the host removes one or takes a bot away),
and the table's words about the match ("Team 1 (Host & Guest) won", its scoresheet's columns)
were made of the seats as they are now: "Team 1 (Host & Empty seat)".
"""

from __future__ import annotations

from app.rooms.manager import RoomManager
from tests.rooms.test_room import GUEST, HOST, finished_match_of_two


async def test_the_last_match_s_players_are_kept_whoever_sits_now(manager: RoomManager) -> None:
    room = await manager.create(
        HOST, "Host", {"preset": "bulgarian"}, target=None, public=False, turn_seconds=0
    )
    assert room.summary()["match_seats"] is None  # no match yet
    room, _host, _guest = await finished_match_of_two(manager)
    played = [
        {"seat": 0, "player": {"id": HOST, "name": "Host"}, "bot": False},
        {"seat": 1, "player": None, "bot": True},
        {"seat": 2, "player": {"id": GUEST, "name": "Guest"}, "bot": False},
        {"seat": 3, "player": None, "bot": True},
    ]
    assert room.summary()["match_seats"] == played
    await room.leave(GUEST)  # after a match a player stands up (or the host removes them)
    summary = room.summary()
    assert summary["seats"][2]["player"] is None
    assert summary["match_seats"] == played
    await room.rematch(HOST)  # the new match is played by a bot in the guest's seat
    assert room.summary()["match_seats"][2] == {"seat": 2, "player": None, "bot": True}
