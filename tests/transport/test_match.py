"""Whole matches of every preset through real WebSockets against a real uvicorn: a person in
every seat (four, three or two), and a spectator.

Every frame every client received is scanned for cards it had no right to see; the stored match
is exported and replayed with ``python -m app.rules.replay`` to the scoresheet players saw.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.rooms.shuffle import verify_record
from app.rules import (
    PRESETS,
    Card,
    Phase,
    Ruleset,
    apply,
    deal_record,
    full_deck,
    legal_actions,
    new_deal,
    view,
)
from tests.conftest import Server, new_guest, ws_client
from tests.transport.play import contribute, early_seeds, leaks, play_seat

# Every preset, and the house rules that change what a view holds: the Croatian pair (CRO-3),
# sur-contra in the bidding (SUR-1), a face-down table card turned at once (OB-11).
RULES = [
    *({"preset": p} for p in PRESETS),
    {"preset": "bulgarian", "house_rules": {"croatian_deal": True, "sur_contra": "x8"}},
    {"preset": "open_belot", "house_rules": {"open_reveal": "at_once"}},
]


@pytest.mark.parametrize(
    "rules", RULES, ids=lambda r: "+".join([r["preset"], *r.get("house_rules", {})])
)
async def test_a_whole_match_leaks_no_card_and_replays_to_the_same_scoresheet(
    server: Server, http: httpx.AsyncClient, tmp_path: Path, rules: dict[str, Any]
) -> None:
    preset = rules["preset"]
    seats = Ruleset.of(preset).seats
    guests = [await new_guest(http, f"Player {i}") for i in range(seats)]
    created = await http.post(
        "/api/rooms",
        json={"rules": rules, "public": True, "turn_seconds": 0},
        headers=guests[0].auth,
    )
    assert created.status_code == 201, created.text
    code = created.json()["room"]["code"]
    for seat, guest in enumerate(guests[1:], start=1):
        taken = await http.put(f"/api/rooms/{code}/seats/{seat}", headers=guest.auth)
        assert taken.status_code == 200, taken.text

    async with AsyncExitStack() as stack:
        players = [
            await stack.enter_async_context(ws_client(server, code, g.token)) for g in guests
        ]
        spectator = await stack.enter_async_context(ws_client(server, code))
        rngs = [random.Random(seat) for seat in range(seats)]
        for client, rng in zip(players, rngs, strict=True):  # entropy for the first deal
            sent = await contribute(client, client.frames[0], rng)
            assert (await client.reply(sent))["t"] == "ack"
        started = await http.post(f"/api/rooms/{code}/start", headers=guests[0].auth)
        assert started.status_code == 200, started.text
        await asyncio.gather(*(play_seat(c, r) for c, r in zip(players, rngs, strict=True)))
        await spectator.until("room")  # drain at least to the end of the match
        while not any(
            f["t"] == "room" and f["d"]["status"] == "finished" for f in spectator.frames
        ):
            await spectator.recv()

    seen = [f for f in players[0].frames if f["t"] == "deal_end"][-1]["d"]["scoresheet"]
    match_id = (await http.get(f"/api/rooms/{code}")).json()["room"]["match_id"]
    record = (await http.get(f"/api/matches/{match_id}/record")).json()
    deals = record["deals"]
    assert len(deals) == len(seen["lines"])
    for seat, client in enumerate(players):
        assert leaks(client.frames, seat, deals) == []
    assert leaks(spectator.frames, None, deals) == []
    # The shuffle (C-8): each deal's seed leaves only at its end, the commitment went out
    # before it was dealt, every seated player's entropy went in, and the record verifies.
    for client in [*players, spectator]:
        assert early_seeds(client.frames, deals) == []
    announced = [f["d"]["shuffle"]["next_commitment"] for f in players[0].frames[:1]]
    announced += [
        f["d"]["shuffle"]["next_commitment"] for f in players[0].frames if f["t"] == "deal"
    ]
    assert [d["commitment"] for d in deals] == announced[: len(deals)]
    assert all([c["seat"] for c in d["contributions"]] == list(range(seats)) for d in deals)
    assert verify_record(record) == [
        {"number": n, "verdict": "verified"} for n in range(1, len(deals) + 1)
    ]
    assert not any(f["d"]["deal"]["hand"] for f in spectator.frames if f.get("d", {}).get("deal"))

    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    replayed = subprocess.run(
        [sys.executable, "-m", "app.rules.replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    line = json.loads(replayed.stdout)
    assert line["scoresheet"]["scores"] == seen["scores"]
    assert [x["mp"] for x in line["scoresheet"]["lines"]] == [x["mp"] for x in seen["lines"]]
    assert line["scoresheet"]["winner"] == seen["winner"]

    last = seats - 1
    history = (await http.get(f"/api/players/{guests[last].id}/matches")).json()
    assert [m["id"] for m in history] == [match_id]
    assert history[0]["your_seat"] == last and history[0]["finished"]
    sides = Ruleset.of(preset).sides
    assert history[0]["sides"] == [list(side) for side in sides]
    assert history[0]["your_side"] == Ruleset.of(preset).team_of(last)
    one = (await http.get(f"/api/matches/{match_id}/deals/1/record")).json()
    assert one["format"] == "belote-deal/1" and one["seed"] and 3 <= one["cut"] <= 29


def test_the_leak_scan_finds_a_card_it_should_not_see() -> None:
    """The scan above must be able to fail: plant another seat's card in a hand."""
    state = new_deal(Ruleset.bulgarian(), 3, full_deck(Ruleset.bulgarian()))
    record = deal_record(state)
    honest = view(state, 0).to_dict()
    frames = [{"t": "deal", "v": 1, "d": {"number": 1, "deal": honest}}]
    assert leaks(frames, 0, [record]) == []
    planted = {**honest, "hand": [*honest["hand"], str(state.hand(1)[0])]}
    frames.append({"t": "action", "v": 2, "d": {"seat": 0, "deal": planted}})
    assert len(leaks(frames, 0, [record])) == 1
    assert len(leaks(frames[:1], None, [record])) == len(honest["hand"])


def test_the_seed_scan_finds_a_seed_shown_before_the_deal_ends() -> None:
    deals = [{"seed": "ab" * 32}, {"seed": "cd" * 32}]
    honest = [
        {"t": "deal", "v": 1, "d": {"number": 1}},
        {"t": "deal_end", "v": 2, "d": {"number": 1, "shuffle": {"seed": "ab" * 32}}},
    ]
    assert early_seeds(honest, deals) == []
    early = [{"t": "action", "v": 1, "d": {"deal": {"note": "cd" * 32}}}, *honest]
    assert early_seeds(early, deals) == ["v1 action: the seed of deal 2"]
    two_early = [{**honest[1], "d": {"number": 1, "shuffle": {"seed": "cd" * 32}}}]
    assert early_seeds(two_early, deals) == ["v2 deal_end: the seed of deal 2"]


def test_the_leak_scan_finds_a_face_down_or_out_of_play_card() -> None:
    """The scan knows Open Belot's face-down table cards (OB-7) and bulgarian2's six cards out
    of play (BG2-4): shown to anyone, even as a face-up card, they are found."""
    ruleset = Ruleset.of("open_belot")
    state = new_deal(ruleset, 1, full_deck(ruleset))
    assert state.layout is not None
    record = deal_record(state)
    up, down = state.layout.stacks[0][0]
    for seat in (0, 1, None):  # its owner may not see it either
        honest = view(state, seat).to_dict()
        frames = [{"t": "deal", "v": 1, "d": {"number": 1, "deal": honest}}]
        assert leaks(frames, seat, [record]) == []
        stacks = [list(own) for own in honest["stacks"]]
        stacks[0][0] = {"up": str(Card(down)), "down": False}  # face-down card shown as up
        planted = {**honest, "stacks": stacks}
        frames.append({"t": "action", "v": 2, "d": {"seat": 0, "deal": planted}})
        assert leaks(frames, seat, [record]) == [f"v2 action deal 1: {Card(down)}"]
    assert str(Card(up)) in {u["up"] for u in view(state, 1).to_dict()["stacks"][0]}

    ruleset = Ruleset.of("bulgarian2")
    state = new_deal(ruleset, 1, full_deck(ruleset))
    while state.phase is not Phase.FINISHED:  # played out, so that its record shows who had what
        state = apply(state, legal_actions(state)[-1])
    record = deal_record(state)
    played = {str(c) for t in state.tricks for c in t.cards}
    out_of_play = sorted(str(c) for c in full_deck(ruleset) if str(c) not in played)
    assert len(out_of_play) == 6 or not state.tricks  # BG2-4 (or nobody bid: a void deal)
    first = new_deal(ruleset, 1, full_deck(ruleset))
    honest = view(first, 0).to_dict()
    frames = [{"t": "deal", "v": 1, "d": {"number": 1, "deal": honest}}]
    assert leaks(frames, 0, [record]) == []
    planted = {**honest, "hand": [*honest["hand"], out_of_play[0]]}
    frames.append({"t": "action", "v": 2, "d": {"seat": 0, "deal": planted}})
    assert leaks(frames, 0, [record]) == [f"v2 action deal 1: {out_of_play[0]}"]
