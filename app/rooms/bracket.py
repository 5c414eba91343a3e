"""A knockout tournament's bracket, as pure functions of what is decided so far
(``app.rooms.tournaments`` stores it and opens the tables).

The entrants are drawn into *units* — the sides of the game: one player, or two partners drawn
together (a "mêlée", as a club's belote contest draws them; an odd one out plays with a bot
partner). The units are placed in a bracket of the next power of two by the usual seeding
order, so the byes a short field needs are spread over the bracket rather than meeting each
other in the second round; the draw's order is the seeding. A match is ``(round, slot)``: the
winners of round ``r``'s slots ``2k`` and ``2k + 1`` meet in round ``r + 1``'s slot ``k``, and
the single match of the last round is the final.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_UNITS = 2
"""A tournament needs a final at least."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """A match of the bracket: ``b`` None is a bye, which ``a`` wins without playing."""

    round: int
    slot: int
    a: int
    b: int | None


def draw_units(
    player_ids: Sequence[str],
    side_size: int,
    rng: random.Random,
    pairs: Sequence[tuple[str, str]] = (),
) -> list[list[str]]:
    """The entrants drawn at random into units of ``side_size`` (the last may be short). Two
    who asked to play together (``pairs``, in a game of partners) are a unit of their own, and
    the units' order, which seeds the bracket, is then drawn too."""
    paired = {player for pair in pairs for player in pair}
    ids = [player for player in player_ids if player not in paired]
    rng.shuffle(ids)
    units = [list(pair) for pair in pairs]
    units += [ids[i : i + side_size] for i in range(0, len(ids), side_size)]
    if pairs:
        rng.shuffle(units)
    return units


def mutual_partners(named: Mapping[str, str | None]) -> list[tuple[str, str]]:
    """Of each entrant and whom they asked to play with (in the order they entered), the pairs
    who asked for each other, each once, in that order: one who asked alone is drawn."""
    pairs: list[tuple[str, str]] = []
    taken: set[str] = set()
    for player, partner in named.items():
        if partner is not None and partner not in taken and named.get(partner) == player:
            pairs.append((player, partner))
            taken.update((player, partner))
    return pairs


def bracket_size(units: int) -> int:
    """The smallest power of two that holds ``units`` (at least a final's two)."""
    size = 2
    while size < units:
        size *= 2
    return size


def rounds_of(units: int) -> int:
    """How many rounds a bracket of ``units`` plays, the final included."""
    return bracket_size(units).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order for ``size`` (a power of two), so that seeds 0 and 1 can meet
    only in the final, 0 to 3 only in the semi-finals, and so on: [0, 7, 3, 4, 1, 6, 2, 5]."""
    order = [0]
    while len(order) < size:
        mirror = 2 * len(order) - 1
        order = [x for seed in order for x in (seed, mirror - seed)]
    return order


def first_round(units: int) -> list[Pairing]:
    """Round 0: unit i is seed i; a seed beyond the field is a bye for its opponent."""
    order = seed_order(bracket_size(units))
    pairings = []
    for slot in range(len(order) // 2):
        a, b = order[2 * slot], order[2 * slot + 1]
        pairings.append(Pairing(0, slot, a, b if b < units else None))
    return pairings


def next_pairings(
    winners: Mapping[tuple[int, int], int], made: set[tuple[int, int]]
) -> list[Pairing]:
    """The matches that ``winners`` (by ``(round, slot)``) decide and that are not ``made``
    yet: each pair of decided slots sends its two winners to the next round."""
    pairings = []
    for (round_, slot), winner in sorted(winners.items()):
        if slot % 2:
            continue
        other = winners.get((round_, slot + 1))
        target = (round_ + 1, slot // 2)
        if other is not None and target not in made:
            pairings.append(Pairing(round_ + 1, slot // 2, winner, other))
    return pairings
