"""Playing a sampled deal to its end, and what the end is worth to a team.

Inside a simulation every seat plays the basic bot's rules. The simulated deal is a sample,
not the real one, so reading its hands directly is fair: each seat's card choice still uses only
its own hand and the cards still out, as the basic bot does from its view.
"""

from __future__ import annotations

from app.rules import Action, DealState, Phase, Play, apply, legal_actions, view

from .announce import play_with_card
from .bidding import choose_bid
from .play import choose_card


def policy_action(state: DealState) -> Action:
    """The basic bot's action for the seat to act, computed from the state's masks."""
    legal = legal_actions(state)
    seat = state.turn
    assert seat is not None
    if len(legal) == 1:
        return legal[0]
    if state.phase is Phase.BIDDING:
        return choose_bid(view(state, seat), legal)
    hands = state.hands
    hand = hands[seat]
    legal_mask = 0
    for action in legal:
        assert isinstance(action, Play)
        legal_mask |= 1 << action.card
    bidder = state.bidder
    assert state.contract is not None and bidder is not None
    card = choose_card(
        seat,
        hand,
        legal_mask,
        int(state.contract),
        state.trick,
        state.leader,
        (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand,
        bidder % 2 == seat % 2,
    )
    if len(legal) == legal_mask.bit_count():
        for action in legal:
            if isinstance(action, Play) and action.card == card:
                return action
    return play_with_card(card, legal)


def play_out(state: DealState) -> DealState:
    """The deal played to its end by the basic rules."""
    while state.turn is not None:
        state = apply(state, policy_action(state))
    return state


def outcome(state: DealState, team: int) -> float:
    """Match points the deal gives `team` minus those it gives the other team."""
    result = state.result
    assert result is not None
    return (result.mp[team] or 0) - (result.mp[1 - team] or 0)
