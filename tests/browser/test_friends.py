"""Friends in a real Chromium (docs/protocol.md §1, "Friends"): asked from the table's chat box,
accepted in the lobby's "Friends" panel, which then says where the friend plays (a private
table without its code) and whether they are online or when they were last seen; invited from a
table's "Invite a friend", the invitation leads the friend there, and reaches them on whatever
page they are; and a profile offers "Add friend" and says how one fared with that player."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from tests.api.test_together import played
from tests.browser import ui
from tests.browser.test_remove import seated_guest
from tests.conftest import Server

pytestmark = pytest.mark.browser


def open_lobby(page: Any) -> Any:
    """The lobby, drawn afresh, with its "Friends" panel drawn from the server's answer."""
    if page.url.endswith("/#/"):
        page.reload()
    else:
        page.goto("/#/")
    return page.wait_for_selector("#friends[data-read]")


def test_friends_ask_accept_and_invite_to_a_table(new_page: Any) -> None:
    host, guest = seated_guest(new_page)
    guest_id, host_id = ui.player_id(guest), ui.player_id(host)
    host.click("#chat-mute summary")
    host.click(f".add-friend[data-player='{guest_id}']")
    told = host.wait_for_selector(".toast:has-text('to be your friend')")
    assert told.inner_text().startswith("You asked Guest to be your friend.")
    table = host.get_attribute("#room", "data-code")
    assert table

    panel = open_lobby(guest)
    assert panel.inner_text().startswith("Friends")
    ask = guest.wait_for_selector(f"li.asking[data-player='{host_id}']")
    assert ask.inner_text().startswith("Host asks to be your friend")
    ask.query_selector(".friend-accept").click()
    guest.wait_for_selector(".toast:has-text('You and Host are friends.')")
    friend = guest.wait_for_selector(f"li.friend[data-player='{host_id}']")
    assert "at a private table (Bulgarian Belot)" in friend.inner_text()
    assert table not in guest.inner_html("#friends")  # a private table's code: not shown

    # The host invites the guest to another table of theirs.
    host.goto("/#/")
    other = ui.create_room(host)
    host.click("#invite-friends summary")
    listed = host.wait_for_selector(f"#invite-friends-list li[data-player='{guest_id}']")
    assert listed.inner_text().startswith("Guest")
    button = listed.query_selector("button")
    assert button.get_attribute("aria-label") == "Invite Guest to this table"
    button.click()
    host.wait_for_selector(".toast:has-text('Guest is invited')")

    open_lobby(guest)
    invitation = guest.wait_for_selector("li.invitation")
    assert invitation.inner_text().startswith("Host invites you to their table (Bulgarian Belot)")
    invitation.query_selector("a.button").click()
    guest.wait_for_selector(f"#room[data-code='{other}']")
    guest.click(".seat[data-seat='1'] button.sit")
    host.wait_for_selector(".seat[data-seat='1'] .seat-name:has-text('Guest')")
    panel = open_lobby(guest)
    assert guest.query_selector("li.invitation") is None  # taken up: not shown again
    assert "at a private table" in panel.inner_text()


def test_a_profile_offers_add_friend_and_the_friend_can_decline(new_page: Any) -> None:
    ann, bob = new_page(locale="fr-FR"), new_page()
    ui.set_name(ann, "Ann")
    ui.set_name(bob, "Bob")
    bob_id = ui.player_id(bob)
    ann.goto(f"/#/p/{bob_id}")
    ann.click(f".profile-friend .add-friend[data-player='{bob_id}']")
    ann.wait_for_selector(".toast:has-text('Vous avez demandé à Bob')")
    said = ann.wait_for_selector("#profile-friend[data-friendship='asked']").inner_text()
    assert said == "Demande d'ami envoyée : pas encore de réponse"
    ann.reload()  # as the server says
    ann.wait_for_selector("#profile-friend[data-friendship='asked']")
    bob.goto(f"/#/p/{ui.player_id(ann)}")
    accept = bob.wait_for_selector("#profile-friend[data-friendship='asking'] button")
    assert accept.get_attribute("aria-label") == "Accept Ann as your friend"
    panel = open_lobby(ann)
    asked = ann.wait_for_selector(f"li.asked[data-player='{bob_id}']")
    assert asked.inner_text().startswith("Bob · demandé, pas encore de réponse")
    open_lobby(bob)
    bob.click(f"li.asking[data-player='{ui.player_id(ann)}'] .friend-decline")
    bob.wait_for_selector("li.asking", state="detached")
    panel = open_lobby(ann)
    assert ann.query_selector("li.asked") is None
    assert "Ajoutez des amis" in panel.inner_text()  # nothing left: how to find some
    ann.goto(f"/#/p/{ui.player_id(ann)}")
    ann.wait_for_selector("#profile-name")
    assert ann.query_selector(".profile-friend") is None  # not on one's own profile


def befriend(host: Any, guest: Any) -> None:
    """The host asks from the table's chat box, the guest accepts in the lobby."""
    host.click("#chat-mute summary")
    host.click(f".add-friend[data-player='{ui.player_id(guest)}']")
    host.wait_for_selector(".toast:has-text('to be your friend')")
    open_lobby(guest)
    guest.click(f"li.asking[data-player='{ui.player_id(host)}'] .friend-accept")
    guest.wait_for_selector(f"li.friend[data-player='{ui.player_id(host)}']")


def friends_seen_long_ago(server: Server, player_id: str) -> None:
    """Two friends of the player who were last on the site 3 hours and 30 days ago, written
    from a thread of its own (Playwright's sync API holds this thread's event loop)."""

    async def write() -> None:
        engine = make_engine(server.settings.database_url)
        try:
            async with make_sessionmaker(engine).begin() as session:
                now = datetime.now(UTC)
                for name, ago in (("Old", timedelta(hours=3)), ("Older", timedelta(days=30))):
                    other = secrets.token_hex(8)
                    session.add(
                        m.Player(id=other, name=name, token_hash=other * 4, seen_at=now - ago)
                    )
                    await session.flush()
                    session.add(m.Friendship(asker_id=player_id, asked_id=other, accepted_at=now))
        finally:
            await engine.dispose()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, write()).result(timeout=60)


def three_friends(
    new_page: Any, live_server: Server, locale: str, online: str
) -> tuple[Any, Any, Any]:
    """The host and the guest (``locale``) of a table, friends; the host said ``online`` in
    the guest's Friends panel; then two more friends of the guest's, last seen long ago; the
    guest's lobby drawn afresh, and its three friends' rows."""
    host, guest = seated_guest(new_page, locale=locale)
    befriend(host, guest)
    # The host's table holds its socket open: online, within the node's rounds
    # (BELOTE_PRESENCE_SECONDS) and the panel's next reading.
    said = guest.wait_for_selector(
        f"li.friend[data-player='{ui.player_id(host)}'] .presence.online", timeout=20_000
    )
    assert said.inner_text() == online
    friends_seen_long_ago(live_server, ui.player_id(guest))
    open_lobby(guest)
    rows = guest.locator("#friends li.friend")
    rows.nth(2).wait_for()
    return host, guest, rows


def kept_through_a_round(page: Any, button: Any, box: str, event: str) -> None:
    """Focus ``button``, make ``box`` read the server again (``event``), and check that the
    button is still the one in the page, with the focus."""
    button.focus()
    before = page.get_attribute(box, "data-read")
    page.evaluate(f"() => window.dispatchEvent(new Event('{event}'))")
    page.wait_for_function(
        "([box, before]) => document.querySelector(box).dataset.read !== before", arg=[box, before]
    )
    assert button.evaluate("el => el.isConnected && document.activeElement === el")


def test_friends_online_or_last_seen_and_invitations_on_every_page(
    new_page: Any, live_server: Server
) -> None:
    host, guest, rows = three_friends(new_page, live_server, "en-US", "online")
    host_id = ui.player_id(host)
    assert rows.nth(0).get_attribute("data-player") == host_id  # online first
    assert [rows.nth(i).locator("strong").inner_text() for i in (1, 2)] == ["Old", "Older"]
    assert rows.nth(1).locator(".presence").inner_text() == "seen 3 hours ago"
    older = rows.nth(2).locator(".presence").inner_text()
    assert older.startswith("seen on ") and "ago" not in older  # a date beyond a week
    # The panel's rounds leave a reader's focus where it was while nothing changed.
    remove = guest.wait_for_selector(f"li.friend[data-player='{host_id}'] .friend-remove")
    kept_through_a_round(guest, remove, "#friends", "belote:friends")
    # A friend's name opens their profile.
    guest.click(f"li.friend[data-player='{host_id}'] a.friend-profile")
    assert guest.wait_for_selector("#profile-name").inner_text() == "Host"
    yours = guest.wait_for_selector("#profile-friend[data-friendship='friends']")
    assert yours.inner_text() == "Your friend"  # (a tick before it, drawn by the style)

    # The host invites the guest to another table; the guest is reading their history.
    guest.goto("/#/history")
    host.goto("/#/")
    other = ui.create_room(host)
    host.click("#invite-friends summary")
    listed = f"#invite-friends-list li[data-player='{ui.player_id(guest)}']"
    assert host.wait_for_selector(f"{listed} .presence.online").inner_text() == "online"
    host.click(f"{listed} button")
    host.wait_for_selector(".toast:has-text('Guest is invited')")
    # Read at the page's next round (every 15 s) or when the page changes: here, a reload.
    guest.reload()
    bar = guest.wait_for_selector("#invitations li.invitation")
    assert bar.inner_text().startswith("Host invites you to their table (Bulgarian Belot)")
    kept_through_a_round(guest, bar.query_selector("a.button"), "#invitations", "belote:identity")
    assert guest.get_attribute("#invitations ul", "aria-label") == "Your friends' invitations"
    bar.query_selector("a.button").click()
    guest.wait_for_selector(f"#room[data-code='{other}']")
    guest.wait_for_selector("#invitations", state="hidden")  # not above its own table
    guest.goto("/#/history")
    guest.wait_for_selector("#invitations li.invitation").query_selector(
        ".invitation-dismiss"
    ).click()
    guest.wait_for_selector("#invitations", state="hidden")
    open_lobby(guest)
    assert guest.query_selector("li.invitation") is None  # put away on the server too


def test_a_french_reader_reads_online_and_seen_in_french(
    new_page: Any, live_server: Server
) -> None:
    _, _, rows = three_friends(new_page, live_server, "fr-FR", "en ligne")
    assert rows.nth(1).locator(".presence").inner_text() == "vu il y a 3 heures"
    assert rows.nth(2).locator(".presence").inner_text().startswith("vu le ")


def test_a_profile_says_how_one_fared_with_that_player(new_page: Any, live_server: Server) -> None:
    ann, bob = new_page(locale="fr-FR"), new_page()
    ui.set_name(ann, "Ann")
    ui.set_name(bob, "Bob")
    ann_id, bob_id = ui.player_id(ann), ui.player_id(bob)
    code = ui.create_room(ann)
    matches = [
        ("bulgarian", {ann_id: 0, bob_id: 2}, 0),  # partners, won
        ("bulgarian", {ann_id: 0, bob_id: 1}, 1),  # opponents, lost
        ("bulgarian2", {ann_id: 0, bob_id: 1}, 0),  # opponents, won
    ]
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, played(live_server.settings, code, matches)).result(timeout=60)
    bob.goto(f"/#/p/{ann_id}")
    bob.click(".profile-friend .add-friend")  # Bob asks from Ann's profile ...
    bob.wait_for_selector("#profile-friend[data-friendship='asked']")
    ann.goto(f"/#/p/{bob_id}")
    ann.click("#profile-friend[data-friendship='asking'] button")  # ... Ann accepts from his
    ann.wait_for_selector("#profile-friend[data-friendship='friends']")
    ann.wait_for_selector("#with-you")
    assert ann.inner_text("#with-you h3") == "Avec vous"
    assert ann.inner_text("#with-you-matches") == "3"
    assert ann.inner_text("#with-you-partners") == "1 sur 1"
    assert ann.inner_text("#with-you-opponents") == "1 sur 2"
    bob.goto(f"/#/p/{ann_id}")
    bob.wait_for_selector("#with-you")
    assert bob.inner_text("#with-you-opponents") == "1 of 2"
    bob.goto(f"/#/p/{bob_id}")
    bob.wait_for_selector("#profile-name")
    assert bob.query_selector("#with-you") is None  # not on one's own
