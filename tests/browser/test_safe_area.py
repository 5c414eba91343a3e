"""The page is drawn over the whole screen (index.html's `viewport-fit=cover`: the top bar's
green runs under a notch or a status bar), so what is read and tapped must keep clear of the
screen's unsafe edges: the notch, the rounded corners, the home bar. A phone on its side has its
notch at the left or the right, where the brand, the left seat's plate and the first card of the
hand lay under it. Chromium is told the insets of an iPhone on its side (the DevTools protocol's
`Emulation.setSafeAreaInsetsOverride`, which `env(safe-area-inset-*)` then reads)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser

INSETS = {"top": 0, "right": 47, "bottom": 21, "left": 47}
"""An iPhone 14 on its side, in CSS px."""

# Every element a person reads or taps, visible, with where it lies against the insets: the
# horizontal ones over the whole page, the bottom one where the page ends (scrolled to its end).
OUT_OF_SAFE_AREA = """(insets) => {
  const shown = (el) => el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})
    && el.getBoundingClientRect().width > 0;
  const wanted = 'a, button, input, select, label, h1, h2, h3, p, .seat, .card, .bubble';
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll(wanted)) {
    if (!shown(el) || el.closest('.motion-layer, .sr-only')) continue;
    const r = el.getBoundingClientRect();
    const left = Math.round(r.left + scrollX), right = Math.round(r.right + scrollX);
    if (left < insets.left || right > width - insets.right)
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${left}-${right}`);
  }
  const end = document.documentElement.scrollHeight;
  const last = Math.max(...[...document.querySelectorAll('main *')].filter(shown)
    .map((el) => el.getBoundingClientRect().bottom + scrollY));
  if (last > end - insets.bottom + 0.5) out.push(`the page's last line at ${last} of ${end}`);
  return out;
}"""


def notched(page: Any) -> None:
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setSafeAreaInsetsOverride", {"insets": INSETS})


def test_a_phone_on_its_side_keeps_the_page_clear_of_its_notch(new_page: Any) -> None:
    page = new_page(viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True)
    notched(page)
    ui.set_name(page, "Notch")
    page.wait_for_selector("#create-form")
    assert page.evaluate(OUT_OF_SAFE_AREA, INSETS) == []
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    assert ui.wait_next(page) == "bid"
    ui.settle(page)
    assert page.evaluate(OUT_OF_SAFE_AREA, INSETS) == []
