"""Versioned room events, projected per recipient, and the backlog for reconnecting clients.

An event holds the public part of what happened plus, when a deal is involved, the (immutable)
deal state itself. Each recipient gets the public part and ``view(state, seat)`` — never the
state — so the engine alone decides what a seat may see. Frames are cached per seat, since the
four players and all spectators of a table share five projections at most, and the part they
have in common is encoded once per event (``Event``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.rooms.watching import watched
from app.rules import DealState, view, wire_view

Viewer = int | None  # a seat, or None for a spectator
WATCHER: Viewer = -1  # a spectator by the watch code (app/rooms/watching.py)


_OPTIONS = orjson.OPT_NON_STR_KEYS  # non-string keys become strings, as json.dumps makes them


def encode(frame: dict[str, Any]) -> str:
    """Compact JSON, UTF-8 as is. orjson: every event is encoded once per distinct viewer, and
    the standard library's encoder was the largest single cost of an action after the views."""
    return orjson.dumps(frame, option=_OPTIONS).decode()


def deal_view(
    state: DealState, seat: Viewer, auto: Collection[int] = frozenset()
) -> dict[str, Any]:
    """The only way a deal reaches a client: the engine's view for that seat (``auto``: the
    sequence numbers of the actions the server made, for the seat's "played for you")."""
    return view(state, seat, auto).to_dict()


@dataclass(slots=True)
class Event:
    """One versioned event. ``frame(seat)`` is exactly ``encode`` of ``{"t", "v", "d": data +
    {"deal": deal_view(deal, seat)}}``, built so that the part of a frame that all recipients
    share — the envelope and the deal's public fields, most of its bytes — is encoded once per
    event, and only each viewer's own fields (seat, hand, legal) once per viewer."""

    v: int
    t: str
    data: dict[str, Any]
    deal: DealState | None = None
    _frames: dict[Viewer, str] = field(default_factory=dict)
    _head: bytes | None = None  # the frame up to the viewer's own fields of the deal

    def frame(self, seat: Viewer) -> str:
        key = self._key(seat)
        cached = self._frames.get(key)
        if cached is None:
            cached = self._frames[key] = self._encode(key)
        return cached

    def _key(self, seat: Viewer) -> Viewer:
        """Who gets the same frame as ``seat``: without a deal everyone alike, but for a
        watcher of the room's summary (which names the room); with one each seat has its own
        and a watcher is a spectator."""
        if seat == WATCHER:
            return WATCHER if self.t == "room" else None
        return None if self.deal is None else seat

    def _encode(self, seat: Viewer) -> str:
        if seat == WATCHER:
            return encode({"t": self.t, "v": self.v, "d": watched(self.data)})
        if self.deal is None:
            return encode({"t": self.t, "v": self.v, "d": self.data})
        shared, own = wire_view(self.deal, seat)
        if self._head is None:
            data = {k: v for k, v in self.data.items() if k != "deal"}
            envelope = orjson.dumps(
                {"t": self.t, "v": self.v, "d": {**data, "deal": None}}, option=_OPTIONS
            )
            # b'{..."deal":null}}' + b'{shared}' -> b'{..."deal":{shared,'
            self._head = envelope[: -len(b"null}}")] + orjson.dumps(shared, option=_OPTIONS)[:-1]
        return (self._head + b"," + orjson.dumps(own, option=_OPTIONS)[1:] + b"}}").decode()

    def release(self) -> None:
        """Drop the encoded frames once sent: the backlog keeps only the (shared) state."""
        self._frames.clear()
        self._head = None


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
