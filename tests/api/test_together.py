"""On another's profile, the matches one played with them (``with_you``, docs/protocol.md §1):
as partners and as opponents, and how many one's own side won; only finished matches, only to
a reader who played them, and the sides as each preset has them (BG-9: partners sit across at
four; nobody is anyone's partner in a match at three or two, BGN-4)."""

from __future__ import annotations

import secrets

import httpx
from sqlalchemy import select

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings
from tests.api.test_friends import room
from tests.conftest import new_guest


async def played(
    settings: Settings, code: str, matches: list[tuple[str, dict[str, int], int | None]]
) -> None:
    """Matches at the room ``code``: (preset, {player id: seat}, winner side or None: not
    finished), stored as the server stores a match's seats."""
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            room_id = await session.scalar(select(m.Room.id).where(m.Room.code == code))
            for preset, seats, winner in matches:
                match_id = secrets.token_hex(8)
                session.add(
                    m.Match(
                        id=match_id,
                        room_id=room_id,
                        rules={"preset": preset},
                        target=151,
                        first_dealer=0,
                        finished=winner is not None,
                        winner=winner,
                    )
                )
                await session.flush()
                for player_id, seat in seats.items():
                    session.add(
                        m.MatchSeat(match_id=match_id, seat=seat, player_id=player_id, name="x")
                    )
    finally:
        await engine.dispose()


async def test_the_matches_played_together_as_partners_and_as_opponents(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    ann, bob, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy")]
    code = await room(http, ann)
    await played(
        settings,
        code,
        [
            ("bulgarian", {ann.id: 0, bob.id: 2}, 0),  # partners, won
            ("bulgarian", {ann.id: 0, bob.id: 1}, 1),  # opponents, Bob's side won
            ("french", {ann.id: 1, bob.id: 0}, 1),  # opponents, Ann's side won
            ("bulgarian2", {ann.id: 0, bob.id: 1}, 0),  # two players: opponents, Ann won
            ("bulgarian3", {ann.id: 0, bob.id: 1}, 2),  # three: opponents, the third won
            ("bulgarian", {ann.id: 0, bob.id: 2}, None),  # not finished: not counted
            ("bulgarian", {ann.id: 0, cy.id: 2}, 0),  # not with Bob
        ],
    )

    async def with_you(of: str, headers: dict[str, str] | None = None) -> object:
        answer = await http.get(f"/api/players/{of}/profile", headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()["with_you"]

    assert await with_you(bob.id, ann.auth) == {
        "matches": 5,
        "partners": {"matches": 1, "wins": 1},
        "opponents": {"matches": 4, "wins": 2},
    }
    assert await with_you(ann.id, bob.auth) == {  # the same matches, from Bob's side
        "matches": 5,
        "partners": {"matches": 1, "wins": 1},
        "opponents": {"matches": 4, "wins": 1},
    }
    assert await with_you(bob.id, cy.auth) == {
        "matches": 0,
        "partners": {"matches": 0, "wins": 0},
        "opponents": {"matches": 0, "wins": 0},
    }
    assert await with_you(bob.id) is None  # nobody to have played with
    # A token sent must be known, as on every call that reads one (docs/protocol.md §7.1).
    stale = {"Authorization": "Bearer nope"}
    answer = await http.get(f"/api/players/{bob.id}/profile", headers=stale)
    assert (answer.status_code, answer.json()["error"]["code"]) == (401, "bad_token")
    assert await with_you(ann.id, ann.auth) is None  # one's own profile
