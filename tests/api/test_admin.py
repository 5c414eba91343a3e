"""An operator draws a new password for a person who lost theirs (``python -m app.admin
reset-password``): the new one signs in, the old one does not, every device is signed out and
the username's failed logins are forgiven. There is no e-mail on file, so without it a
forgotten password lost the account for good."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app import admin
from app.settings import Settings
from tests.api.test_ratings_quickplay import code_of
from tests.conftest import new_account, new_guest, serve

PASSWORD = "correct horse battery"  # new_account's


async def test_a_new_password_signs_in_and_every_device_is_signed_out(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    ivana = await new_account(http, "Ivana")
    username = f"Ivana-{ivana.id}"
    login = {"username": username, "password": "not the password"}
    # Someone guessed until the username was locked (the default cap is 10 a window).
    answers = [code_of(await http.post("/api/accounts/login", json=login)) for _ in range(11)]
    assert answers[-1] == (429, "login_limited") and answers[0] == (401, "bad_login")
    command = ["reset-password", username.upper()]  # a username in any case
    assert await asyncio.to_thread(admin.main, command, settings) == 0  # as from a shell
    said = capsys.readouterr().out
    assert said.startswith(f"New password for {username.upper()}: ")
    password = said.splitlines()[0].rsplit(" ", 1)[1]
    assert len(password) == 16
    assert code_of(await http.get("/api/players/me", headers=ivana.auth)) == (401, "bad_token")
    old = {"username": username, "password": PASSWORD}
    assert code_of(await http.post("/api/accounts/login", json=old)) == (401, "bad_login")
    signed_in = await http.post(
        "/api/accounts/login", json={"username": username, "password": password}
    )
    assert signed_in.status_code == 200, signed_in.text  # and no longer locked
    assert signed_in.json()["id"] == ivana.id


def test_the_command_prints_the_password_or_says_there_is_no_such_account(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert admin.main(["reset-password", "nobody-at-all"], settings) == 1
    assert "No account is called 'nobody-at-all'." in capsys.readouterr().err
    with pytest.raises(SystemExit):
        admin.main(["reset-password"], settings)  # the username is asked for


async def test_the_operator_renames_a_player_and_the_tables_follow(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """By id (a guest) or username (an account): the server, which reads the renames every
    ``token_check_seconds``, shows the new name at the player's seat."""
    quick = settings.model_copy(update={"token_check_seconds": 0.05})
    async with serve(quick) as server, httpx.AsyncClient(base_url=server.url) as http:
        rude, host = await new_guest(http, "Rude word"), await new_account(http, "Host")
        code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
        assert (await http.put(f"/api/rooms/{code}/seats/2", headers=rude.auth)).is_success
        command = ["rename", rude.id, "  Player 3 "]
        assert await asyncio.to_thread(admin.main, command, settings) == 0
        assert capsys.readouterr().out == f"Player {rude.id} is now called Player 3.\n"
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            seat = (await http.get(f"/api/rooms/{code}")).json()["room"]["seats"][2]
            if seat["player"]["name"] == "Player 3":
                break
            assert asyncio.get_running_loop().time() < deadline, seat
            await asyncio.sleep(0.05)  # the server's next round: a wait for it, not a race
        me = await http.get("/api/players/me", headers=rude.auth)
        assert me.json()["name"] == "Player 3"
        by_username = ["rename", f"HOST-{host.id}", "Hostess"]
        assert await asyncio.to_thread(admin.main, by_username, settings) == 0
        assert (await http.get("/api/players/me", headers=host.auth)).json()["name"] == "Hostess"


def test_a_rename_of_nobody_or_to_a_bad_name_changes_nothing(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert admin.main(["rename", "nobody-at-all", "Name"], settings) == 1
    assert "No player has the id or username 'nobody-at-all'." in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        admin.main(["rename", "nobody-at-all", "   "], settings)
    assert refused.value.code == 2
    assert "a name has 1 to 32 characters" in capsys.readouterr().err


async def test_every_change_an_operator_makes_is_in_the_log_under_their_name(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """Who did what to whom, and when (``python -m app.admin log``); ``--by`` names the
    operator, else the system user running the command. Reading changes nothing and is not
    written down; a player's erasure keeps the entries but not their words."""
    rude, ivana = await new_guest(http, "Rude word"), await new_account(http, "Ivana")
    for reporter in (ivana,):
        url = f"/api/players/{rude.id}/reports"
        assert (await http.post(url, json={"reason": "name"}, headers=reporter.auth)).is_success

    async def run(*command: str, status: int = 0) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == status
        out, err = capsys.readouterr()
        return (out or err).splitlines()

    await run("rename", rude.id, "Player 3", "--by", "alice")  # closes Ivana's report
    await run("suspend", rude.id, "--reason", "Insults", "--by", " bob  smith ")
    await run("lift", rude.id, "--by", "alice")
    await run("reset-password", f"ivana-{ivana.id}")  # by the system user
    await run("close", rude.id, "--by", "alice")  # nothing open: nothing changed, no entry
    await run("reports", "--by", "alice")  # reading is not a change
    said = await run("log")
    assert said[0] == "5 changes in the last 30 days."
    rows = [line.split("  ", 3) for line in said[1:]]
    assert [row[1:3] for row in rows] == [
        ["alice", "rename"],
        ["alice", "close"],  # the report on the name, answered by the rename
        ["bob smith", "suspend"],
        ["alice", "lift"],
        [admin.system_user(), "reset-password"],
    ]
    assert rows[0][3] == f"Player 3 (id {rude.id}): from Rude word to Player 3"
    assert rows[1][3] == f"Player 3 (id {rude.id}): 1 open report closed as upheld."
    assert rows[2][3] == f"Player 3 (id {rude.id}): until lifted: Insults"
    assert rows[3][3] == f"Player 3 (id {rude.id})"
    assert rows[4][3] == f"Ivana (id {ivana.id})"
    assert await run("log", "--player", f"IVANA-{ivana.id}") == [
        "1 change in the last 30 days.",
        said[5],
    ]
    assert await run("log", "--player", "nobody-at-all", status=1) == [
        "No player has the id or username 'nobody-at-all'."
    ]
    with pytest.raises(SystemExit):  # argparse refuses an empty name (before any work)
        admin.main(["log", "--by", " "], settings)

    assert (await http.delete("/api/players/me", headers=rude.auth)).status_code == 204
    after = await run("log", "--player", rude.id)
    assert after[1:] == [
        f"{line.split('  ')[0]}  {who}  {action}  (erased) (id {rude.id})"
        for line, who, action in zip(
            said[1:5],
            ("alice", "alice", "bob smith", "alice"),
            ("rename", "close", "suspend", "lift"),
            strict=True,
        )
    ]


async def test_the_operator_erases_a_player_once_they_sit_nowhere(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """For a person who asks by other means and cannot sign in: refused while they sit at a
    table (only a running server can stand them up: suspend them first), then done as their
    own erasure would be, and the running server forgets them (its next round of news)."""

    async def run(*command: str, status: int = 0) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == status
        out, err = capsys.readouterr()
        return (out or err).splitlines()

    quick = settings.model_copy(update={"token_check_seconds": 0.05})
    async with serve(quick) as server, httpx.AsyncClient(base_url=server.url) as http:
        gone, host = await new_account(http, "Gone"), await new_guest(http, "Host")
        code = (await http.post("/api/rooms", json={}, headers=host.auth)).json()["room"]["code"]
        assert (await http.put(f"/api/rooms/{code}/seats/2", headers=gone.auth)).is_success
        username = f"Gone-{gone.id}"
        assert await run("erase", username, status=1) == ["Erasing cannot be undone: say --yes."]
        refused = await run("erase", username, "--yes", status=1)
        assert refused[0].startswith(f"Player {gone.id} still sits or hosts others at {code}")
        assert (await http.get("/api/players/me", headers=gone.auth)).status_code == 200
        await run("suspend", gone.id, "--reason", "Asked to be erased")

        async def stood_up() -> bool:
            room = (await http.get(f"/api/rooms/{code}")).json()["room"]
            return room["seats"][2]["player"] is None

        deadline = asyncio.get_running_loop().time() + 10
        while not await stood_up():
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.05)  # the server's next round: a wait for it, not a race
        assert await run("erase", username, "--yes") == [
            f"Player {gone.id} is erased; the servers forget them within seconds."
        ]
        me = await http.get("/api/players/me", headers=gone.auth)
        assert code_of(me) == (401, "bad_token")
        profile = await http.get(f"/api/players/{gone.id}/profile")
        assert code_of(profile) == (404, "unknown_player")
        login = {"username": username, "password": PASSWORD}
        assert code_of(await http.post("/api/accounts/login", json=login)) == (401, "bad_login")
        log = await run("log", "--player", gone.id)
        assert [line.split("  ")[2] for line in log[1:]] == ["suspend", "erase"]
        assert await run("erase", gone.id, "--yes", status=1) == [
            f"No player has the id or username '{gone.id}'."
        ]


async def test_the_operator_gives_an_account_another_username(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """For a username that breaks the site's rules, which the profile and the leaderboards
    show: the person signs in with the new one and not the old, their devices stay signed in,
    and the reports about their name are closed. A guest has none to change, another's
    username is refused, and a refusal changes nothing."""

    async def run(*command: str, status: int = 0) -> list[str]:
        assert await asyncio.to_thread(admin.main, list(command), settings) == status
        out, err = capsys.readouterr()
        return (out or err).splitlines()

    rude, other, guest = (
        await new_account(http, "Rude"),
        await new_account(http, "Other"),
        await new_guest(http, "Guest"),
    )
    old, taken = f"Rude-{rude.id}", f"Other-{other.id}"
    report = {"reason": "name"}
    url = f"/api/players/{rude.id}/reports"
    assert (await http.post(url, json=report, headers=other.auth)).is_success
    assert await run("rename-username", old, taken.upper(), status=1) == ["That username is taken."]
    assert await run("rename-username", guest.id, "guest_name", status=1) == [
        f"Player {guest.id} is a guest: no username."
    ]
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, before any work
        admin.main(["rename-username", old, "no spaces"], settings)
    assert refused.value.code == 2
    assert "A username has 3 to 32 letters" in capsys.readouterr().err
    me = await http.get("/api/accounts/me", headers=rude.auth)
    assert me.json()["username"] == old  # nothing changed yet

    assert await run("rename-username", old, "Player_7", "--by", "alice") == [
        f"Player {rude.id} now signs in as Player_7 (was {old}).",
        "Their devices stay signed in; tell them the new username.",
        "1 open report closed as upheld.",
    ]
    me = await http.get("/api/accounts/me", headers=rude.auth)  # still signed in
    assert me.status_code == 200 and me.json()["username"] == "Player_7"
    profile = (await http.get(f"/api/players/{rude.id}/profile")).json()
    assert profile["username"] == "Player_7"
    login = {"username": old, "password": PASSWORD}
    assert code_of(await http.post("/api/accounts/login", json=login)) == (401, "bad_login")
    login = {"username": "player_7", "password": PASSWORD}  # in any case, as any username
    signed_in = await http.post("/api/accounts/login", json=login)
    assert signed_in.status_code == 200 and signed_in.json()["id"] == rude.id
    # The old username is free again; the account's own in another case is no other's.
    assert await run("rename-username", rude.id, "PLAYER_7") == [
        f"Player {rude.id} now signs in as PLAYER_7 (was Player_7).",
        "Their devices stay signed in; tell them the new username.",
    ]
    assert (await run("rename-username", taken, old))[0] == (
        f"Player {other.id} now signs in as {old} (was {taken})."
    )
    log = await run("log", "--player", rude.id)
    assert [line.split("  ")[2:] for line in log[1:]][:3] == [
        ["rename-username", f"Rude (id {rude.id}): username from {old} to Player_7"],
        ["close", f"Rude (id {rude.id}): 1 open report closed as upheld."],
        ["rename-username", f"Rude (id {rude.id}): username from Player_7 to PLAYER_7"],
    ]
