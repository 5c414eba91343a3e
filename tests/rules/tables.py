"""Helpers for the small-table presets and the regional house rules, written from RULES.md.

The index maps below are RULES.md's own (BG3-4, BG2-3, OB-3..OB-6, CRO-2), copied as ranges of
deck positions, so that a deck laid out here checks the engine's dealing instead of reusing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules import Bid, Call, Card, DealState, Play, Ruleset, apply, new_deal

from .helpers import cards

RANKS_24 = "9TJQKA"
RANKS_32 = "789TJQKA"
Spec = tuple[int, int, int, str]
"""(first index, last index, seat as an offset from the dealer, slot)."""

BG3_4: list[Spec] = [
    (0, 2, 1, "hand"),
    (3, 5, 2, "hand"),
    (6, 8, 0, "hand"),
    (9, 10, 1, "hand"),
    (11, 12, 2, "hand"),
    (13, 14, 0, "hand"),
    (15, 17, 1, "hand"),
    (18, 20, 2, "hand"),
    (21, 23, 0, "hand"),
]
BG2_3: list[Spec] = [
    (0, 2, 1, "hand"),
    (3, 5, 0, "hand"),
    (6, 8, 1, "hand"),
    (9, 11, 0, "hand"),
    (12, 14, 1, "hand"),
    (15, 17, 0, "hand"),
    (18, 23, 0, "out"),
]
OB_3_6: list[Spec] = [
    (0, 2, 1, "hand"),
    (3, 5, 0, "hand"),
    (6, 7, 1, "hand"),
    (8, 9, 0, "hand"),
    *((10 + 2 * k + i, 10 + 2 * k + i, 1 - i, f"down{k}") for k in range(4) for i in (0, 1)),
    *((18 + 2 * k + i, 18 + 2 * k + i, 1 - i, f"up{k}") for k in range(4) for i in (0, 1)),
    (26, 28, 1, "hand"),
    (29, 31, 0, "hand"),
]
CRO_2_BULGARIAN: list[Spec] = [
    *((3 * i, 3 * i + 2, (i + 1) % 4, "hand") for i in range(4)),
    *((12 + 3 * i, 12 + 3 * i + 2, (i + 1) % 4, "hand") for i in range(4)),
    *((24 + 2 * i, 24 + 2 * i + 1, (i + 1) % 4, "pair") for i in range(4)),
]
CRO_2_BULGARIAN3: list[Spec] = [
    *((3 * i, 3 * i + 2, (i + 1) % 3, "hand") for i in range(3)),
    *((9 + 3 * i, 9 + 3 * i + 2, (i + 1) % 3, "hand") for i in range(3)),
    *((18 + 2 * i, 18 + 2 * i + 1, (i + 1) % 3, "pair") for i in range(3)),
]


def index_map(ruleset: Ruleset) -> list[Spec]:
    croatian = ruleset.house_rules.croatian_deal
    if ruleset.preset == "bulgarian3":
        return CRO_2_BULGARIAN3 if croatian else BG3_4
    if ruleset.preset == "bulgarian2":
        return BG2_3
    if ruleset.preset == "open_belot":
        return OB_3_6
    assert ruleset.preset == "bulgarian" and croatian
    return CRO_2_BULGARIAN


def positions(ruleset: Ruleset, dealer: int) -> list[tuple[int, str]]:
    """(seat, slot) of each deck index, from the RULES.md map."""
    out: dict[int, tuple[int, str]] = {}
    for first, last, offset, slot in index_map(ruleset):
        for i in range(first, last + 1):
            out[i] = (0 if slot == "out" else (dealer + offset) % ruleset.seats, slot)
    assert sorted(out) == list(range(len(out)))
    return [out[i] for i in range(len(out))]


def preset_cards(ruleset: Ruleset) -> list[str]:
    ranks = RANKS_24 if ruleset.deck_size() == 24 else RANKS_32
    return [r + s for s in "CDHS" for r in ranks]


def deck_for(
    ruleset: Ruleset, dealer: int, slots: Mapping[tuple[int, str], Sequence[str]]
) -> list[Card]:
    """A deck that the RULES.md map deals as `slots` ((seat, slot) -> cards in deck order);
    the slot `out` (BG2-3) is keyed with seat 0."""
    queues = {key: list(value) for key, value in slots.items()}
    deck: list[str] = []
    for key in positions(ruleset, dealer):
        deck.append(queues[key].pop(0))
    assert all(not q for q in queues.values()), "every card given is dealt"
    assert sorted(deck) == sorted(preset_cards(ruleset)), "the deck holds the preset's cards once"
    return cards(*deck)


def hands_deck(
    ruleset: Ruleset, dealer: int, hands: Mapping[int, Sequence[str]], out: Sequence[str] = ()
) -> list[Card]:
    """A deck for presets whose cards all go to hands (and `out`, BG2-3)."""
    slots: dict[tuple[int, str], Sequence[str]] = {(s, "hand"): h for s, h in hands.items()}
    if out:
        slots[0, "out"] = out
    return deck_for(ruleset, dealer, slots)


def bid(state: DealState, *calls: str) -> DealState:
    """Apply calls in turn, each by the seat to act."""
    for call in calls:
        assert state.turn is not None
        state = apply(state, Bid(state.turn, Call(call)))
    return state


def play(state: DealState, *texts: str, **extra: Any) -> DealState:
    """Play cards in turn, each by the seat to act; `extra` applies to the last card."""
    for i, text in enumerate(texts):
        assert state.turn is not None
        options = extra if i == len(texts) - 1 else {}
        declare = tuple(tuple(sorted(cards(*d))) for d in options.get("declare", ()))
        declare = tuple(sorted(declare, key=lambda d: (d[0], len(d))))
        state = apply(
            state,
            Play(state.turn, Card.parse(text), declare, bool(options.get("belote", False))),
        )
    return state


def start(
    ruleset: Ruleset, dealer: int, hands: Mapping[int, Sequence[str]], out: Sequence[str] = ()
) -> DealState:
    return new_deal(ruleset, dealer, hands_deck(ruleset, dealer, hands, out))


def side_of(ruleset: Ruleset, seat: int) -> int:
    """C-6: teams 0+2 and 1+3 at four seats; BGN-3: every player his own side otherwise."""
    return seat % 2 if ruleset.seats == 4 else seat


TableCards = dict[int, list[list[str | None]]]


def open_table(state: DealState) -> tuple[TableCards, set[tuple[int, str]]]:
    """Open Belot's table replayed from the record by OB-4, OB-5, OB-11: each seat's stacks
    as [face-up, face-down] (None where empty), and the (seat, suit) of belote pairs whose
    first card was played while the other lay face down (OB-16)."""
    ruleset = state.ruleset
    deck = [str(c) for c in state.deck]
    stacks: TableCards = {s: [[None, None] for _ in range(4)] for s in range(ruleset.seats)}
    for i, (seat, slot) in enumerate(positions(ruleset, state.dealer)):
        if slot.startswith("up"):
            stacks[seat][int(slot[2:])][0] = deck[i]
        elif slot.startswith("down"):
            stacks[seat][int(slot[4:])][1] = deck[i]
    at_once = ruleset.house_rules.open_reveal == "at_once"
    trumps = None if state.contract is None else state.contract.record_name
    deferred: set[tuple[int, str]] = set()
    pending: list[tuple[int, int]] = []
    played = 0
    for action in state.actions:
        if not isinstance(action, Play):
            continue
        card = str(action.card)
        if (
            card[0] in "KQ"
            and trumps not in (None, "no_trumps")
            and (trumps == "all_trumps" or trumps[0].upper() == card[1])
        ):
            other = ("Q" if card[0] == "K" else "K") + card[1]
            if any(down == other for _up, down in stacks[action.seat]):
                deferred.add((action.seat, card[1]))
        for k, (up, down) in enumerate(stacks[action.seat]):
            if up == card:
                if at_once:
                    stacks[action.seat][k] = [down, None]
                else:
                    stacks[action.seat][k] = [None, down]
                    pending.append((action.seat, k))
        played += 1
        if played % ruleset.seats == 0:
            for seat, k in pending:
                stacks[seat][k] = [stacks[seat][k][1], None]
            pending = []
    return stacks, deferred


def face_up(state: DealState, seat: int) -> set[str]:
    stacks, _ = open_table(state)
    return {up for up, _down in stacks[seat] if up is not None}
