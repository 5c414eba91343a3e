"""Versioned room events, projected per recipient, and the backlog for reconnecting clients.

An event holds the public part of what happened plus, when a deal is involved, the (immutable)
deal state itself. Each recipient gets the public part and ``view(state, seat)`` — never the
state — so the engine alone decides what a seat may see. Frames are encoded once per seat and
cached, since the four players and all spectators of a table share five projections at most.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.rules import DealState, view

Viewer = int | None  # a seat, or None for a spectator


def encode(frame: dict[str, Any]) -> str:
    """Compact JSON, UTF-8 as is. orjson: every event is encoded once per distinct viewer, and
    the standard library's encoder was the largest single cost of an action after the views.
    Non-string keys become strings, as ``json.dumps`` would make them."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def deal_view(state: DealState, seat: Viewer) -> dict[str, Any]:
    """The only way a deal reaches a client: the engine's view for that seat."""
    return view(state, seat).to_dict()


@dataclass(slots=True)
class Event:
    v: int
    t: str
    data: dict[str, Any]
    deal: DealState | None = None
    _frames: dict[Viewer, str] = field(default_factory=dict)

    def frame(self, seat: Viewer) -> str:
        cached = self._frames.get(seat)
        if cached is None:
            data = (
                self.data
                if self.deal is None
                else {**self.data, "deal": deal_view(self.deal, seat)}
            )
            cached = self._frames[seat] = encode({"t": self.t, "v": self.v, "d": data})
        return cached

    def release(self) -> None:
        """Drop the encoded frames once sent: the backlog keeps only the (shared) state."""
        self._frames.clear()


class Backlog:
    """The last events of a room, enough for a client that dropped for a moment."""

    def __init__(self, size: int) -> None:
        self._events: deque[Event] = deque(maxlen=size)

    def append(self, event: Event) -> None:
        self._events.append(event)

    def since(self, version: int, current: int) -> Iterator[Event] | None:
        """Events after ``version``, or None when they are no longer all here."""
        if version == current:
            return iter(())
        if version > current or not self._events or self._events[0].v > version + 1:
            return None
        return (e for e in self._events if e.v > version)
