"""The ruleset of a deal or match: a preset of RULES.md plus its named house rules.

A preset is data, not code: the number of seats, the sides (a team of two, or one player), the
deck, the packets of the deal, the table stacks of Open Belot and the name of the scoring rule
are fields of `Ruleset`. Each preset is its parent's ruleset with only what differs replaced
(`PRESET_BASES` below), the shape python-chess gives its variants, but as values: a ruleset is
compared, hashed and written into records, so it carries data and names a behaviour
(`contest`) instead of holding one. See docs/architecture.md ("Sides as data").
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import BadRecord

BULGARIAN = "bulgarian"
FRENCH = "french"
BULGARIAN3 = "bulgarian3"
BULGARIAN2 = "bulgarian2"
OPEN_BELOT = "open_belot"
PRESETS = (BULGARIAN, FRENCH, BULGARIAN3, BULGARIAN2, OPEN_BELOT)
BULGARIAN_FAMILY = (BULGARIAN, BULGARIAN3, BULGARIAN2, OPEN_BELOT)

# Where a packet's cards go (C-9, BG3-3, BG2-2, OB-3..OB-6, CRO-1).
HAND = 0
PAIR = 1
"""The Croatian face-down pair (CRO-3): dealt, but its owner's only from CRO-3's moment."""
DOWN = 2
"""Face-down card of table stack k is slot DOWN + k (OB-4)."""
UP = 6
"""Face-up card of table stack k is slot UP + k (OB-5)."""

Packet = tuple[int, int]
"""(size, slot): `size` cards to each seat in turn from `dealer+1`, into `slot`."""

# The contests: how the sides' totals are compared and a deal is scored.
CONTEST_TWO_SIDES = "two_sides"
"""BG-23..BG-26 between two sides (teams, or the two players of BG2-11 / OB-17)."""
CONTEST_THREE_PLAYERS = "three_players"
"""BG3-13..BG3-21: one contractor against two defenders, each for himself."""
CONTEST_FRENCH = "french"
"""FR-9..FR-13."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """How a house rule is described to hosts: its name, allowed values, default and meaning.

    `presets` are those that offer it; `inert` those that accept it although it changes nothing
    there (RULES.md's applicability table: "no effect"). Any other preset refuses it.
    """

    name: str
    presets: tuple[str, ...]
    default: bool | str
    choices: tuple[bool | str, ...]
    rule: str
    explanation: str
    inert: tuple[str, ...] = ()


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "gather_not_shuffle",
        BULGARIAN_FAMILY,
        False,
        (False, True),
        "BG-2",
        "The tricks of the last deal are gathered without shuffling and only cut.",
    ),
    HouseRule(
        "dealer_must_bid",
        BULGARIAN_FAMILY,
        False,
        (False, True),
        "BG-7",
        "If everyone before the dealer passes, the dealer must bid.",
    ),
    HouseRule(
        "must_undertrump",
        (BULGARIAN, FRENCH, BULGARIAN3),
        True,
        (True, False),
        "BG-9",
        "When you cannot beat an opponent's trump you must still play a lower trump.",
        inert=(BULGARIAN2, OPEN_BELOT),
    ),
    HouseRule(
        "card_in_two_declarations",
        (*BULGARIAN_FAMILY, FRENCH),
        False,
        (False, True),
        "BG-15",
        "A card may be part of both a carré and a sequence.",
    ),
    HouseRule(
        "suit_tie_rounding",
        (BULGARIAN, BULGARIAN2, OPEN_BELOT),
        "smaller_down",
        ("smaller_down", "smaller_up"),
        "BG-25",
        "In a suit contract, when both totals end in 6: which of them rounds down.",
        inert=(BULGARIAN3,),
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
    HouseRule(
        "sur_contra",
        BULGARIAN_FAMILY,
        "off",
        ("off", "x8", "wins_match"),
        "SUR-1",
        "A third doubling after re-contra: the deal counts eight times, or wins the match.",
    ),
    HouseRule(
        "kirtik",
        BULGARIAN_FAMILY,
        False,
        (False, True),
        "KIR-1",
        "A side loses 10 match points when it was committed and lost, or was valat.",
    ),
    HouseRule(
        "dealer_may_cancel",
        BULGARIAN_FAMILY,
        False,
        (False, True),
        "CAN-1",
        "With the dealer made to bid, a dealer whose hand is worth 7 points or less may pass.",
    ),
    HouseRule(
        "croatian_deal",
        (BULGARIAN, BULGARIAN3),
        False,
        (False, True),
        "CRO-1",
        "All eight cards before the bidding: 3, 3, then 2 face down.",
    ),
    HouseRule(
        "croatian_reveal",
        (BULGARIAN, BULGARIAN3),
        "own_call",
        ("own_call", "bidding_end"),
        "CRO-3",
        "When a player may look at his face-down pair: after his first call, or after the bidding.",
    ),
    HouseRule(
        "declarations_in_two_tricks",
        BULGARIAN_FAMILY,
        False,
        (False, True),
        "TWO-1",
        "Declarations may be announced with the first or the second card.",
    ),
    HouseRule(
        "defenders_partners",
        (BULGARIAN3,),
        False,
        (False, True),
        "BG3-9",
        "The two defenders count as partners when one cannot follow suit.",
    ),
    HouseRule(
        "bg3_goal",
        (BULGARIAN3,),
        "beat_each",
        ("beat_each", "beat_both"),
        "BG3-18",
        "What the contractor must beat: each defender, or both defenders' totals together.",
    ),
    HouseRule(
        "bg3_inside",
        (BULGARIAN3,),
        "best",
        ("best", "each", "lost"),
        "BG3-19",
        "Where an inside contractor's points go: the best defender, each defender, or nobody.",
    ),
    HouseRule(
        "open_reveal",
        (OPEN_BELOT,),
        "trick_end",
        ("trick_end", "at_once"),
        "OB-11",
        "When a face-down table card is turned: at the end of the trick, or at once.",
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
    sur_contra: str = "off"
    kirtik: bool = False
    dealer_may_cancel: bool = False
    croatian_deal: bool = False
    croatian_reveal: str = "own_call"
    declarations_in_two_tricks: bool = False
    defenders_partners: bool = False
    bg3_goal: str = "beat_each"
    bg3_inside: str = "best"
    open_reveal: str = "trick_end"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A preset and its house rules, plus the table data that the preset fixes.

    The defaults are the 4-player Bulgarian table; the other presets replace what differs.
    """

    preset: str
    house_rules: HouseRules = field(default_factory=HouseRules)
    seats: int = 4
    sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    """The sides that score: teams of two (C-6), or one player each (BGN-3)."""
    deck_ranks: tuple[int, ...] = tuple(range(8))
    """Rank indices in the deck: all eight, or 9..A for the 24-card presets (C-1)."""
    before: tuple[Packet, ...] = ((3, HAND), (2, HAND))
    """The packets dealt before the bidding, in order (C-9)."""
    after: tuple[Packet, ...] = ((3, HAND),)
    """The packets dealt once a contract is agreed (the French taker gets one card less)."""
    turned_card: bool = False
    """French: the card after the first packets is turned up (FR-2)."""
    stacks: int = 0
    """Table stacks per player (OB-2): 4 in Open Belot, none elsewhere."""
    contest: str = CONTEST_TWO_SIDES
    """How the sides' totals are compared and the deal scored (the CONTEST_* names above)."""
    default_target: int = 151
    seat_sides: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The side of each seat: `sides` read the other way, kept as data for the hot paths."""
    partner: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Each seat's partner, -1 for none (BG-9's exemption; BGN-4: nobody in the small presets)."""
    declaration_tricks: int = field(init=False, repr=False, compare=False)
    """How many of his first cards a player may declare with: 1 (BG-16), 2 (TWO-1)."""
    dealt_before: int = field(init=False, repr=False, compare=False)
    """Cards dealt before the bidding, all seats together (the French turned card follows)."""
    deck_cards: frozenset[int] = field(init=False, repr=False, compare=False)
    """The preset's cards, to check a deck against (C-1, BG3-1)."""
    is_french: bool = field(init=False, repr=False, compare=False)
    deals_to_hands_only: bool = field(init=False, repr=False, compare=False)
    """Every card dealt before the bidding goes to a hand (no stacks, no Croatian pair)."""

    def __post_init__(self) -> None:
        if self.seats == 4 and len(self.sides) != 2:
            raise ValueError("four seats play as two teams (C-6); the hot path counts on it")
        seat_sides = [0] * self.seats
        partner = [-1] * self.seats
        for index, side in enumerate(self.sides):
            for seat in side:
                seat_sides[seat] = index
                if len(side) == 2:
                    partner[seat] = side[0] if seat == side[1] else side[1]
        object.__setattr__(self, "seat_sides", tuple(seat_sides))
        object.__setattr__(self, "partner", tuple(partner))
        object.__setattr__(
            self, "declaration_tricks", 2 if self.house_rules.declarations_in_two_tricks else 1
        )
        dealt_before = sum(size for size, _ in self.before) * self.seats
        object.__setattr__(self, "dealt_before", dealt_before)
        cards = frozenset(s * 8 + r for s in range(4) for r in self.deck_ranks)
        object.__setattr__(self, "deck_cards", cards)
        object.__setattr__(self, "is_french", self.preset == FRENCH)
        to_hands = all(slot == HAND for _, slot in self.before)
        object.__setattr__(self, "deals_to_hands_only", to_hands)

    @staticmethod
    def bulgarian(**house_rules: bool | str) -> Ruleset:
        return Ruleset.from_dict({"preset": BULGARIAN, "house_rules": house_rules})

    @staticmethod
    def french(**house_rules: bool | str) -> Ruleset:
        return Ruleset.from_dict({"preset": FRENCH, "house_rules": house_rules})

    @staticmethod
    def of(preset: str, **house_rules: bool | str) -> Ruleset:
        """Any preset with some house rules (validated like a record)."""
        return Ruleset.from_dict({"preset": preset, "house_rules": house_rules})

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
            if spec is None or preset not in (*spec.presets, *spec.inert):
                raise BadRecord(f"house rule {name!r} does not exist in preset {preset}")
            if value not in spec.choices or type(value) is not type(spec.default):
                allowed = ", ".join(repr(c) for c in spec.choices)
                raise BadRecord(f"house rule {name!r} takes one of {allowed}, not {value!r}")
            values[name] = value
        house = HouseRules(**values)
        base = PRESET_BASES[preset]
        if preset == FRENCH and house.deal_packets == "2-3":
            return replace(base, house_rules=house, before=((2, HAND), (3, HAND)))
        if house.croatian_deal:  # CRO-1: everything before the bidding, the last 2 face down
            return replace(
                base, house_rules=house, before=((3, HAND), (3, HAND), (2, PAIR)), after=()
            )
        return replace(base, house_rules=house)

    def to_dict(self) -> dict[str, Any]:
        """The `rules` object of a record: only the house rules that differ from the default."""
        defaults = HouseRules()
        changed = {
            f.name: getattr(self.house_rules, f.name)
            for f in fields(HouseRules)
            if getattr(self.house_rules, f.name) != getattr(defaults, f.name)
            and self.preset
            in (*HOUSE_RULES_BY_NAME[f.name].presets, *HOUSE_RULES_BY_NAME[f.name].inert)
        }
        return {"preset": self.preset, "house_rules": changed}

    def with_house_rules(self, **changes: bool | str) -> Ruleset:
        """The same preset with some house rules changed (validated like a record)."""
        merged = {**self.to_dict()["house_rules"], **changes}
        return Ruleset.from_dict({"preset": self.preset, "house_rules": merged})

    def team_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return self.seat_sides[seat]

    def deck_size(self) -> int:
        return 4 * len(self.deck_ranks)


_BULGARIAN = Ruleset(BULGARIAN)
_TWO_PLAYERS = replace(_BULGARIAN, seats=2, sides=((0,), (1,)))
_OPEN_LAYOUT: tuple[Packet, ...] = (
    (3, HAND),
    (2, HAND),
    *((1, DOWN + k) for k in range(4)),
    *((1, UP + k) for k in range(4)),
)
PRESET_BASES: dict[str, Ruleset] = {
    BULGARIAN: _BULGARIAN,
    FRENCH: replace(
        _BULGARIAN, preset=FRENCH, turned_card=True, contest=CONTEST_FRENCH, default_target=1000
    ),
    # BG3-1, BG3-3: 24 cards, three players each for himself, 3 + 2 then 3.
    BULGARIAN3: replace(
        _BULGARIAN,
        preset=BULGARIAN3,
        seats=3,
        sides=((0,), (1,), (2,)),
        deck_ranks=tuple(range(2, 8)),
        contest=CONTEST_THREE_PLAYERS,
    ),
    # BG2-1, BG2-2: 24 cards, 3 + 3 then 3, six out of play.
    BULGARIAN2: replace(
        _TWO_PLAYERS, preset=BULGARIAN2, deck_ranks=tuple(range(2, 8)), before=((3, HAND),) * 2
    ),
    # OB-1..OB-6: 32 cards, 3 + 2 in hand, four stacks each, then 3 more in hand.
    OPEN_BELOT: replace(_TWO_PLAYERS, preset=OPEN_BELOT, before=_OPEN_LAYOUT, stacks=4),
}
"""Each preset as its parent with only what differs replaced."""


def house_rules_for(preset: str) -> tuple[HouseRule, ...]:
    """The house rules a host may set for a preset, for room creation forms."""
    return tuple(h for h in HOUSE_RULES if preset in h.presets)


__all__ = [
    "BULGARIAN",
    "BULGARIAN2",
    "BULGARIAN3",
    "FRENCH",
    "HOUSE_RULES",
    "OPEN_BELOT",
    "PRESETS",
    "HouseRule",
    "HouseRules",
    "Ruleset",
    "house_rules_for",
]
