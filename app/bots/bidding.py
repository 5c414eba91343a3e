"""Rule-of-thumb bidding for both presets: value the hand for each contract, bid what it can
carry, double what the other team cannot make.

Values are rough counts of the tricks and points a hand brings (a jack of trumps is a sure
trick, a lone ten is not), judged on the five cards seen during the bidding. The thresholds are
judgement calls, not fitted; the strong bot re-checks every bid by simulation, and the soft
inference (`inference.py`) reuses them to judge how likely a sampled hand made another seat's
calls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from app.rules import Action, Bid, Call, Card, Ruleset, SeatView

from .cards import R9, RA, RJ, RK, RQ, RT, SUIT_MASK, mask_of, ruleset_of, table_up

SUIT_CALLS = (Call.CLUBS, Call.DIAMONDS, Call.HEARTS, Call.SPADES)
CONTRACT_CALLS = (*SUIT_CALLS, Call.NO_TRUMPS, Call.ALL_TRUMPS)
_TRUMP_VALUE = (0.5, 0.5, 4.0, 2.0, 5.0, 1.0, 1.0, 2.5)  # by rank: 7 8 9 T J Q K A
BID_AT = 9.0
"""A contract is bid when the value of five cards of the 32-card deck reaches this; the same
scale for every contract."""
FRENCH_NAME_MARGIN = 0.5
"""In the French second round (FR-3) a suit is named only with a little more than BID_AT."""
CONTRA_MARGIN, RECONTRA_MARGIN, SURCONTRA_MARGIN = 1.0, 3.0, 4.0
"""Above the bar, what a hand needs to say contra, re-contra and sur-contra (BG-5, SUR-2)."""


def bid_at(cards: int, ruleset: Ruleset) -> float:
    """BID_AT for a hand of any size at any table: values add up card by card, so the bar grows
    with the cards seen (6 in `bulgarian2` and the Croatian deal, 9 with Open Belot's face-up
    cards) and with the share of high cards in a 24-card deck (BG3-1, BG2-1: no sevens or
    eights), and it falls with fewer opponents to beat (BGN-3). The square root is fitted only
    so that the basic bot leaves about a quarter of the deals void at every table, as it does
    at four."""
    short_deck = 1.25 if ruleset.deck_size() < 32 else 1.0
    return BID_AT * cards / 5 * short_deck * math.sqrt(ruleset.seats / 4)


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _side_value(hand: int, suit: int) -> float:
    """Tricks a plain suit brings: its ace, and its ten when the ace guards it."""
    value = 0.0
    if _has(hand, suit, RA):
        value += 2.0
        if _has(hand, suit, RT):
            value += 1.0
    elif _has(hand, suit, RT) and (hand & SUIT_MASK[suit]).bit_count() >= 2:
        value += 0.5
    return value


def suit_value(hand: int, trump: int) -> float:
    """How well a hand carries a contract in `trump`."""
    trumps = hand & SUIT_MASK[trump]
    value = sum(_TRUMP_VALUE[r] for r in range(8) if trumps >> (trump * 8 + r) & 1)
    value += max(0, trumps.bit_count() - 2) * 1.0
    if _has(hand, trump, RK) and _has(hand, trump, RQ):
        value += 1.5  # belote
    return value + sum(_side_value(hand, s) for s in range(4) if s != trump)


def no_trumps_value(hand: int) -> float:
    """Aces and guarded tens win No Trumps; everything else is filler."""
    value = 0.0
    for s in range(4):
        if _has(hand, s, RA):
            value += 4.0
            if _has(hand, s, RT):
                value += 3.0
                if _has(hand, s, RK):
                    value += 1.0
        elif _has(hand, s, RT) and (hand & SUIT_MASK[s]).bit_count() >= 2:
            value += 1.0
    return value * 0.9


def all_trumps_value(hand: int) -> float:
    """Jacks and the nines they guard win All Trumps."""
    value = 0.0
    for s in range(4):
        if _has(hand, s, RJ):
            value += 4.5
            if _has(hand, s, R9):
                value += 3.0
        elif _has(hand, s, R9):
            value += 1.5 if (hand & SUIT_MASK[s]).bit_count() >= 2 else 0.5
        if _has(hand, s, RA):
            value += 1.0
        if _has(hand, s, RK) and _has(hand, s, RQ):
            value += 1.0
    return value * 0.9


def contract_value(hand: int, call: Call) -> float:
    if call == Call.NO_TRUMPS:
        return no_trumps_value(hand)
    if call == Call.ALL_TRUMPS:
        return all_trumps_value(hand)
    return suit_value(hand, SUIT_CALLS.index(call))


def defence_value(hand: int, call: Call) -> float:
    """How badly a hand hurts the other team's contract, on the scale of BID_AT."""
    if call == Call.NO_TRUMPS:
        return no_trumps_value(hand)
    if call == Call.ALL_TRUMPS:
        return all_trumps_value(hand)
    trump = SUIT_CALLS.index(call)
    trumps = hand & SUIT_MASK[trump]
    value = sum(_TRUMP_VALUE[r] for r in range(8) if trumps >> (trump * 8 + r) & 1)
    return value + sum(_side_value(hand, s) for s in range(4) if s != trump)


def choose_bid(seat_view: SeatView, legal: Sequence[Action]) -> Bid:
    """The basic bot's call, on its hand and (Open Belot, OB-8) its face-up table cards."""
    assert seat_view.hand is not None and seat_view.seat is not None
    hand = mask_of(seat_view.hand) | table_up(seat_view, seat_view.seat)
    calls = {a.call: a for a in legal if isinstance(a, Bid)}
    ruleset = ruleset_of(seat_view)
    if ruleset.is_french:
        call = _french_call(hand, seat_view.turned, calls)
    else:
        call = _bulgarian_call(seat_view, ruleset, hand, calls)
    return calls[call]


def _french_call(hand: int, turned: Card | None, calls: dict[Call, Bid]) -> Call:
    """FR-3: take the turned suit with it in hand; in round two name the best other suit."""
    assert turned is not None
    if Call.TAKE in calls:
        with_turned = hand | 1 << int(turned)
        return Call.TAKE if suit_value(with_turned, int(turned) >> 3) >= BID_AT else Call.PASS
    named = [c for c in SUIT_CALLS if c in calls]
    best = max(named, key=lambda c: contract_value(hand, c))
    return best if contract_value(hand, best) >= BID_AT + FRENCH_NAME_MARGIN else Call.PASS


def _bulgarian_call(
    seat_view: SeatView, ruleset: Ruleset, hand: int, calls: dict[Call, Bid]
) -> Call:
    """BG-5, BGN-5: bid the best contract the hand carries; double an opposing contract it
    breaks; redouble a doubled contract of ours that it clearly carries, and sur-contra (SUR-2)
    a redoubled one it breaks badly; leave partner's bid alone unless the hand is much stronger
    for a higher one."""
    seat = seat_view.seat
    assert seat is not None
    current = _current_contract(seat_view)
    bidder = seat_view.bidder
    partner_holds = (
        bidder is not None and bidder != seat and ruleset.team_of(bidder) == ruleset.team_of(seat)
    )
    options = [c for c in CONTRACT_CALLS if c in calls]
    margin = 2.0 if partner_holds else 0.0
    bar = bid_at(hand.bit_count(), ruleset)
    if options:
        best = max(options, key=lambda c: contract_value(hand, c))
        if contract_value(hand, best) >= bar + margin:
            return best
    if current is not None:
        if Call.CONTRA in calls and defence_value(hand, current) >= bar + CONTRA_MARGIN:
            return Call.CONTRA
        if Call.RECONTRA in calls and contract_value(hand, current) >= bar + RECONTRA_MARGIN:
            return Call.RECONTRA
        if Call.SURCONTRA in calls and defence_value(hand, current) >= bar + SURCONTRA_MARGIN:
            return Call.SURCONTRA
    if Call.PASS in calls:
        return Call.PASS
    return max(options, key=lambda c: contract_value(hand, c))  # BG-7 house rule: must bid


def _current_contract(seat_view: SeatView) -> Call | None:
    return None if seat_view.contract is None else Call(seat_view.contract)
