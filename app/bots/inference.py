"""Soft inference: how likely a sampled world makes what the other players did, as a weight.

The hard facts of the play (voids, "nothing higher", shown declarations; `knowledge.py`) say
where a card cannot be; this module says where it probably is. A player's calls, leads, discards
and silences are choices, and a sensible player makes them with some hands far more often than
with others. Each choice seen in the view becomes a factor in (0, 1] — the chance that a sensible
player holding the world's hand would have made it — and a world's weight is their product.
The sampler accepts a drawn world with that probability (weighted rejection), so worlds come out
in proportion to uniform × weight; a factor is never 0, because players err and bluff, and the
replay through the engine still rejects every world that contradicts a hard fact.

"Sensible" is the basic bot's rules of thumb (`bidding.py`, `play.py`), softened:

- a call (BG-5, FR-3): a bid is likely when the hand's value for it reaches the bar the basic bot
  bids at, a pass when no open contract (and no contra it could say) does; contra, re-contra and
  sur-contra (SUR-2) by the defence value as the basic bot doubles;
- a lead (C-7): a player leading a card of a suit while holding the card that is master of it
  then is unlikely (masters are led first);
- a discard (BG-9..11, FR-6: not following, not trumping): throwing a card on a trick the
  player's side does not hold when a cheaper one of another suit was at hand is unlikely;
- a declaration not made (BG-16, FR-8, TWO-1) by a player who held one, or a belote not
  announced (BG-19, FR-7) with the queen and king of trumps in hand, is unlikely.

A player's hand at a past moment is the world's hand now plus the cards that player played since
(not so in Open Belot, where table cards turn up during the play, OB-10: there only the calls
are weighed).
The calls were made on the cards seen in the bidding; once the rest is dealt the world has only
the whole hand, so the bar is scaled to its size (`bidding.bid_at` is linear in the cards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.rules import Call, Contract, Phase, Ruleset, SeatView

from .bidding import (
    CONTRA_MARGIN,
    CONTRACT_CALLS,
    FRENCH_NAME_MARGIN,
    RECONTRA_MARGIN,
    SUIT_CALLS,
    SURCONTRA_MARGIN,
    contract_value,
    defence_value,
    suit_value,
)
from .cards import ALL_TRUMPS, NO_TRUMPS, RK, RQ, TABLES, Table, bits, contract_index, mask_of
from .knowledge import Knowledge, partners

SCALE = 1.5
"""How sharply a call's likelihood changes around its bar, in hand-value points (a logistic
curve's scale): a hand 3 points past the bar makes the call about 9 times in 10."""
FLOOR = 0.05
"""The least likely a choice can be: nobody is certain what another player holds."""
LEAD_UNDER_MASTER = 0.3
DISCARD_DEAR = 0.5
NO_DECLARATION = 0.25
NO_BELOTE = 0.1

_RUNS = [0b111 << (8 * s + start) for s in range(4) for start in range(6)]
_CARRES = [mask_of(s * 8 + r for s in range(4)) for r in range(2, 8)]  # 9..A (BG-14, BG-20)
DECLARATIONS = tuple(_RUNS + _CARRES)
"""Every tierce and every carré that scores: a hand holds a declaration if it holds one."""


def likely(margin: float) -> float:
    """The chance a sensible player makes a call with a hand `margin` points above its bar."""
    return FLOOR + (1 - 2 * FLOOR) / (1 + math.exp(-margin / SCALE))


@dataclass(frozen=True, slots=True)
class CallSeen:
    """A call of another seat, with what it could have said instead."""

    seat: int
    call: Call
    open_calls: tuple[Call, ...]
    """The contracts it could still bid (for a pass: the ones it turned down)."""
    current: Call | None
    """The contract standing when it spoke."""
    could_contra: bool
    """A pass that turned down a contra of the other side's contract."""
    margin: float
    """What the basic bot asks above the bar for a bid here (FR-3's second round: more)."""


@dataclass(frozen=True, slots=True)
class PlaySeen:
    """A card played by another seat that says something about the rest of its hand: `unlikely`
    is the weight of a world where, when it played, the seat held any card of `any_of` or all
    the cards of one of `all_of`."""

    index: int
    seat: int
    unlikely: float
    any_of: int = 0
    all_of: tuple[int, ...] = ()

    def holds(self, hand: int) -> bool:
        return bool(hand & self.any_of) or any(hand & m == m for m in self.all_of)


class Evidence:
    """Everything in one seat's view that weighs the other hands. Built once per decision."""

    def __init__(
        self, seat_view: SeatView, ruleset: Ruleset, knowledge: Knowledge, bar: float
    ) -> None:
        assert seat_view.seat is not None
        self.seat = seat_view.seat
        self.seats = ruleset.seats
        self.turned = seat_view.turned
        self.bar = bar
        self.bid_cards = bar_cards(ruleset)
        self.bidding = seat_view.phase is Phase.BIDDING
        self.calls = calls_seen(seat_view, ruleset)
        self.plays = plays_seen(seat_view, ruleset, knowledge)
        plays = knowledge.plays
        # later[i]: the cards play i's seat plays from play i on (its hand then = now | later).
        later = [0] * len(plays)
        running = [0] * self.seats
        for i in range(len(plays) - 1, -1, -1):
            running[plays[i].seat] |= 1 << plays[i].card
            later[i] = running[plays[i].seat]
        self._later = later
        self._played = knowledge.played
        self.weighed = sorted({c.seat for c in self.calls} | {p.seat for p in self.plays})
        """The seats some factor is about (never the own seat)."""

    def weight(self, hands: list[int]) -> float:
        """The product of every factor, for a world whose seats hold `hands` now (a seat's
        playable cards: hand and face-up table cards; the own seat's entry is not read)."""
        w = 1.0
        for seat in self.weighed:
            w *= self.seat_weight(seat, hands[seat])
        return w

    def seat_weight(self, seat: int, hand: int) -> float:
        """The product of the factors about one seat, holding `hand` now: a world's weight is
        the product over the seats, so a move of cards between two seats re-weighs two."""
        w = 1.0
        whole = hand | self._played[seat]
        for c in self.calls:
            if c.seat == seat:
                bar = self.bar if self.bidding else self.bar * whole.bit_count() / self.bid_cards
                w *= call_likelihood(whole, c, self.turned, bar)
        for p in self.plays:
            if p.seat == seat and p.holds(hand | self._later[p.index]):
                w *= p.unlikely
        return w


def bar_cards(ruleset: Ruleset) -> int:
    """How many cards a call is made on: the first packets and Open Belot's face-up table
    cards (OB-8)."""
    return sum(size for size, slot in ruleset.before if slot == 0) + ruleset.stacks


def call_likelihood(hand: int, seen: CallSeen, turned: int | None, bar: float) -> float:
    """How likely a sensible player holding `hand` made the call `seen` (BG-5, FR-3, SUR-2)."""
    call = seen.call
    if call == Call.PASS:
        p = 1.0
        if seen.open_calls:
            best = max(_value(hand, c, turned) for c in seen.open_calls)
            p = 1 - likely(best - bar - seen.margin)
        if seen.could_contra and seen.current is not None:
            p *= 1 - likely(defence_value(hand, seen.current) - bar - CONTRA_MARGIN)
        return max(p, FLOOR)
    if call == Call.CONTRA:
        assert seen.current is not None
        return likely(defence_value(hand, seen.current) - bar - CONTRA_MARGIN)
    if call == Call.RECONTRA:
        assert seen.current is not None
        return likely(contract_value(hand, seen.current) - bar - RECONTRA_MARGIN)
    if call == Call.SURCONTRA:
        assert seen.current is not None
        return likely(defence_value(hand, seen.current) - bar - SURCONTRA_MARGIN)
    return likely(_value(hand, call, turned) - bar - seen.margin)


def _value(hand: int, call: Call, turned: int | None) -> float:
    if call == Call.TAKE:
        assert turned is not None
        return suit_value(hand | 1 << turned, turned >> 3)
    return contract_value(hand, call)


def calls_seen(seat_view: SeatView, ruleset: Ruleset) -> list[CallSeen]:
    """The other seats' calls worth weighing: every bid, contra, re-contra and sur-contra, and
    each seat's last pass that turned something down. A pass while partner holds the contract
    says little (the basic bot leaves partner's bid alone), so it is not weighed."""
    seat = seat_view.seat
    turned = seat_view.turned
    team_of = ruleset.team_of
    seats = ruleset.seats
    second_round = tuple(c for c in SUIT_CALLS if turned is None or c != SUIT_CALLS[turned >> 3])
    seen: list[CallSeen] = []
    last_pass: dict[int, CallSeen] = {}
    current: Call | None = None
    bidder: int | None = None
    doubled = False
    for number, bid in enumerate(seat_view.bids):
        open_calls: tuple[Call, ...]
        margin = 0.0
        if ruleset.is_french:
            open_calls = (Call.TAKE,) if number < seats else second_round
            margin = 0.0 if number < seats else FRENCH_NAME_MARGIN
        else:
            start = 0 if current is None else CONTRACT_CALLS.index(current) + 1
            open_calls = CONTRACT_CALLS[start:]
        partner_holds = bidder is not None and team_of(bidder) == team_of(bid.seat)
        if bid.seat != seat:
            if bid.call != Call.PASS:
                seen.append(CallSeen(bid.seat, bid.call, open_calls, current, False, margin))
            elif not partner_holds:
                could_contra = not ruleset.is_french and current is not None and not doubled
                last_pass[bid.seat] = CallSeen(
                    bid.seat, bid.call, open_calls, current, could_contra, margin
                )
        if bid.call in CONTRACT_CALLS:
            current, bidder, doubled = bid.call, bid.seat, False
        elif bid.call == Call.TAKE and turned is not None:
            current, bidder = SUIT_CALLS[turned >> 3], bid.seat
        elif bid.call in (Call.CONTRA, Call.RECONTRA, Call.SURCONTRA):
            doubled = True
    return seen + list(last_pass.values())


def plays_seen(seat_view: SeatView, ruleset: Ruleset, knowledge: Knowledge) -> list[PlaySeen]:
    """The leads, discards, silent declarations and silent belotes of the other seats."""
    if seat_view.contract is None or ruleset.stacks:
        return []  # OB: a hand then is not the hand now plus later plays (OB-10), so no play
    contract = contract_index(seat_view.contract)
    table = TABLES[contract]
    me = seat_view.seat
    partner = partners(ruleset, seat_view.bidder)
    seats = ruleset.seats
    out: list[PlaySeen] = []
    gone = 0  # cards played before the current play
    for i, p in enumerate(knowledge.plays):
        card = p.card
        if p.seat != me:
            if not p.prefix:
                out += _lead(i, p.seat, card, table, gone)
            elif card >> 3 != p.prefix[0] >> 3 and not (
                contract < NO_TRUMPS and table.trumps >> card & 1
            ):
                pos, _best = table.best_of(p.prefix)
                if (p.leader + pos) % seats != partner[p.seat]:
                    out += _discard(i, p.seat, card, table, gone | 1 << card, p.prefix[0] >> 3)
        gone |= 1 << card
    out += _silences(seat_view, ruleset, knowledge, contract)
    return out


def _lead(i: int, seat: int, card: int, table: Table, gone: int) -> list[PlaySeen]:
    """Leading under the suit's master: unlikely if the leader held that master."""
    beaters = table.beaters
    above = beaters[card] & ~gone
    masters = [c for c in bits(above) if not beaters[c] & ~gone]
    return [PlaySeen(i, seat, LEAD_UNDER_MASTER, any_of=1 << masters[0])] if masters else []


def _discard(i: int, seat: int, card: int, table: Table, gone: int, led: int) -> list[PlaySeen]:
    """Throwing a card that costs points when one costing less (of another suit, no trump)
    was at hand: unlikely."""
    points = table.points
    keep = table.trumps if table.contract < NO_TRUMPS else 0
    cheaper = mask_of(
        c
        for c in range(32)
        if points[c] < points[card] and c >> 3 != led and not keep >> c & 1 and not gone >> c & 1
    )
    return [PlaySeen(i, seat, DISCARD_DEAR, any_of=cheaper)] if cheaper else []


def _silences(
    seat_view: SeatView, ruleset: Ruleset, knowledge: Knowledge, contract: int
) -> list[PlaySeen]:
    """A belote or declaration a seat did not announce when it could have: unlikely if the
    world's hand for the seat then held the other card of the pair (BG-19, FR-7) or a
    declaration (BG-16, TWO-1, FR-8)."""
    if contract == NO_TRUMPS:  # BG-12
        return []
    me = seat_view.seat
    table = TABLES[contract]
    belotes = {(s, int(Contract.parse(suit))) for s, suit in seat_view.belotes}
    out: list[PlaySeen] = []
    first: dict[int, int] = {}
    count = [0] * ruleset.seats
    for i, p in enumerate(knowledge.plays):
        count[p.seat] += 1
        if p.seat == me:
            continue
        first.setdefault(p.seat, i)
        suit, rank = p.card >> 3, p.card & 7
        if (
            rank in (RK, RQ)
            and table.trumps >> p.card & 1
            and (p.seat, suit) not in belotes
            and not (contract == ALL_TRUMPS and p.prefix and p.prefix[0] >> 3 != suit)
        ):
            other = 1 << (suit * 8 + (RQ if rank == RK else RK))
            out.append(PlaySeen(i, p.seat, NO_BELOTE, any_of=other))
    if ruleset.is_french and not ruleset.house_rules.announces:
        return out
    declared = {d.seat for d in seat_view.declarations}
    for seat, i in first.items():
        if seat not in declared and count[seat] >= ruleset.declaration_tricks:
            out.append(PlaySeen(i, seat, NO_DECLARATION, all_of=DECLARATIONS))
    return out
