"""The client→server messages, validated with pydantic v2.

A frame is ``{"t": type, "id": command id, "v": version (optional), "d": data}``. The envelope
is checked first (so an unknown type gets ``unknown_type``, not a pile of union errors), then the
data against the model of its type. docs/protocol.md is the prose version of this file.

Whatever a frame holds, the server must be able to echo its id and answer it: frames are decoded
by orjson, which refuses what it could not encode back (lone surrogates, numbers beyond a
double) and nests at most 1024 deep, and an id is a string or an integer that every JSON
reader, JavaScript's included, reads exactly.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER

CommandId = (
    Annotated[StrictStr, Field(min_length=1, max_length=64)]
    | Annotated[StrictInt, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
)
_COMMAND_ID: TypeAdapter[str | int] = TypeAdapter(CommandId)


# Strict: a value of the wrong JSON type is bad_message, never coerced (``"seat": "1"``,
# ``"on": "off"``, ``"v": true`` or ``"seat": 1.0`` would otherwise run as 1, False, 1, 1), as
# in the REST bodies (app/api/bodies.py).
_STRICT = ConfigDict(extra="forbid", strict=True)


class Envelope(BaseModel):
    model_config = _STRICT

    t: str = Field(max_length=32)
    id: CommandId
    v: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER)
    d: dict[str, Any] = Field(default_factory=dict)


class _Data(BaseModel):
    model_config = _STRICT


class Hello(_Data):
    # Tokens are URL-safe base64 (app/db/players.py): nothing else reaches the database.
    token: str | None = Field(default=None, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")
    v: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER)


class Act(BaseModel):
    """An action in the record notation of RECORDS.md, without (or with the sender's) seat.

    Its fields are checked by the engine's ``action_from_dict``; here only the shape.
    """

    model_config = _STRICT

    seat: int | None = None
    bid: str | None = Field(default=None, max_length=16)
    play: str | None = Field(default=None, max_length=4)
    declare: list[list[str]] | None = Field(default=None, max_length=8)
    belote: bool | None = None
    rebelote: bool | None = None

    def action(self) -> dict[str, Any]:
        """The fields given, for ``action_from_dict``: ``model_dump(exclude_none=True)``, which
        cost a quarter of parsing an act frame, without pydantic's serializer."""
        return {k: v for k in _ACT_FIELDS if (v := getattr(self, k)) is not None}


_ACT_FIELDS = tuple(Act.model_fields)


class Chat(_Data):
    """A typed line (``text``) or a quick phrase by its name (``phrase``,
    ``app.rooms.phrases``): one of the two."""

    text: str | None = Field(default=None, min_length=1)
    phrase: str | None = Field(default=None, min_length=1, max_length=16)

    @model_validator(mode="after")
    def _one(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat line has a text or a phrase")
        return self


class Sit(_Data):
    seat: int


class Remove(_Data):
    """The host empties this seat of its player (between matches)."""

    seat: int


class Readmit(_Data):
    """The host lets a player they removed sit in the room again."""

    player: str = Field(min_length=1, max_length=32)


class Host(_Data):
    """The host hands the room over to the player in this seat."""

    seat: int


class Settings(_Data):
    """The host changes the room's settings (between matches): only those given change; null
    leaves one as it is, except ``target``, where it is the preset's target."""

    house_rules: dict[str, bool | str] | None = Field(default=None, max_length=64)
    target: int | None = None
    public: bool | None = None
    turn_seconds: int | None = None
    deal_pause_seconds: float | None = None
    bot_level: Literal["random", "basic", "strong", "expert"] | None = None
    accounts_only: bool | None = None


class Empty(_Data):
    pass


class Bot(_Data):
    seat: int
    on: bool = True


class Concede(_Data):
    on: bool = True  # false withdraws the offer


class Start(_Data):
    fill_with_bots: bool = False


HEX_256 = r"^[0-9a-f]{64}$"


class Entropy(_Data):
    """A seated player's share of the next deal's shuffle (app.rooms.shuffle): 32 random bytes,
    for the deal whose published commitment it names."""

    commitment: str = Field(pattern=HEX_256)
    entropy: str = Field(pattern=HEX_256)


DATA_MODELS: dict[str, type[BaseModel]] = {
    "hello": Hello,
    "act": Act,
    "chat": Chat,
    "sit": Sit,
    "leave": Empty,
    "bot": Bot,
    "remove": Remove,
    "readmit": Readmit,
    "settings": Settings,
    "host": Host,
    "start": Start,
    "rematch": Empty,
    "entropy": Entropy,
    "next_deal": Empty,
    "concede": Concede,
    "ping": Empty,
}


class BadFrame(Exception):
    """A frame that cannot be handled; ``command_id`` is echoed when it could be read."""

    def __init__(self, code: str, message: str, command_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.command_id = command_id


def parse(text: str) -> tuple[Envelope, BaseModel]:
    """Decode and validate one client frame, or raise ``BadFrame`` with a stable code."""
    raw = _decode(text)
    if not isinstance(raw, dict):
        raise BadFrame("bad_message", "A frame must be a JSON object.")
    try:
        envelope = Envelope.model_validate(raw)
    except ValidationError as error:
        raise BadFrame("bad_message", _describe(error), _valid_id(raw.get("id"))) from error
    model = DATA_MODELS.get(envelope.t)
    if model is None:
        raise BadFrame("unknown_type", f"Unknown message type {envelope.t!r}.", envelope.id)
    try:
        data = model.model_validate(envelope.d)
    except ValidationError as error:
        raise BadFrame("bad_message", _describe(error), envelope.id) from error
    return envelope, data


def command_id(text: str) -> str | int | None:
    """The id of a frame that will not be handled (rate limited), if it has a valid one."""
    try:
        raw = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return _valid_id(raw.get("id")) if isinstance(raw, dict) else None


def _decode(text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as error:
        if _is_json(text):  # JSON, but not what orjson takes: deep, surrogates, 1e400
            raise BadFrame("bad_message", f"The frame cannot be accepted: {error}") from None
        raise BadFrame("bad_json", f"The frame is not JSON: {error}") from None


def _is_json(text: str) -> bool:
    """Whether the standard library reads it; only asked of the rare frames orjson refuses."""
    try:
        json.loads(text)
    except RecursionError:
        return True
    except ValueError:
        return False
    return True


def _valid_id(value: Any) -> str | int | None:
    try:
        return _COMMAND_ID.validate_python(value)
    except ValidationError:
        return None


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "frame"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)
