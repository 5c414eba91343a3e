"""A browser keeps the client's files until a deploy changes them, and not a moment longer
(app/api/client_files.py). Before, with no Cache-Control, Chromium kept month-old modules by
heuristic and ran them after a deploy, through a new tab and a reload alike."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import app.main
from app.settings import Settings
from tests.browser.conftest import ThreadedServer
from tests.conftest import Server

pytestmark = pytest.mark.browser

# Each file the page fetched, and whether it came from the browser's cache (no request at all).
FETCHED = """() => performance.getEntriesByType('resource')
  .map(e => [new URL(e.name).pathname, e.transferSize === 0 && e.decodedBodySize > 0])"""


@pytest.fixture(scope="module")
def client_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The client's files as a deploy of a month ago left them (their times a month old)."""
    directory = tmp_path_factory.mktemp("client") / "static"
    shutil.copytree(app.main.STATIC, directory)
    then = os.path.getmtime(app.main.STATIC / "index.html") - 30 * 86400
    for path in directory.rglob("*"):
        os.utime(path, (then, then))
    return directory


@pytest.fixture(scope="module")
def deployed(client_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose client is ``client_copy``, which the test may change as a deploy would."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('cache-db') / 'belote.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app.main, "STATIC", client_copy)
        threaded = ThreadedServer(Settings(database_url=url))
        server = threaded.start()
    try:
        yield server
    finally:
        threaded.stop()


def version_of(server: Server) -> str:
    page = httpx.get(f"{server.url}/").text
    return page.split('src="/v/', 1)[1].split("/", 1)[0]


def test_a_returning_page_asks_only_for_itself_and_a_deploy_is_run_at_once(
    browser: Any, deployed: Server, client_copy: Path
) -> None:
    context = browser.new_context(base_url=deployed.url)
    try:
        first = context.new_page()
        first.goto("/")
        first.wait_for_selector("#name-input")
        fetched = first.evaluate(FETCHED)
        assert [path for path, cached in fetched if path.startswith("/v/") and cached] == []

        again = context.new_page()
        again.goto("/")
        again.wait_for_selector("#name-input")
        files = [(path, cached) for path, cached in again.evaluate(FETCHED) if "/v/" in path]
        assert len(files) >= 40  # every module and stylesheet, and none of them asked for
        assert [path for path, cached in files if not cached] == []
        assert again.evaluate("globalThis.deployMark ?? null") is None

        # The next deploy changes one module.
        before = version_of(deployed)
        with (client_copy / "js" / "i18n.js").open("a") as module:
            module.write("\nglobalThis.deployMark = 'next';\n")
        waited = 0
        while version_of(deployed) == before:  # the server looks again within a second
            waited += 1
            assert waited < 200, "the server never saw the deploy"
            again.wait_for_timeout(50)

        after = version_of(deployed)
        again.reload()
        again.wait_for_selector("#name-input")
        assert again.evaluate("globalThis.deployMark ?? null") == "next"
        modules = again.evaluate(FETCHED)
        assert {path.split("/")[2] for path, _ in modules if path.startswith("/v/")} == {after}
        tab = context.new_page()
        tab.goto("/")
        tab.wait_for_selector("#name-input")
        assert tab.evaluate("globalThis.deployMark ?? null") == "next"
    finally:
        context.close()
