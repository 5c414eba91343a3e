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
      const points = [[.5, .5], [.1, .2], [.9, .2], [.1, .8], [.9, .8]];
      const covered = points.some(([fx, fy]) => {
        const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
        return hit && !el.contains(hit) && !hit.contains(el);
      });
      if (covered) continue;  // (partly) under something else: a toast, a dialog
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


def low_contrast(page: Any) -> list[str]:
    """The text runs in view below WCAG AA, each with its contrast."""
    ui.settle(page)
    runs = page.evaluate(RUNS)
    assert runs, "no text found: the scan is broken"
    page.evaluate(HIDE_TEXT)
    png = base64.b64encode(page.screenshot()).decode()
    backgrounds = page.evaluate(PIXELS, {"png": png, "runs": runs})
    page.evaluate(SHOW_TEXT)
    failures = []
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
            failures.append(f"{run['text']!r} ({run['where']}): {worst:.2f}")
    return failures


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_word_on_the_lobby_and_the_table_has_enough_contrast(
    new_page: Any, viewport: dict[str, int]
) -> None:
    page = new_page(viewport=viewport)
    ui.set_name(page, "Ann")
    page.wait_for_selector("#create-form")
    found = {"lobby": low_contrast(page)}
    page.wait_for_selector("#create-form")
    ui.create_room(page, bots=(1, 2, 3), pause=60, timer=60)
    found["waiting"] = low_contrast(page)
    ui.start(page)
    while "score" not in found:
        step = ui.wait_next(page)
        if step == "bid":
            # The host's own turn: the turn plate under the "host" badge and the avatar.
            found.setdefault("bidding", low_contrast(page))
            ui.bid(page, prefer="hearts")
        elif step == "play":
            if page.get_attribute("#trick", "data-count") not in ("0", None):
                found.setdefault("play", low_contrast(page))
            ui.play(page)
        elif step == "result":
            found["score"] = low_contrast(page)
        else:
            break
    failing = [f"{step}: {run}" for step, runs in found.items() for run in runs]
    assert not failing, "below WCAG AA:\n" + "\n".join(failing)
    assert set(found) == {"lobby", "waiting", "bidding", "play", "score"}
