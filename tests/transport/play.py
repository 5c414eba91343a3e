"""Driving whole matches through real WebSockets, and scanning what each client received."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from app.rules import CARDS, Card, DealState, Ruleset, new_deal
from tests.conftest import WsClient

CARD = re.compile(r"^[789TJQKA][CDHS]$")


async def contribute(client: WsClient, frame: dict[str, Any], rng: random.Random) -> str:
    """Send entropy for the next deal, as the browser does when a commitment is published."""
    entropy = rng.randbytes(32).hex()
    commitment = frame["d"]["shuffle"]["next_commitment"]
    return await client.send("entropy", {"commitment": commitment, "entropy": entropy})


async def play_seat(client: WsClient, rng: random.Random) -> None:
    """Answer every turn of this client's seat with a random legal action, until the match ends,
    and send entropy for the next deal as each deal begins (it arrives before this seat's
    first action of the deal, so before the next deal can be drawn).

    Acts only on the newest game frame (its ``v``), as a real client does, and leaves its last
    card to the server when the frame says it plays itself (TURN's ``forced``); a refusal
    fails."""
    pending: str | None = None
    latest: dict[str, Any] | None = None  # the newest frame holding the deal
    while True:
        frame = await client.recv(timeout=30)
        if frame["t"] == "room" and frame["d"]["status"] == "finished":
            return
        if frame["t"] == "error":
            raise AssertionError(f"refused: {frame}")
        if frame["t"] == "ack" and frame["d"]["id"] == pending:
            pending = None
        if frame["t"] == "deal":
            await contribute(client, frame, rng)
        if frame["t"] in ("deal", "action", "snapshot") and frame["d"].get("deal"):
            latest = frame
        if pending is None and latest is not None and latest["d"]["deal"]["legal"]:
            if (latest["d"]["turn"] or {}).get("forced"):
                latest = None
                continue
            pending = await client.send(
                "act", rng.choice(latest["d"]["deal"]["legal"]), v=latest["v"]
            )
            latest = None


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def public_cards(view: dict[str, Any], table: Table) -> set[str]:
    """Cards a view shows that everyone may see at that moment: played, turned up (French),
    shown declarations, and Open Belot's table cards the record says are face up (OB-7: the
    dealt face-up cards; a face-down one only once the card over it was played, OB-11). The
    table cards are judged from the record, not from the view, so a face-down card shown as
    face up is a leak."""
    played = {t["card"] for t in view["trick"]}
    played |= {c for t in view["tricks"] for c in t["cards"]}
    cards = set(played)
    if view.get("turned"):
        cards.add(view["turned"])
    for declaration in view["declarations"]:
        cards |= set(declaration["cards"] or ())
    for own in table:
        for up, down in own:
            cards.add(up)
            if up in played and down is not None:
                cards.add(down)
    return cards


Table = list[list[tuple[str, str | None]]]
"""Open Belot: each seat's stacks as dealt, (face-up card, face-down card)."""


def dealt(deal_record: dict[str, Any]) -> DealState:
    return new_deal(
        Ruleset.from_dict(deal_record["rules"]),
        deal_record["dealer"],
        [Card.parse(c) for c in deal_record["deck"]],
        deal_record["hanging_in"],
    )


def table_of(deal_record: dict[str, Any]) -> Table:
    """The table stacks of an Open Belot deal as dealt ([] in the other presets)."""
    layout = dealt(deal_record).layout
    if layout is None:
        return []
    return [
        [(str(CARDS[up]), None if down < 0 else str(CARDS[down])) for up, down in own]
        for own in layout.stacks
    ]


def hands_of(deal_record: dict[str, Any]) -> list[set[str]]:
    """The cards each seat may know as its own: its hand as dealt before the bidding, and the
    cards it played (the rest of its hand; a face-down table card it played had been turned
    for all to see first, so it is public anyway). Never another seat's card, a face-down
    table card before it turns, nor a card out of play (BG2-4)."""
    state = dealt(deal_record)
    seats = [{str(c) for c in state.hand(s)} for s in range(state.ruleset.seats)]
    for action in deal_record["actions"]:
        if "play" in action:
            seats[action["seat"]].add(action["play"])
    hidden = {down for own in table_of(deal_record) for _, down in own if down is not None}
    return [cards - hidden for cards in seats]


def leaks(frames: list[dict[str, Any]], seat: int | None, deals: list[dict[str, Any]]) -> list[str]:
    """Cards a client saw that were neither its own nor public at that moment."""
    found = []
    number = 0
    for frame in frames:
        data = frame.get("d", {})
        if frame["t"] in ("deal", "snapshot", "deal_end") and data.get("number"):
            number = data["number"]
        if number == 0:
            continue
        record = deals[number - 1]
        own = set() if seat is None else hands_of(record)[seat]
        table = table_of(record)
        public: set[str] = set()
        if data.get("deal"):
            public |= public_cards(data["deal"], table)
        if frame["t"] == "deal_end":
            public |= {c for t in data["result"].get("tricks", []) for c in t["cards"]}
        if data.get("deal") and data["deal"].get("result"):
            public |= {c for t in data["deal"]["result"].get("tricks", []) for c in t["cards"]}
        for text in strings(frame):
            if CARD.match(text) and text not in own and text not in public:
                found.append(f"v{frame.get('v')} {frame['t']} deal {number}: {text}")
    return found


def early_seeds(frames: list[dict[str, Any]], deals: list[dict[str, Any]]) -> list[str]:
    """Deal seeds a client saw before that deal had ended (anywhere in a frame)."""
    found = []
    ended: set[int] = set()
    for frame in frames:
        if frame["t"] == "deal_end":  # its own seed may be in it, and only from here on
            ended.add(frame["d"]["number"])
        text = json.dumps(frame)
        for number, deal in enumerate(deals, start=1):
            if number not in ended and deal["seed"] in text:
                found.append(f"v{frame.get('v')} {frame['t']}: the seed of deal {number}")
    return found
