"""A room's watch code: the capability to watch its table and nothing more.

A room's code lets its holder watch, chat and sit (docs/protocol.md §3), so it cannot be given
to those who should only watch — a tournament's spectators, a private table's friends. The
watch code is a second address of the same room that opens it as an anonymous spectator does:
the public table and its chat, read; no hand, no word in the chat, no seat, no setting. It is
derived from the code by a one-way function (SHA-256), so every room has one from the moment it
exists, every node works it out alike, and the code cannot be worked back from it; the
database keeps it beside the code (``rooms.watch_code``, indexed) only so that a watch code
leads to its room. It is 22 characters, where a code is 16, so the two are never mistaken for
each other.

Whatever a room sends a watcher names the room by its watch code: ``watched`` is the room's
summary as a watcher reads it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

WATCH_CODE = re.compile(r"[A-Za-z0-9_-]{22}")
_SALT = b"belote-watch:"


def watch_code(code: str) -> str:
    """The watch code of the room with this code: 16 bytes of a digest, URL-safe."""
    digest = hashlib.sha256(_SALT + code.encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def watched(summary: dict[str, Any]) -> dict[str, Any]:
    """A room's summary (``Room.summary``) as a watcher reads it: the watch code in place of the
    code, and ``watch_only`` said."""
    return {**summary, "code": summary["watch_code"], "watch_only": True}
