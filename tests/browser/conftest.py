"""Browser fixtures: one real uvicorn (the shared ``serve`` helper) on a free port with its own
temporary SQLite database, run in a thread so Playwright's sync API owns the test's thread, and
Debian's Chromium driven through Playwright. Every page fails its test on a JavaScript error or
an unexpected dialog."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.settings import Settings
from tests.conftest import Server, _migrate, serve

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


class ThreadedServer:
    """Migrate, then ``serve(settings)``, in its own event loop on a background thread (the
    test's thread belongs to Playwright's sync API, which runs a loop of its own)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.server: Server | None = None
        self.error: BaseException | None = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="uvicorn", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as error:
            self.error = error
        finally:
            self._ready.set()
            self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        await _migrate(self.settings.database_url)
        async with serve(self.settings) as server:
            self.server = server
            self._ready.set()
            await self._stop.wait()

    def start(self) -> Server:
        self._thread.start()
        self._ready.wait(timeout=30)
        if self.server is None:
            raise RuntimeError(f"the server did not start: {self.error!r}")
        return self.server

    def stop(self) -> None:
        stop = self._stop
        if stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout=30)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app on a free port. Bots move at once and deals follow each other without a pause;
    rooms are created from the UI with their own turn timers."""
    with serving(tmp_path_factory) as server:
        yield server


@contextmanager
def serving(tmp_path_factory: pytest.TempPathFactory, **changes: Any) -> Iterator[Server]:
    """The app of ``live_server`` on a free port, with ``changes`` to its settings: a module
    that needs other ones overrides that fixture with this."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('browser-db') / 'belote.sqlite3'}"
    settings = Settings(
        **{
            "database_url": url,
            "bot_delay_seconds": 0,
            "last_card_seconds": 0,
            "deal_pause_seconds": 0,
            "default_turn_seconds": 0,
            "grace_seconds": 60,
            "presence_seconds": 0.5,  # friends online within a moment (test_friends.py)
            **changes,
        }
    )
    threaded = ThreadedServer(settings)
    server = threaded.start()
    try:
        yield server
    finally:
        threaded.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not for the session: while Playwright's sync API runs, its
    event loop is the thread's running loop, and the async tests that follow need their own."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: install Debian's chromium package to run browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watch:
    """What a page did that it should not have: JavaScript errors and dialogs."""

    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture
def new_page(browser: Any, live_server: Server) -> Iterator[Callable[..., Any]]:
    """Open pages in fresh contexts (separate storage = separate guests); each page is watched
    for uncaught errors, Content-Security-Policy violations and dialogs, and the test fails if
    any happened."""
    contexts: list[Any] = []
    watches: list[Watch] = []

    def make(viewport: dict[str, int] = DESKTOP, locale: str = "en-US", **options: Any) -> Any:
        context = browser.new_context(
            viewport=viewport, locale=locale, base_url=live_server.url, **options
        )
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        watch = Watch()
        watches.append(watch)
        page.on("pageerror", lambda error: watch.errors.append(str(error)))

        def on_console(message: Any) -> None:
            if message.type == "error" and "Content Security Policy" in message.text:
                watch.errors.append(message.text)  # the page did something its policy forbids

        page.on("console", on_console)

        def on_dialog(dialog: Any) -> None:
            watch.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        return page

    yield make
    for context in contexts:
        context.close()
    assert [w.errors for w in watches if w.errors] == [], "JavaScript errors in the page"
    assert [w.dialogs for w in watches if w.dialogs] == [], "a dialog was opened"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
