"""Audit of quick play over REST: what one address may make, and the refusals' shapes."""

from __future__ import annotations

import httpx
import pytest
from pydantic import ValidationError

from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import new_account, new_guest, serve


async def test_quick_play_requests_share_the_addresss_allowance_of_new_rooms(
    settings: Settings,
) -> None:
    """Each request may become a new room, started at once with bots in the empty seats (after
    a wait of 5 s): joining, leaving and joining again made one room after another for one
    guest, past the limit on new rooms that ``POST /api/rooms`` keeps."""
    limits = {"create_burst": 2, "create_per_second": 0.001}
    async with (
        serve(settings.model_copy(update=limits)) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        guest = await new_guest(http, "Looper")  # 1 of 2
        body = {"preset": "bulgarian", "wait_seconds": 5}
        joined = await http.post("/api/quickplay", json=body, headers=guest.auth)  # 2 of 2
        assert joined.status_code == 200 and joined.json()["state"] == "waiting"
        assert (await http.delete("/api/quickplay", headers=guest.auth)).status_code == 204
        refused = await http.post("/api/quickplay", json=body, headers=guest.auth)
        assert code_of(refused) == (429, "rate_limited")
        # Refused, nothing was queued; asking and leaving are not limited.
        assert code_of(await http.get("/api/quickplay", headers=guest.auth)) == (404, "not_queued")
        assert (await http.delete("/api/quickplay", headers=guest.auth)).status_code == 204


async def test_a_rated_room_has_a_turn_timer(settings: Settings) -> None:
    """With no turn timer a player who was losing a rated match could stay and never act: the
    match never ended, and the rating was never lost (leaving does not save one, §8.2)."""
    async with serve(settings) as server, httpx.AsyncClient(base_url=server.url) as http:
        host = await new_account(http, "Host")
        for body in ({"rated": True}, {"rated": True, "turn_seconds": 0}):  # the default is 0 here
            refused = await http.post("/api/rooms", json=body, headers=host.auth)
            assert code_of(refused) == (422, "rated_needs_clock")
        assert (await http.get("/api/rooms")).json()["rooms"] == []  # nothing was made
        made = await http.post(
            "/api/rooms", json={"rated": True, "turn_seconds": 15}, headers=host.auth
        )
        assert made.status_code == 201 and made.json()["room"]["turn_seconds"] == 15
        casual = await http.post("/api/rooms", json={"turn_seconds": 0}, headers=host.auth)
        assert casual.status_code == 201

        people = [await new_account(http, f"P{n}") for n in range(4)]
        body = {"preset": "bulgarian", "rated": True, "wait_seconds": 60}
        answers = [
            (await http.post("/api/quickplay", json=body, headers=p.auth)).json() for p in people
        ]
        assert answers[-1]["state"] == "seated"
        table = (await http.get(f"/api/rooms/{answers[-1]['room']}")).json()["room"]
        assert (
            table["rated"] is True and table["turn_seconds"] == settings.quickplay_turn_seconds > 0
        )


def test_a_server_cannot_be_set_up_to_refuse_its_own_quick_play_clock() -> None:
    """A quick-play table is a room like any other, whose timer is at most the server's
    longest: set up otherwise, every quick-play table would fail to be made."""
    with pytest.raises(ValidationError, match="quickplay_turn_seconds"):
        Settings(max_turn_seconds=20, quickplay_turn_seconds=30)
    assert Settings(max_turn_seconds=30, quickplay_turn_seconds=30).quickplay_turn_seconds == 30
