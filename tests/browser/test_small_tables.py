"""Tables of three and two in real Chromium: a whole 3-player match against bots (BG3), an Open
Belot deal played by clicks, a table card included (OB-9, OB-11), and a 2-player room joined
by its invite link from a second browser (BG2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser import ui
from tests.browser.conftest import PHONE


def test_a_whole_three_player_match_against_two_bots(new_page: Any, artifacts: Path) -> None:
    page = new_page()
    ui.set_name(page, "Ann")
    page.wait_for_selector("#create-form")
    page.select_option("#preset", "bulgarian3")
    assert page.inner_text("#preset-help").startswith("Three players, each for himself")
    assert page.locator("#bot-seats input[name=bot]").count() == 2  # seats 2 and 3
    page.click("#create-form details summary")
    assert page.locator("#hr-bg3_goal").count() == 1  # a house rule of this preset only
    ui.create_room(page, bots=(1, 2), target=15, preset="bulgarian3")
    names = [page.inner_text(f".seat[data-seat='{s}'] .seat-name") for s in range(3)]
    assert names == ["Ann", "Bot 2", "Bot 3"] and page.locator(".seat").count() == 3
    positions = [
        page.get_attribute(f".seat[data-seat='{s}']", "class").split()[1] for s in range(3)
    ]
    assert positions == ["pos-bottom", "pos-right", "pos-left"]
    ui.start(page)
    plays = 0
    while (step := ui.wait_next(page)) != "finished":
        if step == "result":
            # A column per player, unless all three passed (she passes after the first deal,
            # and the bots may too): a void deal has no table, only its line.
            void = page.evaluate("() => window.__belote.state.lastResult.result.void === true")
            heads = page.locator("#result-panel .breakdown-table thead th").count()
            assert heads == (0 if void else 4), void
            ui.close_result(page)
        elif step == "bid":
            ui.bid(page, prefer="pass" if plays else "clubs")
        else:
            assert set(ui.playable(page)) == ui.legal_plays(page)
            if int(page.get_attribute("#trick", "data-count") or 0) == 2 and plays < 40:
                page.screenshot(path=str(artifacts / "table-three-players.png"))
            ui.play(page)
            plays += 1
    sheet = page.evaluate("() => window.__belote.state.scoresheet")
    assert sheet["finished"] and len(sheet["scores"]) == 3 and max(sheet["scores"]) >= 15
    totals = page.locator("#sheet tfoot .totals td.num").all_inner_texts()
    assert sorted(int(x) for x in totals) == sorted(sheet["scores"])  # a column per player
    assert page.locator("#sheet thead th.side-col").all_inner_texts()[0] == "You"
    won = sheet["winner"] == 0
    assert page.inner_text("#verdict") == ("You won the match!" if won else "You lost the match.")
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    # The score in the felt's corner, on a phone: a chip a player, none broken over two lines
    # ("Bot 2 0" was cut as "Bot" / "2 0" when it was one text).
    page.set_viewport_size(PHONE)
    chips = page.locator("#felt-score .team-chip")
    texts = chips.all_inner_texts()
    assert len(texts) == 3 and texts[0] == f"You {sheet['scores'][0]}", texts
    assert sorted(int(x.split()[-1]) for x in texts) == sorted(sheet["scores"])
    heights = [box["height"] for box in (c.bounding_box() for c in chips.all()) if box]
    assert len(heights) == 3 and max(heights) < 1.5 * min(heights), heights
    # And the side panel's tricks: a player's count with his name, never cut.
    sides = page.locator(".tricks-line .dot-item.name")
    cut = "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"
    assert sides.count() == 3 and sides.evaluate_all(cut) == [], sides.all_inner_texts()

    page.click("#nav-history")
    page.wait_for_selector("#history table tbody tr")
    row = page.inner_text(f"#history tbody tr[data-match='{match_id}']")
    assert ("(won)" in row) == won and str(sheet["scores"][0]) in row
    page.goto(f"/#/m/{match_id}/d/1")
    page.wait_for_selector("#replay-step")
    assert page.locator(".replay-table .seat").count() == 3
    page.click("#replay-last")
    assert page.locator("#all-hands .hand-line").count() == 3
    assert "four" not in page.inner_text("#all-hands h3")  # it said "All four hands" of three


def test_an_open_belot_deal_is_played_by_clicks_and_a_table_card_too(
    new_page: Any, artifacts: Path
) -> None:
    page = new_page()
    ui.set_name(page, "Olga")
    ui.create_room(page, bots=(1,), target=1, preset="open_belot")
    assert page.locator(".seat").count() == 2
    assert page.get_attribute(".seat[data-seat='1']", "class").split()[1] == "pos-top"
    ui.start(page)
    page.wait_for_selector("#my-stacks .stack")
    # Both players' four stacks: a face-up card over a back; nobody sees the face-down card.
    assert page.locator("#my-stacks .stack").count() == 4
    assert page.locator(".seat[data-seat='1'] .stacks .stack .card.back").count() == 4
    assert page.locator(".seat[data-seat='1'] .stacks .stack-up").count() == 4
    stack_card = None
    while True:
        step = ui.wait_next(page)
        if step == "result" and stack_card is None:  # nobody bid: a void deal, the next one
            ui.close_result(page)
            continue
        if step in ("result", "finished"):
            break
        if step == "bid":
            ui.bid(page, prefer="all_trumps")
            continue
        highlighted = set(ui.playable(page)) | set(ui.playable_stacks(page))
        assert highlighted == ui.legal_plays(page)  # hand and face-up table cards (OB-9)
        if stack_card is None and ui.playable_stacks(page):
            before = page.locator("#my-stacks .stack[data-down=true]").count()
            stack = page.locator("#my-stacks .stack:has(.card.playable)").first
            index = stack.get_attribute("data-stack")
            had_down = stack.get_attribute("data-down") == "true"
            page.screenshot(path=str(artifacts / "table-open-belot.png"))
            stack_card = ui.play_stack(page)
            # The view says which stack the card came from (VIEW.played_from): read now, in its
            # deal (with no pause between deals the next one may already be on the page once
            # this one's result is).
            from_stack = page.evaluate(
                "c => (window.__belote.state.deal.played_from || {})[c]", stack_card
            )
            if had_down:  # its face-down card turns when the trick ends (OB-11)
                page.wait_for_function(
                    """k => {
                      const s = window.__belote.state.deal.stacks;
                      return !s || s[window.__belote.state.you.seat][k].down === false;
                    }""",
                    arg=int(index or 0),
                )
                assert page.locator("#my-stacks .stack[data-down=true]").count() <= before - 1
        else:
            ui.play(page)
    result = page.evaluate("() => window.__belote.state.lastResult.result")
    assert any(stack_card in t["cards"] for t in result["tricks"])
    assert from_stack == int(index or 0)  # and so does the replay, below
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    number = page.evaluate("() => window.__belote.state.lastResult.number")  # after void deals
    path = f"/api/matches/{match_id}/deals/{number}/record"
    record = page.request.get(path, headers=ui.auth(page))
    actions = record.json()["actions"]
    step = next(i for i, a in enumerate(actions) if a.get("play") == stack_card) + 1
    page.goto(f"/#/m/{match_id}/d/{number}")
    page.wait_for_selector("#replay-step")
    for _ in range(step):
        page.click("#replay-next")
    tag = page.wait_for_selector(f"#replay .slot:has(.card[data-card='{stack_card}']) .stack-tag")
    assert tag.get_attribute("data-stack") == index
    assert tag.inner_text() == f"stack {int(index or 0) + 1}"
    assert tag.get_attribute("title") == f"from stack {int(index or 0) + 1}"
    page.set_viewport_size(PHONE)  # the narrowest cards: the tag is read whole, not cut
    widths = tag.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1], f"the tag's text is {widths[0]} px wide in {widths[1]} px"


def test_a_two_player_room_is_joined_by_its_invite_link(new_page: Any, artifacts: Path) -> None:
    host = new_page()
    ui.set_name(host, "Host")
    code = ui.create_room(host, timer=60, preset="bulgarian2")
    link = host.input_value("#invite-link")
    assert link.endswith(f"/r/{code}") and host.locator(".seat").count() == 2

    guest = new_page()
    ui.set_name(guest, "Guest")
    guest.goto(link)
    guest.wait_for_selector("#room[data-status=waiting]")
    guest.click(".seat[data-seat='1'] button.sit")
    host.wait_for_function(
        "() => document.querySelector(\".seat[data-seat='1'] .seat-name\").textContent === 'Guest'"
    )
    guest.wait_for_selector(".seat[data-seat='1'].pos-bottom")  # the host sits across
    assert guest.get_attribute(".seat[data-seat='0']", "class").split()[1] == "pos-top"
    ui.start(host)
    guest.wait_for_selector("#room[data-status=playing]")
    pages = {0: host, 1: guest}
    played: dict[int, list[str]] = {0: [], 1: []}
    while min(len(cards) for cards in played.values()) < 2:
        seat = host.wait_for_function(
            """() => {
              const deal = window.__belote.state.deal;
              return deal && deal.phase !== 'finished' ? {seat: deal.turn} : null;
            }"""
        ).json_value()["seat"]
        page, other = pages[seat], pages[1 - seat]
        page.wait_for_selector("#room[data-my-turn=true]")
        assert len(ui.hand(page)) <= 9  # BG2-2: 3 + 3, then 3; six cards stay out of play
        if page.get_attribute("#room", "data-phase") == "bidding":
            ui.bid(page, prefer="pass" if seat else "hearts")
            ui.wait_caught_up(page, other)
            continue
        played[seat].append(ui.play(page))
        ui.wait_caught_up(page, other)
    assert guest.locator("#sheet thead th.side-col").all_inner_texts() == ["You", "Host"]
    guest.screenshot(path=str(artifacts / "table-two-players-bg2.png"))
