"""Declarations (BG-12..BG-20, FR-8): what a hand may declare, and which declarations score.

A declaration is named by its exact cards, as records write it. Runs of 6 and 7 count as the
highest quinte in them and a run of 8 as a quinte plus a tierce (BG-13); carrés of 8s and 7s do
not exist (BG-20).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from .cards import CARDS, R7, R8, SUIT_MASK, TRUMP_STRENGTH_BY_RANK, Card, mask_of
from .contracts import Contract
from .errors import IllegalDeclaration
from .ruleset import Ruleset

SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 120}
SEQUENCE_KINDS = {
    3: "tierce",
    4: "quarte",
    5: "quinte",
    6: "quinte",
    7: "quinte",
    8: "quinte_tierce",
}
CARRE_POINTS = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}  # by rank index: 9 T J Q K A


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration: a sequence (3..8 adjacent cards of a suit) or a carré."""

    cards: tuple[Card, ...]
    kind: str
    points: int
    suit: int | None
    """The sequence's suit; None for a carré."""
    top: int
    """Sequence: rank index of the top card of the quinte it counts as. Carré: its rank."""
    length: int
    """The length a sequence counts as in comparisons (6..8 count as 5); 4 for a carré."""

    @property
    def is_carre(self) -> bool:
        return self.suit is None


def classify(cards: Sequence[Card]) -> Declaration | None:
    """The declaration these exact cards make, or None if they make none (BG-13, BG-14)."""
    ordered = tuple(sorted(cards))
    if len(set(ordered)) != len(ordered):
        return None
    ranks = [c & 7 for c in ordered]
    suits = {c >> 3 for c in ordered}
    if len(ordered) == 4 and len(set(ranks)) == 1:
        rank = ranks[0]
        if rank in (R7, R8):
            return None
        return Declaration(ordered, "carre", CARRE_POINTS[rank], None, rank, 4)
    if len(suits) != 1 or not 3 <= len(ordered) <= 8:
        return None
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return None
    length = len(ordered)
    top = ranks[-1]
    # BG-13: 6 and 7 count as the highest quinte in them, 8 as a quinte to the ace plus a tierce.
    return Declaration(
        ordered,
        SEQUENCE_KINDS[length],
        SEQUENCE_POINTS[length],
        ordered[0] >> 3,
        top,
        min(length, 5),
    )


def _runs(hand: int) -> list[int]:
    """The maximal runs of 3+ adjacent cards of a suit in a hand, as masks."""
    runs = []
    for suit in range(4):
        bits = (hand & SUIT_MASK[suit]) >> (8 * suit)
        rank = 0
        while rank < 8:
            if not bits >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < 8 and bits >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append(((1 << (rank - start)) - 1) << (8 * suit + start))
    return runs


def allowed(ruleset: Ruleset, contract: Contract) -> bool:
    """Whether declarations exist at all in this deal (BG-12, FR-8)."""
    if contract == Contract.NO_TRUMPS:
        return False
    return not ruleset.is_french or ruleset.house_rules.announces


def check(
    ruleset: Ruleset,
    contract: Contract,
    hand: int,
    declare: Iterable[Sequence[Card]],
    earlier: Sequence[Declaration] = (),
) -> list[Declaration]:
    """Validate what a player announces from `hand` (the cards he may declare from), after
    `earlier`, what he declared with an earlier card (TWO-2); raise IllegalDeclaration with
    the rule."""
    declare = list(declare)
    if not declare:
        return []
    if not allowed(ruleset, contract):
        rule = "FR-8" if ruleset.is_french else "BG-12"
        raise IllegalDeclaration("there are no declarations in this deal", rule)
    out: list[Declaration] = list(earlier)
    used = 0
    from_run: dict[int, list[Declaration]] = {}
    runs = _runs(hand)
    for before in earlier:
        used |= mask_of(before.cards)
        if not before.is_carre:
            run = next(r for r in runs if mask_of(before.cards) & r)
            from_run.setdefault(run, []).append(before)
    for cards in declare:
        declaration = classify(cards)
        if declaration is None:
            shown = " ".join(str(CARDS[c]) for c in cards)
            raise IllegalDeclaration(f"{shown} is not a declaration", "BG-20")
        mask = mask_of(declaration.cards)
        if mask & ~hand:
            if ruleset.stacks:
                why = "a declaration may only use cards in your hand or face up on your table"
                raise IllegalDeclaration(why, "OB-13")
            raise IllegalDeclaration("a declaration may only use cards of your own hand", "BG-15")
        if mask & used and not (
            ruleset.house_rules.card_in_two_declarations and _carre_and_sequence(out, declaration)
        ):
            raise IllegalDeclaration("a card may be part of only one declaration", "BG-15")
        if not declaration.is_carre:
            run = next(r for r in runs if mask & r == mask)
            taken = from_run.setdefault(run, [])
            taken.append(declaration)
            if len(taken) > 1 and not _quinte_and_tierce(run, taken):
                raise IllegalDeclaration("only one sequence may be declared from a run", "BG-13")
        used |= mask
        out.append(declaration)
    return out[len(earlier) :]


def _quinte_and_tierce(run: int, taken: list[Declaration]) -> bool:
    """BG-13: a run of 8 may be declared as its quinte to the ace plus the tierce below it."""
    lengths = sorted(len(d.cards) for d in taken)
    quinte_top = max(d.top for d in taken if len(d.cards) == 5) if lengths == [3, 5] else -1
    return run.bit_count() == 8 and quinte_top == 7


def _carre_and_sequence(earlier: list[Declaration], new: Declaration) -> bool:
    """With `card_in_two_declarations`, overlaps are allowed only between a carré and a sequence."""
    new_mask = mask_of(new.cards)
    return all(d.is_carre != new.is_carre for d in earlier if mask_of(d.cards) & new_mask)


def options(
    ruleset: Ruleset, contract: Contract, hand: int, earlier: Sequence[Declaration] = ()
) -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """Every set of declarations the hand may announce, starting with announcing nothing;
    after `earlier` ones (TWO-2), only those that `check` accepts beside them."""
    if not allowed(ruleset, contract):
        return ((),)
    if earlier:
        return tuple(
            o
            for o in options(ruleset, contract, hand)
            if _fits(ruleset, contract, hand, o, earlier)
        )
    choices: list[list[tuple[tuple[Card, ...], ...]]] = []
    for rank in range(2, 8):
        carre = mask_of(s * 8 + rank for s in range(4))
        if hand & carre == carre:
            choices.append([(), (tuple(CARDS[s * 8 + rank] for s in range(4)),)])
    for run in _runs(hand):
        low = (run & -run).bit_length() - 1
        length = run.bit_count()
        windows: list[tuple[tuple[Card, ...], ...]] = [()]
        for size in range(3, length + 1):
            for start in range(low, low + length - size + 1):
                windows.append((tuple(CARDS[c] for c in range(start, start + size)),))
        if length == 8:  # BG-13: the run of 8 as a quinte plus a tierce, written as two
            run_cards = tuple(CARDS[c] for c in range(low, low + 8))
            windows.append((run_cards[:3], run_cards[3:]))
        choices.append(windows)
    if not choices:
        return ((),)
    two = ruleset.house_rules.card_in_two_declarations
    out = []
    for combo in product(*choices):
        picked = [d for group in combo for d in group]
        if not two and _overlap(picked):
            continue
        out.append(tuple(sorted(picked, key=lambda d: (d[0], len(d)))))
    out.sort(key=lambda o: (len(o), o))
    return tuple(out)


def _fits(
    ruleset: Ruleset,
    contract: Contract,
    hand: int,
    option: tuple[tuple[Card, ...], ...],
    earlier: Sequence[Declaration],
) -> bool:
    try:
        check(ruleset, contract, hand, option, earlier)
    except IllegalDeclaration:
        return False
    return True


def _overlap(declarations: list[tuple[Card, ...]]) -> bool:
    seen = 0
    for d in declarations:
        mask = mask_of(d)
        if mask & seen:
            return True
        seen |= mask
    return False


@dataclass(frozen=True, slots=True)
class Announced:
    """A declaration announced by a seat; `order` is its place in the first trick (FR-8)."""

    seat: int
    declaration: Declaration
    order: int


def scoring(
    ruleset: Ruleset,
    contract: Contract,
    announced: Sequence[Announced],
    teams_with_tricks: Iterable[int],
) -> list[Announced]:
    """The announced declarations that score (BG-17, BG-18, BG-20; FR-8).

    Teams that took no trick are left out before comparing (BG-20). Pass every team to get the
    resolution shown at the end of the first trick (BG-16).
    """
    if not allowed(ruleset, contract):
        return []
    playing = set(teams_with_tricks)
    live = [a for a in announced if ruleset.team_of(a.seat) in playing]
    if not live:
        return []
    if ruleset.is_french:
        return _french_best_team(ruleset, contract, live)
    sequences = [a for a in live if not a.declaration.is_carre]
    carres = [a for a in live if a.declaration.is_carre]
    return _best_team(ruleset, sequences, _sequence_key) + _best_team(ruleset, carres, _carre_key)


def _sequence_key(a: Announced) -> tuple[int, ...]:
    return (a.declaration.length, a.declaration.top)


def _carre_key(a: Announced) -> tuple[int, ...]:
    return (TRUMP_STRENGTH_BY_RANK[a.declaration.top],)


def _best_team(
    ruleset: Ruleset, announced: list[Announced], keyf: Callable[[Announced], tuple[int, ...]]
) -> list[Announced]:
    """BG-17/BG-18: the team with the best one scores all of its own; equal bests score nothing."""
    if not announced:
        return []
    best_by_team: dict[int, tuple[int, ...]] = {}
    for a in announced:
        team = ruleset.team_of(a.seat)
        k = keyf(a)
        if team not in best_by_team or k > best_by_team[team]:
            best_by_team[team] = k
    ranked = sorted(best_by_team.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return []
    winner = ranked[0][0]
    return [a for a in announced if ruleset.team_of(a.seat) == winner]


def _french_best_team(
    ruleset: Ruleset, contract: Contract, announced: list[Announced]
) -> list[Announced]:
    """FR-8: one best announce over carrés and sequences; its team scores all of its own.

    A sequence compares by the value of the sequence it counts as (BG-13): a run of 6 or 7 as
    its highest quinte, a run of 8 (a quinte plus a tierce) as its quinte, 100, not by the 120
    it scores, so that the run of 8 compares alike whether it is written whole or as two."""

    def key(a: Announced) -> tuple[int, ...]:
        d = a.declaration
        if d.is_carre:
            return (d.points, 1, TRUMP_STRENGTH_BY_RANK[d.top], 0, 0)
        in_trumps = int(contract.is_suit and d.suit == int(contract)) or int(
            contract == Contract.ALL_TRUMPS
        )
        value = SEQUENCE_POINTS[d.length]
        return (value, 0, d.length * 8 + d.top, in_trumps, -a.order)

    best = max(announced, key=key)
    team = ruleset.team_of(best.seat)
    return [a for a in announced if ruleset.team_of(a.seat) == team]
