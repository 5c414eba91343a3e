"""The double-dummy solver against brute force: exact values on endgames, the engine's legality,
in every preset (four seats, three seats as contractor against defenders, two seats, Open
Belot's table stacks).

Brute force here is plain minimax through the engine's own `legal_actions` and `apply`, so it
shares no code with the solver's bitmask search.
"""

from __future__ import annotations

import random

import pytest

from app.bots.simulate import policy_action
from app.bots.solver import LAST_TRICK, Solver, tricks_left
from app.rules import (
    Bid,
    Call,
    Card,
    DealState,
    Phase,
    Play,
    Ruleset,
    apply,
    legal_actions,
    mask_of,
    new_deal,
)

from .deals import RULESETS, fresh_deal


def endgame(ruleset: Ruleset, rng: random.Random, tricks: int, mid_trick: bool) -> DealState:
    """A random deal played by the basic policy down to `tricks` tricks left (and one card or
    more into that trick if `mid_trick`)."""
    while True:
        state = fresh_deal(ruleset, rng)
        while state.turn is not None and (
            state.phase is Phase.BIDDING or state.trick or tricks_left(state) > tricks
        ):
            state = apply(state, policy_action(state))
        if state.turn is None:
            continue
        for _ in range(rng.randrange(1, ruleset.seats) if mid_trick else 0):
            state = apply(state, policy_action(state))
        return state


def side(state: DealState, seat: int) -> int:
    """The side a seat plays for in the search: its team, or at three seats the contractor
    (0) against the two defenders together (1)."""
    if state.ruleset.seats == 3:
        return 0 if seat == state.bidder else 1
    return state.ruleset.team_of(seat)


def gained(state: DealState, child: DealState, team: int) -> int:
    """The card points `team` took between two states (the last trick's bonus included)."""
    mine = [s for s in range(state.ruleset.seats) if side(state, s) == team]
    sides = {state.ruleset.team_of(s) for s in mine}
    points = sum(child.points[i] - state.points[i] for i in sides)
    if child.turn is None and side(state, child.tricks[-1].winner) == team:
        points += LAST_TRICK
    return points


def brute(state: DealState, team: int) -> int:
    """Card points (last trick included) `team` takes from `state` on, by exhaustive minimax."""
    if state.turn is None:
        return 0
    seat = state.turn
    values = []
    for card in sorted({a.card for a in legal_actions(state) if isinstance(a, Play)}):
        child = apply(state, Play(seat, card))
        values.append(gained(state, child, team) + brute(child, team))
    return max(values) if side(state, seat) == team else min(values)


def brute_per_card(state: DealState) -> dict[int, int]:
    seat = state.turn
    assert seat is not None
    team = side(state, seat)
    out = {}
    for card in {a.card for a in legal_actions(state) if isinstance(a, Play)}:
        child = apply(state, Play(seat, card))
        out[int(card)] = gained(state, child, team) + brute(child, team)
    return out


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_solver_equals_brute_force_on_random_endgames(preset: str) -> None:
    """Endgames at trick starts and mid-trick, in every preset and house rule set (two and
    three tricks at four and three seats, four and five at two, where Open Belot's face-down
    cards still turn): the solver's value of every legal card is the exhaustive minimax value."""
    ruleset = RULESETS[preset]
    rng = random.Random(f"solver-{preset}")
    small = 2 if ruleset.seats > 2 else 4
    for n in range(16):
        state = endgame(ruleset, rng, tricks=small + n % 2, mid_trick=n % 3 == 1)
        solution = Solver(budget=10**6).solve(state)
        assert solution.exact
        assert solution.values == pytest.approx(brute_per_card(state))


def test_open_belot_endgames_turn_face_down_cards() -> None:
    """The Open Belot endgames above do reach face-down cards that turn during the search."""
    rng = random.Random("solver-open_belot")
    turning = 0
    for n in range(16):
        state = endgame(RULESETS["open_belot"], rng, tricks=4 + n % 2, mid_trick=n % 3 == 1)
        turning += any(state.holding(s) != state.hands[s] for s in range(2))
    assert turning > 4


def test_solver_knows_a_hand_made_endgame() -> None:
    """French, hearts trumps (FR-6), two tricks left, South (seat 0) to lead:
    South JH 7S, West AS 8S, North 7C 8C, East 9H KS.

    Leading JH: East must follow with 9H, West keeps AS for the spade trick: South's side takes
    20 + 14 = 34. Leading 7S: West's best is AS (on 8S East's KS wins and East must lead 9H into
    the jack: 55 for South); then West leads 8S, South must ruff with JH and East's 9H falls:
    20 + 14 + 10 = 44. So 7S is worth 44, JH 34."""
    state = _hand_made_french()
    values = Solver().solve(state).values
    assert values == brute_per_card(state)
    assert values == {int(Card.parse("7S")): 44, int(Card.parse("JH")): 34}


_ENDGAME = {
    0: ("JH", "7S"),
    1: ("AS", "8S"),
    2: ("7C", "8C"),
    3: ("9H", "KS"),
}
_FRENCH_DEAL_ORDER = [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [0, 0, 1, 1, 2, 2, 3, 3]
"""Who gets each of the first 20 cards when seat 3 deals (C-9, 3-2 packets); the 21st is the
turned card, then 2 more for the taker (seat 0) and 3 for each other seat (FR-2, FR-4)."""


def _hand_made_french() -> DealState:
    """A French deal on hearts taken by South whose last two tricks start from `_ENDGAME`: the
    other 24 cards are dealt at random and played out at random (legally, through the engine)
    until a deal ends its sixth trick with exactly those hands and South on lead."""
    rng = random.Random("hand-made")
    target = {s: mask_of(Card.parse(c) for c in cards) for s, cards in _ENDGAME.items()}
    kept = set().union(*(set(map(Card.parse, c)) for c in _ENDGAME.values()))
    for _ in range(5000):
        others = [Card(c) for c in range(32) if Card(c) not in kept]
        rng.shuffle(others)
        hands = {
            s: [Card.parse(c) for c in _ENDGAME[s]] + others[6 * s : 6 * s + 6] for s in range(4)
        }
        hands[0].remove(Card.parse("JH"))
        order = [*_FRENCH_DEAL_ORDER, -1, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
        deck = [Card.parse("JH") if s < 0 else hands[s].pop() for s in order]
        state = apply(new_deal(Ruleset.french(), 3, deck), Bid(0, Call.TAKE))
        while state.turn is not None and any(state.hands[s] != target[s] for s in range(4)):
            seat = state.turn
            free = [
                a.card
                for a in legal_actions(state)
                if isinstance(a, Play) and not target[seat] >> a.card & 1
            ]
            if not free:
                break
            state = apply(state, Play(seat, rng.choice(free)))
        if all(state.hands[s] == target[s] for s in range(4)) and state.turn == 0:
            return state
    raise AssertionError("no deal reached the hand-made endgame")


def test_budget_cuts_the_depth_but_always_answers() -> None:
    """A tiny budget still gives a value for every legal card (the current trick is always
    searched), marked inexact, and the same answer twice (the budget is counted, not timed)."""
    rng = random.Random("budget")
    state = endgame(Ruleset.bulgarian(), rng, tricks=7, mid_trick=True)
    legal = {int(a.card) for a in legal_actions(state) if isinstance(a, Play)}
    first = Solver(budget=50).solve(state)
    assert set(first.values) == legal
    assert not first.exact
    assert Solver(budget=50).solve(state) == first


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_solver_legality_matches_the_engine(preset: str) -> None:
    """At every position of random deals (BG-8..BG-11, FR-6, BGN-4, BG3-9, OB-9, must_undertrump
    on and off), the solver's legal mask is exactly the cards the engine's legal_actions offers."""
    rng = random.Random(f"legal-{preset}")
    solver = Solver()
    checked = 0
    for _ in range(30):
        state = fresh_deal(RULESETS[preset], rng)
        while state.turn is not None:
            if state.phase is Phase.PLAYING:
                solver.bind(state)
                trick = tuple(int(c) for c in state.trick)
                hand = state.hands[state.turn]
                mask = solver.legal(hand, trick, state.leader, state.best, state.best_pos)
                engine = mask_of(a.card for a in legal_actions(state) if isinstance(a, Play))
                assert mask == engine, state
                checked += 1
            state = apply(state, policy_action(state))
    assert checked > 400


def test_twin_cards_take_their_twins_value(
    monkeypatch: pytest.MonkeyPatch, solver_backend: str
) -> None:
    """Root cards that are twins (one suit, equal points, no other seat's live card between)
    are valued once; where a position has such cards, every value is the one each card gets
    when all are searched."""
    rng = random.Random("twins")
    states = [endgame(Ruleset.french(), rng, tricks=5, mid_trick=n % 2 == 1) for n in range(80)]
    with_twins = []
    for state in states:
        solver = Solver(budget=10**7)
        solver.bind(state)
        legal = sorted({int(a.card) for a in legal_actions(state) if isinstance(a, Play)})
        if solver._twins(state, legal):
            with_twins.append((state, solver.solve(state).values))
    assert len(with_twins) >= 5
    monkeypatch.setattr(Solver, "_twins", lambda self, state, legal: {})
    for state, values in with_twins:
        assert Solver(budget=10**7).solve(state).values == values
