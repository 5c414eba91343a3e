"""A player's statistics over REST (``play`` on the profile and in the export, docs/protocol.md
§8.2): their own counts per preset, to anyone who reads the profile; nobody else's."""

from __future__ import annotations

import httpx

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.rules import TALLY_COUNTERS
from app.settings import Settings
from tests.conftest import new_guest


async def counted(settings: Settings, player_id: str, preset: str, **counts: int) -> None:
    """A row of statistics, as the store leaves it after some deals (tests/db/test_play_stats)."""
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            session.add(m.PlayStats(player_id=player_id, preset=preset, **counts))
    finally:
        await engine.dispose()


async def test_the_profile_and_the_export_give_a_player_s_counts_per_preset(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    ann, bob = await new_guest(http, "Ann"), await new_guest(http, "Bob")
    fresh = (await http.get(f"/api/players/{ann.id}/profile")).json()
    assert fresh["play"] == {}  # no deal yet
    await counted(settings, ann.id, "french", deals=12, bids=4, made=3, inside=1, belotes=2)
    await counted(settings, ann.id, "bulgarian", deals=30, bids=9, made=6, hanging=1, inside=2)
    await counted(settings, bob.id, "bulgarian", deals=5, contras=2, contras_won=1)
    zero = dict.fromkeys(TALLY_COUNTERS, 0)
    expected = {
        "bulgarian": {**zero, "deals": 30, "bids": 9, "made": 6, "hanging": 1, "inside": 2},
        "french": {**zero, "deals": 12, "bids": 4, "made": 3, "inside": 1, "belotes": 2},
    }
    profile = await http.get(f"/api/players/{ann.id}/profile")  # anyone may read it
    assert profile.status_code == 200, profile.text
    assert profile.json()["play"] == expected
    assert list(profile.json()["play"]) == ["bulgarian", "french"]
    export = (await http.get("/api/players/me/export", headers=ann.auth)).json()  # hers alone
    assert export["play"] == [{"preset": p, **c} for p, c in expected.items()]
