"""The stand-in bot the room uses until ``app.bots`` provides real ones: uniform random.

It sees exactly what ``BotPolicy`` gives any bot — its seat's view and the legal actions — so a
smarter policy plugs in without the room changing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules import Action, SeatView


class RandomPolicy:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, seat_view: SeatView, legal: Sequence[Action]) -> Action:
        return self._rng.choice(list(legal))
