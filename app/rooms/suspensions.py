"""Who may not play for now: the players the operator suspended (``python -m app.admin
suspend``).

A suspended player keeps their identity, their history and their devices signed in, and may
watch any table, but may not sit, start a match, ask for a rematch, write in a chat, make a
table, queue for quick play or rename themselves (``RoomError`` ``suspended``). The operator
writes the suspension to the database; every server keeps those in force in this registry,
read when it starts and kept up to date by ``app.db.player_news``, so a room checks a player
in memory, not with a query per chat line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.rooms.errors import RoomError


@dataclass(frozen=True, slots=True)
class Suspension:
    reason: str
    """What the operator told the player (shown to them, never to others)."""
    until: float | None
    """Seconds since the epoch; None: until the operator lifts it."""


class Suspensions:
    """The suspensions this server knows of, by player id; one past its end holds no more."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._held: dict[str, Suspension] = {}

    def set(self, player_id: str, suspension: Suspension | None) -> bool:
        """The player's suspension as stored now (None: lifted); whether it holds now."""
        if suspension is None:
            self._held.pop(player_id, None)
        else:
            self._held[player_id] = suspension
        return self.of(player_id) is not None

    def of(self, player_id: str) -> Suspension | None:
        """The player's suspension if it holds now."""
        held = self._held.get(player_id)
        if held is not None and held.until is not None and held.until <= self._clock():
            del self._held[player_id]  # served: forgotten
            return None
        return held

    def holds(self, player_id: str) -> bool:
        return self.of(player_id) is not None


def refusal() -> RoomError:
    """What a suspended player is told when they try to play (the room's commands and the API's
    alike); their language's words are the client's, by the code."""
    return RoomError("suspended", "The site's operator has suspended you: you may watch, not play.")
