"""The base of every JSON request body: its fields take only values of their own JSON type.

pydantic's default (lax) validation turns ``true`` into ``1``, ``"5"`` into ``5`` and ``1`` into
``true``, so a body the OpenAPI schema refuses (``"bots": [true]``) would be accepted and acted
on. The schema is the contract third-party clients read, and schemathesis holds the API to it
(tests/api/test_schemathesis.py): a value of the wrong type is a 422 ``bad_request``, as the
schema says. An integer is still a number (``"wait_seconds": 30``), as in JSON.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.rooms.config import MOST_TARGET
from app.rooms.room import chat_writable

MatchTarget = Annotated[int | None, Field(ge=1, le=MOST_TARGET)]
"""A match's target as a body gives it (a room's, a tournament's tables'); null: the preset's."""


class Body(BaseModel):
    """A request body validated strictly: JSON types are not coerced into one another."""

    model_config = ConfigDict(strict=True)


def written(value: str, what: str) -> str | None:
    """A person's own words in a body (a report, an appeal), as kept: trimmed, None when blank,
    and refused (422) with a control character in them, as a chat line would be."""
    if not value.strip():
        return None
    if not chat_writable(value):
        raise ValueError(f"{what} cannot hold control characters")
    return value.strip()
