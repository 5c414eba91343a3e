"""The table's look and feel in a real Chromium (issue 11, "What players expect"): the SVG deck
and its four-colour option, motion that never holds the state back and stops under "reduce
motion", sound off until asked for, the tab saying when it is your turn; and words a narrow
layout must not cut (a phone's side seats, the "not rated" badge)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

# Counts the audio contexts the page makes: none while sound is off.
COUNT_AUDIO = """
window.__audio = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.__audio += 1; }
};
"""
# The colour a club is drawn in (on a card made for the purpose: the hand may hold none).
CLUB_COLOUR = """() => { const c = document.createElement('span'); c.className = 'card face suit-C';
  document.querySelector('#table').append(c); const colour = getComputedStyle(c).color;
  c.remove(); return colour; }"""


def table(new_page: Any, **options: Any) -> Any:
    page = new_page(**options)
    page.add_init_script(COUNT_AUDIO)
    ui.set_name(page, "Looker")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    return page


def play_one_card(page: Any) -> str:
    while True:
        step = ui.wait_next(page)
        if step == "bid":
            ui.bid(page, prefer="hearts")
        elif step == "play":
            return ui.play(page)
        else:
            raise AssertionError(f"no card to play: {step}")


def test_the_deck_is_drawn_in_svg_and_four_colours_are_remembered(new_page: Any) -> None:
    page = table(new_page)
    page.wait_for_selector("#hand .card svg.face-art")
    assert page.query_selector(".seat .backs .card.back") is not None
    back = page.evaluate(
        "() => getComputedStyle(document.querySelector('.card.back')).backgroundImage"
    )
    assert back.startswith('url("data:image/svg+xml')  # the deck's own back
    assert page.evaluate(CLUB_COLOUR) == "rgb(22, 24, 26)"  # clubs black by default
    page.check("#pref-four-colour")
    assert page.evaluate(CLUB_COLOUR) == "rgb(23, 128, 61)"  # green
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert page.is_checked("#pref-four-colour")
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")


def drawn_at_once(page: Any, card: str) -> None:
    """The played card has left the drawn hand as soon as the state says so, whatever moves."""
    page.wait_for_function(
        """card => !window.__belote.state.deal.hand.includes(card)
          && !document.querySelector(`#hand .card[data-card='${card}']`)""",
        arg=card,
    )


def test_motion_is_cosmetic_and_off_under_reduced_motion(new_page: Any) -> None:
    page = table(new_page)
    page.evaluate(
        """() => { window.__moves = 0; const real = Element.prototype.animate;
          Element.prototype.animate = function (...args) { window.__moves += 1;
            return real.apply(this, args); }; }"""
    )
    drawn_at_once(page, play_one_card(page))
    page.wait_for_function("() => window.__moves > 0")  # the card travelled (and more moved)

    calm = table(new_page, reduced_motion="reduce")
    drawn_at_once(calm, play_one_card(calm))
    play_one_card(calm)
    assert calm.evaluate("() => document.getAnimations().length") == 0


def test_sound_is_off_until_asked_for_and_the_tab_says_your_turn(new_page: Any) -> None:
    page = table(new_page)
    ui.wait_next(page)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert "circle" in (page.get_attribute("link[rel=icon]", "href") or "")
    play_one_card(page)
    assert page.evaluate("() => window.__audio") == 0  # off by default: no sound made
    page.check("#pref-sound")
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert page.is_checked("#pref-sound")  # remembered
    play_one_card(page)
    page.wait_for_function("() => window.__audio > 0")
    page.click("#nav-lobby")
    page.click("#leave-go")
    page.wait_for_selector("#create-form")
    assert not page.title().startswith("●")  # away from the table, the tab is quiet again


# On a phone's narrow side seats: is each seat's name shown whole, and is a declaration's name
# kept on one line? The bubble is made as room.js makes one (a name, then the cards).
SIDE_SEATS = """() => {
  const out = [];
  for (const pos of ['left', 'right']) {
    const seat = document.querySelector(`.seat.pos-${pos}`);
    const name = seat.querySelector('.seat-name');
    let extras = seat.querySelector('.seat-extras');
    if (!extras) {
      extras = document.createElement('div'); extras.className = 'seat-extras'; seat.append(extras);
    }
    const bubble = document.createElement('span'); bubble.className = 'bubble decl';
    const kind = document.createTextNode('Cinquante');
    bubble.append(kind, ' ');
    for (const c of ['A♥', 'K♥', 'Q♥', 'J♥']) {
      const card = document.createElement('span');
      card.className = 'ctext red';
      card.textContent = c;
      bubble.append(card);
    }
    extras.append(bubble);
    const range = document.createRange(); range.selectNodeContents(kind);
    out.push({
      pos, name: name.textContent,
      nameWhole: name.scrollWidth <= name.clientWidth && name.scrollHeight <= name.clientHeight,
      kindLines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
    });
    bubble.remove();
  }
  return out;
}"""


def test_a_phone_s_side_seats_show_names_and_declarations_whole(new_page: Any) -> None:
    page = new_page(viewport=PHONE, locale="fr-FR")
    ui.set_name(page, "Amélie")
    ui.create_room(page, bots=(1, 2, 3))
    ui.start(page)
    page.wait_for_selector(".seat.pos-left .seat-name")
    for seat in page.evaluate(SIDE_SEATS):
        assert seat["nameWhole"], seat  # "Robot 4", not "Ro…"
        assert seat["kindLines"] == 1, seat  # "Cinquante", not "Cinqu" / "ante"


# The waiting room's seats on a phone: is each side seat's label whole ("Свободно" / "място",
# not "Сво…"), in two lines at most, and does every seat hold its buttons? Boxes, not pixels.
SEATS_WHOLE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
  return [...document.querySelectorAll('.felt .seat')].map((seat) => {
    const name = seat.querySelector('.seat-name');
    const size = parseFloat(getComputedStyle(name).fontSize);
    // The text's own boxes: scrollWidth rounds, and "Empty" 0.3 px too wide shows as "Emp…".
    const text = document.createRange(); text.selectNodeContents(name);
    return {
      seat: seat.dataset.seat, name: name.textContent,
      side: seat.matches('.pos-left, .pos-right'),
      whole: [...text.getClientRects()].every((r) => r.right <= box(name).right + 0.02)
        && name.scrollHeight <= name.clientHeight,
      lines: Math.round(box(name).height / (size * 1.15)),
      buttonsInside: [...seat.querySelectorAll('button')].every((b) => inside(box(b), box(seat))),
      inFelt: inside(box(seat), box(seat.closest('.felt'))),
    };
  });
}"""


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "bg-BG"])
def test_a_phone_s_waiting_room_shows_its_side_seats_whole(new_page: Any, locale: str) -> None:
    """390 px, a bot at seat 2 (right), seat 4 (left) empty: "Empty seat", "Place libre",
    "Свободно място" read whole in the narrow side seats, each seat's buttons ("S'asseoir ici",
    "Махни бота") inside its plate. Then a guest with a 32-letter name takes the left seat: his
    name is cut with "…" and the other seats still hold their buttons."""
    host = new_page(viewport=PHONE, locale=locale)
    ui.set_name(host, "Ann")
    code = ui.create_room(host, bots=(1,))
    seats = host.evaluate(SEATS_WHOLE)
    assert {s["seat"] for s in seats if s["side"]} == {"1", "3"}
    for seat in seats:
        assert seat["whole"] and seat["lines"] <= 2, seat  # "Свободно" / "място", not "Сво…"
    for seat in seats:
        assert seat["buttonsInside"] and seat["inFelt"], seat

    guest = new_page(viewport=PHONE, locale=locale)
    ui.set_name(guest, "M" + "a" * 31)
    guest.goto(f"/#/r/{code}")
    guest.click(".seat[data-seat='3'] button.sit")
    host.wait_for_selector(".seat[data-seat='3'][data-state=here]")
    seats = {s["seat"]: s for s in host.evaluate(SEATS_WHOLE)}
    assert not seats["3"]["whole"] and seats["3"]["lines"] <= 2, seats["3"]  # "Maaa…"
    assert all(s["buttonsInside"] and s["inFelt"] for s in seats.values()), seats


# Does the first rated badge under ``root`` take more than one line, or leave the screen?
BADGE_BROKEN = """root => {
  const badge = document.querySelector(`${root} .badge.rated`);
  const rects = [...badge.getClientRects()];
  return rects.length !== 1
    || rects.some((r) => r.left < 0 || r.right > document.documentElement.clientWidth);
}"""


def badge_broken_at(page: Any, root: str) -> list[int]:
    """The viewport widths, a phone's to a wide desktop's, at which the badge is broken."""
    broken = []
    for width in range(320, 1401, 20):
        page.set_viewport_size({"width": width, "height": 860})
        if page.evaluate(BADGE_BROKEN, root):
            broken.append(width)
    return broken


def test_the_rated_badge_stays_on_one_line_at_every_width(new_page: Any) -> None:
    """Bulgarian, a rated room with a bot: "Без рейтинг: играе бот" goes to the next line whole,
    never "Без" at the end of one line and the rest on the next, and stays on screen, in the
    room's top line and in the lobby's list, from 320 to 1400 px wide."""
    host = new_page(locale="bg-BG")
    ui.set_name(host, "Ивана")
    ui.become_account(host)  # rated rooms are for accounts
    host.check("#rated")
    code = ui.create_room(host, bots=(1,), public=True, timer=60)
    host.wait_for_selector("#room-top .badge.rated.off")
    assert badge_broken_at(host, "#room-top") == []
    other = new_page(locale="bg-BG")
    ui.set_name(other, "Петър")
    row = f"#public-rooms .room-row[data-code='{code}']"
    other.wait_for_selector(f"{row} .badge.rated.off")
    assert badge_broken_at(other, row) == []
