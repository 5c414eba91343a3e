"""Event frames: built from shared and own parts, they are exactly the encoded engine view."""

from __future__ import annotations

import random

import orjson
import pytest

from app.rooms.events import Event, deal_view, encode
from app.rules import PRESETS, Phase, Ruleset, apply, legal_actions, new_deal
from app.rules.deck import full_deck


@pytest.mark.parametrize("preset", PRESETS)
def test_a_frame_is_the_encoded_view_of_its_recipient(preset: str) -> None:
    rng = random.Random(7)
    ruleset = Ruleset.from_dict({"preset": preset})
    deck = full_deck(ruleset)
    rng.shuffle(deck)
    state = new_deal(ruleset, 0, deck, 0)
    checked = 0
    while state.phase is not Phase.FINISHED:
        state = apply(state, rng.choice(legal_actions(state)))
        data = {"seat": 1, "auto": False, "turn": {"seat": state.turn, "deadline": None}}
        event = Event(checked + 1, "action", data, state)
        viewers: list[int | None] = [None, *range(ruleset.seats)]
        rng.shuffle(viewers)  # whoever comes first, the shared part is the same
        for seat in viewers:
            expected = encode(
                {"t": "action", "v": checked + 1, "d": {**data, "deal": deal_view(state, seat)}}
            )
            assert event.frame(seat) == expected
            assert orjson.loads(event.frame(seat))["d"]["deal"]["seat"] == seat
        event.release()
        last = ruleset.seats - 1
        assert event.frame(last) == encode(
            {"t": "action", "v": checked + 1, "d": {**data, "deal": deal_view(state, last)}}
        )
        checked += 1
    assert checked > 4


def test_a_frame_without_a_deal_is_the_same_for_everyone() -> None:
    event = Event(4, "room", {"status": "waiting", "seats": [{"seat": 0, "player": None}]})
    frames = {seat: event.frame(seat) for seat in (None, 0, 1, 2, 3)}
    assert set(frames.values()) == {encode({"t": "room", "v": 4, "d": event.data})}
