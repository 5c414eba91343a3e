"""A table for signed-in players only (the host's ``accounts_only``; docs/protocol.md §2).

A guest costs nothing to make, so a player the host removed came back as a new guest and sat
again. A host may keep the table for accounts: a guest may watch, not sit, and a refusal
changes nothing. The host must have an account themself (they could not sit again once up)."""

from __future__ import annotations

import httpx

from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Server, new_account, new_guest, ws_client


async def test_a_guest_may_watch_but_not_sit(http: httpx.AsyncClient) -> None:
    """Over the socket too, and once signed up they sit: ``tests/api/test_ratings_quickplay``."""
    host, guest = await new_account(http, "Host"), await new_guest(http, "Visitor")
    made = await http.post("/api/rooms", json={"accounts_only": True}, headers=host.auth)
    assert made.status_code == 201 and made.json()["room"]["accounts_only"] is True
    code, version = made.json()["room"]["code"], made.json()["v"]
    sit = await http.put(f"/api/rooms/{code}/seats/1", headers=guest.auth)
    assert code_of(sit) == (403, "accounts_only")
    assert "signed-in" in sit.json()["error"]["message"]
    after = (await http.get(f"/api/rooms/{code}")).json()
    assert after["v"] == version and after["room"]["seats"][1]["player"] is None


async def test_the_host_keeps_the_table_for_accounts_between_matches(
    http: httpx.AsyncClient, server: Server
) -> None:
    """Turned on by PATCH or the socket's ``settings``, it keeps out the guests who sit down
    from then on; one already seated stays (the host may remove them). Turned off, guests sit."""
    host = await new_account(http, "Host")
    seated, late = await new_guest(http, "Seated"), await new_guest(http, "Late")
    made = (await http.post("/api/rooms", json={}, headers=host.auth)).json()
    code = made["room"]["code"]
    assert made["room"]["accounts_only"] is False
    assert (await http.put(f"/api/rooms/{code}/seats/1", headers=seated.auth)).status_code == 200
    on = await http.patch(f"/api/rooms/{code}", json={"accounts_only": True}, headers=host.auth)
    assert on.status_code == 200 and on.json()["room"]["accounts_only"] is True
    assert on.json()["room"]["seats"][1]["player"]["id"] == seated.id
    assert code_of(await http.put(f"/api/rooms/{code}/seats/2", headers=late.auth)) == (
        403,
        "accounts_only",
    )
    async with ws_client(server, code, host.token) as client:
        off = await client.reply(await client.send("settings", {"accounts_only": False}))
        assert off["t"] == "ack"
    assert (await http.put(f"/api/rooms/{code}/seats/2", headers=late.auth)).status_code == 200


async def test_a_guest_host_cannot_keep_a_table_for_accounts(
    http: httpx.AsyncClient, server: Server
) -> None:
    """Neither when making the room (nothing is made) nor afterwards (nothing changes)."""
    guest = await new_guest(http, "Guest")
    refused = await http.post("/api/rooms", json={"accounts_only": True}, headers=guest.auth)
    assert code_of(refused) == (403, "accounts_only")
    assert (await http.get("/api/players/me/rooms", headers=guest.auth)).json() == []
    made = (await http.post("/api/rooms", json={}, headers=guest.auth)).json()
    code, version = made["room"]["code"], made["v"]
    patched = await http.patch(
        f"/api/rooms/{code}", json={"accounts_only": True}, headers=guest.auth
    )
    assert code_of(patched) == (403, "accounts_only")
    assert (await http.get(f"/api/rooms/{code}")).json()["v"] == version
    async with ws_client(server, code, guest.token) as client:
        before = client.version  # the host came in: a version of its own
        said = await client.reply(await client.send("settings", {"accounts_only": True}))
        assert (said["t"], said["d"]["code"]) == ("error", "accounts_only")
        assert client.version == before
    assert (await http.get(f"/api/rooms/{code}")).json()["room"]["accounts_only"] is False
