"""Signing out reaches the open sockets (``app.transport.revocation``): a WebSocket that said
hello with a token that was then revoked — its device signed out, a logout, a password changed
— is closed with 4401 and its reconnect meets ``bad_token``. Before, the token was checked only
at hello, and a signed-out device went on playing and chatting as the player on its open socket.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.api.services import Services
from app.settings import Settings
from app.transport.revocation import TokenWatch
from app.transport.ws import CLOSE_SIGNED_OUT
from tests.api.test_accounts import PASSWORD, bearer, claim, login
from tests.conftest import Server, WsClient, new_guest, serve, ws_client


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Chat is how a socket shows it still acts as its player: no chat allowance in the way."""
    return settings.model_copy(update={"chat_burst": 100, "room_chat_burst": 100})


async def closed_with(client: WsClient) -> int | None:
    """Read until the server closes the socket; its close code. (Each read is bounded by
    ``WsClient.recv``'s timeout: a socket left open fails the test there.)"""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await client.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def still_served(client: WsClient) -> bool:
    """The socket still acts as its player (a player's command, not a spectator's ping)."""
    command_id = f"served-{next(_IDS)}"  # ids are the player's: two sockets of one must not share
    await client.ws.send(json.dumps({"t": "chat", "id": command_id, "d": {"text": command_id}}))
    reply = await client.reply(command_id)
    return reply["t"] == "ack"


_IDS = itertools.count()


async def two_devices(http: httpx.AsyncClient, username: str) -> tuple[str, str, str]:
    """A guest made an account (its token the first device's) and signed in on a tablet: the
    two tokens, and the code of a room the player hosts (seat 0)."""
    guest = await new_guest(http, "Mira")
    assert (await claim(http, guest, username)).status_code == 201
    tablet = (await login(http, username, device="tablet")).json()["token"]
    created = await http.post("/api/rooms", json={}, headers=guest.auth)
    assert created.status_code == 201, created.text
    return guest.token, tablet, created.json()["room"]["code"]


async def sign_out_tablet(http: httpx.AsyncClient, how: str, first: str, tablet: str) -> None:
    """End the tablet's session, as the API lets a player do it."""
    if how == "device signed out":
        listed = (await http.get("/api/accounts/sessions", headers=bearer(first))).json()
        tablet_id = next(s["id"] for s in listed if s["label"] == "tablet")
        done = await http.delete(f"/api/accounts/sessions/{tablet_id}", headers=bearer(first))
    elif how == "logout":
        done = await http.post("/api/accounts/logout", headers=bearer(tablet))
    else:  # a new password signs out every other device
        change = {"old_password": PASSWORD, "new_password": "another long secret"}
        done = await http.put("/api/accounts/me/password", json=change, headers=bearer(first))
    assert done.status_code == 204, done.text


@pytest.mark.parametrize("how", ["device signed out", "logout", "new password"])
async def test_a_signed_out_device_loses_its_open_socket(
    server: Server, http: httpx.AsyncClient, how: str
) -> None:
    first, tablet, code = await two_devices(http, f"mira_{how[0]}")
    async with (
        ws_client(server, code, first) as here,
        ws_client(server, code, tablet) as there,
    ):
        assert await still_served(there)
        await sign_out_tablet(http, how, first, tablet)
        assert await closed_with(there) == CLOSE_SIGNED_OUT
        assert await still_served(here)  # the first device's session goes on, and its socket
    # The tablet's client reconnects as it does after any close, and learns it is signed out.
    with pytest.raises(AssertionError, match="bad_token"):
        async with ws_client(server, code, tablet):
            pass


async def test_a_revocation_another_node_made_closes_the_socket_within_the_interval(
    settings: Settings,
) -> None:
    """Another node's revocation only deletes the row: this node finds it on its next round."""
    async with (
        serve(settings.model_copy(update={"token_check_seconds": 0.2})) as server,
        httpx.AsyncClient(base_url=server.url) as http,
    ):
        first, tablet, code = await two_devices(http, "mira_n")
        guest = await new_guest(http, "Guest")
        assert server.app is not None
        services: Services = server.app.state.services
        async with (
            ws_client(server, code, tablet) as there,
            ws_client(server, code, guest.token) as watcher,
        ):
            player_id = (await http.get("/api/accounts/me", headers=bearer(first))).json()["id"]
            listed = await services.accounts.sessions_of(player_id, first)
            tablet_id = next(s.id for s in listed if s.label == "tablet")
            await services.accounts.revoke(player_id, tablet_id)  # the row only, no hook
            assert await closed_with(there) == CLOSE_SIGNED_OUT
            # The round that closed it checked the guest's token too: a guest's token is never
            # revoked, and its socket is still served.
            reply = await watcher.reply(await watcher.send("ping"))
            assert reply["t"] == "ack"


async def test_the_watch_closes_only_the_sockets_of_dead_tokens() -> None:
    live = {"kept"}
    asked: list[set[str]] = []

    async def live_tokens(tokens: Collection[str]) -> set[str]:
        asked.append(set(tokens))
        return live & set(tokens)

    watch = TokenWatch(live_tokens, interval=60)
    closed: list[str] = []
    watch.watch("kept", lambda: closed.append("kept"))
    watch.watch("gone", lambda: closed.append("gone 1"))
    watch.watch("gone", lambda: closed.append("gone 2"))
    forget = watch.watch("left", lambda: closed.append("left"))
    forget()  # that socket ended on its own: never closed, never asked about
    assert await watch.check() == 2
    assert sorted(closed) == ["gone 1", "gone 2"]
    assert asked == [{"kept", "gone"}]
    assert await watch.check() == 0  # closed once: a dead token is no longer watched
    assert asked[-1] == {"kept"}
