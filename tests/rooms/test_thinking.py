"""Where bots think: strong bots in a worker process, cheap ones inline, and a failed worker
never stalls a table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import BasicBot
from app.rooms import thinking
from app.rooms.thinking import BotPool, InlineBot
from app.rules import Phase, Ruleset, apply, legal_actions, new_deal, view
from app.rules.deck import full_deck


def a_deal_in_play(preset: str, seed: int) -> Any:
    rng = random.Random(seed)
    ruleset = Ruleset.from_dict({"preset": preset})
    deck = full_deck(ruleset)
    rng.shuffle(deck)
    state = new_deal(ruleset, 0, deck, 0)
    while state.phase is not Phase.PLAYING or len(state.tricks) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is Phase.FINISHED:  # an all-pass deal: deal again
            state = new_deal(ruleset, 0, deck[::-1], 0)
    return state


@pytest.mark.parametrize("preset", ["bulgarian", "french"])
async def test_a_strong_bot_thinks_in_a_worker_process(preset: str) -> None:
    state = a_deal_in_play(preset, 11)
    pool = BotPool(1)
    try:
        policy = pool.policy("strong")
        assert not isinstance(policy, InlineBot)
        legal = legal_actions(state)
        action = await policy.choose(view(state, state.turn), legal)
        assert action in legal
    finally:
        await pool.close()


async def test_cheap_levels_decide_inline() -> None:
    pool = BotPool(1)
    assert isinstance(pool.policy("basic"), InlineBot)
    assert isinstance(pool.policy("random"), InlineBot)


async def test_a_failed_worker_gives_the_basic_move(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_deal_in_play("bulgarian", 5)
    pool = BotPool(1)

    async def broken(*_: Any) -> Any:
        raise RuntimeError("the worker died")

    monkeypatch.setattr(pool, "think", broken)
    seat_view, legal = view(state, state.turn), legal_actions(state)
    action = await pool.policy("strong").choose(seat_view, legal)
    assert action == BasicBot().choose(seat_view, legal)


async def test_without_worker_processes_strong_bots_think_in_a_thread(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_processes(*_: Any, **__: Any) -> Any:
        raise PermissionError(13, "Permission denied")  # what a missing /dev/shm gives

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", no_processes)
    state = a_deal_in_play("french", 3)
    pool = BotPool(1)
    policy = pool.policy("strong")
    legal = legal_actions(state)
    for _ in range(2):
        assert await policy.choose(view(state, state.turn), legal) in legal
    warnings = [r for r in caplog.records if "cannot start bot processes" in r.getMessage()]
    assert len(warnings) == 1  # said once, not at every move


@pytest.mark.parametrize("built", [False, True])
def test_an_operator_is_told_when_the_expert_plays_without_its_native_search(
    built: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Without `_dd.so` the top level silently plays a weaker search; the log says so, once per
    server (one pool), and says nothing when the library is there."""
    monkeypatch.setattr(thinking, "native_search", lambda: built)
    with caplog.at_level("WARNING", logger=thinking.__name__):
        BotPool(1)
    warned = [r for r in caplog.records if "native search is not built" in r.getMessage()]
    assert len(warned) == (0 if built else 1)
