"""A table of bots plays a whole match to its end (BG-27, FR-13, BGN-12, SUR-5)."""

from __future__ import annotations

import random

import pytest

from app.bots import StrongBot, make_bot
from app.rules import apply, full_deck, new_match, record_deal, view

from .deals import RULESETS


@pytest.mark.parametrize(
    ("preset", "target", "levels"),
    [
        ("bulgarian", None, ("basic", "random", "basic", "random")),
        ("french", None, ("random", "basic", "random", "basic")),
        ("bulgarian", 30, ("strong", "basic", "strong", "basic")),
        ("bulgarian3", None, ("basic", "random", "basic")),
        ("bulgarian3-house", 40, ("strong", "basic", "random")),
        ("bulgarian2", None, ("basic", "random")),
        ("bulgarian2-house", 40, ("strong", "basic")),
        ("open_belot", None, ("random", "basic")),
        ("open_belot-house", 30, ("basic", "strong")),
    ],
)
def test_bots_finish_a_match(preset: str, target: int | None, levels: tuple[str, ...]) -> None:
    ruleset = RULESETS[preset]
    rng = random.Random(11)
    bots = [
        StrongBot(rng, budget=400) if level == "strong" else make_bot(level, rng)
        for level in levels
    ]
    match = new_match(ruleset, first_dealer=ruleset.seats - 1, target=target)
    for _ in range(200):
        deck = full_deck(ruleset)
        rng.shuffle(deck)
        state = match.start_deal(deck)
        while state.turn is not None:
            state = apply(state, bots[state.turn].choose(view(state, state.turn)))
        match = record_deal(match, state)
        if match.finished:
            break
    assert match.finished and match.winner in range(len(ruleset.sides))
    sur_contra_win = ruleset.house_rules.sur_contra == "wins_match"
    assert max(match.scores) >= match.target or sur_contra_win
