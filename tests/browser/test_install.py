"""The client installs as an app (static/manifest.webmanifest): Chromium's own verdict, asked
through the devtools protocol, finds nothing missing. Only a profile on disk can install one
(a fresh context is incognito), hence a persistent context of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import Server

pytestmark = pytest.mark.browser


def test_chromium_finds_the_client_installable(
    browser: Any, live_server: Server, tmp_path: Path
) -> None:
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        page.wait_for_selector("#name-input")
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
    finally:
        context.close()
