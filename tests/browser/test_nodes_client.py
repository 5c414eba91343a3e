"""The browser client on a cluster: three nodes behind HAProxy (tests/test_nodes.py's cluster), the
node serving the room killed with SIGKILL mid-trick; the page reconnects through the proxy to the
node that took the room over (following 4307 + ?node=) and play goes on from the same hand. The
proxy serves HTTPS and HTTP/2, as the shipped configuration does when given a certificate."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Coroutine, Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

import pytest

from tests.browser import ui
from tests.browser.conftest import DESKTOP
from tests.conftest import HAPROXY, REDIS_URL, _migrate, _wipe, redis_answers
from tests.test_nodes import Cluster, Tls, cluster

T = TypeVar("T")

SECURE_AND_H2 = """() => ({
  secure: isSecureContext,
  protocol: performance.getEntriesByType('navigation')[0].nextHopProtocol,
  clipboard_and_wake_lock: Boolean(navigator.clipboard && navigator.wakeLock),
})"""


class ThreadedCluster:
    """``cluster(url)`` in an event loop of its own on a background thread (Playwright's sync API
    owns the test's thread)."""

    def __init__(self, database_url: str, tls: Tls) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._url = database_url
        self._context: AbstractAsyncContextManager[Cluster] = cluster(database_url, tls)

    def __enter__(self) -> Cluster:
        self._thread.start()
        self.call(_migrate(self._url))
        return self.call(self._context.__aenter__())

    def wipe(self) -> None:
        asyncio.run_coroutine_threadsafe(_wipe(self._url), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)

    def __exit__(self, *exc: object) -> None:
        self.call(self._context.__aexit__(None, None, None))

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 240) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadedCluster, Cluster]]:
    """Not on ``migrated_url``: that fixture runs its own event loop, and Playwright's runs here.
    The proxy serves HTTPS, as a site on the internet does (its certificate is the test's own:
    the browser is told to take it)."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url.startswith("postgresql"):
        pytest.skip("SKIPPED: a cluster needs PostgreSQL (set TEST_DATABASE_URL)")
    if HAPROXY is None or not redis_answers(REDIS_URL):
        pytest.skip("SKIPPED: a cluster needs haproxy and Redis")
    threaded = ThreadedCluster(url, Tls.made_in(tmp_path_factory.mktemp("tls")))
    try:
        with threaded as running:
            yield threaded, running
    finally:
        threaded.wipe()


def test_the_page_follows_its_room_to_the_node_that_took_it_over(
    browser: Any, nodes: tuple[ThreadedCluster, Cluster]
) -> None:
    threaded, running = nodes
    context = browser.new_context(
        viewport=DESKTOP, locale="en-US", base_url=running.url, ignore_https_errors=True
    )
    context.set_default_timeout(30_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        ui.set_name(page, "Survivor")
        # Over HTTPS and HTTP/2 (deploy/haproxy.cfg): a secure context, where the page may copy,
        # share and keep the screen on.
        assert page.evaluate(SECURE_AND_H2) == {
            "secure": True,
            "protocol": "h2",
            "clipboard_and_wake_lock": True,
        }
        code = ui.create_room(page, bots=(1, 2, 3))
        ui.start(page)
        ui.play_until_trick_in_progress(page)
        hand = ui.hand(page)
        owner = threaded.call(running.owners([code]))[code]
        running.processes[owner].send_signal(signal.SIGKILL)
        page.wait_for_selector("#room[data-connection=reconnecting]")
        page.wait_for_selector("#room[data-connection=reconnected]")
        assert threaded.call(running.owners([code]))[code] != owner
        page.wait_for_selector("#room[data-my-turn=true] #hand .card.playable")
        assert ui.hand(page) == hand  # the same deal, at the same card
        card = ui.play(page)
        assert card not in ui.hand(page)
    finally:
        context.close()
    assert errors == []
