"""Muting a player (``/api/players/me/mutes``, docs/protocol.md §1): kept on the server, so it
holds on every device; read by the one who muted alone; quick play never seats the two
together; gone with either player's erasure; the newest 200 kept."""

from __future__ import annotations

import httpx
import pytest

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.mutes import MOST, Mutes
from app.rooms.matchmaking import pick_table
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import new_account, new_guest
from tests.db.test_quickplay import T0, ticket

URL = "/api/players/me/mutes"


async def test_a_mute_is_kept_listed_and_undone(http: httpx.AsyncClient) -> None:
    ann, rude, calm = [await new_guest(http, n) for n in ("Ann", "Rude", "Calm")]
    assert (await http.get(URL, headers=ann.auth)).json() == []
    for who in (rude, calm, rude):  # muting again keeps one, now the newest
        assert (await http.put(f"{URL}/{who.id}", headers=ann.auth)).status_code == 204
    listed = (await http.get(URL, headers=ann.auth)).json()
    assert listed == [{"id": calm.id, "name": "Calm"}, {"id": rude.id, "name": "Rude"}]
    # Nobody else reads it, the muted player included.
    assert (await http.get(URL, headers=rude.auth)).json() == []
    me = await http.get(f"/api/players/{ann.id}/profile")
    assert me.status_code == 200 and rude.id not in me.text
    assert (await http.delete(f"{URL}/{rude.id}", headers=ann.auth)).status_code == 204
    assert (await http.delete(f"{URL}/{rude.id}", headers=ann.auth)).status_code == 204  # again
    assert (await http.get(URL, headers=ann.auth)).json() == [{"id": calm.id, "name": "Calm"}]


async def test_a_mute_that_cannot_be_made_is_refused_and_changes_nothing(
    http: httpx.AsyncClient,
) -> None:
    ann = await new_guest(http, "Ann")
    refusals = [
        (await http.put(f"{URL}/{ann.id}"), (401, "not_authenticated")),
        (await http.get(URL), (401, "not_authenticated")),
        (await http.put(f"{URL}/{ann.id}", headers=ann.auth), (422, "bad_request")),
        (await http.put(f"{URL}/00000000000000ff", headers=ann.auth), (404, "unknown_player")),
        (await http.put(f"{URL}/not%20an%20id", headers=ann.auth), (422, "bad_request")),
        (await http.delete(f"{URL}/not%20an%20id", headers=ann.auth), (422, "bad_request")),
    ]
    assert [code_of(answer) for answer, _ in refusals] == [expected for _, expected in refusals]
    assert (await http.get(URL, headers=ann.auth)).json() == []


async def test_erasure_takes_the_mutes_made_and_those_of_the_player(
    http: httpx.AsyncClient,
) -> None:
    ann, rude, calm = [await new_guest(http, n) for n in ("Ann", "Rude", "Calm")]
    assert (await http.put(f"{URL}/{rude.id}", headers=ann.auth)).is_success
    assert (await http.put(f"{URL}/{calm.id}", headers=rude.auth)).is_success
    assert (await http.delete("/api/players/me", headers=rude.auth)).status_code == 204
    assert (await http.get(URL, headers=ann.auth)).json() == []
    # Nor may the erased player be muted anew.
    gone = await http.put(f"{URL}/{rude.id}", headers=calm.auth)
    assert code_of(gone) == (404, "unknown_player")


async def test_quick_play_never_seats_a_player_with_one_they_muted(
    http: httpx.AsyncClient,
) -> None:
    """Two seats (``bulgarian2``): the two who muted wait on while the next one to come is
    seated with the first; the other meets the one after."""
    ann, rude = await new_account(http, "Ann"), await new_account(http, "Rude")
    assert (await http.put(f"{URL}/{rude.id}", headers=ann.auth)).is_success
    ask = {"preset": "bulgarian2", "rated": False, "wait_seconds": 300}
    for who in (ann, rude):
        answer = await http.post("/api/quickplay", json=ask, headers=who.auth)
        assert answer.json()["state"] == "waiting", answer.text
    assert (await http.get("/api/quickplay", headers=ann.auth)).json()["state"] == "waiting"
    calm = await new_account(http, "Calm")
    seated = (await http.post("/api/quickplay", json=ask, headers=calm.auth)).json()
    assert seated["state"] == "seated"
    ann_now = (await http.get("/api/quickplay", headers=ann.auth)).json()
    assert ann_now["room"] == seated["room"]  # the oldest, with the newcomer
    assert (await http.get("/api/quickplay", headers=rude.auth)).json()["state"] == "waiting"
    kind = await new_account(http, "Kind")
    later = (await http.post("/api/quickplay", json=ask, headers=kind.auth)).json()
    assert later["state"] == "seated" and later["room"] != seated["room"]
    rude_now = (await http.get("/api/quickplay", headers=rude.auth)).json()
    assert rude_now["room"] == later["room"]


async def test_the_newest_mutes_are_kept(settings: Settings) -> None:
    ids = [f"{i:016x}" for i in range(MOST + 2)]
    engine = make_engine(settings.database_url)
    try:
        sessions = make_sessionmaker(engine)
        async with sessions.begin() as session:
            for player_id in ids:
                session.add(m.Player(id=player_id, name=player_id, token_hash=player_id * 4))
        mutes = Mutes(sessions)
        for player_id in ids[1:]:
            await mutes.add(ids[0], player_id)
        kept = [muted.id for muted in await mutes.of(ids[0])]
        assert kept == ids[2:]  # the oldest, ids[1], forgotten
        await mutes.add(ids[0], ids[2])  # muted again: the newest now
        assert [muted.id for muted in await mutes.of(ids[0])] == [*ids[3:], ids[2]]
    finally:
        await engine.dispose()


@pytest.mark.parametrize("muter", [0, 1])
def test_pick_table_keeps_apart_whoever_muted_whom(muter: int) -> None:

    waiting = [ticket("a"), ticket("b", 1), ticket("c", 2), ticket("d", 3), ticket("e", 4)]
    pair = ("a", "b") if muter == 0 else ("b", "a")
    picked = pick_table(waiting, 4, T0, {frozenset(pair)})
    assert picked is not None
    assert [t.player_id for t in picked[0]] == ["a", "c", "d", "e"] and picked[1] is False
    alone = pick_table(waiting[:2], 4, T0, {frozenset(pair)})
    assert alone is None  # nobody else yet: wait
