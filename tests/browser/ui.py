"""Driving the client the way a player does: through the page, waiting on what it shows."""

from __future__ import annotations

import re
from typing import Any

ROOM = "#room"
PLAIN_IMPORT = re.compile(r"import\('/js/([\w.-]+)'\)")


def own_modules(script: str) -> str:
    """``script`` with each ``import('/js/<name>')`` importing the page's own copy of the module.

    The page names its modules under ``/v/<version>/js/`` (app/api/client_files.py): importing
    the plain address would make a second copy with state of its own (the language, the toasts).
    """
    mine = r"import(new URL('\1', document.querySelector('script[type=module]').src))"
    return PLAIN_IMPORT.sub(mine, script)


NEXT = """() => {
  const room = document.querySelector('#room');
  return Boolean(room) && (room.dataset.myTurn === 'true' || room.dataset.status === 'finished'
    || document.querySelector('#result-panel') !== null);
}"""


def set_name(page: Any, name: str) -> None:
    """Open the lobby and save a display name (creates the guest)."""
    page.goto("/")
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_function(
        "name => (JSON.parse(localStorage.getItem('belote.player') || 'null') || {}).name === name",
        arg=name,
    )


def create_room(
    page: Any,
    *,
    bots: tuple[int, ...] = (),
    target: int | None = None,
    timer: int = 0,
    public: bool = False,
    pause: int = 0,
    preset: str | None = None,
) -> str:
    """Fill the lobby's create form; returns the room code once the room page shows."""
    page.wait_for_selector("#create-form")
    if preset is not None:
        page.select_option("#preset", preset)  # first: the bot seats are the preset's
    if target is not None:
        page.fill("#target", str(target))
    page.select_option("#turn", str(timer))
    page.select_option("#deal-pause", str(pause))
    page.check(f"input[name=visibility][value={'public' if public else 'private'}]")
    for seat in bots:
        page.check(f"#bot-{seat}")
    page.click("#create-room")
    page.wait_for_selector("#room[data-status=waiting]")
    return str(page.get_attribute(ROOM, "data-code"))


def host_waiting_room(new_page: Any) -> Any:
    """A new page (``new_page``, the fixture) whose guest "Host" has made a private waiting
    room for four, alone in it."""
    host = new_page()
    set_name(host, "Host")
    create_room(host)
    return host


def join_by_link(page: Any, host: Any, name: str) -> None:
    """Save ``name`` on ``page`` and follow the invite link the ``host``'s waiting room shows."""
    set_name(page, name)
    page.goto(host.input_value("#invite-link"))
    page.wait_for_selector("#room[data-status=waiting]")


def start(page: Any) -> None:
    page.click("#start")
    page.wait_for_selector("#room[data-status=playing]")


def version(page: Any) -> str:
    return str(page.get_attribute(ROOM, "data-version"))


def wait_caught_up(page: Any, other: Any) -> None:
    """Wait until ``other`` has applied every room event that ``page`` has."""
    page_version = int(version(page))
    other.wait_for_function(
        "v => Number(document.querySelector('#room').dataset.version) >= v", arg=page_version
    )


def wait_changed(page: Any, before: str) -> None:
    """Wait until the page has applied a newer room event than ``before``."""
    page.wait_for_function("v => document.querySelector('#room').dataset.version !== v", arg=before)


def wait_next(page: Any) -> str:
    """Wait until the player has something to do; returns what: result, finished, bid or play."""
    page.wait_for_function(NEXT)
    if page.query_selector("#result-panel"):
        return "result"
    if page.get_attribute(ROOM, "data-status") == "finished":
        return "finished"
    return "bid" if page.get_attribute(ROOM, "data-phase") == "bidding" else "play"


SETTLED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""


def settle(page: Any) -> None:
    """Wait until every card has landed: no finite animation is running (dealt and played
    cards fly for a few hundred ms; the seat to act pulses for ever)."""
    page.wait_for_function(SETTLED)


def pages_of(match_id: str) -> dict[str, tuple[str, str]]:
    """The pages away from the table, by name: each one's address and what shows it is drawn
    (the match's first deal is over)."""
    return {
        "leaderboard": ("/#/ratings/bulgarian", "#leaderboard[data-preset=bulgarian] :not(.muted)"),
        "account": ("/#/account", "#account form"),
        "match": (f"/#/m/{match_id}", "#match table.scoresheet"),
        "replay": (f"/#/m/{match_id}/d/1", "#replay-step"),
        "rules": ("/#/rules/bulgarian", "#rules-scoring"),
        "tournaments": ("/#/tournaments", "#tournament-form #tn-create"),
    }


def hand(page: Any) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in page.query_selector_all("#hand .card")]


def playable(page: Any) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in page.query_selector_all("#hand .playable")]


def playable_stacks(page: Any) -> list[str]:
    """Open Belot: the player's face-up table cards highlighted as playable (OB-9)."""
    return [
        str(c.get_attribute("data-card"))
        for c in page.query_selector_all("#my-stacks .card.playable")
    ]


def legal_plays(page: Any) -> set[str]:
    """The server's legal actions as the client holds them (the last deal frame)."""
    return set(
        page.evaluate("() => window.__belote.state.deal.legal.filter(a => a.play).map(a => a.play)")
    )


def bid(page: Any, prefer: str = "pass") -> None:
    before = version(page)
    button = page.query_selector(f"#bid-panel button[data-bid={prefer}]") or page.query_selector(
        "#bid-panel button"
    )
    assert button is not None, "no bid offered on the player's turn"
    button.click()
    wait_changed(page, before)


def play(page: Any, keyboard: bool = False) -> str:
    """Play the first highlighted card of the hand (else of the table stacks), by mouse or with
    the arrow keys and Enter."""
    before = version(page)
    if not playable(page) and playable_stacks(page):
        return play_stack(page)
    cards = playable(page)
    assert cards, "no card highlighted on the player's turn"
    if keyboard:
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("() => document.activeElement.dataset.card")
        assert focused == cards[0]
        page.keyboard.press("Enter")
    else:
        page.click(f"#hand .card[data-card='{cards[0]}']")
    wait_changed(page, before)
    return cards[0]


def play_deal_out(page: Any, prefer: str = "pass") -> None:
    """Bid (``prefer``: "hearts" makes a contract, so that the deal is played, not void) and
    play until the deal's result shows."""
    while (step := wait_next(page)) != "result":
        assert step != "finished", "the match ended before a deal's result showed"
        if step == "bid":
            bid(page, prefer=prefer)
        else:
            play(page)


def close_result(page: Any) -> None:
    """Done with a deal's result: "Next deal" during the pause after it, else "Close"."""
    if page.query_selector("#next-deal:not([disabled])"):
        page.click("#next-deal")
    else:
        page.click("#result-close")
    page.wait_for_selector("#result-panel", state="detached")


def play_until_trick_in_progress(page: Any) -> None:
    """Bid and play until it is this player's turn with cards already in the current trick."""
    while True:
        step = wait_next(page)
        if step == "result":
            close_result(page)
        elif step == "bid":
            bid(page)
        elif step == "play":
            if page.get_attribute("#trick", "data-last") == "false" and int(
                page.get_attribute("#trick", "data-count") or 0
            ):
                return
            play(page)
        else:
            raise AssertionError("the match ended before a trick was in progress")


def auth(page: Any) -> dict[str, str]:
    """The page's guest token as REST headers: a private room's history is for its players."""
    token = page.evaluate("() => JSON.parse(localStorage.getItem('belote.player')).token")
    return {"Authorization": f"Bearer {token}"}


def play_stack(page: Any) -> str:
    """Open Belot: click the first highlighted face-up card of the player's table stacks."""
    before = version(page)
    cards = playable_stacks(page)
    assert cards, "no table card highlighted"
    page.click(f"#my-stacks .card[data-card='{cards[0]}']")
    wait_changed(page, before)
    return cards[0]


def player_id(page: Any) -> str:
    """The id of the page's player (guest or account), as the browser keeps it."""
    return str(page.evaluate("() => JSON.parse(localStorage.getItem('belote.player')).id"))


SIGN_UP = """async ({username, password}) => {
  const player = JSON.parse(localStorage.getItem('belote.player'));
  const response = await fetch('/api/accounts', {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Authorization: `Bearer ${player.token}`},
    body: JSON.stringify({username, password}),
  });
  if (!response.ok) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const account = await response.json();
  localStorage.setItem('belote.player', JSON.stringify({...player, username: account.username}));
  window.dispatchEvent(new Event('belote:identity'));
  return account.username;
}"""


def sign_up(page: Any, username: str, password: str) -> None:
    """Make the page's guest an account through the REST API, from inside the page, and keep
    the username as the account page's form does (js/account.js): the same player, id and
    token, now signed in."""
    assert page.evaluate(SIGN_UP, {"username": username, "password": password}) == username


def become_account(page: Any) -> None:
    """Make the page's guest an account (rated play asks it: docs/protocol.md §8.2), with a
    username of its own, and draw the lobby again as the account's."""
    sign_up(page, f"u-{player_id(page)}", "a long enough secret")
    page.goto("/")
    page.wait_for_selector("#create-form")


def ask_and_cancel(page: Any, button: str, dialog: str, label: str, question: str) -> None:
    """Press the host's ``button`` (its ``aria-label`` is ``label``): the page asks first, in
    ``#{dialog}-confirm`` with ``question``; Escape cancels, and the question goes."""
    pressed = page.wait_for_selector(button)
    assert pressed.get_attribute("aria-label") == label
    pressed.click()
    asked = page.wait_for_selector(f"#{dialog}-confirm")
    assert question in asked.inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector(f"#{dialog}-confirm", state="detached")
