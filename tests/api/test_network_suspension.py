"""A suspension that bars new guests from the suspended player's networks
(``python -m app.admin suspend … --network``, ``app.db.networks``): a person who comes back as a
new guest from where they played is refused (403 ``network_suspended``); others elsewhere, and
the players already made there, are not; lifting it ends it; the networks are the player's data.

The server trusts ``X-Forwarded-For`` from 127.0.0.1 (uvicorn's default), which stands in for
the players' addresses here."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import select, update

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.networks import network_of
from app.db.presence import Presence
from app.db.retention import Retention
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import Guest, Server, new_guest

HOME = "203.0.113.7"
PHONE = "2001:db8:1:2:aaaa:bbbb:cccc:dddd"
ELSEWHERE = "198.51.100.20"


def presence_of(server: Server) -> Presence:
    assert server.app is not None
    presence: Presence = server.app.state.services.presence
    return presence


async def new_guest_from(http: httpx.AsyncClient, address: str, name: str) -> httpx.Response:
    return await http.post(
        "/api/players", json={"name": name}, headers={"X-Forwarded-For": address}
    )


async def used(http: httpx.AsyncClient, who: Guest, address: str) -> None:
    answer = await http.get("/api/players/me", headers={**who.auth, "X-Forwarded-For": address})
    assert answer.status_code == 200, answer.text


async def suspend(settings: Settings, who: Guest, *extra: str) -> None:
    command = ["suspend", who.id, "--reason", "Came back", "--by", "op", *extra]
    assert await asyncio.to_thread(admin.main, command, settings) == 0


def test_a_network_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert network_of("203.0.113.7") == "203.0.113.7"
    assert network_of(PHONE) == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:2::9") == network_of(PHONE)  # the same phone, a new address
    assert network_of("::ffff:203.0.113.7") == "203.0.113.7"
    assert network_of("?") is None and network_of("testclient") is None


async def test_a_suspension_with_networks_bars_new_guests_from_them(
    server: Server, http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    zed, neighbour = await new_guest(http, "Zed"), await new_guest(http, "Neighbour")
    await used(http, zed, HOME)
    await used(http, zed, PHONE)
    await used(http, neighbour, HOME)
    await presence_of(server).write()

    await suspend(settings, zed)  # without --network: a new guest from home is made
    assert (await new_guest_from(http, HOME, "Zed2")).status_code == 201
    capsys.readouterr()
    await suspend(settings, zed, "--network")
    said = capsys.readouterr().out
    assert "no new guest from their networks" in said
    assert "They used 2 networks in the last 30 days, where 1 other player played too" in said
    for address in (HOME, "2001:db8:1:2::77"):  # home, and the phone's network
        refused = await new_guest_from(http, address, "Zed3")
        assert code_of(refused) == (403, "network_suspended"), address
        assert "network" in refused.json()["error"]["message"]
    assert (await new_guest_from(http, ELSEWHERE, "Stranger")).status_code == 201
    await used(http, neighbour, HOME)  # already made there: plays on
    log = await asyncio.to_thread(admin.main, ["log", "--player", zed.id], settings)
    assert log == 0 and "no new guest from their networks" in capsys.readouterr().out

    export = (await http.get("/api/players/me/export", headers=zed.auth)).json()
    assert sorted(n["network"] for n in export["networks"]) == ["2001:db8:1:2::/64", HOME]

    assert await asyncio.to_thread(admin.main, ["lift", zed.id, "--by", "op"], settings) == 0
    assert (await new_guest_from(http, HOME, "Zed4")).status_code == 201


async def test_an_ended_suspension_bars_nothing(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    zed = await new_guest(http, "Zed")
    await used(http, zed, HOME)
    await presence_of(server).write()
    await suspend(settings, zed, "--network", "--days", "1")
    assert code_of(await new_guest_from(http, HOME, "Zed2")) == (403, "network_suspended")
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:  # the day went by
            ended = update(m.Player).where(m.Player.id == zed.id)
            await session.execute(ended.values(suspended_until=datetime.now(UTC)))
    finally:
        await engine.dispose()
    assert (await new_guest_from(http, HOME, "Zed2")).status_code == 201


async def test_networks_are_written_once_a_day_and_kept_thirty_days(
    server: Server, http: httpx.AsyncClient, settings: Settings
) -> None:
    zed = await new_guest(http, "Zed")
    presence = presence_of(server)
    await used(http, zed, HOME)
    await presence.write()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    try:

        async def rows() -> list[tuple[str, datetime]]:
            async with sessions() as session:
                found = await session.execute(
                    select(m.PlayerNetwork.network, m.PlayerNetwork.seen_at).where(
                        m.PlayerNetwork.player_id == zed.id
                    )
                )
                return [(network, at) for network, at in found]

        ((network, first),) = await rows()
        assert network == HOME
        await used(http, zed, HOME)
        await presence.write()
        assert await rows() == [(HOME, first)]  # noted today already: not written again
        retention = Retention(sessions, 0, lambda: [])
        assert await retention.sweep_networks(first + timedelta(days=29)) == 0
        assert await retention.sweep_networks(first + timedelta(days=31)) == 1
        assert await rows() == []
    finally:
        await engine.dispose()
