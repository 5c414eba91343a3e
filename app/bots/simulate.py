"""Playing a sampled deal to its end, and what the end is worth to a team.

Inside a simulation every seat plays the basic bot's rules. The simulated deal is a sample,
not the real one, so reading its hands directly is fair: each seat's card choice still uses only
its own hand and the cards still out, as the basic bot does from its view.
"""

from __future__ import annotations

from app.rules import Action, DealState, Phase, Play, apply, legal_actions, view

from .announce import play_with_card
from .bidding import choose_bid
from .knowledge import partners
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
    ruleset = state.ruleset
    hands = state.hands  # playable cards: the hand and Open Belot's face-up ones (OB-9)
    hand = hands[seat]
    unplayed = 0
    if state.layout is None:
        for h in hands:
            unplayed |= h
    else:  # Open Belot's face-down cards, a Croatian pair: dealt, not playable yet
        for s in range(ruleset.seats):
            unplayed |= state.holding(s)
    legal_mask = 0
    for action in legal:
        assert isinstance(action, Play)
        legal_mask |= 1 << action.card
    bidder = state.bidder
    assert state.contract is not None and bidder is not None
    card = choose_card(
        hand,
        legal_mask,
        int(state.contract),
        state.trick,
        state.leader,
        unplayed & ~hand,
        ruleset.seat_sides[bidder] == ruleset.seat_sides[seat],
        partners(ruleset, bidder)[seat],
        ruleset.seats,
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


def outcome(state: DealState, side: int) -> float:
    """Match points the deal gives `side` minus the average the other sides get: with two sides
    the plain difference, with three (BG3-15..BG3-21) the margin over an average opponent."""
    result = state.result
    assert result is not None
    mp = result.mp
    others = [m or 0 for i, m in enumerate(mp) if i != side]
    return (mp[side] or 0) - sum(others) / len(others)
