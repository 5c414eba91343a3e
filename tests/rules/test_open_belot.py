"""Open Belot — preset `open_belot` (RULES.md OB-1..OB-18): the table stacks in the deal, what
may be played, when a face-down card turns, declarations and belote, the views."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from app.rules import (
    IllegalCard,
    IllegalDeclaration,
    Phase,
    Play,
    RuleError,
    Ruleset,
    apply,
    legal_actions,
    new_deal,
    view,
)

from .helpers import cards
from .tables import bid, deck_for, play, preset_cards

OB = Ruleset.of("open_belot")


def ob_deck(
    dealer: int,
    layout: dict[int, tuple[Sequence[str], Sequence[str], Sequence[str]]],
) -> list[Any]:
    """layout[seat] = (hand: 8 cards in deck order, face-up stack 0-3, face-down stack 0-3)."""
    slots: dict[tuple[int, str], Sequence[str]] = {}
    for seat, (hand, up, down) in layout.items():
        slots[seat, "hand"] = hand
        for k in range(4):
            slots[seat, f"up{k}"] = [up[k]]
            slots[seat, f"down{k}"] = [down[k]]
    return deck_for(OB, dealer, slots)


def legal_cards(state: Any) -> set[str]:
    return {str(a.card) for a in legal_actions(state) if isinstance(a, Play)}


# OB examples, "legal": the dealer (1) holds no spade in hand, A♠ J♠ face up, K♠ face down.
LEGAL_LAYOUT = {
    1: (
        ["KC", "9D", "8C", "9C", "TC", "8D", "TD", "8H"],
        ["AS", "7D", "QH", "JS"],
        ["KS", "7C", "9H", "JD"],
    ),
    0: (
        ["8S", "7S", "9S", "TS", "QS", "JC", "QC", "AC"],
        ["QD", "KD", "AD", "7H"],
        ["TH", "JH", "KH", "AH"],
    ),
}
# OB examples, "belote": the dealer holds Q♥ in hand and K♥ face down under stack 2.
BELOTE_LAYOUT = {
    1: (
        ["QH", "AC", "8C", "9C", "TC", "JC", "QC", "KC"],
        ["8D", "TD", "AD", "QD"],
        ["9D", "JD", "KH", "KD"],
    ),
    0: (
        ["7C", "7H", "8H", "7D", "7S", "8S", "9S", "TS"],
        ["JS", "QS", "KS", "AS"],
        ["JH", "9H", "AH", "TH"],
    ),
}


@pytest.mark.parametrize("dealer", [0, 1])
def test_ob_3_ob_6_the_deal_hands_then_face_down_then_face_up_then_three_each(
    dealer: int,
) -> None:
    """OB-2..OB-6 (ruling R12, R15): deck[0-9] to the hands 3, 3, 2, 2 from the non-dealer;
    [10-17] face down one at a time on stacks 0-3; [18-25] face up on them; after the
    bidding [26-28] to the non-dealer's hand, [29-31] to the dealer's."""
    deck = cards(*preset_cards(OB))
    state = new_deal(OB, dealer, deck)
    nd = 1 - dealer
    text = [str(c) for c in deck]
    assert {str(c) for c in state.hand(nd)} == {*text[0:3], *text[6:8]}
    assert {str(c) for c in state.hand(dealer)} == {*text[3:6], *text[8:10]}
    shown = view(state, None).stacks
    assert shown is not None
    assert [str(up) for up, _ in shown[nd]] == text[18:26:2]
    assert [str(up) for up, _ in shown[dealer]] == text[19:26:2]
    assert all(down for own in shown for _, down in own)
    assert state.layout is not None
    assert [down for _, down in state.layout.stacks[nd]] == [int(c) for c in deck[10:18:2]]
    state = bid(state, "hearts", "pass")
    assert {str(c) for c in state.hand(nd)} == {*text[0:3], *text[6:8], *text[26:29]}
    assert {str(c) for c in state.hand(dealer)} == {*text[3:6], *text[8:10], *text[29:32]}


def test_ob_6_after_a_void_bidding_the_last_six_are_not_dealt() -> None:
    """OB-6, OB-8: two passes void the deal; the six cards are never dealt nor shown."""
    deck = cards(*preset_cards(OB))
    state = bid(new_deal(OB, 0, deck), "pass", "pass")
    assert state.result is not None and state.result.void
    for seat in (0, 1, None):
        text = json.dumps(view(state, seat).to_dict())
        assert not any(f'"{c}"' in text for c in deck[26:])


def test_ob_9_ob_10_example_face_up_cards_play_face_down_ones_never_oblige() -> None:
    """OB examples: ♥ contract, the non-dealer leads 8♠; the dealer with no spade in hand and
    A♠ J♠ face up (K♠ face down) must follow with A♠ or J♠ (OB-10)."""
    state = bid(new_deal(OB, 1, ob_deck(1, LEGAL_LAYOUT)), "hearts", "pass")
    state = play(state, "8S")
    assert legal_cards(state) == {"AS", "JS"}
    with pytest.raises(IllegalCard) as error:
        apply(state, Play(1, cards("KS")[0]))  # face down: never playable
    assert error.value.rule == "OB-9"


def test_ob_9_a_player_may_play_a_hand_card_or_any_face_up_card() -> None:
    """OB-9: on a lead, the whole hand and the four face-up cards; no face-down card."""
    state = bid(new_deal(OB, 1, ob_deck(1, LEGAL_LAYOUT)), "hearts", "pass")
    hand, up, _down = LEGAL_LAYOUT[0]
    assert legal_cards(state) == {*hand, *up}


@pytest.mark.parametrize("reveal", ["trick_end", "at_once"])
def test_ob_11_the_card_under_a_played_face_up_card_turns(reveal: str) -> None:
    """OB-11 (ruling R11), `open_reveal`: the face-down card under a played face-up card turns
    at the trick's end (default) or at once; it is seen by nobody until then (OB-7), and is the
    stack's playable card afterwards."""
    rules = OB.with_house_rules(open_reveal=reveal) if reveal != "trick_end" else OB
    state = bid(new_deal(rules, 1, ob_deck(1, BELOTE_LAYOUT)), "hearts", "pass")
    state = play(state, "7C")
    state = play(state, "AC")  # the dealer wins the first trick
    state = play(state, "QH", "8H")
    state = play(state, "AD")  # stack 2's face-up card; K♥ lies under it
    for seat in (0, 1, None):
        stacks = view(state, seat).stacks
        assert stacks is not None
        turned = stacks[1][2]
        if reveal == "at_once":
            assert turned == (cards("KH")[0], False)
        else:
            assert turned == (None, True)
            assert '"KH"' not in json.dumps(view(state, seat).to_dict())
    state = play(state, "7D")
    stacks = view(state, 0).stacks
    assert stacks is not None and stacks[1][2] == (cards("KH")[0], False)
    assert "KH" in legal_cards(state)


def test_ob_9_every_view_says_which_table_stack_a_played_card_came_from() -> None:
    """A card played from a table stack (its face-up card, or the one that turned under it,
    OB-11) is named with its stack in `played_from` for everyone; hand cards are not."""
    state = bid(new_deal(OB, 1, ob_deck(1, BELOTE_LAYOUT)), "hearts", "pass")
    state = play(state, "7C", "AC", "QH", "8H", "AD", "7D", "KH")  # A♦ and K♥: stack 2
    for seat in (0, 1, None):
        shown = view(state, seat)
        assert shown.played_from == ((cards("AD")[0], 2), (cards("KH")[0], 2))
        assert shown.to_dict()["played_from"] == {"AD": 2, "KH": 2}
    bulgarian = Ruleset.of("bulgarian")
    plain = new_deal(bulgarian, 0, cards(*preset_cards(bulgarian)))
    assert view(plain, 0).played_from is None  # no table stacks: nothing to say


def test_ob_16_belote_example_announced_with_the_second_card() -> None:
    """OB examples, "belote" (ruling R14): the dealer leads Q♥ while K♥ is face down, so no
    belote is offered with it; K♥ turns at the end of the trick in which stack 2's face-up card
    is played; when he leads K♥ he announces belote and scores 20 (OB-15, OB-16)."""
    state = bid(new_deal(OB, 1, ob_deck(1, BELOTE_LAYOUT)), "hearts", "pass")
    state = play(state, "7C", "AC")
    assert not any(isinstance(a, Play) and a.belote for a in legal_actions(state))
    with pytest.raises(RuleError) as error:
        play(state, "QH", belote=True)
    assert error.value.rule == "OB-16"
    state = play(state, "QH", "8H")
    state = play(state, "AD", "7D")
    assert Play(1, cards("KH")[0], (), True) in legal_actions(state)
    state = play(state, "KH", belote=True)
    rng = random.Random(3)
    while state.phase is not Phase.FINISHED:
        state = apply(state, rng.choice([a for a in legal_actions(state) if not a.belote]))
    result = state.result
    assert result is not None
    assert result.breakdown["teams"][1]["belote"] == [{"seat": 1, "suit": "hearts", "points": 20}]
    assert len(result.tricks) == 16  # OB-12
    assert sum(t["card_points"] for t in result.breakdown["teams"]) == 152  # OB-1


def test_ob_16_a_belote_not_announced_at_its_moment_is_lost() -> None:
    """OB-16: with the other card face up, belote goes with the first card or not at all."""
    layout = {
        0: (
            ["QH", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
            ["KH", "AC", "7D", "8D"],
            ["9D", "TD", "JD", "QD"],
        ),
        1: (
            ["7H", "8H", "KD", "AD", "7S", "8S", "9S", "TS"],
            ["JS", "QS", "KS", "AS"],
            ["JH", "9H", "AH", "TH"],
        ),
    }
    state = bid(new_deal(OB, 1, ob_deck(1, layout)), "hearts", "pass")
    assert Play(0, cards("QH")[0], (), True) in legal_actions(state)  # K♥ is face up
    state = play(state, "QH", "8H")
    assert state.turn == 0
    assert not any(isinstance(a, Play) and a.belote for a in legal_actions(state))
    with pytest.raises(RuleError):
        play(state, "KH", belote=True)


def test_ob_13_declarations_from_hand_and_face_up_cards_only() -> None:
    """OB examples, "declaration" (ruling R13): hand A♠ K♠ and Q♠ face up → the tierce may be
    declared; with Q♠ face down it may not (refused, OB-13)."""
    up_layout = {
        0: (
            ["AS", "KS", "7C", "8C", "9C", "TC", "JC", "QC"],
            ["QS", "7D", "8D", "9D"],
            ["TD", "JD", "QD", "KD"],
        ),
        1: (
            ["KC", "AC", "AD", "7H", "8H", "9H", "TH", "JH"],
            ["QH", "KH", "AH", "7S"],
            ["8S", "9S", "TS", "JS"],
        ),
    }
    state = bid(new_deal(OB, 1, ob_deck(1, up_layout)), "clubs", "pass")
    tierce = tuple(sorted(cards("AS", "KS", "QS")))
    assert any(isinstance(a, Play) and a.declare == (tierce,) for a in legal_actions(state))
    down_layout = {
        0: (up_layout[0][0], ["TD", "7D", "8D", "9D"], ["QS", "JD", "QD", "KD"]),
        1: up_layout[1],
    }
    state = bid(new_deal(OB, 1, ob_deck(1, down_layout)), "clubs", "pass")
    offered = [a.declare for a in legal_actions(state) if isinstance(a, Play) and a.declare]
    assert offered, "the clubs and the face-up diamonds still make declarations"
    assert not any(cards("QS")[0] in d for option in offered for d in option)
    with pytest.raises(IllegalDeclaration) as error:
        apply(state, Play(0, cards("AS")[0], (tierce,)))
    assert error.value.rule == "OB-13"


def test_ob_7_face_down_cards_are_seen_by_nobody_face_up_ones_by_everybody() -> None:
    """OB-7: every face-up table card is in every view (both players, spectators); no view
    holds a face-down card, its owner's included."""
    state = bid(new_deal(OB, 1, ob_deck(1, LEGAL_LAYOUT)), "hearts", "pass")
    for seat in (0, 1, None):
        text = json.dumps(view(state, seat).to_dict())
        for owner in (0, 1):
            _hand, up, down = LEGAL_LAYOUT[owner]
            assert all(f'"{c}"' in text for c in up)
            assert not any(f'"{c}"' in text for c in down)
