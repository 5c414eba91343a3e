"""A shuffle players can check (C-8): the server commits to each deal's seed before players send
entropy for it, the deck is a function of (seed, contributions), the seed comes out at the end,
and the verifier accepts honest records and rejects tampered ones."""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import DealStarted, ShuffleCommitted
from app.rooms.room import FINISHED, RoomTimings
from app.rooms.shuffle import (
    MISMATCH,
    UNCOMMITTED,
    VERIFIED,
    Contribution,
    commitment,
    draw_deck,
    new_seed,
    verify_record,
)
from app.rules import (
    Bid,
    Call,
    Ruleset,
    apply,
    deal_record,
    match_record,
    new_match,
    record_deal,
)
from tests.rooms.fakes import Inbox, MemoryStore

HOST, GUEST = "host", "guest"


async def bots_room(
    manager: RoomManager, *, host_seat: int | None, target: int = 25, **rules: Any
) -> Any:
    """Three bots (four when the host only watches), by default with a short match."""
    return await manager.create(
        HOST,
        "Host",
        {"preset": "bulgarian", "house_rules": rules},
        target=target,
        public=True,
        turn_seconds=0,
        bots=(1, 2, 3),
        host_seat=host_seat,
    )


def next_commitment(frame: dict[str, Any]) -> str:
    value = frame["d"]["shuffle"]["next_commitment"]
    assert isinstance(value, str)
    return value


def match_record_of(room: Any, store: MemoryStore) -> dict[str, Any]:
    """The room's match as the server exports it: record plus the stored shuffle fields."""
    state = new_match(room.ruleset, room.match.state.first_dealer, room.match.state.target)
    for deal in room.match.finished_deals:
        state = record_deal(state, deal)
    record = match_record(state, room.match.finished_deals)
    started = store.ops(DealStarted)[: len(record["deals"])]  # the next one may have begun
    for deal, op in zip(record["deals"], started, strict=True):
        deal.update(
            number=op.number,
            seed=op.seed,
            cut=op.cut,
            commitment=op.commitment,
            contributions=list(op.contributions),
        )
    return record


async def test_the_commitment_comes_before_the_deal_and_the_seed_only_at_its_end(
    manager: RoomManager, store: MemoryStore
) -> None:
    """Every deal's commitment is published before it is dealt (a snapshot while waiting, then
    each deal's event for the next deal), its seed only in its own deal_end, and
    SHA-256(seed) is the commitment (C-8)."""
    room = await bots_room(manager, host_seat=None)  # four bots, the host watches
    inbox = Inbox(None)
    await room.connect(inbox, None)
    announced = [next_commitment(inbox.frames[0])]  # the snapshot, before the match starts
    await room.begin(HOST, fill_with_bots=True)
    await inbox.wait(lambda f: f["t"] == "room" and f["d"]["status"] == FINISHED, timeout=60)

    deals = [f for f in inbox.frames if f["t"] == "deal"]
    ends = [f for f in inbox.frames if f["t"] == "deal_end"]
    assert len(deals) == len(ends) >= 1
    for deal, end in zip(deals, ends, strict=True):
        assert deal["d"]["shuffle"]["commitment"] == announced[-1]
        announced.append(next_commitment(deal))
        revealed = end["d"]["shuffle"]
        assert revealed["commitment"] == deal["d"]["shuffle"]["commitment"]
        assert hashlib.sha256(bytes.fromhex(revealed["seed"])).hexdigest() == revealed["commitment"]
        # Nothing before this deal's end holds its seed, anywhere in any frame.
        before = inbox.frames[: inbox.frames.index(end)]
        assert all(revealed["seed"] not in json.dumps(f) for f in before)
    assert len(set(announced)) == len(announced)  # a new seed for every deal
    stored = [op.seed for op in store.ops(ShuffleCommitted)]
    assert [commitment(s) for s in stored] == announced  # each one stored before it was shown
    assert verify_record(match_record_of(room, store)) == [
        {"number": n, "verdict": VERIFIED} for n in range(1, len(deals) + 1)
    ]


async def test_a_player_s_entropy_goes_into_the_deck(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await bots_room(manager, host_seat=0)
    inbox = Inbox(HOST)
    await room.connect(inbox, None)
    committed = next_commitment(inbox.frames[0])
    entropy = secrets.token_hex(32)
    await room.contribute(HOST, committed, entropy)
    await room.begin(HOST, fill_with_bots=False)

    (started,) = store.ops(DealStarted)
    assert started.commitment == committed
    assert started.contributions == ({"seat": 0, "entropy": entropy},)  # the bots send nothing
    rules = Ruleset.bulgarian()
    mixed = draw_deck(rules, None, started.seed, [Contribution(0, entropy)])
    alone = draw_deck(rules, None, started.seed)
    assert [str(c) for c in mixed.deck] == list(started.deck) and mixed.cut == started.cut
    assert alone.deck != mixed.deck
    deal = await inbox.wait(lambda f: f["t"] == "deal")
    assert deal["d"]["shuffle"]["contributions"] == [{"seat": 0, "entropy": entropy}]


async def test_entropy_is_refused_for_an_old_commitment_or_without_a_seat(
    manager: RoomManager, store: MemoryStore
) -> None:
    room = await bots_room(manager, host_seat=0)
    inbox = Inbox(HOST)
    await room.connect(inbox, None)
    committed = next_commitment(inbox.frames[0])
    version = room.version
    with pytest.raises(RoomError) as refused:
        await room.contribute(HOST, commitment(new_seed()), secrets.token_hex(32))
    assert refused.value.code == "stale"
    with pytest.raises(RoomError) as refused:
        await room.contribute(GUEST, committed, secrets.token_hex(32))
    assert refused.value.code == "not_seated"
    await room.begin(HOST, fill_with_bots=False)
    (started,) = store.ops(DealStarted)
    assert started.contributions == () and room.version == version + 2  # room + deal events
    with pytest.raises(RoomError) as refused:  # that commitment was dealt
        await room.contribute(HOST, committed, secrets.token_hex(32))
    assert refused.value.code == "stale"


async def bots_match(deals: int | None = None, **rules: Any) -> dict[str, Any]:
    """The record of a whole match of four bots, with the shuffle fields the server exports;
    with ``deals``, of its first ``deals`` deals (in a long match, so that there are as many:
    one deal under re-contra can end a short one)."""
    store = MemoryStore()
    manager = RoomManager(store, RoomTimings(bot_delay_seconds=0))
    try:
        room = await bots_room(
            manager, host_seat=None, target=25 if deals is None else 100_000, **rules
        )
        inbox = Inbox(None)
        await room.connect(inbox, None)
        await room.begin(HOST, fill_with_bots=True)

        def done(frame: dict[str, Any]) -> bool:
            if deals is not None:
                return len(room.match.finished_deals) >= deals
            return frame["t"] == "room" and frame["d"]["status"] == FINISHED

        await inbox.wait(done, timeout=60)
        return match_record_of(room, store)
    finally:
        await manager.close()


def void_then_gathered() -> dict[str, Any]:
    """Two deals under gather_not_shuffle: everybody passes the first (a void deal), so the
    second is its hands gathered from dealer+1, then the undealt cards, and cut (BG-2)."""
    rules = Ruleset.from_dict({"preset": "bulgarian", "house_rules": {"gather_not_shuffle": True}})
    match = new_match(rules, 2, 151)
    first = draw_deck(rules, None, new_seed(), [Contribution(0, secrets.token_hex(32))])
    void = match.start_deal(list(first.deck))
    for seat in (3, 0, 1, 2):
        void = apply(void, Bid(seat, Call.PASS))
    assert void.result is not None and void.result.void
    match = record_deal(match, void)
    second = draw_deck(rules, void, new_seed(), [Contribution(1, secrets.token_hex(32))])
    dealt = match.start_deal(list(second.deck))
    deals = [
        {**deal_record(void), "number": 1, **first.revealed()},
        {**deal_record(dealt), "number": 2, **second.revealed()},
    ]
    return {"format": "belote-match/1", "rules": rules.to_dict(), "deals": deals}


async def test_a_gathered_deal_is_verified_from_its_match_record() -> None:
    """BG-2 house rule gather_not_shuffle: after the first deal the deck is the last deal's
    cards gathered, and only the cut comes from the seed and the contributions."""
    for record in (await bots_match(2, gather_not_shuffle=True), void_then_gathered()):
        assert len(record["deals"]) >= 2
        assert {v["verdict"] for v in verify_record(record)} == {VERIFIED}
        second = dict(record["deals"][1], format="belote-deal/1", rules=record["rules"])
        with pytest.raises(ValueError, match="match record"):
            verify_record(second)  # alone, a gathered deal's order cannot be checked
        gathered_as_shuffled = copy.deepcopy(record)
        gathered_as_shuffled["rules"]["house_rules"] = {}
        for deal in gathered_as_shuffled["deals"]:
            deal["rules"] = gathered_as_shuffled["rules"]
        assert verify_record(gathered_as_shuffled)[1]["verdict"] == MISMATCH


def honest_deal(contributions: list[Contribution]) -> dict[str, Any]:
    rules = Ruleset.bulgarian()
    seed = new_seed()
    drawn = draw_deck(rules, None, seed, contributions)
    state = new_match(rules, 0, 151).start_deal(list(drawn.deck))
    return {**deal_record(state), "number": 1, **drawn.revealed()}


TAMPERINGS = {
    "another seed": lambda r: r.update(seed=new_seed()),
    "another commitment": lambda r: r.update(commitment=commitment(new_seed())),
    "a dropped contribution": lambda r: r["contributions"].pop(),
    "a changed contribution": lambda r: r["contributions"][0].update(entropy="00" * 32),
    "two cards swapped": lambda r: r["deck"].insert(0, r["deck"].pop(1)),
    "another cut": lambda r: r.update(cut=r["cut"] % 20 + 3),
    "a seed that is not hex": lambda r: r.update(seed="zz" * 32),
    "contributions out of seat order": lambda r: r["contributions"].reverse(),
}


@pytest.mark.parametrize("tampering", TAMPERINGS, ids=list(TAMPERINGS))
def test_the_verifier_accepts_an_honest_record_and_rejects_a_tampered_one(tampering: str) -> None:
    record = honest_deal([Contribution(0, secrets.token_hex(32)), Contribution(2, "ab" * 32)])
    assert verify_record(record) == [{"number": 1, "verdict": VERIFIED}]
    tampered = copy.deepcopy(record)
    TAMPERINGS[tampering](tampered)
    assert verify_record(tampered) == [{"number": 1, "verdict": MISMATCH}]


def test_a_deal_from_before_commitments_is_uncommitted_not_verified() -> None:
    record = honest_deal([])
    record["commitment"] = None
    assert verify_record(record) == [{"number": 1, "verdict": UNCOMMITTED}]


def test_the_command_line_verifier(tmp_path: Path) -> None:
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(honest_deal([Contribution(1, secrets.token_hex(32))])))
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**json.loads(honest.read_text()), "seed": new_seed()}))

    def run(path: Path) -> tuple[int, dict[str, Any]]:
        done = subprocess.run(
            [sys.executable, "-m", "app.rooms.shuffle", "verify", str(path)],
            capture_output=True,
            text=True,
        )
        return done.returncode, json.loads(done.stdout)

    assert run(honest) == (0, {"file": str(honest), "deals": [{"number": 1, "verdict": VERIFIED}]})
    assert run(tampered)[0] == 1
    assert run(tampered)[1]["deals"] == [{"number": 1, "verdict": MISMATCH}]
