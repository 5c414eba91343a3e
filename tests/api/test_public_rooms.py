"""``GET /api/rooms`` (issue 9): paged, a request builds only its page, and the list behind it
is a snapshot taken when public rooms come and go and at most once a second otherwise — not a
pass over every room per request."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.rooms.manager import PublicList, RoomManager
from app.rooms.room import Room, RoomTimings
from tests.conftest import new_guest
from tests.rooms.fakes import MemoryStore

HOST = "host"


async def test_the_list_is_paged_and_a_page_builds_only_its_rooms(
    http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = await new_guest(http, "Host")
    made = []
    for _ in range(12):
        created = await http.post("/api/rooms", json={"public": True}, headers=host.auth)
        made.append(created.json()["room"]["code"])
    await http.post("/api/rooms", json={}, headers=host.auth)  # a private one, never listed

    built = 0
    summary = Room.summary

    def counted(room: Room) -> dict[str, Any]:
        nonlocal built
        built += 1
        return summary(room)

    monkeypatch.setattr(Room, "summary", counted)
    pages = []
    for offset in (0, 5, 10, 15):
        page = (await http.get("/api/rooms", params={"offset": offset, "limit": 5})).json()
        assert (page["total"], page["offset"], page["limit"]) == (12, offset, 5)
        pages.append([room["code"] for room in page["rooms"]])
    assert [len(p) for p in pages] == [5, 5, 2, 0]
    assert built == 12  # each request summarised its page, nothing more
    assert [code for page in pages for code in page] == made[::-1]  # newest first, no repeat
    default = (await http.get("/api/rooms")).json()
    assert default["limit"] == 50 and len(default["rooms"]) == 12


@pytest.fixture
async def listed() -> AsyncIterator[tuple[RoomManager, list[float]]]:
    clock = [0.0]
    manager = RoomManager(
        MemoryStore(),
        RoomTimings(bot_delay_seconds=0),
        public=PublicList(refresh_seconds=1.0, clock=lambda: clock[0]),
    )
    yield manager, clock
    await manager.close()


async def _open(manager: RoomManager, public: bool = True) -> Room:
    return await manager.create(
        HOST, "Host", {"preset": "french"}, target=None, public=public, turn_seconds=0
    )


def _codes(manager: RoomManager) -> list[str]:
    return [room.config.code for room in manager.public_rooms()]


async def test_the_list_is_a_snapshot_taken_again_when_rooms_come_and_go(
    listed: tuple[RoomManager, list[float]],
) -> None:
    manager, clock = listed
    first, second = await _open(manager), await _open(manager)
    await _open(manager, public=False)
    assert _codes(manager) == [second.config.code, first.config.code]

    third = await _open(manager)  # a new public room is listed at once
    assert _codes(manager)[0] == third.config.code and manager.public_count() == 3

    await third.begin(HOST, True)  # a status change waits for the next snapshot ...
    assert third.status == "playing"
    assert _codes(manager)[0] == third.config.code
    clock[0] += 1.0  # ... which comes within the second: waiting rooms first
    assert _codes(manager) == [second.config.code, first.config.code, third.config.code]
    assert [r.config.code for r in manager.public_rooms(1, 1)] == [first.config.code]

    evicted = await manager.evict_idle(now=float("inf"))  # rooms put away leave the list
    assert set(evicted) >= {first.config.code, second.config.code}
    assert first.config.code not in _codes(manager)


async def test_the_list_of_one_preset_is_paged_and_waiting_rooms_come_first(
    http: httpx.AsyncClient,
) -> None:
    """A player who plays one game finds its tables without paging through the others'."""
    host = await new_guest(http, "Host")
    made: dict[str, list[str]] = {"french": [], "bulgarian": []}

    async def create(preset: str) -> None:
        body = {"public": True, "rules": {"preset": preset}}
        created = await http.post("/api/rooms", json=body, headers=host.auth)
        made[preset].append(created.json()["room"]["code"])

    for preset in ("french", "bulgarian", "french", "bulgarian"):
        await create(preset)
    started = await http.post(
        f"/api/rooms/{made['french'][1]}/start", json={"fill_with_bots": True}, headers=host.auth
    )
    assert started.status_code == 200
    await create("french")  # a new public room: the list is taken again, with the status

    async def page(**params: Any) -> tuple[list[str], int]:
        body = (await http.get("/api/rooms", params=params)).json()
        return [room["code"] for room in body["rooms"]], body["total"]

    french = made["french"]
    assert await page(preset="french") == ([french[2], french[0], french[1]], 3)
    assert await page(preset="french", offset=1, limit=1) == ([french[0]], 3)
    assert await page(preset="bulgarian") == (made["bulgarian"][::-1], 2)
    assert await page(preset="open_belot") == ([], 0)
    assert (await page())[1] == 5
