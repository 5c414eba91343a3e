"""The PNG icon iOS asks for (``static/apple-touch-icon.png``, 180 px: Safari takes no SVG for a
home-screen icon), drawn from the project's one piece of art, ``static/icon.svg``, by Chromium's
canvas. ``python -m tests.browser.icons`` draws it again after the art changed;
``test_install.py`` checks that the shipped PNG still looks like the SVG.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "static"
ART = STATIC / "icon.svg"
TOUCH_ICON = STATIC / "apple-touch-icon.png"
SIZE = 180

# Both images drawn on canvases of the icon's size; each returns what the page computed.
DRAW = """async ([src, size]) => {
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  canvas.getContext("2d").drawImage(image, 0, 0, size, size);
  return canvas;
}"""
PNG_OF = f"async (args) => (await ({DRAW})(args)).toDataURL('image/png')"
DIFFERENCE = f"""async ([a, b, size]) => {{
  const draw = {DRAW};
  const pixels = async (src) =>
    (await draw([src, size])).getContext("2d").getImageData(0, 0, size, size).data;
  const [one, two] = [await pixels(a), await pixels(b)];
  let sum = 0;
  for (let i = 0; i < one.length; i++) sum += Math.abs(one[i] - two[i]);
  return sum / one.length;
}}"""


def art_url() -> str:
    """The SVG as a data URL: drawn from one, a canvas is never tainted (a file:// page's is)."""
    return "data:image/svg+xml;base64," + base64.b64encode(ART.read_bytes()).decode()


def touch_icon_png(page: Any) -> bytes:
    """The art drawn at the touch icon's size, as PNG bytes, by ``page``'s browser."""
    url: str = page.evaluate(PNG_OF, [art_url(), SIZE])
    return base64.b64decode(url.split(",", 1)[1])


def mean_difference(page: Any, shipped: str) -> float:
    """The mean difference per colour channel (0-255) between the art drawn at the icon's
    size and the image at ``shipped`` (an address the page may load)."""
    difference: float = page.evaluate(DIFFERENCE, [art_url(), shipped, SIZE])
    return difference


if __name__ == "__main__":
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        TOUCH_ICON.write_bytes(touch_icon_png(browser.new_page()))
        browser.close()
    print(f"drew {TOUCH_ICON}")
