"""The one error type a room raises back to its callers: a stable code and a human message."""

from __future__ import annotations


class RoomError(Exception):
    """A refused command. ``code`` is stable (clients switch on it), ``message`` is for people.

    ``rule`` carries the RULES.md id when the engine refused the action. A refused command
    changed nothing.
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
        return out


def server_error() -> RoomError:
    """What a client is told when the server failed it (the database is down, a bug): a stable
    code and a message that says nothing of the cause. The cause goes to the server log only:
    a driver's message quotes the SQL and the values bound to it, which can be a deck."""
    return RoomError(
        "server_error", "The server could not do this just now; nothing changed. Try again."
    )


class LeaseLost(RuntimeError):
    """The store refused a room's write: the room's lease is another node's now, and this node
    may not write to it (the fence, app/db/ownership.py). Not a failure of this node: the room
    is dropped and its clients go to the new owner, so it is logged once, without a traceback."""


class RoomElsewhere(Exception):
    """The room is owned by another node of the cluster: the caller sends the client there
    (the WebSocket closes with 4307, REST answers 307; docs/protocol.md, routing)."""

    def __init__(self, node: str) -> None:
        super().__init__(f"the room is served by node {node}")
        self.node = node
