"""The ruleset of a deal or match: a preset of RULES.md plus its named house rules.

Seat count, deck, teams and the deal's packets are data here, not constants in the engine, so
that the 3- and 2-player presets listed at the end of RULES.md can follow as new presets.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .errors import BadRecord

BULGARIAN = "bulgarian"
FRENCH = "french"
PRESETS = (BULGARIAN, FRENCH)


@dataclass(frozen=True, slots=True)
class HouseRule:
    """How a house rule is described to hosts: its name, allowed values, default and meaning."""

    name: str
    presets: tuple[str, ...]
    default: bool | str
    choices: tuple[bool | str, ...]
    rule: str
    explanation: str


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "gather_not_shuffle",
        (BULGARIAN,),
        False,
        (False, True),
        "BG-2",
        "The tricks of the last deal are gathered without shuffling and only cut.",
    ),
    HouseRule(
        "dealer_must_bid",
        (BULGARIAN,),
        False,
        (False, True),
        "BG-7",
        "If the first three players pass, the dealer must bid.",
    ),
    HouseRule(
        "must_undertrump",
        (BULGARIAN, FRENCH),
        True,
        (True, False),
        "BG-9",
        "When you cannot beat an opponent's trump you must still play a lower trump.",
    ),
    HouseRule(
        "card_in_two_declarations",
        (BULGARIAN, FRENCH),
        False,
        (False, True),
        "BG-15",
        "A card may be part of both a carré and a sequence.",
    ),
    HouseRule(
        "suit_tie_rounding",
        (BULGARIAN,),
        "smaller_down",
        ("smaller_down", "smaller_up"),
        "BG-25",
        "In a suit contract, when both totals end in 6: which of them rounds down.",
    ),
    HouseRule(
        "deal_packets",
        (FRENCH,),
        "3-2",
        ("3-2", "2-3"),
        "FR-2",
        "The first five cards go out as 3 then 2, or 2 then 3.",
    ),
    HouseRule(
        "announces",
        (FRENCH,),
        False,
        (False, True),
        "FR-8",
        "Tierces, quartes, quintes and carrés are announced in the first trick and score.",
    ),
    HouseRule(
        "round_to_tens",
        (FRENCH,),
        False,
        (False, True),
        "FR-13",
        "Each team's score for the deal is rounded to the nearest ten (5 up).",
    ),
)
HOUSE_RULES_BY_NAME = {h.name: h for h in HOUSE_RULES}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The values of every house rule; a preset ignores those that are not its own."""

    gather_not_shuffle: bool = False
    dealer_must_bid: bool = False
    must_undertrump: bool = True
    card_in_two_declarations: bool = False
    suit_tie_rounding: str = "smaller_down"
    deal_packets: str = "3-2"
    announces: bool = False
    round_to_tens: bool = False


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A preset and its house rules, plus the table data that the preset fixes."""

    preset: str
    house_rules: HouseRules = field(default_factory=HouseRules)
    seats: int = 4
    teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    seat_teams: tuple[int, ...] = (0, 1, 0, 1)
    """The team of each seat: `teams` read the other way, kept as data for the hot paths."""
    deck_ranks: tuple[int, ...] = tuple(range(8))
    first_packets: tuple[int, ...] = (3, 2)
    """Packet sizes dealt to each seat in turn before the bidding (C-9)."""
    default_target: int = 151

    @staticmethod
    def bulgarian(**house_rules: bool | str) -> Ruleset:
        return Ruleset.from_dict({"preset": BULGARIAN, "house_rules": house_rules})

    @staticmethod
    def french(**house_rules: bool | str) -> Ruleset:
        return Ruleset.from_dict({"preset": FRENCH, "house_rules": house_rules})

    @staticmethod
    def from_dict(data: Any) -> Ruleset:
        """Read the `rules` object of a record; raise BadRecord naming what is wrong."""
        if not isinstance(data, dict):
            raise BadRecord("rules must be an object")
        preset = data.get("preset")
        if preset not in PRESETS:
            raise BadRecord(f"unknown preset {preset!r}; expected one of {', '.join(PRESETS)}")
        given = data.get("house_rules") or {}
        if not isinstance(given, dict):
            raise BadRecord("house_rules must be an object")
        values: dict[str, Any] = {}
        for name, value in given.items():
            spec = HOUSE_RULES_BY_NAME.get(name)
            if spec is None or preset not in spec.presets:
                raise BadRecord(f"house rule {name!r} does not exist in preset {preset}")
            if value not in spec.choices or type(value) is not type(spec.default):
                allowed = ", ".join(repr(c) for c in spec.choices)
                raise BadRecord(f"house rule {name!r} takes one of {allowed}, not {value!r}")
            values[name] = value
        house = HouseRules(**values)
        if preset == FRENCH:
            packets = (2, 3) if house.deal_packets == "2-3" else (3, 2)
            return Ruleset(FRENCH, house, first_packets=packets, default_target=1000)
        return Ruleset(BULGARIAN, house)

    def to_dict(self) -> dict[str, Any]:
        """The `rules` object of a record: only the house rules that differ from the default."""
        defaults = HouseRules()
        changed = {
            f.name: getattr(self.house_rules, f.name)
            for f in fields(HouseRules)
            if getattr(self.house_rules, f.name) != getattr(defaults, f.name)
            and self.preset in HOUSE_RULES_BY_NAME[f.name].presets
        }
        return {"preset": self.preset, "house_rules": changed}

    def with_house_rules(self, **changes: bool | str) -> Ruleset:
        """The same preset with some house rules changed (validated like a record)."""
        merged = {**self.to_dict()["house_rules"], **changes}
        return Ruleset.from_dict({"preset": self.preset, "house_rules": merged})

    @property
    def is_french(self) -> bool:
        return self.preset == FRENCH

    def team_of(self, seat: int) -> int:
        return self.seat_teams[seat]

    def deck_size(self) -> int:
        return 4 * len(self.deck_ranks)


def house_rules_for(preset: str) -> tuple[HouseRule, ...]:
    """The house rules a host may set for a preset, for room creation forms."""
    return tuple(h for h in HOUSE_RULES if preset in h.presets)


__all__ = [
    "BULGARIAN",
    "FRENCH",
    "HOUSE_RULES",
    "PRESETS",
    "HouseRule",
    "HouseRules",
    "Ruleset",
    "house_rules_for",
]
