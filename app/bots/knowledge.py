"""What a seat can deduce from public information alone: who played what, the cards each other
seat cannot hold, and the cards it must hold.

Everything here is computed from a `SeatView`, so a bot that reasons with it can never use a card
its seat could not know. The deductions are the hard ones the rules force (a player who does not
follow suit is void in it; one who does not beat a trump when the rules say "beat if you can" has
nothing higher; a shown declaration, a belote or the French turned card place cards in a hand).
Soft evidence from the bidding is weighed by the sampler, not here, because a player may bid
whatever they like.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules import Contract, Phase, Ruleset, SeatView

from .cards import (
    ALL_TRUMPS,
    NO_TRUMPS,
    RK,
    RQ,
    SUIT_MASK,
    TABLES,
    all_table_up,
    contract_index,
    mask_of,
)


@dataclass(frozen=True, slots=True)
class PastPlay:
    """One card played so far, with the cards already in its trick when it fell."""

    seat: int
    card: int
    prefix: tuple[int, ...]
    leader: int


def past_plays(view: SeatView) -> list[PastPlay]:
    """Every card played in the deal so far, in the order played."""
    seats = len(view.hand_sizes)
    out = []
    tricks = [(t.leader, t.cards) for t in view.tricks]
    tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        ints = tuple(int(c) for c in cards)
        for i, card in enumerate(ints):
            out.append(PastPlay((leader + i) % seats, card, ints[:i], leader))
    return out


def played_masks(plays: list[PastPlay], seats: int) -> list[int]:
    """The cards each seat has played."""
    out = [0] * seats
    for p in plays:
        out[p.seat] |= 1 << p.card
    return out


def partners(ruleset: Ruleset, bidder: int | None) -> tuple[int, ...]:
    """Each seat's partner for BG-9's exemption, -1 for none: the teammate at four (C-6),
    nobody at two or three (BGN-4), the other defender with `defenders_partners` (BG3-9)."""
    if ruleset.house_rules.defenders_partners and ruleset.seats == 3 and bidder is not None:
        defenders = [s for s in range(3) if s != bidder]
        return tuple(-1 if s == bidder else defenders[1 - defenders.index(s)] for s in range(3))
    return ruleset.partner


def forbidden_by_play(
    plays: list[PastPlay], contract: int, ruleset: Ruleset, bidder: int | None
) -> list[int]:
    """For each play, the cards its player could not play then: proved by how it followed
    (BG-8..11, FR-6, BGN-4, BG3-9; OB-10: over the cards playable at that moment).

    Each rule of play offers a preferred set of cards (follow and beat, follow, overtrump,
    trump, anything); playing a card from a later set proves the earlier sets were empty.
    """
    table = TABLES[contract]
    partner = partners(ruleset, bidder)
    seats = ruleset.seats
    must_undertrump = ruleset.house_rules.must_undertrump
    out = []
    for p in plays:
        if not p.prefix:
            out.append(0)
            continue
        mask = 0
        led = p.prefix[0] >> 3
        pos, best = table.best_of(p.prefix)
        card, seat = p.card, p.seat
        trump_led = contract in (ALL_TRUMPS, led)
        if card >> 3 == led:
            if trump_led and not table.wins_over(card, best, led):
                mask = table.beaters[best]
            out.append(mask)
            continue
        mask = SUIT_MASK[led]
        if contract >= NO_TRUMPS or trump_led or (p.leader + pos) % seats == partner[seat]:
            out.append(mask)
            continue
        best_is_trump = bool(table.trumps >> best & 1)
        if not table.trumps >> card & 1:
            # A discard: no trump at all, or (undertrumping optional) none above the best one.
            lenient = best_is_trump and not must_undertrump
            mask |= table.beaters[best] if lenient else table.trumps
        elif best_is_trump and not table.wins_over(card, best, led):
            mask |= table.beaters[best]
        out.append(mask)
    return out


def forbidden_masks(
    plays: list[PastPlay], contract: int, ruleset: Ruleset, bidder: int | None
) -> list[int]:
    """For each seat, the cards it cannot hold in hand now (its hand only shrinks in the play,
    so what it could not play then it does not hold now)."""
    return _per_seat(plays, forbidden_by_play(plays, contract, ruleset, bidder), ruleset.seats)


def _per_seat(plays: list[PastPlay], by_play: list[int], seats: int) -> list[int]:
    out = [0] * seats
    for p, mask in zip(plays, by_play, strict=True):
        out[p.seat] |= mask
    return out


def known_masks(view: SeatView) -> list[int]:
    """For each seat, cards known to have been in its hand: shown declarations, belote pairs,
    and the French turned card, which the taker receives (FR-4)."""
    out = [0] * len(view.hand_sizes)
    for d in view.declarations:
        if d.cards is not None:
            out[d.seat] |= mask_of(d.cards)
    for seat, suit_name in view.belotes:
        suit = int(Contract.parse(suit_name))
        out[seat] |= 1 << (suit * 8 + RK) | 1 << (suit * 8 + RQ)
    if view.turned is not None and view.bidder is not None and view.phase is not Phase.BIDDING:
        out[view.bidder] |= 1 << int(view.turned)
    return out


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The public facts about the hidden hands, as masks per seat."""

    plays: list[PastPlay]
    played: list[int]
    forbidden: list[int]
    """Cards each seat cannot hold in hand now."""
    by_play: list[int]
    """For each of `plays`, the cards its player could not play then (`forbidden_by_play`)."""
    holds: list[int]
    """Cards each seat is known to hold in hand still (known to have had, not yet played, not
    face up on the table)."""


def deduce(view: SeatView, ruleset: Ruleset) -> Knowledge:
    """Collect what `view`'s seat can know about the other hands."""
    plays = past_plays(view)
    played = played_masks(plays, len(view.hand_sizes))
    by_play = [0] * len(plays)
    if view.contract is not None:
        by_play = forbidden_by_play(plays, contract_index(view.contract), ruleset, view.bidder)
    forbidden = _per_seat(plays, by_play, ruleset.seats)
    table = all_table_up(view)
    holds = [k & ~p & ~table for k, p in zip(known_masks(view), played, strict=True)]
    return Knowledge(plays, played, forbidden, by_play, holds)
