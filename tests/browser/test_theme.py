"""The dark colours (static/css/dark.css, js/prefs.js): a device set to dark shows the site dark,
before any script has run; the top bar's button turns the other colours on, remembered on the
device, and turning back to the device's own forgets the choice. Whether every word can be
read in them is tests/browser/test_contrast.py's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui

pytestmark = pytest.mark.browser

PAPER = "() => getComputedStyle(document.body.parentElement).backgroundColor"
LIGHT_PAPER, DARK_PAPER = "rgb(245, 242, 234)", "rgb(17, 21, 19)"
STORED = "() => (JSON.parse(localStorage.getItem('belote.prefs') || '{}')).theme"


def shown(page: Any) -> tuple[str, str, str | None]:
    """The page's colours, the theme it says, and whether its button is pressed."""
    return (
        page.evaluate(PAPER),
        page.evaluate("() => document.documentElement.dataset.theme"),
        page.get_attribute("#theme", "aria-pressed"),
    )


def test_a_device_set_to_dark_shows_the_site_dark_without_a_script(new_page: Any) -> None:
    """The dark stylesheet's own media query decides: nothing flashes light first."""
    page = new_page(color_scheme="dark", java_script_enabled=False)
    page.goto("/")
    assert page.evaluate(PAPER) == DARK_PAPER
    light = new_page(color_scheme="light", java_script_enabled=False)
    light.goto("/")
    assert light.evaluate(PAPER) == LIGHT_PAPER


def test_the_button_turns_the_other_colours_on_and_the_device_s_back(new_page: Any) -> None:
    page = new_page(color_scheme="light", locale="fr-FR")
    ui.set_name(page, "Ann")
    assert shown(page) == (LIGHT_PAPER, "light", "false")
    assert page.get_attribute("#theme", "title") == "Couleurs sombres"
    page.click("#theme")
    assert shown(page) == (DARK_PAPER, "dark", "true")
    assert page.evaluate(STORED) == "dark"
    page.reload()  # remembered on the device, and across its pages
    page.wait_for_selector("#name-input")
    assert shown(page) == (DARK_PAPER, "dark", "true")
    page.goto("/#/tournaments")
    page.wait_for_selector("#tournament-form")
    assert page.evaluate(PAPER) == DARK_PAPER
    page.click("#theme")  # back to the device's own: the choice is forgotten
    assert shown(page) == (LIGHT_PAPER, "light", "false")
    assert page.evaluate(STORED) == "auto"


def test_a_reader_on_a_dark_device_may_choose_the_light_colours(new_page: Any) -> None:
    """And a change of the device's setting is followed only while nothing is chosen."""
    page = new_page(color_scheme="dark")
    ui.set_name(page, "Ann")
    assert shown(page) == (DARK_PAPER, "dark", "true")
    page.click("#theme")
    assert shown(page) == (LIGHT_PAPER, "light", "false")
    assert page.evaluate(STORED) == "light"
    page.emulate_media(color_scheme="light")
    page.emulate_media(color_scheme="dark")
    assert shown(page) == (LIGHT_PAPER, "light", "false")  # chosen: kept
    page.click("#theme")  # dark again, as the device is: the device's own once more
    assert page.evaluate(STORED) == "auto"
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    assert shown(page) == (LIGHT_PAPER, "light", "false")
