"""Friends in a real Chromium (docs/protocol.md §1, "Friends"): asked from the table's chat box,
accepted in the lobby's "Friends" panel, which then says where the friend plays (a private
table without its code); invited from a table's "Invite a friend", the invitation leads the
friend there; and a profile offers "Add friend"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_remove import seated_guest

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
    button = host.wait_for_selector(f"#invite-friends-list li[data-player='{guest_id}'] button")
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
