"""Screenshots of the client for people to look at (not a test: nothing is asserted).

    python -m tests.browser.shots [--out artifacts/shots]

Starts the app on a free port with a temporary database (as the browser tests do) and, for a
desktop (1366x768) and a phone (390x844) in English, French and Bulgarian, saves the lobby, the
waiting room, the table during the bidding and during play, the score dialog after a deal, the
history, the player's profile, a leaderboard, the account page (a guest's, then an account's and
its question before deleting it), the match's page and the replay of a deal (and the table with
the four-colour deck), the chat among people (quick phrases, the mute box), an account page with
a muted player, a suspended player's notice and appeal:
``{page}-{lang}-{desktop|phone}.png``; then the tables for
three and two (``bulgarian3``, ``bulgarian2``, ``open_belot``) during the bidding and during
play, their scoresheet after a deal and the replay of that deal:
``{preset}-{page}-{lang}-{device}.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from app import admin
from app.settings import Settings
from tests.api.test_together import played
from tests.browser import ui
from tests.browser.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, PHONE, ThreadedServer
from tests.browser.test_friends import friends_seen_long_ago
from tests.conftest import Server

VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": PHONE}
LOCALES = {"en": "en-US", "fr": "fr-FR", "bg": "bg-BG"}


def shoot(page: Any, out: Path, name: str, full: bool = False) -> None:
    ui.settle(page)  # the cards in flight have landed
    page.screenshot(path=str(out / f"{name}.png"), full_page=full)


def open_page(browser: Any, base: str, lang: str, device: str) -> tuple[Any, Any]:
    """A fresh context (a new guest) for the device, in the language; its one page."""
    mobile = device == "phone"
    context = browser.new_context(
        viewport=VIEWPORTS[device],
        locale=LOCALES[lang],
        base_url=base,
        has_touch=mobile,
        is_mobile=mobile,
    )
    context.set_default_timeout(20_000)
    return context, context.new_page()


def tour(browser: Any, base: str, out: Path, lang: str, device: str) -> None:
    context, page = open_page(browser, base, lang, device)
    tag = f"{lang}-{device}"
    ui.set_name(page, {"en": "Ann", "fr": "Amélie", "bg": "Иванa"}[lang])
    page.wait_for_selector("#create-form")
    page.click("#create-form details summary")
    shoot(page, out, f"lobby-{tag}", full=True)
    ui.create_room(page, bots=(1, 2, 3), pause=60, timer=60)
    shoot(page, out, f"waiting-{tag}", full=True)
    ui.start(page)
    seen: set[str] = set()
    while "result" not in seen:
        step = ui.wait_next(page)
        if step == "bid":
            if "bid" not in seen:
                shoot(page, out, f"bidding-{tag}")
                seen.add("bid")
            ui.bid(page, prefer="hearts")
        elif step == "play":
            if "play" not in seen and page.get_attribute("#trick", "data-count") not in ("0", None):
                shoot(page, out, f"play-{tag}")
                page.check("#pref-four-colour")
                shoot(page, out, f"play-four-colour-{tag}")
                page.uncheck("#pref-four-colour")
                seen.add("play")
            ui.play(page)
        elif step == "result":
            shoot(page, out, f"score-{tag}")
            page.locator("#sheet").screenshot(path=str(out / f"scoresheet-{tag}.png"))
            seen.add("result")
        else:
            break
    match_id = page.evaluate("() => window.__belote.state.room.match_id")
    page.click("#next-deal")
    page.click("#nav-history")
    page.click("#leave-go")
    page.wait_for_selector("#history table")
    shoot(page, out, f"history-{tag}", full=True)
    page.click("#my-profile")
    page.wait_for_selector("#profile-name")
    shoot(page, out, f"profile-{tag}", full=True)
    for name, (address, drawn) in ui.pages_of(match_id).items():
        page.goto(address)
        page.wait_for_selector(drawn)
        if name == "replay":
            page.select_option("#replay-jump", index=1)  # the first trick
        shoot(page, out, f"{name}-{tag}", full=True)
    # The account page of an account: its devices, its tables, and the last question before
    # deleting it.
    ui.sign_up(page, f"tour_{lang}_{device}", "a long enough secret")
    page.goto("/#/account")
    page.wait_for_selector("#erase-form")
    shoot(page, out, f"account-signed-in-{tag}", full=True)
    page.fill("#erase-form-password", "a long enough secret")
    page.click("#erase-form button[type=submit]")
    page.wait_for_selector("#erase-confirm")
    shoot(page, out, f"account-erase-{tag}")
    page.click("#erase-stay")
    context.close()


def people(browser: Any, server: Server, out: Path, lang: str, device: str) -> None:
    """Among people: the chat with its quick phrases and the mute box, the lobby telling what
    came of the player's reports, the account page with a muted player, the reports and "Your
    data", then a suspended player's notice and their appeal."""
    context, page = open_page(browser, server.url, lang, device)
    other, guest = open_page(browser, server.url, lang, "desktop")
    tag = f"{lang}-{device}"
    ui.set_name(page, {"en": "Ann", "fr": "Amélie", "bg": "Иванa"}[lang])
    ui.create_room(page)
    ui.join_by_link(guest, page, "Rude")
    guest.click(".seat[data-seat='2'] button.sit")
    guest.fill("#chat-input", "you all play like idiots")
    guest.press("#chat-input", "Enter")
    page.wait_for_selector(".chat-text")
    page.click("#chat-phrases summary")
    page.click("#chat-phrases button[data-phrase='gl']")
    page.click("#chat-mute summary")
    page.wait_for_selector(".chat-phrase")
    page.locator("#chat").scroll_into_view_if_needed()
    shoot(page, out, f"chat-{tag}")
    page.check(f"#mute-{ui.player_id(guest)}")
    page.wait_for_selector(".chat-text:has-text('idiots')", state="detached")
    # Ann reports Rude and another; the operator acts on one and dismisses the other, then
    # reads a third; the lobby tells her once, the account page lists them.
    lout, cheat = (
        page.request.post("/api/players", data={"name": name}).json()["id"]
        for name in ("Lout", "Cheat")
    )
    reported = (ui.player_id(guest), lout, cheat)
    for whom, reason in zip(reported, ("chat", "name", "play"), strict=True):
        url = f"/api/players/{whom}/reports"
        page.request.post(url, data={"reason": reason}, headers=ui.auth(page))
    operator = ThreadPoolExecutor(1)  # the operator, beside Playwright's loop

    def run(*command: str) -> None:
        operator.submit(admin.main, list(command), server.settings).result(timeout=60)

    run("suspend", reported[0], "--reason", "Abuse", "--days", "1")
    run("close", lout)
    page.goto("/")
    page.wait_for_selector("#answered-reports")
    shoot(page, out, f"reports-told-{tag}", full=True)
    page.goto("/#/account")
    page.wait_for_selector("#your-data")
    page.wait_for_selector("#your-reports")
    shoot(page, out, f"account-muted-{tag}", full=True)
    run("suspend", ui.player_id(page), "--reason", "Shown for the tour", "--days", "3")
    operator.shutdown()
    deadline = time.monotonic() + 20  # the server's next round of news
    while page.request.get("/api/players/me", headers=ui.auth(page)).json()["suspension"] is None:
        assert time.monotonic() < deadline, "the suspension never reached the server"
        page.wait_for_timeout(100)
    page.goto("/")
    page.wait_for_selector("#appeal-open")
    shoot(page, out, f"suspended-{tag}", full=True)
    page.click("#appeal-open")
    page.fill("#appeal-text", "I quoted someone else; I insulted nobody.")
    shoot(page, out, f"appeal-{tag}")
    other.close()
    context.close()


def friends(browser: Any, server: Server, out: Path, lang: str, device: str) -> None:
    """Friends: the lobby's panel with an invitation, a request, a friend online at a public
    table, two last seen long ago and one asked; then "Invite a friend" at the player's own
    table, the invitation above other pages (the history, a table being played), a friend's
    profile with the matches played together, and quick play with a friend."""
    context, page = open_page(browser, server.url, lang, device)
    tag = f"{lang}-{device}"
    ui.set_name(page, {"en": "Ann", "fr": "Amélie", "bg": "Иванa"}[lang])
    me = ui.player_id(page)

    def guest(name: str) -> dict[str, str]:
        made = page.request.post("/api/players", data={"name": name}).json()
        return {"Authorization": f"Bearer {made['token']}", "id": made["id"]}

    bob, cy, dee = guest("Bob"), guest("Cy"), guest("Dee")

    def call(method: str, url: str, who: dict[str, str], data: Any = None) -> Any:
        auth = {"Authorization": who["Authorization"]}
        answer = page.request.fetch(url, method=method, headers=auth, data=data)
        assert answer.ok, answer.text()
        return answer.json() if answer.status != 204 else None

    call("PUT", f"/api/players/me/friends/{me}", bob)
    call(
        "PUT",
        f"/api/players/me/friends/{bob['id']}",
        {"Authorization": ui.auth(page)["Authorization"]},
    )
    call("POST", "/api/rooms", bob, {"public": True})
    private = call("POST", "/api/rooms", bob, {})["room"]["code"]
    call("POST", f"/api/rooms/{private}/invitations", bob, {"player": me})
    call("PUT", f"/api/players/me/friends/{me}", cy)
    call(
        "PUT",
        f"/api/players/me/friends/{dee['id']}",
        {"Authorization": ui.auth(page)["Authorization"]},
    )
    friends_seen_long_ago(server, me)
    page.goto("/")
    page.wait_for_selector("#friends li.invitation")
    page.wait_for_selector("#friends .presence.online", timeout=20_000)
    page.locator("#friends").scroll_into_view_if_needed()
    shoot(page, out, f"friends-{tag}")
    ui.create_room(page)
    page.click("#invite-friends summary")
    page.wait_for_selector("#invite-friends-list li[data-player]")
    shoot(page, out, f"invite-friends-{tag}")
    page.goto("/#/history")
    page.wait_for_selector("#invitations li.invitation")
    shoot(page, out, f"invitation-bar-{tag}")
    page.goto("/")
    ui.create_room(page, bots=(1, 2, 3), pause=60, timer=60)
    ui.start(page)
    ui.wait_next(page)
    page.wait_for_selector("#invitations li.invitation")
    shoot(page, out, f"invitation-table-{tag}")
    matches = [
        ("bulgarian", {me: 0, bob["id"]: 2}, 0),
        ("bulgarian", {me: 0, bob["id"]: 1}, 1),
        ("bulgarian2", {me: 0, bob["id"]: 1}, 0),
    ]
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, played(server.settings, private, matches)).result(timeout=60)
    page.goto(f"/#/p/{bob['id']}")
    page.wait_for_selector("#with-you")
    shoot(page, out, f"profile-with-you-{tag}", full=True)
    # Quick play with a friend: choosing Bob, waiting for him; then Bob's own ask, above a page.
    page.goto("/")
    page.wait_for_selector(f"#qp-partner option[value='{bob['id']}']", state="attached")
    page.select_option("#qp-partner", bob["id"])
    page.locator("#quickplay").scroll_into_view_if_needed()
    shoot(page, out, f"quickplay-partner-{tag}")
    page.click("#play-now")
    page.wait_for_selector("#quickplay[data-state=partner]")
    page.locator("#quickplay").scroll_into_view_if_needed()
    shoot(page, out, f"quickplay-partner-waiting-{tag}")
    page.click("#play-cancel")
    call("POST", "/api/quickplay", bob, {"preset": "french", "partner": me})
    page.goto("/#/history")
    page.wait_for_selector("#invitations li.play-with")
    shoot(page, out, f"play-with-bar-{tag}")
    context.close()


SMALL = ("bulgarian3", "bulgarian2", "open_belot")


def small_tables(browser: Any, base: str, out: Path, lang: str, device: str) -> None:
    """The tables for three and two: the bidding, a trick in progress, the scoresheet."""
    context, page = open_page(browser, base, lang, device)
    ui.set_name(page, {"en": "Ann", "fr": "Amélie", "bg": "Иванa"}[lang])
    for preset in SMALL:
        tag = f"{preset}-{{}}-{lang}-{device}"
        page.goto("/")
        seats = 3 if preset == "bulgarian3" else 2
        ui.create_room(page, bots=tuple(range(1, seats)), pause=60, timer=60, preset=preset)
        ui.start(page)
        seen: set[str] = set()
        # A deal where this player leads every trick never shows a trick in progress at their
        # turn: then the tour plays on into the next deal for that shot.
        while not {"play", "result"} <= seen:
            step = ui.wait_next(page)
            if step == "bid":
                if "bid" not in seen:
                    shoot(page, out, tag.format("bidding"))
                    seen.add("bid")
                ui.bid(page, prefer="all_trumps")
            elif step == "play":
                count = int(page.get_attribute("#trick", "data-count") or 0)
                last = page.get_attribute("#trick", "data-last") == "true"
                if "play" not in seen and count and not last:
                    shoot(page, out, tag.format("play"))
                    shoot(page, out, tag.format("play-full"), full=True)
                    seen.add("play")
                ui.play(page)
            elif step == "result":
                if "result" not in seen:
                    shoot(page, out, tag.format("score"))
                    page.locator("#sheet").screenshot(path=str(out / f"{tag.format('sheet')}.png"))
                    seen.add("result")
                ui.close_result(page)
            else:
                break
        match_id = page.evaluate("() => window.__belote.state.room.match_id")
        page.goto(f"/#/m/{match_id}/d/1")  # the replay of the deal just played
        page.wait_for_selector("#replay-step")
        page.select_option("#replay-jump", index=1)
        shoot(page, out, tag.format("replay"), full=True)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ARTIFACTS / "shots")
    parser.add_argument("--lang", action="append", choices=list(LOCALES))
    parser.add_argument("--device", action="append", choices=list(VIEWPORTS))
    parser.add_argument(
        "--tables-only", action="store_true", help="only the tables for three and two"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{folder}/shots.sqlite3",
            bot_delay_seconds=0,
            default_turn_seconds=0,
            token_check_seconds=0.2,  # the operator's suspension, for ``people``
            create_burst=1000,  # the tour makes many guests from one address
            presence_seconds=0.5,  # friends online at once, for ``friends``
        )
        threaded = ThreadedServer(settings)
        server = threaded.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for lang in args.lang or list(LOCALES):
                    for device in args.device or list(VIEWPORTS):
                        if not args.tables_only:
                            tour(browser, server.url, args.out, lang, device)
                            people(browser, server, args.out, lang, device)
                            friends(browser, server, args.out, lang, device)
                        small_tables(browser, server.url, args.out, lang, device)
                        print(f"{lang} {device}: done")
                browser.close()
        finally:
            threaded.stop()


if __name__ == "__main__":
    main()
