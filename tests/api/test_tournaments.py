"""Knockout tournaments over REST (docs/protocol.md §9): entered, started by the host, the
units drawn, each match of the bracket played at a table the server opens (byes won without
one), the winners sent on until the final names a champion. A table's code is shown to its
own players alone. Refusals change nothing."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app import admin
from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.rooms.watching import watch_code
from app.settings import Settings
from tests.api.test_account_erasure import erase
from tests.api.test_ratings_quickplay import code_of
from tests.api.test_suspension import eventually, hearing_news
from tests.conftest import Guest, Server, new_account, new_guest, ws_client

T = "/api/tournaments"


async def read(http: httpx.AsyncClient, tournament_id: str, who: Guest | None = None) -> Any:
    answer = await http.get(f"{T}/{tournament_id}", headers=None if who is None else who.auth)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def made(http: httpx.AsyncClient, host: Guest, **body: Any) -> Any:
    answer = await http.post(T, json={"name": "Friday cup"} | body, headers=host.auth)
    assert answer.status_code == 201, answer.text
    return answer.json()


async def entered(http: httpx.AsyncClient, tournament_id: str, guests: list[Guest]) -> None:
    for guest in guests:
        answer = await http.post(f"{T}/{tournament_id}/entry", headers=guest.auth)
        assert answer.status_code == 200, answer.text


async def concede_at(server: Server, code: str, guest: Guest) -> None:
    """``guest`` gives the match at their table up (their side loses it)."""
    async with ws_client(server, code, guest.token) as client:
        reply = await client.reply(await client.send("concede", {"on": True}))
        assert reply["t"] == "ack", reply


async def play_round(
    http: httpx.AsyncClient, server: Server, tournament_id: str, guests: dict[str, Guest]
) -> list[tuple[int, int | None]]:
    """Every table being played is lost by its second side (``b``); the units that met. The
    director stores a match before it opens its table: the round is played once every match
    without a winner has its table (read sooner, one made a moment ago would be left unplayed
    and the tournament wait for it — the landing run of stop 42 lost a knockout so)."""
    state = await until(
        http,
        tournament_id,
        lambda s: all(t["playing"] for t in s["tables"] if t["winner"] is None),
        server,
    )
    met = []
    for table in [t for t in state["tables"] if t["playing"]]:
        loser = state["units"][table["b"]][0]["id"]
        you = (await read(http, tournament_id, guests[loser]))["you"]
        assert you["unit"] == table["b"] and you["table"] is not None
        await concede_at(server, you["table"], guests[loser])
        met.append((table["a"], table["b"]))
    return met


async def until(
    http: httpx.AsyncClient, tournament_id: str, done: Any, server: Server | None = None
) -> Any:
    """The tournament once ``done(state)``: the server moves it on in its own time (a wait
    for its work, bounded, not a race: 30 s, as a loaded machine's PostgreSQL run went past
    10). Given the in-process ``server``, a wait that fails says what its director and the
    rooms of the undecided tables were doing (a fresh-clone run once found a table's result
    not read in 30 s, and the tournament's state alone could not say why)."""
    for _ in range(600):
        state = await read(http, tournament_id)
        if done(state):
            return state
        await asyncio.sleep(0.05)
    why = "" if server is None else await director_state(server, tournament_id)
    raise AssertionError(f"the tournament did not get there: {state}{why}")


async def director_state(server: Server, tournament_id: str) -> str:
    """What the server's director and the rooms of the tournament's undecided tables hold."""
    assert server.app is not None
    services = server.app.state.services
    director = services.tournaments
    task = director._task
    lines = [
        f"director task: {task!r}",
        f"locks held: {[t for t, (lock, _) in director._locks.items() if lock.locked()]}",
        f"ends not read yet: {director._ended}",
    ]
    if task is not None and task.done() and not task.cancelled():
        lines.append(f"its end: {task.exception()!r}")
    tournament = await director.view(tournament_id)
    for table in tournament.matches:
        if table.winner is None and table.room_code is not None:
            room = await services.rooms.get(table.room_code)
            match = None if room is None else room.match
            lines.append(
                f"table {table.round, table.slot}: room "
                f"{None if room is None else (room.status, room.conceded, room.concede_votes)}, "
                f"match {None if match is None else match.match_id}"
            )
    return "\n" + "\n".join(lines)


async def test_a_knockout_of_five_is_played_to_its_champion(
    http: httpx.AsyncClient, server: Server
) -> None:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve")
    guests = [await new_guest(http, n) for n in names]
    by_id = {g.id: g for g in guests}
    host, *others = guests
    tournament = await made(http, host, preset="bulgarian2", size=8)
    assert tournament["status"] == "registering"
    assert [e["id"] for e in tournament["entrants"]] == [host.id]  # the host is entered
    await entered(http, tournament["id"], others)
    started = await http.post(f"{T}/{tournament['id']}/start", headers=host.auth)
    assert started.status_code == 200, started.text
    state = await read(http, tournament["id"])
    assert state["status"] == "playing" and state["rounds"] == 3  # 5 units: a bracket of 8
    assert sorted(u[0]["id"] for u in state["units"]) == sorted(by_id)
    first = [t for t in state["tables"] if t["round"] == 0]
    byes = [t for t in first if t["b"] is None]
    assert len(first) == 4 and len(byes) == 3
    assert all(t["winner"] == t["a"] and not t["playing"] for t in byes)
    # The byes are spread by the seeding order: two of them meet at once in round 1, the third
    # waits for the winner of round 0's only match.
    second = [(t["a"], t["b"]) for t in state["tables"] if t["round"] == 1]
    assert second == [(1, 2)]
    assert (await play_round(http, server, state["id"], by_id)) == [(3, 4), (1, 2)]
    # The server reads each result as its match ends, in its own time: wait for both.
    state = await until(
        http,
        state["id"],
        lambda s: (
            len(s["tables"]) == 6
            and all(
                t["winner"] is not None for t in s["tables"] if (t["round"], t["slot"]) == (1, 1)
            )
        ),
        server,
    )
    assert [(t["a"], t["b"]) for t in state["tables"] if t["round"] == 1] == [(0, 3), (1, 2)]
    played = {(t["round"], t["slot"]): t for t in state["tables"]}
    assert played[0, 1]["winner"] == 3 and played[0, 1]["match_id"] is not None
    assert played[0, 1]["scores"] is not None and played[1, 1]["winner"] == 1
    assert played[0, 1]["conceded"] is True and played[0, 0]["conceded"] is False  # a bye
    await play_round(http, server, state["id"], by_id)
    state = await until(http, state["id"], lambda s: len(s["tables"]) == 7, server)
    final = state["tables"][-1]
    assert (final["round"], final["a"], final["b"]) == (2, 0, 1)
    # A table being played is its players' alone: its match is no decided table's yet.
    finalist = by_id[state["units"][0][0]["id"]]
    theirs = (await http.get(f"/api/players/{finalist.id}/matches", headers=finalist.auth)).json()
    seen = (await http.get(f"/api/players/{finalist.id}/matches")).json()
    assert [m["finished"] for m in theirs] == [False, True]  # the final, then round 1's
    semi_final = next(t for t in state["tables"] if (t["round"], t["slot"]) == (1, 0))
    assert [m["id"] for m in seen] == [theirs[1]["id"]] == [semi_final["match_id"]]
    await play_round(http, server, state["id"], by_id)
    state = await until(http, state["id"], lambda s: s["status"] == "finished", server)
    assert state["champion"] == 0 and state["tables"][-1]["winner"] == 0
    for guest in guests:  # no table is on any more
        told = (await http.get("/api/players/me/invitations", headers=guest.auth)).json()
        assert told["tournament_tables"] == []
    # Each match is a stored match of the history. Its players read it with the room's code;
    # anyone else — the bracket is public, and so is the match that decided a table — reads it
    # and its records without the code, which stays a capability of those who sat there.
    champion = by_id[state["units"][0][0]["id"]]
    path = f"/api/matches/{state['tables'][-1]['match_id']}"
    match = await http.get(path, headers=champion.auth)
    assert match.status_code == 200, match.text
    assert match.json()["winner"] == 0 and match.json()["room"] is not None
    stranger = await new_guest(http, "Fay")
    loser = by_id[state["units"][2][0]["id"]]  # lost in round 1: not at the final
    for headers in (None, stranger.auth, loser.auth):
        read_by_another = await http.get(path, headers=headers)
        assert read_by_another.status_code == 200, read_by_another.text
        assert read_by_another.json() == match.json() | {"room": None}
        assert (await http.get(f"{path}/record", headers=headers)).status_code == 200
        listed_matches = await http.get(f"/api/players/{champion.id}/matches", headers=headers)
        assert {m["id"]: m["room"] for m in listed_matches.json()}[match.json()["id"]] is None
    assert match.json()["room"] not in json.dumps(read_by_another.json())
    listed = (await http.get(T)).json()["tournaments"]
    assert [t["status"] for t in listed if t["id"] == state["id"]] == ["finished"]


async def test_a_swiss_tournament_plays_every_round_and_its_standings_decide(
    http: httpx.AsyncClient, server: Server
) -> None:
    """Nobody is knocked out: every unit plays each of the rounds the host chose against one
    it has not met, an odd field's bye going to a unit that had none; after the last round the
    top of the standings is the champion."""
    guests = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    by_id = {g.id: g for g in guests}
    host, *others = guests
    tournament = await made(http, host, preset="bulgarian2", size=8, format="swiss", rounds=3)
    assert (tournament["format"], tournament["rounds"], tournament["standings"]) == (
        "swiss",
        3,
        [],
    )
    await entered(http, tournament["id"], others)
    assert (await http.post(f"{T}/{tournament['id']}/start", headers=host.auth)).is_success
    for round_ in range(3):
        # The round's matches are stored first, their tables opened after: wait for all.
        state = await until(
            http,
            tournament["id"],
            lambda s, r=round_: (
                any(t["round"] == r for t in s["tables"])
                and all(t["playing"] or t["b"] is None for t in s["tables"] if t["round"] == r)
            ),
            server,
        )
        await play_round(http, server, state["id"], by_id)
        await until(
            http,
            tournament["id"],
            lambda s, r=round_: (
                all(t["winner"] is not None for t in s["tables"] if t["round"] == r)
                or s["status"] == "finished"
            ),
            server,
        )
    state = await until(http, tournament["id"], lambda s: s["status"] == "finished", server)
    met: set[frozenset[int]] = set()
    rested: list[int] = []
    for round_ in range(3):
        tables = [t for t in state["tables"] if t["round"] == round_]
        units = [u for t in tables for u in (t["a"], t["b"]) if u is not None]
        assert sorted(units) == [0, 1, 2, 3, 4]  # everyone plays every round
        (bye,) = [t["a"] for t in tables if t["b"] is None]
        assert bye not in rested  # a bye to one who had none
        rested.append(bye)
        for t in tables:
            if t["b"] is not None:
                assert frozenset((t["a"], t["b"])) not in met  # nobody met twice
                met.add(frozenset((t["a"], t["b"])))
                assert t["winner"] == t["a"] and t["conceded"]  # b gave each match up
    standings = state["standings"]
    assert sum(s["wins"] for s in standings) == 9 and sorted(s["unit"] for s in standings) == [
        0,
        1,
        2,
        3,
        4,
    ]
    assert [s["wins"] for s in standings] == sorted((s["wins"] for s in standings), reverse=True)
    assert state["champion"] == standings[0]["unit"] and state["rounds"] == 3
    for guest in guests:
        told = (await http.get("/api/players/me/invitations", headers=guest.auth)).json()
        assert told["tournament_tables"] == []


async def test_a_table_s_code_is_its_players_alone(http: httpx.AsyncClient, server: Server) -> None:
    """A tournament's tables are private rooms: the bracket says who plays whom, but the code
    of a table reaches only those who sit at it (docs/protocol.md §9)."""
    ann, bob, cy, dee, zed = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee", "Zed")]
    tournament = await made(http, ann, preset="bulgarian2", size=4)
    await entered(http, tournament["id"], [bob, cy, dee])
    assert (await http.post(f"{T}/{tournament['id']}/start", headers=ann.auth)).is_success
    table_of = {}
    for player in (ann, bob, cy, dee):
        you = (await read(http, tournament["id"], player))["you"]
        assert you["entered"] and you["table"] is not None
        table_of[player.id] = you["table"]
    codes = set(table_of.values())
    assert len(codes) == 2  # two tables of two
    seen = [
        (await http.get(f"{T}/{tournament['id']}")).text,
        (await http.get(f"{T}/{tournament['id']}", headers=zed.auth)).text,
        (await http.get(T)).text,
        (await http.get(T, headers=ann.auth)).text,  # the listing is everyone's: no `you`
    ]
    for text in seen:
        assert not any(code in text for code in codes)
    assert (await read(http, tournament["id"], zed))["you"] == {
        "entered": False,
        "checked_in": False,
        "removed": False,
        "partner": None,
        "asked_by": [],
        "unit": None,
        "table": None,
    }
    # Wherever they are on the site, each is told where their match is on (their alone).
    for who in (ann, bob, zed):
        told = (await http.get("/api/players/me/invitations", headers=who.auth)).json()
        expected = [] if who is zed else [table_of[who.id]]
        assert [t["room"] for t in told["tournament_tables"]] == expected
    told = (await http.get("/api/players/me/invitations", headers=ann.auth)).json()
    assert told["tournament_tables"][0]["tournament"] == {
        "id": tournament["id"],
        "name": "Friday cup",
    }
    # A table's page learns whose table it is, to link back (a room of no tournament: null).
    for code in codes:
        of = (await http.get(f"{T}/table/{code}")).json()
        assert of == {"tournament": {"id": tournament["id"], "name": "Friday cup"}}
    other = (await http.post("/api/rooms", json={}, headers=zed.auth)).json()["room"]["code"]
    assert (await http.get(f"{T}/table/{other}")).json() == {"tournament": None}
    # Nor does the lobby list them.
    lobby = (await http.get("/api/rooms")).text
    assert not any(code in lobby for code in codes)
    # Anyone may watch them, by the watch codes the bracket names, and learns no code by it.
    watches = {t["watch"] for t in (await read(http, tournament["id"]))["tables"]}
    assert watches == {watch_code(code) for code in codes}
    for watch in watches:
        of = (await http.get(f"{T}/table/{watch}")).json()
        assert of == {"tournament": {"id": tournament["id"], "name": "Friday cup"}}
        async with ws_client(server, watch, zed.token) as watcher:
            await watcher.reply(await watcher.send("ping"))
            assert watcher.frames[0]["d"]["room"]["code"] == watch
            assert watcher.frames[0]["d"]["deal"] is not None  # the match is on
            assert not any(code in json.dumps(watcher.frames) for code in codes)


async def test_partners_are_drawn_and_an_odd_one_out_plays_with_a_bot(
    http: httpx.AsyncClient, server: Server
) -> None:
    guests = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    host, *others = guests
    tournament = await made(http, host, preset="bulgarian", size=6)
    await entered(http, tournament["id"], others)
    assert (await http.post(f"{T}/{tournament['id']}/start", headers=host.auth)).is_success
    state = await read(http, tournament["id"])
    assert sorted(len(u) for u in state["units"]) == [1, 2, 2]
    (table,) = [t for t in state["tables"] if t["playing"]]
    by_id = {g.id: g for g in guests}
    player = by_id[state["units"][table["a"]][0]["id"]]
    code = (await read(http, tournament["id"], player))["you"]["table"]
    room = (await http.get(f"/api/rooms/{code}", headers=player.auth)).json()["room"]
    assert room["status"] == "playing" and room["public"] is False
    seated = {s["seat"]: s for s in room["seats"]}
    for unit, side in ((table["a"], (0, 2)), (table["b"], (1, 3))):
        ids = [e["id"] for e in state["units"][unit]]
        humans = [seated[s]["player"]["id"] for s in side if seated[s]["player"] is not None]
        assert humans == ids  # partners across the table (BG-9), a bot for the odd one out
        assert all(seated[s]["bot"] is not None for s in side[len(ids) :])


async def test_two_who_ask_for_each_other_are_drawn_as_partners(
    http: httpx.AsyncClient, server: Server
) -> None:
    """In a game of partners an entrant asks to play with another; two who ask for each other
    are one unit at the draw, whatever the luck of it; an ask not answered is known only to
    the two, and changes nothing at the draw. Refusals change nothing."""
    ann, bob, cy, dee, eve, fay = [
        await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    ]
    tournament = await made(http, ann, preset="bulgarian", size=8)
    tid, path = tournament["id"], f"{T}/{tournament['id']}/partner"
    await entered(http, tid, [bob, cy, dee, eve])

    async def ask(who: Guest, partner: str | None) -> Any:
        answer = await http.put(path, json={"partner": partner}, headers=who.auth)
        assert answer.status_code == 200, answer.text
        return answer.json()

    before = await read(http, tid)
    for who, body, refused in (
        (ann, {"partner": ann.id}, (422, "bad_request")),  # oneself
        (ann, {"partner": fay.id}, (409, "not_an_entrant")),
        (fay, {"partner": ann.id}, (409, "not_entered")),
        (ann, {"partner": 7}, (422, "bad_request")),
        (ann, {}, (422, "bad_request")),
    ):
        assert code_of(await http.put(path, json=body, headers=who.auth)) == refused
    assert code_of(
        await http.put(f"{T}/0123456789abcdef/partner", json={"partner": None}, headers=ann.auth)
    ) == (404, "unknown_tournament")
    assert await read(http, tid) == before
    mine = await ask(ann, dee.id)
    assert mine["you"]["partner"] == dee.id and mine["you"]["asked_by"] == []
    assert all(e["partner"] is None for e in mine["entrants"])  # not answered: not public
    told = (await read(http, tid, dee))["you"]
    assert (told["partner"], told["asked_by"]) == (None, [ann.id])
    # Wherever Dee is on the site, the bar tells her (and nobody else) of the ask.
    bar = (await http.get("/api/players/me/invitations", headers=dee.auth)).json()
    assert bar["tournament_partner_asks"] == [
        {
            "tournament": {"id": tid, "name": "Friday cup"},
            "preset": "bulgarian",
            "by": {"id": ann.id, "name": "Ann"},
        }
    ]
    for other in (ann, bob):
        bar = (await http.get("/api/players/me/invitations", headers=other.auth)).json()
        assert bar["tournament_partner_asks"] == []
    both = await ask(dee, ann.id)
    bar = (await http.get("/api/players/me/invitations", headers=dee.auth)).json()
    assert bar["tournament_partner_asks"] == []  # answered
    partners = {e["id"]: e["partner"] for e in both["entrants"]}
    assert partners == {ann.id: dee.id, bob.id: None, cy.id: None, dee.id: ann.id, eve.id: None}
    await ask(bob, eve.id)  # Eve does not answer, then Bob asks for Cy, who does not either
    await ask(bob, cy.id)
    assert (await read(http, tid, eve))["you"]["asked_by"] == []
    assert (await read(http, tid, cy))["you"]["asked_by"] == [bob.id]
    assert (await read(http, tid))["you"] is None
    await ask(bob, None)
    assert (await read(http, tid, cy))["you"]["asked_by"] == []
    await ask(bob, cy.id)
    await ask(cy, bob.id)  # answered at last: a second pair (a draw would make both 1 in 15)
    assert (await http.post(f"{T}/{tid}/start", headers=ann.auth)).is_success
    state = await read(http, tid)
    units = sorted(sorted(e["id"] for e in members) for members in state["units"])
    assert units == sorted([sorted([ann.id, dee.id]), sorted([bob.id, cy.id]), [eve.id]])
    assert code_of(await http.put(path, json={"partner": None}, headers=ann.auth)) == (
        409,
        "tournament_closed",
    )
    # A game where each plays alone has no partners to ask for.
    alone = await made(http, ann, preset="bulgarian2", size=4)
    await entered(http, alone["id"], [bob])
    asked = await http.put(f"{T}/{alone['id']}/partner", json={"partner": bob.id}, headers=ann.auth)
    assert code_of(asked) == (422, "bad_request")


async def test_an_ask_from_one_muted_is_not_put_in_the_bar(http: httpx.AsyncClient) -> None:
    """As a friend request from a player one muted is not shown (app.db.friends), neither is
    their ask to play together, on every page's bar; the ask stands all the same (the page
    lists it for the one asked to answer, or not), and unmuting shows it again."""
    ann, bob, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy")]
    tid = (await made(http, ann, preset="bulgarian", size=8))["id"]
    await entered(http, tid, [bob, cy])
    for asker in (ann, bob):
        answer = await http.put(f"{T}/{tid}/partner", json={"partner": cy.id}, headers=asker.auth)
        assert answer.status_code == 200, answer.text

    async def bar() -> list[str]:
        got = (await http.get("/api/players/me/invitations", headers=cy.auth)).json()
        return [ask["by"]["name"] for ask in got["tournament_partner_asks"]]

    assert await bar() == ["Ann", "Bob"]
    assert (await http.put(f"/api/players/me/mutes/{bob.id}", headers=cy.auth)).status_code == 204
    assert await bar() == ["Ann"]
    assert (await read(http, tid, cy))["you"]["asked_by"] == [ann.id, bob.id]
    assert (await http.delete(f"/api/players/me/mutes/{bob.id}", headers=cy.auth)).is_success
    assert await bar() == ["Ann", "Bob"]


async def test_every_table_plays_the_host_s_house_rules_to_their_target(
    http: httpx.AsyncClient, server: Server
) -> None:
    """The host chooses the game's house rules and the match's target when they make the
    tournament (a short match for a quick evening, their club's rules); each table's room is
    made with them, and the tournament shows them to those who think of entering."""
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    rules = {"kirtik": True, "sur_contra": "x8"}
    tournament = await made(http, ann, preset="bulgarian2", size=2, target=51, house_rules=rules)
    assert (tournament["house_rules"], tournament["target"]) == (rules, 51)
    assert tournament["starts_at"] is None  # its host starts it
    at = (datetime.now(UTC) + timedelta(hours=2)).replace(microsecond=0)
    timed = await made(http, bob, preset="bulgarian", size=8, starts_at=at.isoformat())
    assert datetime.fromisoformat(timed["starts_at"]) == at
    plain = await made(http, bob, preset="french", size=4, house_rules={"must_undertrump": True})
    assert (plain["house_rules"], plain["target"]) == ({}, 1000)  # a default is left out
    await entered(http, tournament["id"], [bob])
    assert (await http.post(f"{T}/{tournament['id']}/start", headers=ann.auth)).is_success
    code = (await read(http, tournament["id"], ann))["you"]["table"]
    room = (await http.get(f"/api/rooms/{code}", headers=ann.auth)).json()["room"]
    assert (room["rules"], room["target"]) == ({"preset": "bulgarian2", "house_rules": rules}, 51)
    listed = {t["id"]: t for t in (await http.get(T)).json()["tournaments"]}
    assert (listed[tournament["id"]]["house_rules"], listed[tournament["id"]]["target"]) == (
        rules,
        51,
    )


async def test_refusals_change_nothing(http: httpx.AsyncClient) -> None:
    ann, bob, cy, zed = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Zed")]
    for body, refusal in (
        ({"preset": "bulgarian3"}, (422, "bad_rules")),  # three sides: no one winner a table
        ({"preset": "bridge"}, (422, "bad_rules")),
        ({"preset": "bulgarian", "size": 2}, (422, "bad_request")),  # one pair: no final
        ({"preset": "bulgarian2", "size": 33}, (422, "bad_request")),
        ({"preset": "bulgarian2", "name": "  "}, (422, "bad_request")),
        ({"preset": "bulgarian2", "house_rules": {"no_such_rule": True}}, (422, "bad_rules")),
        ({"preset": "bulgarian2", "house_rules": {"deal_packets": "2-3"}}, (422, "bad_rules")),
        ({"preset": "bulgarian2", "house_rules": {"kirtik": "yes"}}, (422, "bad_rules")),
        ({"preset": "bulgarian2", "target": 0}, (422, "bad_request")),
        ({"preset": "bulgarian2", "rounds": 3}, (422, "bad_request")),  # a knockout's: its own
        ({"preset": "bulgarian2", "format": "swiss", "rounds": 10}, (422, "bad_request")),
        ({"preset": "bulgarian2", "format": "league"}, (422, "bad_request")),
        ({"preset": "bulgarian2", "starts_at": "2020-01-01T20:00:00Z"}, (422, "bad_request")),
        ({"preset": "bulgarian2", "starts_at": "2999-01-01T20:00:00Z"}, (422, "bad_request")),
        ({"preset": "bulgarian2", "starts_at": "2030-01-01T20:00:00"}, (422, "bad_request")),
        ({"preset": "bulgarian2", "starts_at": 1900000000}, (422, "bad_request")),  # a string
        ({"preset": "bulgarian2", "check_in_minutes": 10}, (422, "bad_request")),  # no start
        ({"starts_at": "2999-01-01T20:00:00Z", "check_in_minutes": 4}, (422, "bad_request")),
        ({"starts_at": "2999-01-01T20:00:00Z", "check_in_minutes": 61}, (422, "bad_request")),
    ):
        answer = await http.post(T, json={"name": "Cup", **body}, headers=ann.auth)
        assert code_of(answer) == refusal, body
    assert (await http.get(T)).json()["tournaments"] == []
    assert code_of(await http.post(T, json={"name": "Cup"})) == (401, "not_authenticated")
    tournament = await made(http, ann, preset="bulgarian2", size=2)
    tid = tournament["id"]
    assert code_of(await http.post(f"{T}/{tid}/start", headers=ann.auth)) == (
        409,
        "too_few_entrants",
    )
    await entered(http, tid, [bob])
    await entered(http, tid, [bob])  # twice: nothing more
    assert code_of(await http.post(f"{T}/{tid}/entry", headers=cy.auth)) == (
        409,
        "tournament_full",
    )
    assert code_of(await http.post(f"{T}/{tid}/start", headers=bob.auth)) == (403, "not_host")
    assert code_of(await http.post(f"{T}/{tid}/cancel", headers=bob.auth)) == (403, "not_host")
    for path in (f"{T}/0123456789abcdef", f"{T}/0123456789abcdef/entry"):
        assert code_of(
            await http.get(path) if "entry" not in path else await http.post(path, headers=cy.auth)
        ) == (404, "unknown_tournament")
    assert code_of(await http.get(f"{T}/not-hex!")) == (422, "bad_request")
    state = await read(http, tid)
    assert (state["status"], [e["id"] for e in state["entrants"]]) == (
        "registering",
        [ann.id, bob.id],
    )
    assert (await http.post(f"{T}/{tid}/start", headers=ann.auth)).is_success
    for answer in (
        await http.post(f"{T}/{tid}/entry", headers=zed.auth),
        await http.delete(f"{T}/{tid}/entry", headers=bob.auth),
        await http.post(f"{T}/{tid}/start", headers=ann.auth),
        await http.post(f"{T}/{tid}/cancel", headers=ann.auth),
    ):
        assert code_of(answer) == (409, "tournament_closed")
    state = await read(http, tid)
    assert state["status"] == "playing" and len(state["entrants"]) == 2


async def test_withdrawing_and_cancelling_before_the_start(http: httpx.AsyncClient) -> None:
    ann, bob = [await new_guest(http, n) for n in ("Ann", "Bob")]
    tid = (await made(http, ann, preset="french", size=4))["id"]
    await entered(http, tid, [bob])
    # Everyone is shown under their name as it is now.
    renamed = await http.patch("/api/players/me", json={"name": "Robert"}, headers=bob.auth)
    assert renamed.is_success, renamed.text
    assert [e["name"] for e in (await read(http, tid))["entrants"]] == ["Ann", "Robert"]
    left = await http.delete(f"{T}/{tid}/entry", headers=bob.auth)
    assert left.status_code == 200 and [e["id"] for e in left.json()["entrants"]] == [ann.id]
    cancelled = await http.post(f"{T}/{tid}/cancel", headers=ann.auth)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert code_of(await http.post(f"{T}/{tid}/entry", headers=bob.auth)) == (
        409,
        "tournament_closed",
    )


async def test_two_last_entries_at_once_fit_once(http: httpx.AsyncClient) -> None:
    """The entries are serialised on the tournament's row: two people taking its last place
    at the same moment cannot both have it."""
    ann, *rest = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    tid = (await made(http, ann, preset="bulgarian2", size=3))["id"]
    answers = await asyncio.gather(*(http.post(f"{T}/{tid}/entry", headers=g.auth) for g in rest))
    assert sorted(a.status_code for a in answers) == [200, 200, 409, 409]
    assert len((await read(http, tid))["entrants"]) == 3


async def test_the_export_has_one_s_entries_and_erasure_forgets_them(
    http: httpx.AsyncClient, server: Server
) -> None:
    """An erased player leaves the tournaments taking entries (those they host are called
    off: nobody else may start them) and stays nameless in a started one's bracket."""
    ann, bob = await new_account(http, "Ann"), await new_guest(http, "Bob")
    hers = (await made(http, ann, preset="bulgarian2", size=4))["id"]
    await entered(http, hers, [bob])
    bobs = (await made(http, bob, preset="french", size=8))["id"]
    await entered(http, bobs, [ann])
    played = (await made(http, bob, preset="bulgarian2", size=2))["id"]
    await entered(http, played, [ann])
    assert (await http.post(f"{T}/{played}/start", headers=bob.auth)).is_success
    for who, other in ((ann, bob), (bob, ann)):  # partners in Bob's game of partners
        asked = {"partner": other.id}
        assert (await http.put(f"{T}/{bobs}/partner", json=asked, headers=who.auth)).is_success
    export = (await http.get("/api/players/me/export", headers=ann.auth)).json()
    assert [
        (e["id"], e["status"], e["checked_in_at"], e["partner"]) for e in export["tournaments"]
    ] == [
        (hers, "registering", None, None),
        (bobs, "registering", None, bob.id),
        (played, "playing", None, None),
    ]
    assert [e["unit"] is None for e in export["tournaments"]] == [True, True, False]
    code = (await read(http, played, ann))["you"]["table"]
    await concede_at(server, code, ann)  # the final is Bob's: Ann then leaves the table
    assert (await http.delete(f"/api/rooms/{code}/seats/me", headers=ann.auth)).is_success
    assert (await erase(http, ann)).status_code == 204
    assert (await read(http, hers))["status"] == "cancelled"
    assert [e["id"] for e in (await read(http, bobs))["entrants"]] == [bob.id]
    assert (await read(http, bobs, bob))["you"]["partner"] is None  # no ask outlives her
    final = await until(http, played, lambda s: s["status"] == "finished", server)
    assert {e["id"]: e["name"] for e in final["entrants"]} == {bob.id: "Bob", ann.id: None}
    assert final["units"][final["champion"]] == [{"id": bob.id, "name": "Bob"}]


async def test_the_operator_renames_a_tournament_whose_name_breaks_the_rules(
    http: httpx.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m app.admin rename-tournament``: everyone reads the new name; the log says
    who did it and whose tournament it was."""
    host = await new_guest(http, "Host")
    tid = (await made(http, host, name="Rude words", preset="bulgarian2"))["id"]
    command = ["rename-tournament", tid, " Friday cup ", "--by", "alice"]
    assert await asyncio.to_thread(admin.main, command, settings) == 0
    assert capsys.readouterr().out == f"Tournament {tid} is now called Friday cup.\n"
    assert (await read(http, tid))["name"] == "Friday cup"
    assert [t["name"] for t in (await http.get(T)).json()["tournaments"]] == ["Friday cup"]
    assert await asyncio.to_thread(admin.main, ["log", "--player", host.id], settings) == 0
    logged = capsys.readouterr().out
    assert "alice" in logged and f"tournament {tid} from Rude words to Friday cup" in logged
    nobody = ["rename-tournament", "0123456789abcdef", "Cup"]
    assert await asyncio.to_thread(admin.main, nobody, settings) == 1
    assert "No tournament has the id '0123456789abcdef'." in capsys.readouterr().err


async def test_a_suspended_player_may_neither_make_nor_enter_one_nor_be_seated(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """403 `suspended` for making or entering a tournament, or asking for a partner in it,
    nothing stored; an entrant the operator suspends after entering is not seated at their
    table: a bot plays for them."""
    async with hearing_news(settings) as (_server, http):
        ann, bob, rude = [await new_guest(http, n) for n in ("Ann", "Bob", "Rude")]
        tid = (await made(http, ann, preset="bulgarian2", size=4))["id"]
        await entered(http, tid, [bob])
        for who in (rude, bob):
            command = ["suspend", who.id, "--reason", "Insults in the chat"]
            assert await asyncio.to_thread(admin.main, command, settings) == 0
        capsys.readouterr()

        async def heard() -> bool:
            me = (await http.get("/api/players/me", headers=rude.auth)).json()
            them = (await http.get("/api/players/me", headers=bob.auth)).json()
            return me["suspension"] is not None and them["suspension"] is not None

        await eventually(heard)
        refusals = [
            await http.post(T, json={"name": "Cup"}, headers=rude.auth),
            await http.post(f"{T}/{tid}/entry", headers=rude.auth),
            await http.put(f"{T}/{tid}/partner", json={"partner": None}, headers=bob.auth),
        ]
        assert [code_of(r) for r in refusals] == [(403, "suspended")] * 3
        assert [t["id"] for t in (await http.get(T)).json()["tournaments"]] == [tid]
        assert [e["id"] for e in (await read(http, tid))["entrants"]] == [ann.id, bob.id]
        assert (await http.post(f"{T}/{tid}/start", headers=ann.auth)).is_success
        code = (await read(http, tid, ann))["you"]["table"]
        room = (await http.get(f"/api/rooms/{code}", headers=ann.auth)).json()["room"]
        assert [s["player"] and s["player"]["id"] for s in room["seats"]] in (
            [ann.id, None],
            [None, ann.id],
        )
        assert all(s["player"] is not None or s["bot"] for s in room["seats"])


async def test_a_check_in_before_the_start_and_the_reminder(
    http: httpx.AsyncClient, server: Server
) -> None:
    """A tournament whose check-in is open: its host (entered as they make it) has not checked
    in until the check-in opened, so the reminder asks them to; an entrant who enters now is
    checked in; `POST …/check-in` checks in, and refuses who has not entered (409
    `not_entered`), a tournament whose check-in is not open yet (`check_in_not_open`) and one
    that asks for none (`no_check_in`); the start then draws only those who checked in."""
    ann, bob, cy, dan = [await new_guest(http, n) for n in ("Ann", "Bob", "Cy", "Dan")]
    later = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    tid = (await made(http, ann, preset="bulgarian2", starts_at=later, check_in_minutes=30))["id"]
    await entered(http, tid, [bob, cy])
    before = await read(http, tid, bob)
    assert before["check_in_minutes"] == 30 and before["you"]["checked_in"] is False
    opens = datetime.fromisoformat(before["check_in_opens_at"])
    assert opens == datetime.fromisoformat(before["starts_at"]) - timedelta(minutes=30)
    refused = await http.post(f"{T}/{tid}/check-in", headers=bob.auth)
    assert code_of(refused) == (409, "check_in_not_open")
    reminders = (await http.get("/api/players/me/invitations", headers=bob.auth)).json()
    assert reminders["tournament_check_ins"] == []

    engine = make_engine(server.settings.database_url)  # the clock moved on: 20 minutes to go
    async with make_sessionmaker(engine).begin() as session:
        soon = datetime.now(UTC) + timedelta(minutes=20)
        await session.execute(update(m.Tournament).values(starts_at=soon))
    await engine.dispose()
    for guest in (ann, bob):
        reminders = (await http.get("/api/players/me/invitations", headers=guest.auth)).json()
        [reminder] = reminders["tournament_check_ins"]
        assert reminder["tournament"] == {"id": tid, "name": "Friday cup"}
        assert reminder["preset"] == "bulgarian2"
        assert datetime.fromisoformat(reminder["starts_at"]) == soon
    checked = (await http.post(f"{T}/{tid}/check-in", headers=bob.auth)).json()
    assert checked["you"]["checked_in"] is True
    [mine] = (await http.get("/api/players/me/export", headers=bob.auth)).json()["tournaments"]
    assert datetime.fromisoformat(mine["checked_in_at"]) > datetime.fromisoformat(
        mine["entered_at"]
    )
    assert (await http.get("/api/players/me/invitations", headers=bob.auth)).json()[
        "tournament_check_ins"
    ] == []
    assert code_of(await http.post(f"{T}/{tid}/check-in", headers=dan.auth)) == (
        409,
        "not_entered",
    )
    assert code_of(await http.post(f"{T}/{tid}/start", headers=ann.auth)) == (
        409,
        "too_few_checked_in",  # Bob alone
    )
    await entered(http, tid, [dan])  # entering during the check-in: here, so checked in
    state = await read(http, tid)
    assert [(e["name"], e["checked_in"]) for e in state["entrants"]] == [
        ("Ann", False),
        ("Bob", True),
        ("Cy", False),
        ("Dan", True),
    ]
    assert (await http.post(f"{T}/{tid}/check-in", headers=ann.auth)).is_success
    started = (await http.post(f"{T}/{tid}/start", headers=ann.auth)).json()
    assert started["status"] == "playing"
    assert sorted(e["name"] for e in started["entrants"]) == ["Ann", "Bob", "Dan"]
    assert (await read(http, tid, cy))["you"] == {
        "entered": False,
        "checked_in": False,
        "removed": False,
        "partner": None,
        "asked_by": [],
        "unit": None,
        "table": None,
    }
    plain = (await made(http, ann, preset="bulgarian2"))["id"]
    assert code_of(await http.post(f"{T}/{plain}/check-in", headers=ann.auth)) == (
        409,
        "no_check_in",
    )


async def test_the_host_removes_an_entrant_who_may_not_enter_again(
    http: httpx.AsyncClient,
) -> None:
    """`DELETE …/entries/{id}`: the host takes Zed out before the start; Zed reads that they
    were removed and is refused entering again (403 `removed_from_tournament`); removing twice
    changes nothing; only the host may (403 `not_host`), not themselves (422 `bad_request`),
    not one who has not entered (409 `not_an_entrant`), nor once it started
    (`tournament_closed`). The removal is in Zed's export, and the start does not draw them."""
    ann, bob, zed, cy = [await new_guest(http, n) for n in ("Ann", "Bob", "Zed", "Cy")]
    tid = (await made(http, ann, preset="bulgarian2", size=8))["id"]
    await entered(http, tid, [bob, zed])
    entries = f"{T}/{tid}/entries"
    assert code_of(await http.delete(f"{entries}/{zed.id}", headers=bob.auth)) == (403, "not_host")
    assert code_of(await http.delete(f"{entries}/{ann.id}", headers=ann.auth)) == (
        422,
        "bad_request",
    )
    assert code_of(await http.delete(f"{entries}/{cy.id}", headers=ann.auth)) == (
        409,
        "not_an_entrant",
    )
    unchanged = await read(http, tid)
    assert [e["name"] for e in unchanged["entrants"]] == ["Ann", "Bob", "Zed"]
    after = await http.delete(f"{entries}/{zed.id}", headers=ann.auth)
    assert [e["name"] for e in after.json()["entrants"]] == ["Ann", "Bob"]
    again = await http.delete(f"{entries}/{zed.id}", headers=ann.auth)
    assert again.status_code == 200 and again.json()["entrants"] == after.json()["entrants"]
    you = (await read(http, tid, zed))["you"]
    assert (you["entered"], you["removed"]) == (False, True)
    assert (await read(http, tid, bob))["you"]["removed"] is False
    assert code_of(await http.post(f"{T}/{tid}/entry", headers=zed.auth)) == (
        403,
        "removed_from_tournament",
    )
    [removal] = (await http.get("/api/players/me/export", headers=zed.auth)).json()[
        "tournament_removals"
    ]
    assert (removal["id"], removal["name"]) == (tid, "Friday cup")
    assert (await http.post(f"{T}/{tid}/start", headers=ann.auth)).is_success
    started = await read(http, tid)
    assert sorted(e["name"] for units in started["units"] for e in units) == ["Ann", "Bob"]
    assert code_of(await http.delete(f"{entries}/{bob.id}", headers=ann.auth)) == (
        409,
        "tournament_closed",
    )


async def test_a_rated_tournament_is_for_accounts_and_its_tables_move_ratings(
    http: httpx.AsyncClient, server: Server
) -> None:
    """A guest may neither make nor enter a rated tournament (403 `account_required`, nothing
    stored); accounts play it at rated tables, and the conceded final moves both ratings in
    Belot for two. In a game of partners an odd one out plays with a bot: that table is
    casual, as quick play's."""
    ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
    guest = await new_guest(http, "Gus")
    refused = await http.post(T, json={"name": "Cup", "rated": True}, headers=guest.auth)
    assert code_of(refused) == (403, "account_required")
    assert (await http.get(T)).json()["tournaments"] == []
    tid = (await made(http, ann, preset="bulgarian2", size=4, rated=True))["id"]
    assert (await read(http, tid))["rated"] is True
    refused = await http.post(f"{T}/{tid}/entry", headers=guest.auth)
    assert code_of(refused) == (403, "account_required")
    await entered(http, tid, [bob])
    assert (await http.post(f"{T}/{tid}/start", headers=ann.auth)).is_success
    code = (await read(http, tid, ann))["you"]["table"]
    room = (await http.get(f"/api/rooms/{code}", headers=ann.auth)).json()["room"]
    assert room["rated"] is True
    await concede_at(server, code, bob)
    state = await until(http, tid, lambda s: s["status"] == "finished", server)
    assert [e["id"] for e in state["units"][state["champion"]]] == [ann.id]

    async def rated_both() -> bool:
        profiles = [(await http.get(f"/api/players/{who.id}/profile")).json() for who in (ann, bob)]
        return all([r["preset"] for r in p["ratings"]] == ["bulgarian2"] for p in profiles)

    await eventually(rated_both)

    pairs = (await made(http, ann, preset="bulgarian", size=4, rated=True))["id"]
    cy = await new_account(http, "Cy")
    await entered(http, pairs, [bob, cy])  # three: a pair, and one with a bot
    assert (await http.post(f"{T}/{pairs}/start", headers=ann.auth)).is_success
    tables = {(await read(http, pairs, who))["you"]["table"] for who in (ann, bob, cy)}
    [table] = tables
    room = (await http.get(f"/api/rooms/{table}", headers=ann.auth)).json()["room"]
    assert room["rated"] is False
