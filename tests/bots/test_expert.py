"""The expert level (IS-DD): it solves the last tricks on every table, repeatably, from the view.

(Its legality over thousands of decisions in every preset: tests/bots/test_legal.py.)
"""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, ExpertBot, make_bot
from app.bots.expert import DD_TRICKS, tricks_to_play
from app.bots.sampler import Sampler
from app.bots.solver import Solution, Solver, tricks_left
from app.rules import Action, DealState, Phase, SeatView, apply, legal_actions, view

from .deals import RULESETS, fresh_deal


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_expert_solves_the_last_tricks_on_every_table(preset: str) -> None:
    """Four, three and two seats, table stacks and Croatian pairs: in the last DD_TRICKS tricks
    the expert plays from its solved worlds and never falls back to the strong level, and its
    count of the tricks left from the view is the deal's."""
    rng = random.Random(f"solves-{preset}")
    bot = ExpertBot(rng, worlds=2, nodes=200, strong_budget=60)
    solved = 0

    def no_strong(seat_view: SeatView, legal: object = None) -> Action:
        raise AssertionError("the strong level was asked in the solved tricks")

    for _ in range(20):  # until enough choices were solved (a deal nobody takes has none)
        if solved > 4:
            break
        state = fresh_deal(RULESETS[preset], rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            if state.phase is Phase.PLAYING:
                assert tricks_to_play(seat_view) == tricks_left(state)
            if state.phase is Phase.PLAYING and tricks_left(state) <= DD_TRICKS:
                strong = bot._strong.choose
                bot._strong.choose = no_strong  # type: ignore[method-assign]
                action = bot.choose(seat_view)
                bot._strong.choose = strong  # type: ignore[method-assign]
                solved += len(seat_view.legal) > 1
            else:
                action = bot.choose(seat_view)
            state = apply(state, action)
    assert solved > 4


def test_the_expert_bot_is_repeatable() -> None:
    """The budget is counted work, so a seed and a view always give the same card (three tricks
    left: the worlds are solved)."""
    rng = random.Random("repeat")
    state = fresh_deal(RULESETS["french"], rng)
    while state.phase is Phase.BIDDING or len(state.tricks) < 5:
        assert state.turn is not None
        state = apply(state, make_bot("basic", rng).choose(view(state, state.turn)))
    assert state.turn is not None
    seat_view = view(state, state.turn)
    first = ExpertBot(random.Random(5), worlds=4, nodes=300).choose(seat_view)
    assert ExpertBot(random.Random(5), worlds=4, nodes=300).choose(seat_view) == first


def test_expert_is_a_level_the_rooms_accept() -> None:
    assert "expert" in LEVELS
    assert isinstance(make_bot("expert", random.Random(0)), ExpertBot)


def test_an_expert_card_is_the_same_in_any_deal_consistent_with_the_view() -> None:
    """In the solved tricks, a deal the sampler draws from the seat's view looks the same from
    that seat, and the expert plays the same card in it as in the true deal: its worlds come
    from the view, never from the hidden hands."""
    rng = random.Random("consistent")
    basic = make_bot("basic", rng)
    compared = 0
    for _ in range(6):
        state = fresh_deal(RULESETS["bulgarian"], rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            hand = seat_view.hand or ()
            if state.phase is Phase.PLAYING and len(seat_view.legal) > 1 and len(hand) <= 3:
                other = Sampler(seat_view).sample(rng)
                assert other is not None
                assert view(other, state.turn) == seat_view
                mine = ExpertBot(random.Random(9), worlds=3, nodes=400).choose(seat_view)
                theirs = ExpertBot(random.Random(9), worlds=3, nodes=400).choose(
                    view(other, state.turn)
                )
                assert mine == theirs
                compared += 1
            state = apply(state, basic.choose(seat_view))
    assert compared > 10


def test_a_depth_limited_expert_searches_its_worlds_no_deeper_and_repeatably(
    solver_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`depth` (bench/dd_loss.py's `isdd:W:D:N` variants): at the first trick every world is
    searched two tricks deep, not to the end, the card is legal, and a seed gives the same card
    again, with the pure and the native solver."""
    rng = random.Random("depth")
    state = fresh_deal(RULESETS["french"], rng)
    while state.phase is Phase.BIDDING:
        assert state.turn is not None
        state = apply(state, make_bot("basic", rng).choose(view(state, state.turn)))
    assert state.turn is not None
    seat_view = view(state, state.turn)
    depths: list[tuple[int | None, int]] = []
    solve = Solver.solve

    def spy(self: Solver, world: DealState, max_depth: int | None = None) -> Solution:
        solution = solve(self, world, max_depth)
        depths.append((max_depth, solution.depth))
        return solution

    monkeypatch.setattr(Solver, "solve", spy)
    cards = []
    for _ in range(2):
        bot = ExpertBot(random.Random(3), worlds=3, nodes=200_000, dd_tricks=8, depth=2)
        cards.append(bot.choose(seat_view))
    assert cards[0] in legal_actions(state) and cards[1] == cards[0]
    assert depths and set(depths) == {(2, 2)}
