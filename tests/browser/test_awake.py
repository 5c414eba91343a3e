"""The screen stays on while the player plays a match (static/js/awake.js: the Screen Wake
Lock API), so that a phone does not lock itself during the others' turns, freeze the page and
let the player's turn run out on the clock."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser


# navigator.wakeLock as the browser gives it, counting what the page asks of it: Playwright's
# Chromium has no screen to keep on, and a test must see when the page takes and lets go.
FAKE_WAKE_LOCK = """(() => {
  const locks = {asked: 0, held: 0, sentinels: []};
  window.__wakeLocks = locks;
  const wakeLock = {
    request: async (type) => {
      locks.asked += 1;
      locks.held += 1;
      const sentinel = new EventTarget();
      sentinel.type = type;
      sentinel.released = false;
      sentinel.release = async () => {
        if (sentinel.released) return;
        sentinel.released = true;
        locks.held -= 1;
        sentinel.dispatchEvent(new Event('release'));
      };
      locks.sentinels.push(sentinel);
      return sentinel;
    },
  };
  Object.defineProperty(navigator, 'wakeLock', {configurable: true, get: () => wakeLock});
})()"""

# The tab is hidden: the browser lets go of every wake lock. Then it is shown again.
HIDDEN_THEN_SHOWN = """() => {
  let state = 'hidden';
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  document.dispatchEvent(new Event('visibilitychange'));
  for (const sentinel of window.__wakeLocks.sentinels) sentinel.release();
  state = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def locks(page: Any) -> dict[str, int]:
    return dict(page.evaluate("() => ({asked: __wakeLocks.asked, held: __wakeLocks.held})"))


def test_the_screen_stays_on_while_the_player_plays_a_match(new_page: Any) -> None:
    """While seated in a match being played, and only then, the page holds a screen wake
    lock: taken at the start, taken again when the tab comes back (the browser let go of it
    when it was hidden), let go when the match ends."""
    page = new_page()
    page.add_init_script(FAKE_WAKE_LOCK)
    ui.set_name(page, "Awake")
    ui.create_room(page, bots=(1, 2, 3))
    assert locks(page) == {"asked": 0, "held": 0}  # waiting: the device's own way
    ui.start(page)
    page.wait_for_function("() => __wakeLocks.held === 1")
    assert locks(page) == {"asked": 1, "held": 1}
    page.evaluate(HIDDEN_THEN_SHOWN)
    page.wait_for_function("() => __wakeLocks.asked === 2")
    assert locks(page) == {"asked": 2, "held": 1}
    page.click("#concede")
    page.click("#exit-go")
    page.wait_for_selector("#room[data-status=finished]")
    page.wait_for_function("() => __wakeLocks.held === 0")
    assert locks(page) == {"asked": 2, "held": 0}


def test_a_watcher_s_screen_is_left_alone(new_page: Any) -> None:
    host = new_page()
    ui.set_name(host, "Host")
    code = ui.create_room(host, bots=(1, 2, 3), pause=60)
    ui.start(host)
    watcher = new_page()
    watcher.add_init_script(FAKE_WAKE_LOCK)
    ui.set_name(watcher, "Watcher")
    watcher.goto(f"/#/r/{code}")
    watcher.wait_for_selector("#room[data-status=playing]")
    ui.wait_caught_up(host, watcher)
    assert locks(watcher) == {"asked": 0, "held": 0}
