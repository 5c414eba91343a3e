"""Quick play with a friend in a real Chromium (docs/protocol.md §8.3): Ann names her friend
Bob in "Play with" and waits for him; Bob, reading his history, is asked above the page and
answers with "Play together"; with two more players the four are seated at once, Ann and Bob
across the table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ui
from tests.browser.test_friends import befriend
from tests.browser.test_remove import seated_guest

pytestmark = pytest.mark.browser


def test_two_friends_ask_to_play_together_and_sit_across(new_page: Any) -> None:
    ann, bob = seated_guest(new_page)  # Ann hosts a table where Bob sits: they meet there
    befriend(ann, bob)
    ann_id, bob_id = ui.player_id(ann), ui.player_id(bob)
    ann.goto("/#/")
    ann.wait_for_selector(f"#qp-partner option[value='{bob_id}']", state="attached")
    ann.select_option("#qp-preset", "bulgarian3")
    assert ann.is_disabled("#qp-partner")  # nobody's partner at three seats
    ann.select_option("#qp-preset", "french")
    ann.select_option("#qp-partner", bob_id)
    ann.click("#play-now")
    waiting = ann.wait_for_selector("#quickplay[data-state=partner] #qp-status")
    assert "Waiting for Guest to join you as your partner" in waiting.inner_text()

    bob.goto("/#/")  # the lobby's Friends panel says it too
    bob.wait_for_selector(f"#friends li.play-with[data-player='{ann_id}']")
    bob.goto("/#/history")
    ask = bob.wait_for_selector(f"#invitations li.play-with[data-player='{ann_id}']")
    assert ask.inner_text().startswith("Host asks you to play French Belote as partners")
    ask.query_selector(".play-with-go").click()
    status = bob.wait_for_selector("#quickplay[data-state=waiting] #qp-status")
    assert "With Host as your partner" in status.inner_text()
    ann.wait_for_selector("#quickplay[data-state=waiting]")  # Bob answered: a table is sought

    # Two more come: the four are seated at once, the friends across from each other.
    for name in ("Cy", "Dee"):
        made = ann.request.post("/api/players", data={"name": name}).json()
        asked = ann.request.post(
            "/api/quickplay",
            data={"preset": "french", "wait_seconds": 60},
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert asked.ok, asked.text()
    for page in (ann, bob):
        page.wait_for_selector("#room[data-status=playing]", timeout=30_000)
    code = ann.get_attribute("#room", "data-code")
    assert code == bob.get_attribute("#room", "data-code")
    seats = ann.request.get(f"/api/rooms/{code}").json()["room"]["seats"]
    at = {s["player"]["id"]: s["seat"] for s in seats if s["player"]}
    assert (at[ann_id] - at[bob_id]) % 4 == 2


def test_an_ask_put_away_stays_away_until_asked_again(new_page: Any) -> None:
    ann, bob = seated_guest(new_page)
    befriend(ann, bob)
    ann_id, bob_id = ui.player_id(ann), ui.player_id(bob)

    def ask_bob() -> None:
        asked = ann.request.post(
            "/api/quickplay", data={"preset": "bulgarian", "partner": bob_id}, headers=ui.auth(ann)
        )
        assert asked.ok, asked.text()

    ask_bob()
    bob.goto("/#/history")
    item = f"#invitations li.play-with[data-player='{ann_id}']"
    bob.wait_for_selector(item).query_selector(".invitation-dismiss").click()
    bob.wait_for_selector("#invitations", state="hidden")
    bob.reload()
    bob.wait_for_selector("#invitations[data-read]", state="attached")
    assert bob.query_selector(item) is None  # put away on this device
    bob.goto("/#/")
    bob.wait_for_selector("#friends[data-read]")
    assert bob.query_selector("#friends li.play-with") is None
    ask_bob()  # a new ask is shown again
    bob.goto("/#/history")
    bob.wait_for_selector(item)
    # Answered from the lobby's Friends panel, the wait shows in "Play now" at once.
    bob.goto("/#/")
    bob.click(f"#friends li.play-with[data-player='{ann_id}'] .play-with-go")
    status = bob.wait_for_selector("#quickplay[data-state=waiting] #qp-status")
    assert "With Host as your partner" in status.inner_text()
    bob.wait_for_selector("#friends li.play-with", state="detached")  # answered
