"""Bots that play Belote from their own seat's view: `random`, `basic`, `strong` and `expert`.

`make_bot(level, rng)` gives an object with `choose(seat_view, legal=None) -> Action`, which is
the rooms' `BotPolicy`. A bot depends on the standard library and `app.rules` only.
"""

from __future__ import annotations

import random

from .base import Bot
from .basic import BasicBot
from .expert import ExpertBot
from .random_bot import RandomBot
from .strong import StrongBot

LEVELS = ("random", "basic", "strong", "expert")


def make_bot(level: str, rng: random.Random) -> Bot:
    """A bot of the given level drawing its randomness from `rng` only."""
    if level == "random":
        return RandomBot(rng)
    if level == "basic":
        return BasicBot()
    if level == "strong":
        return StrongBot(rng)
    if level == "expert":
        return ExpertBot(rng)
    raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "BasicBot", "Bot", "ExpertBot", "RandomBot", "StrongBot", "make_bot"]
