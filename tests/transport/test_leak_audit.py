"""Leak audit (attacker's view) of what a spectator receives when it comes in the middle of a
deal, in the presets whose views hold the most hidden cards: Open Belot's face-down table cards
(OB-7) and the three-player table (BG3).

Found: no leak. The existing whole-match test greets its spectator before the match starts, so
every deal reaches it as events; here the spectator's first frame is a snapshot of a deal in
progress, and after a drop it asks for the events it missed (``hello`` with an old ``v``), which
are replayed from the room's backlog. Every frame is scanned for a card neither public nor its
own at that moment, and for a seed shown before its deal ended.

Checked elsewhere and found sound (no test needed, already covered or by construction): the
REST history and records of private rooms (tests/api/test_privacy.py), a deal in progress never
exported (404 ``unknown_deal``, ``contract``/``result`` null in ``GET /api/matches/{id}``), the
public lobby (local and Redis) holding public rooms only, ``/metrics`` carrying no code, error
bodies carrying no SQL or stored value, quick-play answers naming only the caller's own table.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.settings import Settings
from tests.conftest import Server, WsClient, new_guest, serve, ws_client
from tests.transport.play import early_seeds, leaks


@pytest.fixture
async def slow_bots(settings: Settings) -> AsyncIterator[Server]:
    """Bots that take a moment per action (a deal lasts seconds), so a spectator surely
    arrives in the middle of a deal, even on a loaded machine."""
    async with serve(settings.model_copy(update={"bot_delay_seconds": 0.1})) as server:
        yield server


async def _until_finished(client: WsClient) -> None:
    while not any(f["t"] == "room" and f["d"]["status"] == "finished" for f in client.frames):
        await client.recv(timeout=60)


@pytest.mark.parametrize("preset", ["open_belot", "bulgarian3"])
async def test_a_spectator_arriving_mid_deal_and_catching_up_sees_no_hidden_card(
    slow_bots: Server, preset: str
) -> None:
    async with httpx.AsyncClient(base_url=slow_bots.url) as http:
        host = await new_guest(http, "Host")
        seats = {"open_belot": 2, "bulgarian3": 3}[preset]
        created = await http.post(
            "/api/rooms",
            json={
                "rules": {"preset": preset},
                "public": True,
                "turn_seconds": 0,
                "seat": None,  # the host watches: every seat is a bot
                "bots": list(range(seats)),
                "target": 1,
            },
            headers=host.auth,
        )
        assert created.status_code == 201, created.text
        code = created.json()["room"]["code"]
        assert (await http.post(f"/api/rooms/{code}/start", headers=host.auth)).status_code == 200

        frames = []
        async with ws_client(slow_bots, code) as first:
            snapshot = first.frames[0]
            assert snapshot["t"] == "snapshot" and snapshot["d"]["deal"] is not None
            assert snapshot["d"]["deal"]["hand"] is None
            for _ in range(5):
                await first.recv()
            left_at = first.version
            frames += first.frames
        async with ws_client(slow_bots, code, version=left_at) as back:
            assert back.frames[0]["t"] != "snapshot"  # caught up from the backlog
            await _until_finished(back)
            frames += back.frames

        match_id = (await http.get(f"/api/rooms/{code}")).json()["room"]["match_id"]
        deals = (await http.get(f"/api/matches/{match_id}/record")).json()["deals"]
    assert deals
    assert leaks(frames, None, deals) == []
    assert early_seeds(frames, deals) == []
    assert not any(f["d"].get("deal", {}) and f["d"]["deal"]["hand"] for f in frames)
