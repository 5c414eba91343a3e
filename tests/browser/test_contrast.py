"""Every word the client shows can be read: WCAG AA contrast (4.5:1, 3:1 for large text),
measured on the rendered page rather than on the stylesheet's colours, because the table's
text sits on a radial felt, translucent plates and badges whose colour is only known once
drawn.

How: note each visible text run's box and colour, make every text transparent, take a
screenshot, and compare the colour with the pixels behind each run. A run's contrast is that
of its worst tenth of pixels, so a run straddling a border or an avatar's status dot is judged
by what is behind most of its letters.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

RUNS = """() => {
  const runs = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el) continue;
    // Not read by sight: hidden for screen readers' sake, or a disabled control (WCAG's
    // exception); a card's face is a drawing.
    if (el.closest('svg, .sr-only, [disabled], [aria-disabled=true], [hidden]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible') continue;
    let opacity = 1;
    for (let up = el; up; up = up.parentElement) {
      opacity *= parseFloat(getComputedStyle(up).opacity);
    }
    if (opacity === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 3 || r.height < 3 || r.left < 0 || r.top < 0) continue;
      if (r.right > innerWidth || r.bottom > innerHeight) continue;
      // (Partly) under something else, a toast or a dialog: not judged, since what is drawn
      // there is not the run's background. Probed on a grid a tenth of the run apart each way,
      // so whatever covers a tenth of it or more is found: a cover of less goes unseen, but
      // it is also less than the worst tenth of pixels the run is judged by.
      let covered = false;
      for (let fx = .05; fx < 1 && !covered; fx += .1) {
        for (let fy = .05; fy < 1 && !covered; fy += .1) {
          const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
          covered = hit !== null && !el.contains(hit) && !hit.contains(el);
        }
      }
      if (covered) continue;
      runs.push({text: node.textContent.trim().slice(0, 40), where: el.className || el.tagName,
                 color: style.color, opacity, size: parseFloat(style.fontSize),
                 bold: parseInt(style.fontWeight, 10) >= 700,
                 symbol: el.closest('[role=img]') !== null,
                 x: r.left, y: r.top, w: r.width, h: r.height});
    }
  }
  return runs;
}"""

# Inline styles set from a script, which the page's Content-Security-Policy allows; what an
# element had is put back afterwards, so the page goes on as it was.
HIDE_TEXT = """() => {
  const saved = [];
  for (const el of document.querySelectorAll('body *')) {
    for (const [name, value] of [['color', 'transparent'],
                                 ['-webkit-text-fill-color', 'transparent'],
                                 ['text-shadow', 'none'], ['transition', 'none']]) {
      saved.push([el, name, el.style.getPropertyValue(name), el.style.getPropertyPriority(name)]);
      el.style.setProperty(name, value, 'important');
    }
  }
  window.__contrastSaved = saved;
}"""
SHOW_TEXT = """() => {
  for (const [el, name, value, priority] of window.__contrastSaved) {
    if (value) el.style.setProperty(name, value, priority); else el.style.removeProperty(name);
  }
  delete window.__contrastSaved;
}"""

PIXELS = """async ({png, runs}) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const scale = image.width / innerWidth;
  return runs.map(r => {
    const x = Math.floor(r.x * scale), y = Math.floor(r.y * scale);
    const w = Math.max(1, Math.floor(r.w * scale)), h = Math.max(1, Math.floor(r.h * scale));
    const data = g.getImageData(x, y, w, h).data;
    const step = Math.max(1, Math.floor(w * h / 600));
    const out = [];
    for (let i = 0; i < w * h; i += step) out.push([data[4 * i], data[4 * i + 1], data[4 * i + 2]]);
    return out;
  });
}"""


def _luminance(rgb: tuple[float, float, float]) -> float:
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ratio(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    high, low = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colour(css: str) -> tuple[tuple[float, float, float], float]:
    """``rgb(…)`` / ``rgba(…)`` as computed: the colour and its alpha."""
    parts = [float(p) for p in css[css.index("(") + 1 : -1].replace("/", ",").split(",")]
    return (parts[0], parts[1], parts[2]), parts[3] if len(parts) > 3 else 1.0


def _scan(page: Any) -> dict[tuple[str, str], float]:
    """The text runs in the viewport below WCAG AA: (text, element) and its contrast."""
    runs = page.evaluate(RUNS)
    if not runs:
        return {}
    page.evaluate(HIDE_TEXT)
    png = base64.b64encode(page.screenshot()).decode()
    backgrounds = page.evaluate(PIXELS, {"png": png, "runs": runs})
    page.evaluate(SHOW_TEXT)
    failures: dict[tuple[str, str], float] = {}
    for run, pixels in zip(runs, backgrounds, strict=True):
        colour, alpha = _colour(run["color"])
        alpha *= run["opacity"]
        ratios = sorted(
            _ratio(tuple(c * alpha + p * (1 - alpha) for c, p in zip(colour, px, strict=True)), px)
            for px in pixels
        )
        worst = ratios[len(ratios) // 10]
        large = run["size"] >= 24 or (run["size"] >= 18.66 and run["bold"])
        # A symbol with a text alternative (the own seat's star) is a graphic: 3:1 (WCAG 1.4.11).
        if worst < (3.0 if large or run["symbol"] else 4.5):
            key = (run["text"], str(run["where"]))
            failures[key] = min(worst, failures.get(key, worst))
    return failures


SCROLLED = "() => [scrollY, innerHeight, document.documentElement.scrollHeight]"


def low_contrast(page: Any) -> list[str]:
    """The text runs below WCAG AA on the whole page, each with its contrast: the page is read
    a screen at a time from the top (overlapping, so a line cut by the screen's edge, which is
    skipped there, is whole in the next one), then scrolled back."""
    ui.settle(page)
    assert page.evaluate(RUNS), "no text found: the scan is broken"
    failures: dict[tuple[str, str], float] = {}
    top = 0
    while True:
        page.evaluate("y => scrollTo(0, y)", top)
        for key, worst in _scan(page).items():
            failures[key] = min(worst, failures.get(key, worst))
        y, height, total = page.evaluate(SCROLLED)
        if y + height >= total - 1:
            break
        top = y + height - 120
    page.evaluate("() => scrollTo(0, 0)")
    return [f"{text!r} ({where}): {worst:.2f}" for (text, where), worst in failures.items()]


FOUR_COLOUR = "on => document.documentElement.classList.toggle('four-colour', on)"


def four_colour(page: Any, found: dict[str, list[str]], step: str) -> None:
    """The step's scan, then again with the four-colour deck: its clubs and diamonds are other
    colours in the bid buttons, the contract (on the felt too), the cards named in text. Set
    with the table's switch, elsewhere as the switch does it (js/prefs.js: a class on
    <html>)."""
    found[step] = low_contrast(page)
    switch = page.query_selector("#pref-four-colour")
    if switch:
        switch.check()
    else:
        page.evaluate(FOUR_COLOUR, True)
    found[f"{step}, four colours"] = low_contrast(page)
    if switch:
        switch.uncheck()
    else:
        page.evaluate(FOUR_COLOUR, False)


# The host bids clubs or diamonds, the suits whose colour the four-colour deck changes (a bot
# may bid over it); one tour in Bulgarian, whose longer words wrap otherwise.
TOURS = [
    ("desktop", DESKTOP, "en-US", "diamonds"),
    ("phone", PHONE, "en-US", "clubs"),
    ("phone-bg", PHONE, "bg-BG", "diamonds"),
]


@pytest.mark.parametrize(
    ("viewport", "locale", "suit"), [t[1:] for t in TOURS], ids=[t[0] for t in TOURS]
)
def test_every_word_of_the_client_has_enough_contrast(
    new_page: Any, viewport: dict[str, int], locale: str, suit: str
) -> None:
    """One match, walked through as a player does: the lobby, the waiting room with a player
    away, the table (a stand-in in a seat) bidding and playing, in two- and four-colour decks,
    the score after a deal and its result aside during the next, the dialog before conceding,
    the match over; then the history, the player's profile, a leaderboard, the account page,
    the match's page and the replay of its first deal."""
    page = new_page(viewport=viewport, locale=locale)
    ui.set_name(page, "Ann")
    page.wait_for_selector("#create-form")
    page.click("#create-form details summary")  # the house rules too
    found = {"lobby": low_contrast(page)}
    page.check("#rated")  # its badge in the list of public rooms
    code = ui.create_room(page, bots=(2, 3), pause=60, timer=60, public=True)
    page.fill("#chat-input", "Hello")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-list li")
    # A second player finds the room in the lobby, takes seat 1 and leaves the room's page:
    # the seat is away. Back at once (the match would wait out the grace of a seat away).
    guest = new_page(viewport=viewport, locale=locale)
    ui.set_name(guest, "Bob")
    row = f"#public-rooms .room-row[data-code='{code}']"
    guest.wait_for_selector(row)
    found["lobby, a public room"] = low_contrast(guest)
    guest.click(f"{row} a.button")
    guest.click(".seat[data-seat='1'] button.sit")
    page.wait_for_selector(".seat[data-seat='1'][data-state=here]")
    guest.goto("about:blank")
    page.wait_for_selector(".seat[data-seat='1'][data-state=away]")
    found["waiting, a seat away"] = low_contrast(page)
    guest.goto(f"/#/r/{code}")
    page.wait_for_selector(".seat[data-seat='1'][data-state=here]")
    ui.start(page)
    # The guest leaves the match: a stand-in plays the seat, and the guest's lobby shows the
    # table as theirs.
    guest.click("#leave-match")
    guest.click("#exit-go")
    page.wait_for_selector(".seat[data-seat='1'][data-state=standin]")
    guest.goto("/")
    guest.wait_for_selector("#my-rooms-list")
    found["lobby, a table of mine"] = low_contrast(guest)
    guest.context.close()
    while "score" not in found:
        step = ui.wait_next(page)
        if step == "bid":
            # The host's own turn: the turn plate under the "host" badge and the avatar.
            if "bidding" not in found:
                four_colour(page, found, "bidding")
            ui.bid(page, prefer=suit)
        elif step == "play":
            if "play" not in found and page.get_attribute("#trick", "data-count") not in (
                "0",
                None,
            ):
                four_colour(page, found, "play")
            ui.play(page)
        elif step == "result":
            found["score"] = low_contrast(page)
        else:
            break
    assert {"bidding", "play", "score"} <= set(found), "the table's steps were not all scanned"
    ui.close_result(page)  # "Next deal": the pause ends
    assert ui.wait_next(page) in ("bid", "play")
    steps = [
        ("result aside", "#show-result", "#result-panel.in-side"),
        ("concede dialog", "#concede", "#exit-confirm"),
        ("match over", "#exit-go", "#room[data-status=finished]"),
        ("history", "#nav-history", "#history table"),
        ("profile", "#my-profile", "#profile-name"),
    ]
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    for step, click, drawn in steps:
        page.click(click)
        page.wait_for_selector(drawn)
        found[step] = low_contrast(page)
    for name, (address, drawn) in ui.pages_of(match_id).items():
        if name == "leaderboard":
            page.click("#nav-ratings")
        elif name == "account":
            page.click("#nav-account")
        else:
            page.goto(address)
        page.wait_for_selector(drawn)
        if name == "replay":
            page.select_option("#replay-jump", index=1)  # the first trick on the table
        if name in ("match", "replay"):
            four_colour(page, found, name)
        else:
            found[name] = low_contrast(page)
    failing = [f"{step}: {run}" for step, runs in found.items() for run in runs]
    assert not failing, "below WCAG AA:\n" + "\n".join(failing)
