"""The basic bot's rules of thumb, on hand-made positions (cards in C-2 notation)."""

from __future__ import annotations

import random

from app.bots import BasicBot
from app.bots.announce import play_with_card
from app.bots.bidding import BID_AT, contract_value
from app.bots.cards import ALL, mask_of
from app.bots.play import choose_card
from app.rules import Bid, Call, Card, Contract, Play, apply, full_deck, new_deal, view

from .deals import RULESETS


def cards(text: str) -> list[int]:
    return [int(Card.parse(t)) for t in text.split()]


def mask(text: str) -> int:
    return mask_of(cards(text))


def test_a_strong_trump_hand_bids_its_suit_and_a_weak_one_does_not() -> None:
    assert contract_value(mask("JH 9H AH AS 7C"), Call.HEARTS) >= BID_AT
    assert contract_value(mask("8H 7H KC QD 9S"), Call.HEARTS) < BID_AT
    assert contract_value(mask("AC TC AD AH 7S"), Call.NO_TRUMPS) >= BID_AT
    assert contract_value(mask("JC 9C JD JH 7S"), Call.ALL_TRUMPS) >= BID_AT


def test_the_basic_bot_opens_with_its_best_contract_and_passes_a_poor_hand() -> None:
    ruleset = RULESETS["bulgarian"]
    strong = cards("JH 9H AH") + cards("AS 7C")
    rest = [c for c in full_deck(ruleset) if int(c) not in strong]
    deck = [Card.parse(t) for t in ("JH", "9H", "AH")] + rest[:9]
    deck += [Card.parse(t) for t in ("AS", "7C")] + rest[9:]
    state = new_deal(ruleset, 3, deck)
    assert BasicBot().choose(view(state, 0)) == Bid(0, Call.HEARTS)
    state = apply(state, Bid(0, Call.HEARTS))
    # Seat 1 holds 8C 9C TC 8D 9D: nothing to bid on, nothing to double with.
    assert BasicBot().choose(view(state, 1)) == Bid(1, Call.PASS)


def test_the_declarer_side_draws_trumps_with_the_master_trump() -> None:
    hand = mask("JH 7H AS 8C")
    card = choose_card(hand, hand, int(Contract.HEARTS), (), 0, ALL & ~hand, True, 2, 4)
    assert card == cards("JH")[0]


def test_a_defender_leads_a_side_ace_rather_than_trumps() -> None:
    hand = mask("JH 7H AS 8C")
    card = choose_card(hand, hand, int(Contract.HEARTS), (), 1, ALL & ~hand, False, 3, 4)
    assert card == cards("AS")[0]


def test_last_to_play_wins_as_cheaply_as_possible() -> None:
    trick = tuple(cards("KS 7S QS"))  # seat 1 led the king, seat 2 and 3 followed
    hand = mask("AS TS 7D")
    legal = mask("AS TS")
    card = choose_card(hand, legal, int(Contract.HEARTS), trick, 1, ALL & ~hand, False, 2, 4)
    assert card == cards("TS")[0]


def test_points_go_to_a_partner_who_holds_the_trick() -> None:
    # Seat 2 (partner of 0) led the ace of spades; seat 3 followed; seat 0 has no spade.
    trick = tuple(cards("AS 7S"))
    hand = mask("TD 7D 8C")
    played = mask("AS 7S")
    card = choose_card(
        hand, hand, int(Contract.NO_TRUMPS), trick, 2, ALL & ~hand & ~played, True, 2, 4
    )
    assert card == cards("TD")[0]


def test_a_lost_trick_gets_the_least_valuable_card() -> None:
    trick = tuple(cards("AS"))
    hand = mask("KD 7C TD")
    card = choose_card(hand, hand, int(Contract.NO_TRUMPS), trick, 3, ALL & ~hand, False, 2, 4)
    assert card == cards("7C")[0]


def test_the_richest_declaration_goes_with_the_card() -> None:
    """First trick, a hand whose only combination is a quarte: announce it, not a tierce of it."""
    ruleset = RULESETS["bulgarian"]
    rng = random.Random(8)
    while True:
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        state = new_deal(ruleset, 3, deck)
        state = apply(state, Bid(0, Call.HEARTS))
        for seat in (1, 2, 3):
            state = apply(state, Bid(seat, Call.PASS))
        legal = view(state, 0).legal
        offers = {a.declare for a in legal if isinstance(a, Play)}
        quartes = [
            o for o in offers if len(o) == 1 and len(o[0]) == 4 and len({c.suit for c in o[0]}) == 1
        ]
        if quartes and all(sum(len(d) for d in o) <= 4 for o in offers):
            break
    first = legal[0]
    assert isinstance(first, Play)
    assert play_with_card(first.card, legal).declare == quartes[0]
