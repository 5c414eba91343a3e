"""Quick play with a friend over REST (docs/protocol.md §8.3): a player names a friend as
`partner`; the friend sees the ask (`play_with`) and answers it by asking for the same; the two
are then seated as partners (BG-9: seats 0 and 2) against the next two. Refusals change
nothing."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.test_friends import ask, listing
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Guest, new_guest

QP = "/api/quickplay"


async def status(http: httpx.AsyncClient, who: Guest) -> dict[str, Any]:
    answer = await http.get(QP, headers=who.auth)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def test_two_friends_are_seated_as_partners(http: httpx.AsyncClient) -> None:
    ann, bob, cy, dee = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee")]
    assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
    body = {"preset": "french", "wait_seconds": 60}
    # Cy and Dee wait first: without Bob's answer, Ann is no player for their table.
    for single in (cy, dee):
        assert (await http.post(QP, json=body, headers=single.auth)).status_code == 200
    joined = await http.post(QP, json={**body, "partner": bob.id}, headers=ann.auth)
    assert joined.status_code == 200, joined.text
    mine = joined.json()
    assert (mine["state"], mine["partner"], mine["partner_ready"]) == (
        "waiting",
        {"id": bob.id, "name": None},
        False,
    )
    # Bob is told, wherever he is (the invitations) and in his friends list.
    asks = (await http.get("/api/players/me/invitations", headers=bob.auth)).json()["play_with"]
    assert [(a["friend"], a["preset"], a["rated"]) for a in asks] == [
        ({"id": ann.id, "name": "Ann"}, "french", False)
    ]
    assert (await listing(http, bob))["play_with"] == asks
    assert (await listing(http, cy))["play_with"] == []  # Cy is not asked
    assert (await status(http, cy))["state"] == "waiting"  # three people, one of them held
    # Bob answers: the four make a table at once, Ann and Bob across it.
    answer = await http.post(QP, json={**body, "partner": ann.id}, headers=bob.auth)
    assert answer.status_code == 200, answer.text
    seated = await status(http, ann)
    assert seated["state"] == "seated" and seated["partner_ready"] is True
    assert seated["partner"] == {"id": bob.id, "name": "Bob"}
    room = (await http.get(f"/api/rooms/{seated['room']}", headers=ann.auth)).json()["room"]
    at = {s["player"]["id"]: s["seat"] for s in room["seats"] if s["player"]}
    assert (at[ann.id] - at[bob.id]) % 4 == 2  # partners sit across
    assert {at[cy.id], at[dee.id]} == {1, 3}
    assert (await status(http, cy))["room"] == seated["room"]
    # Answered: Bob is asked no more.
    asks = (await http.get("/api/players/me/invitations", headers=bob.auth)).json()["play_with"]
    assert asks == []


async def test_refusals_queue_nobody(http: httpx.AsyncClient) -> None:
    ann, bob, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy")]
    assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
    for partner, preset, refusal in (
        (cy.id, "bulgarian", (403, "not_friends")),  # not a friend
        (ann.id, "bulgarian", (422, "bad_request")),  # oneself
        (bob.id, "bulgarian3", (422, "bad_request")),  # nobody's partner at three seats
        (bob.id, "bulgarian2", (422, "bad_request")),  # nor at two
        ("not-hex!", "bulgarian", (422, "bad_request")),
    ):
        answer = await http.post(QP, json={"preset": preset, "partner": partner}, headers=ann.auth)
        assert code_of(answer) == refusal, (partner, preset)
        assert code_of(await http.get(QP, headers=ann.auth)) == (404, "not_queued")
    assert (await http.get("/api/players/me/invitations", headers=cy.auth)).json()[
        "play_with"
    ] == []
    assert (await http.get("/api/players/me/invitations", headers=bob.auth)).json()[
        "play_with"
    ] == []


async def test_an_ask_from_a_friend_one_muted_is_not_shown(http: httpx.AsyncClient) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
    assert (await http.put(f"/api/players/me/mutes/{ann.id}", headers=bob.auth)).is_success
    answer = await http.post(QP, json={"partner": bob.id}, headers=ann.auth)
    assert answer.status_code == 200
    assert (await http.get("/api/players/me/invitations", headers=bob.auth)).json()[
        "play_with"
    ] == []


async def test_a_pair_waits_as_one_as_long_as_the_shorter_wait(http: httpx.AsyncClient) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    assert await ask(http, ann, bob) is False and await ask(http, bob, ann) is True
    asked = {"preset": "bulgarian", "wait_seconds": 120, "partner": bob.id}
    assert (await http.post(QP, json=asked, headers=ann.auth)).json()["wait_seconds"] == 120
    answer = await http.post(
        QP, json={"preset": "bulgarian", "wait_seconds": 45, "partner": ann.id}, headers=bob.auth
    )
    assert answer.status_code == 200, answer.text
    for who in (ann, bob):
        now = await status(http, who)
        # Ann's own ask said 120 s: the pair waits Bob's shorter 45 (from his answer on).
        assert (now["state"], now["partner_ready"], now["wait_seconds"]) == ("waiting", True, 45)
