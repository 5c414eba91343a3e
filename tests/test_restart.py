"""kill -9 in the middle of deals, start again: every room continues at the same card.

The server runs as ``python -m app`` in a subprocess (migrations included), is killed with
SIGKILL while clients are connected, and restarted on the same database.
"""

from __future__ import annotations

import asyncio
import os
import signal
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager

import httpx

from app.rules import Ruleset
from app.settings import Settings
from tests.conftest import Guest, Server, free_port, new_guest, ws_client
from tests.transport.test_bad_input import latest_deal

PRESETS = ("bulgarian", "bulgarian3", "open_belot")


@contextmanager
def server_process(
    database_url: str, port: int, python: str = sys.executable
) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m app`` (migrate, then serve) on ``port``; killed with SIGKILL at the end."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BELOTE_PORT": str(port),
        "BELOTE_BOT_DELAY_SECONDS": "0",
        # The host plays its last cards itself: the room must wait for it, as before a kill.
        "BELOTE_LAST_CARD_SECONDS": "10",
        "BELOTE_DEFAULT_TURN_SECONDS": "0",
        "BELOTE_LOG_LEVEL": "warning",
    }
    process = subprocess.Popen([python, "-m", "app"], env=env)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()


async def wait_healthy(
    url: str, process: subprocess.Popen[bytes], verify: ssl.SSLContext | bool = True
) -> None:
    async with httpx.AsyncClient(base_url=url, verify=verify) as http:
        while True:
            assert process.poll() is None, "the server exited"
            try:
                if (await http.get("/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                await asyncio.sleep(0.05)


async def test_a_killed_server_restores_every_room_at_the_same_card(database_url: str) -> None:
    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", Settings(database_url=database_url))
    codes: list[str] = []
    seen: dict[str, tuple[int, dict[str, object]]] = {}
    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        async with httpx.AsyncClient(base_url=server.url) as http:
            hosts = [await new_guest(http, f"Host {i}") for i in range(len(PRESETS))]
            for host, preset in zip(hosts, PRESETS, strict=True):  # tables of 4, 3 and 2
                body = {
                    "rules": {"preset": preset},
                    "bots": list(range(1, Ruleset.of(preset).seats)),
                }
                created = await http.post("/api/rooms", json=body, headers=host.auth)
                codes.append(created.json()["room"]["code"])
                await http.post(f"/api/rooms/{codes[-1]}/start", headers=host.auth)
            async with AsyncExitStack() as stack:
                for host, code in zip(hosts, codes, strict=True):
                    client = await stack.enter_async_context(ws_client(server, code, host.token))
                    # Play a different number of this seat's turns in each room.
                    for _ in range(3 + 4 * codes.index(code)):
                        while not latest_deal(client)[1]["legal"]:
                            await client.recv()
                        v, deal = latest_deal(client)
                        reply = await client.reply(await client.send("act", deal["legal"][-1], v=v))
                        assert reply["t"] == "ack"
                    while not latest_deal(client)[1]["legal"]:
                        await client.recv()  # the bots answered: the host is to act again
                    seen[code] = (client.version, latest_deal(client)[1])
                process.send_signal(signal.SIGKILL)  # clients still connected, mid-deal
                process.wait()

    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        for host, code in zip(hosts, codes, strict=True):
            version, deal = seen[code]
            async with ws_client(server, code, host.token, version=version) as client:
                # Nothing was missed: what comes is the news of this very connection.
                assert [(f["t"], f.get("v")) for f in client.frames] == [
                    ("room", version + 1),
                    ("ack", None),
                ]
            async with ws_client(server, code, host.token) as client:
                snapshot = client.frames[0]
                assert snapshot["t"] == "snapshot"
                assert snapshot["d"]["deal"] == deal  # the same deal, at the same card
                legal = snapshot["d"]["deal"]["legal"]
                reply = await client.reply(await client.send("act", legal[0], v=snapshot["v"]))
                assert reply["t"] == "ack"


def children_of(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (Linux ``/proc``)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_strong_bots_workers_leave_with_a_killed_server(database_url: str) -> None:
    """Strong bots think in worker processes; a server killed with SIGKILL runs no clean-up,
    and its workers must not linger (each would hold a process and its memory forever)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with server_process(database_url, port) as process:
        await wait_healthy(url, process)
        async with httpx.AsyncClient(base_url=url) as http:
            host = await new_guest(http, "Watcher")
            body = {"bots": [0, 1, 2, 3], "seat": None, "bot_level": "strong"}
            room = await http.post("/api/rooms", json=body, headers=host.auth)
            code = room.json()["room"]["code"]
            await http.post(f"/api/rooms/{code}/start", headers=host.auth)
        workers: set[int] = set()
        async with asyncio.timeout(30):
            while not workers:  # the first strong move starts the pool
                workers = children_of(process.pid)
                await asyncio.sleep(0.1)
        process.send_signal(signal.SIGKILL)
        process.wait()
    async with asyncio.timeout(15):
        while any(alive(pid) for pid in workers):
            await asyncio.sleep(0.2)


async def test_a_second_server_on_the_same_database_refuses_to_start(database_url: str) -> None:
    """Rooms live in one process's memory: two servers on one database would both play them."""
    port, other_port = free_port(), free_port()
    with server_process(database_url, port) as first:
        await wait_healthy(f"http://127.0.0.1:{port}", first)
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "BELOTE_PORT": str(other_port),
            "BELOTE_LEASE_WAIT_SECONDS": "1",
        }
        second = subprocess.run(
            [sys.executable, "-m", "app"], env=env, capture_output=True, text=True, timeout=60
        )
        assert second.returncode != 0
        assert "Another server is using" in second.stderr
        assert first.poll() is None  # the first one goes on


async def started_room(server: Server, body: dict[str, object]) -> tuple[Guest, str]:
    """A new guest's room made with ``body`` and started; the host and the room's code."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        host = await new_guest(http, "Host")
        created = await http.post("/api/rooms", json=body, headers=host.auth)
        code = created.json()["room"]["code"]
        await http.post(f"/api/rooms/{code}/start", headers=host.auth)
    return host, str(code)


async def test_a_conceded_room_still_says_who_conceded_after_a_kill(database_url: str) -> None:
    """The room's live view (ROOM's ``conceded``) comes back from storage, not only the
    history: a table reopened after a restart says which side gave the match away."""
    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", Settings(database_url=database_url))
    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        host, code = await started_room(server, {"bots": [1, 2, 3]})
        async with ws_client(server, code, host.token) as client:
            reply = await client.reply(await client.send("concede", {"on": True}))
            assert reply["t"] == "ack"
            rooms = [f["d"] for f in client.frames if f["t"] == "room"]
            assert (rooms[-1]["status"], rooms[-1]["conceded"]) == ("finished", 0)
        process.send_signal(signal.SIGKILL)
        process.wait()

    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        async with ws_client(server, code, host.token) as client:
            snapshot = client.frames[0]["d"]
            assert (snapshot["room"]["status"], snapshot["room"]["conceded"]) == ("finished", 0)


async def test_what_the_clock_played_for_a_player_is_in_his_snapshot_after_a_kill(
    database_url: str,
) -> None:
    """ "Played for you" survives a reload and a restart: the seat's snapshot lists the actions
    the server made for it in the deal (stored with the action log); a spectator's does not."""
    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", Settings(database_url=database_url))
    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        # The host never acts: the clock does. No pause after a deal: a first deal everyone
        # passed is otherwise followed by the default 10 s of silence, as long as a read's
        # timeout (the only gap that long in this test; one CI run timed out on a read here).
        body = {"bots": [1, 2, 3], "turn_seconds": 3, "deal_pause_seconds": 0}
        host, code = await started_room(server, body)
        async with httpx.AsyncClient(base_url=server.url) as http:
            watcher = await new_guest(http, "Watcher")
        async with ws_client(server, code, host.token) as client:
            # A card of the host's, played by the clock, with more of his cards to come: the
            # deal cannot end before the clock plays those too (a pass could end it at once,
            # when the others pass after it).
            while True:
                action = (await client.until("action"))["d"]
                deal = action["deal"]
                plays = sum(len(t["cards"]) for t in deal["tricks"]) + len(deal["trick"])
                if action["seat"] == 0 and action["auto"] and plays and deal["hand"]:
                    break
            seq = len(deal["bids"]) + plays - 1  # the host's card was the last action
        process.send_signal(signal.SIGKILL)
        process.wait()

    with server_process(database_url, port) as process:
        await wait_healthy(server.url, process)
        async with ws_client(server, code, host.token) as client:
            deal = client.frames[0]["d"]["deal"]
            played = {a["seq"]: a for a in deal["played_for_you"]}
            assert {a["seat"] for a in played.values()} == {0}  # the host's own, nobody else's
            assert "play" in played[seq]  # the card the clock played for him, among his bids
        async with ws_client(server, code, watcher.token) as client:
            assert "played_for_you" not in client.frames[0]["d"]["deal"]
