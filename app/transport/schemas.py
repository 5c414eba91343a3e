"""The client→server messages, validated with pydantic v2.

A frame is ``{"t": type, "id": command id, "v": version (optional), "d": data}``. The envelope
is checked first (so an unknown type gets ``unknown_type``, not a pile of union errors), then the
data against the model of its type. docs/protocol.md is the prose version of this file.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

CommandId = str | int


class Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t: str = Field(max_length=32)
    id: CommandId
    v: int | None = Field(default=None, ge=0)
    d: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _short_id(cls, value: CommandId) -> CommandId:
        if isinstance(value, str) and not 1 <= len(value) <= 64:
            raise ValueError("id must be 1 to 64 characters")
        return value


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Data):
    token: str | None = Field(default=None, max_length=128)
    v: int | None = Field(default=None, ge=0)


class Act(BaseModel):
    """An action in the record notation of RECORDS.md, without (or with the sender's) seat.

    Its fields are checked by the engine's ``action_from_dict``; here only the shape.
    """

    model_config = ConfigDict(extra="forbid")

    seat: int | None = None
    bid: str | None = Field(default=None, max_length=16)
    play: str | None = Field(default=None, max_length=4)
    declare: list[list[str]] | None = Field(default=None, max_length=8)
    belote: bool | None = None
    rebelote: bool | None = None


class Chat(_Data):
    text: str = Field(min_length=1)


class Sit(_Data):
    seat: int


class Empty(_Data):
    pass


class Bot(_Data):
    seat: int
    on: bool = True


class Start(_Data):
    fill_with_bots: bool = False


DATA_MODELS: dict[str, type[BaseModel]] = {
    "hello": Hello,
    "act": Act,
    "chat": Chat,
    "sit": Sit,
    "leave": Empty,
    "bot": Bot,
    "start": Start,
    "rematch": Empty,
    "next_deal": Empty,
    "ping": Empty,
}


class BadFrame(Exception):
    """A frame that cannot be handled; ``command_id`` is echoed when it could be read."""

    def __init__(self, code: str, message: str, command_id: CommandId | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.command_id = command_id


def parse(text: str) -> tuple[Envelope, BaseModel]:
    """Decode and validate one client frame, or raise ``BadFrame`` with a stable code."""
    try:
        raw = json.loads(text)
    except ValueError as error:
        raise BadFrame("bad_json", f"The frame is not JSON: {error}") from error
    if not isinstance(raw, dict):
        raise BadFrame("bad_message", "A frame must be a JSON object.")
    command_id = raw.get("id") if isinstance(raw.get("id"), str | int) else None
    try:
        envelope = Envelope.model_validate(raw)
    except ValidationError as error:
        raise BadFrame("bad_message", _describe(error), command_id) from error
    model = DATA_MODELS.get(envelope.t)
    if model is None:
        raise BadFrame("unknown_type", f"Unknown message type {envelope.t!r}.", envelope.id)
    try:
        data = model.model_validate(envelope.d)
    except ValidationError as error:
        raise BadFrame("bad_message", _describe(error), envelope.id) from error
    return envelope, data


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "frame"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)
