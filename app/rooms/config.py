"""A room's settings: what makes them acceptable, and the host's changes between matches.

One check serves a new room (``RoomManager.create``) and a changed one (``Room.configure``), so
that a setting refused at creation cannot be reached by changing it afterwards, whichever edge
(REST or the socket) the change came through.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from app.bots import LEVELS
from app.rooms.errors import RoomError
from app.rooms.ports import RoomConfig
from app.rules import Ruleset

MOST_TARGET = 100_000
"""The highest match target a room may have."""
MOST_DEAL_PAUSE = 120.0
"""The longest a finished deal's result may be shown before the next deal, in seconds."""

CHANGEABLE = (
    "house_rules",
    "target",
    "public",
    "turn_seconds",
    "deal_pause_seconds",
    "bot_level",
    "accounts_only",
)
"""What the host may change between matches. Not the preset (it fixes the seats people sit
in), whether the room is rated (it fixes who may sit), the code or the host."""


def checked_game(rules: Mapping[str, Any], target: int | None) -> Ruleset:
    """The ruleset of ``rules`` (a preset and its house rules) played to ``target``; or
    ``RoomError`` saying why not. A room's settings and a tournament's tables share it."""
    try:
        ruleset = Ruleset.from_dict(dict(rules))
    except (ValueError, TypeError, KeyError) as error:
        raise RoomError("bad_rules", f"Unknown preset or house rule: {error}") from error
    if target is not None and not 1 <= target <= MOST_TARGET:
        raise RoomError("bad_request", f"The target is between 1 and {MOST_TARGET}.")
    return ruleset


def checked(config: RoomConfig, max_turn_seconds: float) -> tuple[RoomConfig, Ruleset]:
    """``config`` with its rules as the engine writes them (a house rule at its default left
    out, so that equal rules compare equal), and their ruleset; or ``RoomError`` saying which
    setting is refused and why."""
    ruleset = checked_game(config.rules, config.target)
    if config.bot_level not in LEVELS:
        raise RoomError("bad_request", f"Bot levels are {', '.join(LEVELS)}.")
    if not 0 <= config.turn_seconds <= max_turn_seconds:
        raise RoomError("bad_request", f"The turn timer is at most {max_turn_seconds:g} s.")
    pause = config.deal_pause_seconds
    if pause is not None and not 0 <= pause <= MOST_DEAL_PAUSE:
        raise RoomError("bad_request", f"The pause after a deal is at most {MOST_DEAL_PAUSE:g} s.")
    if config.rated and config.turn_seconds == 0:
        # With no clock a player who is losing could stay and never act: the match would never
        # end, and a rating would never be lost (leaving does not save one, §8.2).
        raise RoomError("rated_needs_clock", "A rated room needs a turn timer.")
    return dataclasses.replace(config, rules=ruleset.to_dict()), ruleset


def changed(config: RoomConfig, changes: Mapping[str, Any]) -> RoomConfig:
    """``config`` with ``changes`` (a subset of ``CHANGEABLE``; not yet ``checked``).

    ``house_rules`` is the room's whole set (a rule left out takes its default), so that what
    the host's form shows is what the room plays, whatever it played before. A setting given
    as None is left as it is, except ``target``, where None is the preset's target."""
    unknown = set(changes) - set(CHANGEABLE)
    if unknown:
        raise RoomError("bad_request", f"These settings cannot be changed: {sorted(unknown)}.")
    fields = {
        name: value
        for name, value in changes.items()
        if name != "house_rules" and (value is not None or name == "target")
    }
    house_rules = changes.get("house_rules")
    if house_rules is not None:
        preset = config.rules.get("preset")
        fields["rules"] = {"preset": preset, "house_rules": dict(house_rules)}
    return dataclasses.replace(config, **fields)
