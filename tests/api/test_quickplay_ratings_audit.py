"""Audit of quick play over REST: what one address may make, and the refusals' shapes."""

from __future__ import annotations

import httpx

from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import new_guest, serve


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
