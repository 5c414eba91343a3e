"""The client installs as an app (static/manifest.webmanifest): Chromium's own verdict, asked
through the devtools protocol, finds nothing missing. Only a profile on disk can install one
(a fresh context is incognito), hence a persistent context of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser import icons
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


def test_the_touch_icon_is_the_art_drawn_at_its_size(new_page: Any) -> None:
    """The PNG iOS installs under is static/icon.svg as Chromium draws it at 180 px: an art
    changed without drawing the PNG again (``python -m tests.browser.icons``) fails here."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#name-input")
    assert icons.mean_difference(page, "/apple-touch-icon.png") < 1.0
    # The measure tells images apart: the art against a plain square of its own felt colour.
    plain = "data:image/svg+xml," + quote(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
        '<rect width="1" height="1" fill="#12472f"/></svg>'
    )
    assert icons.mean_difference(page, plain) > 10
