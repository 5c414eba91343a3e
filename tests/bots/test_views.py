"""A bot sees only its seat's view, and its choice depends on nothing else.

The engine's `SeatView` is the only thing bots are given. These tests check that it cannot carry
a hidden card, and that bots (and the strong bot's sampler) decide the same way whatever the
hidden hands are, as long as the view is the same.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from app.bots import make_bot
from app.bots.sampler import Sampler
from app.rules import Card, DealState, Phase, SeatView, full_deck, new_deal, view

from .deals import RULESETS, decisions


def _cards_in(value: Any) -> set[int]:
    """Every card reachable from a view's fields (tuples, dataclasses, records)."""
    if isinstance(value, Card):
        return {int(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return set().union(*(_cards_in(v) for v in value))
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values()))
    if hasattr(value, "cards"):  # a completed trick
        return _cards_in(value.cards)
    return set()


def _visible(state: DealState, seat_view: SeatView) -> set[int]:
    """Cards the rules let this seat see: its hand, cards played, shown declarations, turned,
    and the face-up table cards of Open Belot (OB-7); never a face-down one, a Croatian pair
    before it is the seat's (CRO-3) or a card out of play (BG2-4)."""
    assert seat_view.hand is not None
    out = {int(c) for c in seat_view.hand}
    if state.layout is not None and state.layout.stacks:
        out |= {up for own in state.layout.stacks for up, _down in own if up >= 0}
    out |= {int(c) for t in state.tricks for c in t.cards} | {int(c) for c in state.trick}
    out |= {int(c) for d in seat_view.declarations if d.cards is not None for c in d.cards}
    if seat_view.turned is not None:
        out.add(int(seat_view.turned))
    return out


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_a_seat_view_holds_no_card_the_seat_may_not_see(preset: str) -> None:
    rng = random.Random(1)
    bot = make_bot("random", rng)
    checked = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 40, bot.choose):
        assert _cards_in(seat_view) <= _visible(state, seat_view)
        checked += 1
    assert checked > 500


def test_the_view_type_has_no_field_for_other_hands_or_the_deck() -> None:
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert not names & {"hands", "deck", "actions", "stock"}
    assert "hand" in names


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
@pytest.mark.parametrize(
    "preset",
    ["bulgarian", "french", "bulgarian3", "bulgarian2", "open_belot", "bulgarian-croatian"],
)
def test_a_bidding_decision_is_the_same_whatever_the_unseen_cards(preset: str, level: str) -> None:
    """Re-deal every card the first bidder cannot see (other hands, face-down table cards, its
    own Croatian pair, the cards not dealt yet); its view and its choice stay the same."""
    ruleset = RULESETS[preset]
    rng = random.Random(2)
    dealer = ruleset.seats - 1
    for _ in range(3):
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        seen = _cards_in(view(new_deal(ruleset, dealer, deck), 0))
        mine = {i for i, card in enumerate(deck) if int(card) in seen}
        hidden = [i for i in range(len(deck)) if i not in mine]
        other = list(deck)
        shuffled = [deck[i] for i in hidden]
        rng.shuffle(shuffled)
        for i, card in zip(hidden, shuffled, strict=True):
            other[i] = card
        first = view(new_deal(ruleset, dealer, deck), 0)
        second = view(new_deal(ruleset, dealer, other), 0)
        assert first == second
        a = make_bot(level, random.Random(9)).choose(first)
        b = make_bot(level, random.Random(9)).choose(second)
        assert a == b


@pytest.mark.parametrize(
    "preset", ["bulgarian", "french-announces", "bulgarian3", "bulgarian2-house", "open_belot"]
)
def test_a_play_decision_is_the_same_in_any_deal_consistent_with_the_view(preset: str) -> None:
    """Mid-deal, the sampler draws other deals that look the same from the seat; the strong
    bot and the sampler itself make the same choice in the true deal and in those."""
    rng = random.Random(3)
    basic = make_bot("basic", rng)
    compared = differing = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 6, basic.choose):
        if state.phase is not Phase.PLAYING or len(seat_view.legal) < 2 or rng.random() > 0.3:
            continue
        other = Sampler(seat_view).sample(random.Random(compared))
        assert other is not None
        seat = seat_view.seat
        assert view(other, seat) == seat_view
        differing += other.hands != state.hands
        again = Sampler(view(other, seat)).sample(random.Random(99))
        first = Sampler(seat_view).sample(random.Random(99))
        assert first is not None and again is not None and first.deck == again.deck
        strong = make_bot("strong", random.Random(5)).choose(seat_view)
        assert make_bot("strong", random.Random(5)).choose(view(other, seat)) == strong
        compared += 1
        if compared == 6:
            break
    assert compared == 6 and differing > 0
