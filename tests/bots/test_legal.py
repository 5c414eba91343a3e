"""Every action a bot returns is legal, across many random deals of every preset and house rule
(`deals.RULESETS`: BGN, BG3, BG2, OB, SUR, KIR, CAN, CRO, TWO).

`decisions` applies each returned action with the engine, which raises on an illegal one; the
membership check names the failing view more clearly.
"""

from __future__ import annotations

import random

import pytest

from app.bots import ExpertBot, StrongBot, make_bot
from app.bots.contract_search import ContractSearch
from app.rules import Bid, Call, Phase, Play, apply, legal_actions, view

from .deals import RULESETS, decisions, fresh_deal


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("level", ["random", "basic"])
def test_random_and_basic_bots_always_act_legally(preset: str, level: str) -> None:
    rng = random.Random(f"{preset}/{level}")
    bot = make_bot(level, rng)
    count = plays = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 120, bot.choose):
        action = bot.choose(seat_view)
        assert action in legal_actions(state)
        count += 1
        plays += isinstance(action, Play)
    assert count > 1000 and plays > 500


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_strong_bot_acts_legally_in_bidding_and_play(preset: str) -> None:
    """A small search budget keeps this quick; legality does not depend on the budget."""
    rng = random.Random(7)
    bot = StrongBot(rng, budget=400)
    bids = plays = 0
    for state, seat_view in decisions(RULESETS[preset], rng, 10, bot.choose):
        action = bot.choose(seat_view)
        assert action in legal_actions(state)
        bids += isinstance(action, Bid)
        plays += isinstance(action, Play) and state.phase is Phase.PLAYING
        if plays >= 30:
            break
    assert bids > 0 and plays >= 30


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_expert_bot_plays_legally(preset: str, solver_backend: str) -> None:
    """Over a thousand card decisions per preset, every one from solved worlds (small budgets:
    legality does not depend on them, and the solver's searches cut short are played too),
    with the pure solver and with the native one.
    The expert bids in the first deal; later deals are bid by the basic rules, since its
    bidding is the strong level's search, tested above, and costs the most."""
    rng = random.Random(f"expert/{preset}")
    expert = ExpertBot(rng, worlds=2, nodes=150, strong_budget=40, dd_tricks=16)
    basic = make_bot("basic", rng)
    plays = bids = deals = 0
    while plays < 1000:
        state = fresh_deal(RULESETS[preset], rng)
        while state.turn is not None:
            seat_view = view(state, state.turn)
            bidding = state.phase is Phase.BIDDING
            action = (basic if bidding and deals else expert).choose(seat_view)
            assert action in legal_actions(state)
            plays += not bidding
            bids += bidding and not deals
            state = apply(state, action)
        deals += 1
    assert bids > 0


def test_a_bot_answers_from_the_legal_list_it_is_given() -> None:
    """The rooms pass the legal actions alongside the view (their BotPolicy)."""
    rng = random.Random(4)
    bot = make_bot("basic", rng)
    for _, seat_view in decisions(RULESETS["bulgarian"], rng, 5, bot.choose):
        only = seat_view.legal[-1:]
        assert bot.choose(seat_view, only) == only[0]


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", random.Random(0))


def test_a_strong_bot_out_of_time_still_answers_legally() -> None:
    """With no time at all it searches its minimum number of sampled deals and answers."""
    rng = random.Random(12)
    bot = StrongBot(rng, time_limit=0.0)
    for state, seat_view in decisions(RULESETS["bulgarian"], rng, 1, bot.choose):
        assert bot.choose(seat_view) in legal_actions(state)


@pytest.mark.parametrize("preset", ["open_belot", "open_belot-house"])
def test_bots_play_face_up_table_cards_in_open_belot(preset: str) -> None:
    """OB-9: the bots use their face-up stack cards, not only their hand."""
    rng = random.Random(preset)
    bot = make_bot("basic", rng)
    from_table = 0
    for _, seat_view in decisions(RULESETS[preset], rng, 20, bot.choose):
        action = bot.choose(seat_view)
        if isinstance(action, Play) and seat_view.hand is not None:
            from_table += action.card not in seat_view.hand
    assert from_table > 50


def test_the_bots_say_sur_contra_where_the_house_rule_allows_it() -> None:
    """SUR-2: offered on a re-contra'd contract, and taken by a bot at some point."""
    rng = random.Random(3)
    bot = make_bot("random", rng)
    said = 0
    for _, seat_view in decisions(RULESETS["bulgarian-regional"], rng, 300, bot.choose):
        said += any(isinstance(a, Bid) and a.call is Call.SURCONTRA for a in seat_view.legal)
    assert said > 0


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_expert_bids_legally_by_search(preset: str) -> None:
    """BG-5, FR-3, SUR-2, BGN-5: the contract search's every call is legal, contra, re-contra
    and sur-contra included, over the whole bidding of many deals (one sampled deal per call
    keeps it quick; legality does not depend on the budget)."""
    rng = random.Random(f"{preset}/search")
    search = ContractSearch(rng, budget=1, min_worlds=1)
    basic = make_bot("basic", rng)
    calls = 0
    kinds: set[Call] = set()
    for _ in range(50):
        state = fresh_deal(RULESETS[preset], rng)
        while state.phase is Phase.BIDDING and state.turn is not None:
            seat_view = view(state, state.turn)
            action = search.choose(seat_view)
            assert action in legal_actions(state)
            assert isinstance(action, Bid)
            kinds.add(action.call)
            calls += 1
            state = apply(state, action if rng.random() < 0.5 else basic.choose(seat_view))
    assert calls > 100 and Call.PASS in kinds and len(kinds) > 2
