"""The shipped proxy over HTTPS (deploy/haproxy.cfg, given a certificate): HTTP/2 to clients
that speak it, HTTPS alone once a browser has been there, plain HTTP sent on to HTTPS, and the
cluster's routing (307 + ``?node=``, 4307) kept on HTTPS.

The certificate is for 127.0.0.1, from an authority made for the test (trustme), which the
clients here trust. The browser's side (a match over HTTP/2, a secure context) is
tests/browser/test_nodes_client.py.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.load import HAPROXY_CONFIG, proxy_env
from tests.conftest import HAPROXY, free_port, new_guest
from tests.test_nodes import CLOSE_ELSEWHERE, NODES, Tls, cluster
from tests.test_restart import server_process, wait_healthy

pytestmark = pytest.mark.asyncio


async def test_the_proxy_serves_https_and_http2_and_sends_plain_http_there(
    cluster_url: str, tmp_path: Path
) -> None:
    tls = Tls.made_in(tmp_path)
    async with cluster(cluster_url, tls) as nodes:
        async with httpx.AsyncClient(base_url=nodes.url, verify=tls.client(), http2=True) as http:
            page = await http.get("/")
            assert (page.status_code, page.http_version) == (200, "HTTP/2")
            # Once here, a browser comes back by HTTPS alone, whatever link it follows.
            assert page.headers["strict-transport-security"] == "max-age=31536000"
            assert "<title>Belote</title>" in page.text

        async with httpx.AsyncClient(base_url=nodes.plain_url) as plain:
            sent = await plain.get("/r/some-code?x=1")
            assert sent.status_code == 301
            there = nodes.plain_url.replace("http:", "https:")
            assert sent.headers["location"] == f"{there}/r/some-code?x=1"
            assert "strict-transport-security" not in sent.headers  # never over plain HTTP


async def test_a_call_sent_to_the_room_s_node_stays_on_https(
    cluster_url: str, tmp_path: Path
) -> None:
    """A node that does not serve a room sends the call to the one that does with a 307 to the
    same address and ``?node=``: that address was built from what the node was asked, plain
    HTTP from the proxy, so behind HTTPS it sent the browser to ``http://`` on the HTTPS port
    (nothing answers) — and a POST turned into a GET by the plain port's 301. The proxy now
    tells the nodes the scheme (X-Forwarded-Proto)."""
    tls = Tls.made_in(tmp_path)
    async with cluster(cluster_url, tls) as nodes:
        async with httpx.AsyncClient(base_url=nodes.url, verify=tls.client(), http2=True) as http:
            host = await new_guest(http, "Host")
            created = await http.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=host.auth)
            assert created.status_code == 201, created.text
            code = created.json()["room"]["code"]
            owner = (await nodes.owners([code]))[code]
            other = next(node for node in NODES if node != owner)
            # Asked of a node that does not serve the room (the proxy routes on ?node=).
            moved = await http.post(f"/api/rooms/{code}/start?node={other}", headers=host.auth)
            assert moved.status_code == 307, moved.text
            assert moved.headers["location"] == f"{nodes.url}/api/rooms/{code}/start?node={owner}"
            started = await http.post(moved.headers["location"], headers=host.auth)
            assert started.status_code == 200, started.text

        # The room's socket over TLS: the other node sends the client to the owner (4307), which
        # serves it.
        with pytest.raises(ConnectionClosed) as closed:
            async with connect(
                f"{nodes.ws_url}/ws/rooms/{code}?node={other}", ssl=tls.client()
            ) as ws:
                await ws.send(json.dumps({"t": "hello", "id": 1, "d": {"token": host.token}}))
                await ws.recv()
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (CLOSE_ELSEWHERE, owner)
        async with connect(f"{nodes.ws_url}/ws/rooms/{code}?node={owner}", ssl=tls.client()) as ws:
            await ws.send(json.dumps({"t": "hello", "id": 1, "d": {"token": host.token}}))
            snapshot = json.loads(await ws.recv())
        assert snapshot["t"] == "snapshot"
        assert snapshot["d"]["room"]["status"] == "playing"


async def test_one_server_on_its_own_gets_https_from_the_same_configuration(
    tmp_path: Path,
) -> None:
    """A site of one server (SQLite, no node id) behind the shipped configuration, given only
    its own address: the configuration named three nodes and would not start without the
    addresses of all three."""
    if HAPROXY is None:
        pytest.skip("SKIPPED: needs haproxy (apt-get install haproxy)")
    tls = Tls.made_in(tmp_path)
    port, plain, secure = free_port(), free_port(), free_port()
    env = proxy_env(f"127.0.0.1:{plain}", {"n1": f"127.0.0.1:{port}"}) | {
        "BELOTE_PROXY_TLS_BIND": f"127.0.0.1:{secure}",
        "BELOTE_PROXY_CERT": str(tls.pem),
    }
    with server_process(f"sqlite+aiosqlite:///{tmp_path}/site.sqlite3", port) as server:
        proxy = subprocess.Popen([HAPROXY, "-q", "-f", str(HAPROXY_CONFIG)], env=env)
        try:
            url = f"https://127.0.0.1:{secure}"
            await wait_healthy(f"http://127.0.0.1:{port}", server)
            await wait_healthy(url, proxy, tls.client())
            async with httpx.AsyncClient(base_url=url, verify=tls.client(), http2=True) as http:
                page = await http.get("/")
                assert (page.status_code, page.http_version) == (200, "HTTP/2")
                assert (await http.post("/api/players", json={"name": "Solo"})).status_code == 201
        finally:
            proxy.send_signal(signal.SIGKILL)
            proxy.wait()
