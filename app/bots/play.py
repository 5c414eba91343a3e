"""Rule-of-thumb card play, shared by the basic bot and the strong bot's simulations.

It is a function of plain masks (own hand, legal cards, cards still out) so that it runs both
from a seat's view and, fast, inside the thousands of simulated deals a strong decision plays.
The rules of thumb: take tricks with masters, draw trumps when the contract is ours, win a trick
as cheaply as possible, give points to a partner who holds the trick, and throw the least
valuable card when the trick is lost.
"""

from __future__ import annotations

from .cards import ALL_TRUMPS, NO_TRUMPS, SUIT_MASK, TABLES, Table, bits


def choose_card(
    hand: int,
    legal: int,
    contract: int,
    trick: tuple[int, ...],
    leader: int,
    out: int,
    our_contract: bool,
    partner: int,
    seats: int,
) -> int:
    """The card to play. `out` holds the cards the other seats may still have; `partner` is
    the seat on our side (-1: nobody, BGN-4) and `seats` the table's size."""
    cards = list(bits(legal))
    if len(cards) == 1:
        return cards[0]
    table = TABLES[contract]
    if not trick:
        return _lead(table, hand, cards, out, our_contract)
    return _follow(table, cards, trick, leader, out, partner, seats)


def _is_master(table: Table, card: int, out: int) -> bool:
    """No card still out ranks above it in its suit."""
    return not table.beaters[card] & out


def _lead(table: Table, hand: int, cards: list[int], out: int, our_contract: bool) -> int:
    contract = table.contract
    if contract < NO_TRUMPS and our_contract and out & table.trumps:
        masters = [c for c in cards if table.trumps >> c & 1 and _is_master(table, c, out)]
        if masters:
            return masters[0]  # draw trumps with the master trump
    side = [c for c in cards if not (contract < NO_TRUMPS and table.trumps >> c & 1)]
    masters = [c for c in side if _is_master(table, c, out) and out & SUIT_MASK[c >> 3]]
    if masters:
        return max(masters, key=lambda c: (table.points[c], table.strength[c]))
    pool = side or cards
    # A small card from a long suit, never from one where it would expose our 10 or ace.
    return min(
        pool,
        key=lambda c: (
            table.points[c] >= 10,
            table.points[c],
            -(hand & SUIT_MASK[c >> 3]).bit_count(),
            table.strength[c],
        ),
    )


def _follow(
    table: Table,
    cards: list[int],
    trick: tuple[int, ...],
    leader: int,
    out: int,
    partner: int,
    seats: int,
) -> int:
    led = trick[0] >> 3
    pos, best = table.best_of(trick)
    last = len(trick) == seats - 1
    if (leader + pos) % seats == partner:
        partner_safe = last or (
            _is_master(table, best, out)
            and not (
                table.contract < NO_TRUMPS
                and not table.trumps >> best & 1
                and out & table.trumps
                and len(trick) == 1
            )
        )
        if partner_safe:
            return _smear(table, cards, out)
        return _cheapest(table, cards)
    winners = [c for c in cards if table.wins_over(c, best, led)]
    if winners:
        if last:
            return _cheapest(table, winners)
        safe = [c for c in winners if _is_master(table, c, out)]
        if safe:
            return _cheapest(table, safe)
        worth = sum(table.points[c] for c in trick)
        if worth >= 10 or table.contract == ALL_TRUMPS:
            return max(winners, key=lambda c: table.strength[c])
    return _cheapest(table, cards)


def _cheapest(table: Table, cards: list[int]) -> int:
    """The card that costs least to give away: fewest points, not a trump, weakest."""
    return min(
        cards, key=lambda c: (table.points[c], bool(table.trumps >> c & 1), table.strength[c])
    )


def _smear(table: Table, cards: list[int], out: int) -> int:
    """Give points to partner's trick, but keep trumps and cards that can win tricks alone."""
    keep_trumps = table.contract < NO_TRUMPS
    givable = [
        c
        for c in cards
        if not (keep_trumps and table.trumps >> c & 1) and not _is_master(table, c, out)
    ]
    if givable:
        return max(givable, key=lambda c: (table.points[c], -table.strength[c]))
    return _cheapest(table, cards)
