"""The `random` level: a uniformly random legal action. A baseline for the bench and tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules import Action, SeatView

from .base import legal_of


class RandomBot:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        actions = legal_of(seat_view, legal)
        return actions[self._rng.randrange(len(actions))]
