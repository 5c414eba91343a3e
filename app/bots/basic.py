"""The `basic` level: sound rule-of-thumb bidding and card play, no search.

It reads only its seat's view: its hand, the bids, and the cards played so far (from which it
knows which cards are still out and so which of its cards are masters).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules import Action, Phase, Play, SeatView

from .announce import play_with_card
from .base import legal_of
from .bidding import choose_bid
from .cards import contract_index, deck_mask, mask_of, ruleset_of, table_up
from .knowledge import partners
from .play import choose_card


class BasicBot:
    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        if len(actions) == 1:
            return actions[0]
        if seat_view.phase is Phase.BIDDING:
            return choose_bid(seat_view, actions)
        return play_with_card(card_from_view(seat_view, actions), actions)


def card_from_view(seat_view: SeatView, legal: Sequence[Action]) -> int:
    """The basic card choice for a seat's view: its hand and face-up table cards are what it
    may play (OB-9); every other card not yet played may be anyone's."""
    seat, hand = seat_view.seat, seat_view.hand
    assert seat is not None and hand is not None and seat_view.contract is not None
    ruleset = ruleset_of(seat_view)
    playable = mask_of(hand) | table_up(seat_view, seat)
    played = mask_of(c for t in seat_view.tricks for c in t.cards) | mask_of(seat_view.trick)
    legal_mask = mask_of(a.card for a in legal if isinstance(a, Play))
    bidder = seat_view.bidder
    return choose_card(
        playable,
        legal_mask,
        contract_index(seat_view.contract),
        tuple(int(c) for c in seat_view.trick),
        seat_view.leader,
        deck_mask(ruleset) & ~playable & ~played,
        bidder is not None and ruleset.team_of(bidder) == ruleset.team_of(seat),
        partners(ruleset, bidder)[seat],
        ruleset.seats,
    )
