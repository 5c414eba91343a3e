"""Friends (docs/protocol.md §1, "Friends"): asked and accepted, then each sees the other's
tables (a private one without its code) and may invite the other to theirs; nobody is watched
who did not agree, a muted player's request is not shown, erasure takes it all, and every
refusal changes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.friends import MOST
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.api.test_suspension import eventually, hearing_news, suspension
from tests.conftest import Guest, new_guest

FRIENDS = "/api/players/me/friends"
NOTHING = {
    "friends": [],
    "asked": [],
    "asking": [],
    "invitations": [],
    "play_with": [],
    "tournament_tables": [],
    "tournament_check_ins": [],
    "tournament_partner_asks": [],
}
"""A friends list with nothing in it."""


async def listing(http: httpx.AsyncClient, who: Guest) -> dict[str, Any]:
    answer = await http.get(FRIENDS, headers=who.auth)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def names(people: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in people]


async def ask(http: httpx.AsyncClient, who: Guest, whom: Guest) -> bool:
    answer = await http.put(f"{FRIENDS}/{whom.id}", headers=who.auth)
    assert answer.status_code == 200, answer.text
    return bool(answer.json()["friends"])


async def room(http: httpx.AsyncClient, host: Guest, public: bool = False) -> str:
    made = await http.post("/api/rooms", json={"public": public}, headers=host.auth)
    assert made.status_code in (200, 201), made.text
    return str(made.json()["room"]["code"])


async def invited(http: httpx.AsyncClient) -> tuple[Guest, Guest, str]:
    """Ann and Bob, friends, and the code of Bob's table, where he has invited Ann."""
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
    code = await room(http, bob)
    answer = await http.post(
        f"/api/rooms/{code}/invitations", json={"player": ann.id}, headers=bob.auth
    )
    assert answer.status_code == 204, answer.text
    return ann, bob, code


async def test_friends_ask_accept_see_each_other_s_tables_and_invite(
    http: httpx.AsyncClient,
) -> None:
    ann, bob, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy")]
    assert await ask(http, ann, bob) is False  # asked
    assert await ask(http, ann, bob) is False  # again: nothing changes
    mine, bobs = await listing(http, ann), await listing(http, bob)
    assert (names(mine["asked"]), mine["friends"], mine["asking"]) == (["Bob"], [], [])
    assert (names(bobs["asking"]), bobs["friends"], bobs["asked"]) == (["Ann"], [], [])

    # Before Bob accepts, Ann sees nothing of where he plays and may not invite him.
    private = await room(http, bob)
    assert (await listing(http, ann))["friends"] == []
    invite = {"player": bob.id}
    mine_room = await room(http, ann)
    answer = await http.post(f"/api/rooms/{mine_room}/invitations", json=invite, headers=ann.auth)
    assert code_of(answer) == (403, "not_friends")

    assert await ask(http, bob, ann) is True  # accepts
    public = await room(http, bob, public=True)
    mine = await listing(http, ann)
    assert (names(mine["friends"]), mine["asked"], mine["asking"]) == (["Bob"], [], [])
    tables = mine["friends"][0]["tables"]
    assert [(t["code"], t["status"]) for t in tables] == [(public, "waiting"), (None, "waiting")]
    assert private not in str(mine)  # a private table's code is its players' to give
    assert names((await listing(http, bob))["friends"]) == ["Ann"]

    # Bob invites Ann to his private table: she alone reads its code.
    answer = await http.post(f"/api/rooms/{private}/invitations", json=invite, headers=ann.auth)
    assert code_of(answer) == (403, "not_seated")  # Ann has no seat there
    answer = await http.post(
        f"/api/rooms/{private}/invitations", json={"player": ann.id}, headers=bob.auth
    )
    assert answer.status_code == 204, answer.text
    (invitation,) = (await listing(http, ann))["invitations"]
    assert (invitation["inviter"]["name"], invitation["room"]) == ("Bob", private)
    assert invitation["preset"] == "bulgarian"
    assert (await listing(http, bob))["invitations"] == []
    assert private not in str(await listing(http, cy))
    # Cy is nobody's friend: not invited, and sees nothing.
    answer = await http.post(
        f"/api/rooms/{private}/invitations", json={"player": cy.id}, headers=bob.auth
    )
    assert code_of(answer) == (403, "not_friends")
    assert await listing(http, cy) == NOTHING

    # Once she sits there the invitation is not shown; put away, it is gone.
    assert (await http.put(f"/api/rooms/{private}/seats/2", headers=ann.auth)).is_success
    assert (await listing(http, ann))["invitations"] == []
    assert (await http.delete(f"/api/rooms/{private}/seats/me", headers=ann.auth)).is_success
    assert len((await listing(http, ann))["invitations"]) == 1
    gone = f"/api/players/me/invitations/{invitation['id']}"
    assert (await http.delete(gone, headers=bob.auth)).status_code == 204  # not Bob's: stays
    assert len((await listing(http, ann))["invitations"]) == 1
    assert (await http.delete(gone, headers=ann.auth)).status_code == 204
    assert (await listing(http, ann))["invitations"] == []

    # Dropping a friend takes the friendship and the invitations between the two.
    answer = await http.post(
        f"/api/rooms/{public}/invitations", json={"player": ann.id}, headers=bob.auth
    )
    assert answer.status_code == 204
    assert (await http.delete(f"{FRIENDS}/{bob.id}", headers=ann.auth)).status_code == 204
    assert await listing(http, ann) == NOTHING
    assert (await listing(http, bob))["friends"] == []
    assert (await http.delete(f"{FRIENDS}/{bob.id}", headers=ann.auth)).status_code == 204


async def test_two_asking_each_other_at_once_are_friends(http: httpx.AsyncClient) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    await asyncio.gather(ask(http, ann, bob), ask(http, bob, ann))
    assert names((await listing(http, ann))["friends"]) == ["Bob"]
    assert names((await listing(http, bob))["friends"]) == ["Ann"]
    assert (await listing(http, ann))["asked"] == [] == (await listing(http, ann))["asking"]


async def test_a_request_from_a_muted_player_is_not_shown(http: httpx.AsyncClient) -> None:
    ann, pest = [await new_guest(http, n) for n in ("Ann", "Pest")]
    assert (await http.put(f"/api/players/me/mutes/{pest.id}", headers=ann.auth)).is_success
    assert await ask(http, pest, ann) is False
    assert (await listing(http, ann))["asking"] == []
    assert names((await listing(http, pest))["asked"]) == ["Ann"]  # unanswered, as any
    assert await standing(http, ann, pest) is None  # nor on the profile
    assert await standing(http, pest, ann) == "asked"


async def standing(http: httpx.AsyncClient, reader: Guest | None, of: Guest) -> str | None:
    """Where ``reader`` stands with ``of``, as ``of``'s profile tells the reader."""
    headers = None if reader is None else reader.auth
    answer = await http.get(f"/api/players/{of.id}/profile", headers=headers)
    assert answer.status_code == 200, answer.text
    found: str | None = answer.json()["friendship"]
    return found


async def test_a_profile_says_where_the_reader_stands_with_the_player(
    http: httpx.AsyncClient,
) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    assert (await standing(http, ann, bob), await standing(http, bob, ann)) == (None, None)
    assert await ask(http, ann, bob) is False
    assert (await standing(http, ann, bob), await standing(http, bob, ann)) == ("asked", "asking")
    assert await ask(http, bob, ann) is True
    assert (await standing(http, ann, bob), await standing(http, bob, ann)) == ("friends",) * 2
    assert await standing(http, None, bob) is None  # nobody's friend
    assert await standing(http, bob, bob) is None  # one's own profile
    assert (await http.delete(f"{FRIENDS}/{bob.id}", headers=ann.auth)).status_code == 204
    assert (await standing(http, ann, bob), await standing(http, bob, ann)) == (None, None)


async def test_refusals_change_nothing(http: httpx.AsyncClient) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    assert code_of(await http.put(f"{FRIENDS}/{ann.id}", headers=ann.auth)) == (
        422,
        "bad_request",
    )
    assert code_of(await http.put(f"{FRIENDS}/00000000000000ff", headers=ann.auth)) == (
        404,
        "unknown_player",
    )
    assert code_of(await http.put(f"{FRIENDS}/not-hex", headers=ann.auth)) == (422, "bad_request")
    assert code_of(await http.put(f"{FRIENDS}/{bob.id}")) == (401, "not_authenticated")
    huge = f"/api/players/me/invitations/{2**31}"
    assert code_of(await http.delete(huge, headers=ann.auth)) == (422, "bad_request")
    answer = await http.post(
        "/api/rooms/NOSUCHROOM/invitations", json={"player": bob.id}, headers=ann.auth
    )
    assert code_of(answer) == (404, "unknown_room")
    code = await room(http, ann)
    for bad in ({}, {"player": "x y"}, {"player": bob.id, "extra": 1, "player2": None}):
        answer = await http.post(f"/api/rooms/{code}/invitations", json=bad, headers=ann.auth)
        assert answer.status_code in (204, 403, 422), bad
        if bad.get("player") != bob.id:
            assert code_of(answer) == (422, "bad_request"), bad
    assert await listing(http, ann) == NOTHING
    assert await listing(http, bob) == NOTHING


async def test_a_suspended_player_neither_asks_nor_invites(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both are shown to another player, as a chat line is."""
    async with hearing_news(settings) as (_, http):
        ann, bob, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy")]
        assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
        code = await room(http, ann)
        command = ["suspend", ann.id, "--reason", "Testing friends"]
        assert await asyncio.to_thread(admin.main, command, settings) == 0
        capsys.readouterr()

        async def heard() -> bool:
            return await suspension(http, ann) is not None

        await eventually(heard)
        answer = await http.put(f"{FRIENDS}/{cy.id}", headers=ann.auth)
        assert code_of(answer) == (403, "suspended")
        answer = await http.post(
            f"/api/rooms/{code}/invitations", json={"player": bob.id}, headers=ann.auth
        )
        assert code_of(answer) == (403, "suspended")
        assert (await listing(http, cy))["asking"] == []
        assert (await listing(http, bob))["invitations"] == []
        # What they already had stays theirs to read, and to drop.
        assert names((await listing(http, ann))["friends"]) == ["Bob"]


async def test_requests_and_invitations_are_limited(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    ann = await new_guest(http, "Ann")
    others = [await new_guest(http, f"P{i}") for i in range(settings.friend_burst + 1)]
    for other in others[:-1]:
        assert await ask(http, ann, other) is False
    answer = await http.put(f"{FRIENDS}/{others[-1].id}", headers=ann.auth)
    assert code_of(answer) == (429, "rate_limited")
    assert len((await listing(http, ann))["asked"]) == settings.friend_burst


async def test_erasure_takes_friendships_and_invitations(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    ann, bob, code = await invited(http)
    exported = (await http.get("/api/players/me/export", headers=ann.auth)).json()
    assert [(f["asker"], f["asked"]) for f in exported["friendships"]] == [(ann.id, bob.id)]
    assert [(i["inviter"], i["table"]) for i in exported["invitations"]] == [(bob.id, code)]
    assert (await http.delete("/api/players/me", headers=ann.auth)).status_code == 204
    assert (await listing(http, bob))["friends"] == []
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            for table in (m.Friendship, m.Invitation):
                assert await session.scalar(select(func.count()).select_from(table)) == 0
    finally:
        await engine.dispose()


async def test_beyond_two_hundred_friends_and_requests_a_player_asks_no_more(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            for i in range(MOST):  # half friends (accepted), half requests waiting
                other = f"{i:016x}"
                session.add(m.Player(id=other, name=f"P{i}", token_hash=other * 4))
                await session.flush()
                accepted = datetime.now(UTC) if i % 2 else None
                session.add(m.Friendship(asker_id=ann.id, asked_id=other, accepted_at=accepted))
    finally:
        await engine.dispose()
    answer = await http.put(f"{FRIENDS}/{bob.id}", headers=ann.auth)
    assert code_of(answer) == (409, "too_many_friends")
    assert names((await listing(http, bob))["asking"]) == []
    assert await ask(http, bob, ann) is False  # Bob may still ask Ann ...
    answer = await http.put(f"{FRIENDS}/{bob.id}", headers=ann.auth)
    assert code_of(answer) == (409, "too_many_friends")  # ... but she may not accept
    assert len((await listing(http, ann))["friends"]) == MOST // 2
    assert names((await listing(http, ann))["asking"]) == ["Bob"]
