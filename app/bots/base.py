"""What every bot is: something that picks one of the legal actions from its seat's view.

The signature matches the rooms' `BotPolicy` (`choose(seat_view, legal)`), and `legal` may be
left out because the view carries it. A bot is given nothing but the view, so it cannot play
from a card its seat does not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.rules import Action, SeatView


class Bot(Protocol):
    def choose(self, seat_view: SeatView, legal: Sequence[Action] | None = None) -> Action:
        """Return one of `legal` (by default `seat_view.legal`)."""
        ...


def legal_of(seat_view: SeatView, legal: Sequence[Action] | None) -> Sequence[Action]:
    """The actions to choose from; a bot asked to act when it may not is a caller's bug."""
    actions = seat_view.legal if legal is None else legal
    if not actions:
        raise ValueError(f"seat {seat_view.seat} has nothing to do in this view")
    return actions
