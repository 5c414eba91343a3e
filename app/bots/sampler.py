"""Determinization: deal the cards a seat cannot see, consistently with everything public, and
rebuild the whole deal as an engine state that the search can play forward.

The engine has no constructor for "a deal with these hands at this point", so the sampler makes a
deck that deals the sampled hands, and replays the public history (the bids, every card played,
the declarations and belotes announced with them) through `new_deal`/`apply`. The replay is the
final judge: a sample the engine rejects, or whose public face differs from the seat's view (for
instance declarations resolved differently), is thrown away and another one drawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.rules import (
    Action,
    Call,
    Card,
    Contract,
    DealState,
    Phase,
    Play,
    RuleError,
    Ruleset,
    SeatView,
    apply,
    new_deal,
    view,
)

from .bidding import CONTRACT_CALLS, SUIT_CALLS, call_is_plausible
from .cards import ALL, CARD, RK, RQ, bits, mask_of
from .knowledge import Knowledge, deduce

STOCK = 4
"""Pseudo-seat for the cards not dealt yet (during the bidding)."""

_RUN_LENGTH = {"tierce": 3, "quarte": 4, "quinte": 5, "quinte_tierce": 8}
_CARRE_RANKS = range(2, 8)  # 9 10 J Q K A: carrés of 8s and 7s do not exist (BG-20)


def _combinations(kind: str) -> list[int]:
    """Every set of cards that makes a declaration of this kind, as masks."""
    if kind == "carre":
        return [mask_of(s * 8 + r for s in range(4)) for r in _CARRE_RANKS]
    length = _RUN_LENGTH[kind]
    return [((1 << length) - 1) << (8 * s + start) for s in range(4) for start in range(9 - length)]


_COMBINATIONS = {kind: _combinations(kind) for kind in (*_RUN_LENGTH, "carre")}


@dataclass(frozen=True, slots=True)
class _FirstPlay:
    """A seat's first card of the deal, where its declarations ride (BG-16)."""

    index: int
    declared: tuple[tuple[Card, ...] | str, ...]
    """The seat's declarations in the order announced: their cards if shown, else their kind."""


class Sampler:
    """Draws full deals consistent with one seat's view. Build once per decision, sample often."""

    def __init__(self, seat_view: SeatView) -> None:
        if seat_view.seat is None or seat_view.hand is None:
            raise ValueError("a sampler needs a seat's view, not a spectator's")
        self.view = seat_view
        self.seat = seat_view.seat
        self.ruleset = Ruleset.from_dict(seat_view.rules)
        self.knowledge: Knowledge = deduce(seat_view, self.ruleset)
        self.bidding = seat_view.phase is Phase.BIDDING
        self.others = [s for s in range(4) if s != self.seat]
        self._my_hand = mask_of(seat_view.hand)
        self._actions: list[Action] = list(seat_view.bids)
        self._first_plays = self._plays_from_view()
        known = self.knowledge.holds
        turned = 0 if seat_view.turned is None else 1 << int(seat_view.turned)
        seen = self._my_hand | mask_of(p.card for p in self.knowledge.plays)
        for s in self.others:
            seen |= known[s]
        if self.bidding:
            seen |= turned
        self._pool = ALL & ~seen
        self._need = {s: seat_view.hand_sizes[s] - known[s].bit_count() for s in self.others}
        if self.bidding:
            self._need[STOCK] = self._pool.bit_count() - sum(self._need.values())
        self._evidence = self._bidding_evidence()

    def _bidding_evidence(self) -> list[tuple[int, Call, tuple[Call, ...]]]:
        """The other seats' calls worth checking a sample against, with the contracts each
        could still bid. Passes count only while hands are the five cards they bid on, and
        only a seat's last one (the most telling); a pass on partner's contract says nothing."""
        evidence = []
        last_pass: dict[int, tuple[int, Call, tuple[Call, ...]]] = {}
        current = -1
        bidder: int | None = None
        turned = self.view.turned
        second_round = tuple(
            c for c in SUIT_CALLS if turned is None or c != SUIT_CALLS[turned >> 3]
        )
        for number, bid in enumerate(self.view.bids):
            open_calls: tuple[Call, ...]
            if self.ruleset.is_french:
                open_calls = (Call.TAKE,) if number < 4 else second_round  # FR-3
            else:
                open_calls = CONTRACT_CALLS[current + 1 :]
            if bid.seat != self.seat:
                if bid.call != Call.PASS:
                    evidence.append((bid.seat, bid.call, open_calls))
                elif self.bidding and (bidder is None or bidder % 2 != bid.seat % 2):
                    last_pass[bid.seat] = (bid.seat, bid.call, open_calls)
            if bid.call in CONTRACT_CALLS:
                current, bidder = CONTRACT_CALLS.index(bid.call), bid.seat
        return evidence + list(last_pass.values())

    def _plays_from_view(self) -> dict[int, _FirstPlay]:
        """Append the card plays to the action list; note where each seat's declarations go."""
        belotes = {(seat, int(Contract.parse(suit))) for seat, suit in self.view.belotes}
        declared: dict[int, list[tuple[Card, ...] | str]] = {}
        for d in self.view.declarations:
            declared.setdefault(d.seat, []).append(d.kind if d.cards is None else d.cards)
        first: dict[int, _FirstPlay] = {}
        for p in self.knowledge.plays:
            belote = False
            if (p.seat, p.card >> 3) in belotes and p.card & 7 in (RQ, RK):
                belotes.discard((p.seat, p.card >> 3))
                belote = True
            if p.seat not in first and p.seat in declared:
                first[p.seat] = _FirstPlay(len(self._actions), tuple(declared[p.seat]))
            self._actions.append(Play(p.seat, CARD[p.card], (), belote))
        return first

    def sample(self, rng: random.Random, tries: int = 30) -> DealState | None:
        """A full deal consistent with the view, or None if none was found in `tries` draws."""
        for attempt in range(tries):
            dealt = self._deal_hidden(rng)
            if dealt is None:
                continue
            hands, placed = dealt
            if attempt < tries // 2 and not self._fits_bidding(hands):
                continue
            state = self._replay(hands, placed, rng)
            if state is not None:
                return state
        return None

    def _deal_hidden(
        self, rng: random.Random
    ) -> tuple[dict[int, int], dict[int, list[int]]] | None:
        """Share the unseen cards out: known holdings, then a combination for each hidden
        declaration, then the rest. Returns the hands and the declarations' cards per seat."""
        know = self.knowledge
        hands = {s: know.holds[s] for s in self.others}
        need = dict(self._need)
        pool = self._pool
        placed: dict[int, list[int]] = {}
        for seat, fp in self._first_plays.items():
            used = 0
            masks = placed[seat] = []
            for d in fp.declared:
                if not isinstance(d, str):
                    masks.append(mask_of(d))
                    used |= masks[-1]
                    continue
                own = seat == self.seat  # even our own hidden declaration is only a kind
                have = (self._my_hand if own else hands[seat]) | know.played[seat]
                free = 0 if own else pool & ~know.forbidden[seat]
                options = [
                    m
                    for m in _COMBINATIONS[d]
                    if m & ~(have | free) == 0
                    and not m & used
                    and (m & ~have).bit_count() <= need.get(seat, 0)
                ]
                if not options:
                    return None
                chosen = rng.choice(options)
                masks.append(chosen)
                used |= chosen
                if not own:
                    hands[seat] |= chosen
                    need[seat] -= (chosen & pool).bit_count()
                    pool &= ~chosen
        cards = list(bits(pool))
        rng.shuffle(cards)
        choices = []
        for card in cards:
            seats = [s for s in self.others if not know.forbidden[s] >> card & 1]
            if self.bidding:
                seats.append(STOCK)
            choices.append((len(seats), card, seats))
        choices.sort(key=lambda x: x[0])
        if self.bidding:
            hands[STOCK] = 0
        for _, card, seats in choices:
            open_seats = [s for s in seats if need[s] > 0]
            if not open_seats:
                return None
            pick = rng.randrange(sum(need[s] for s in open_seats))
            for s in open_seats:
                pick -= need[s]
                if pick < 0:
                    hands[s] |= 1 << card
                    need[s] -= 1
                    break
        return hands, placed

    def _fits_bidding(self, hands: dict[int, int]) -> bool:
        """Do the sampled hands explain the other seats' bids (loosely)?"""
        turned = self.view.turned
        played = self.knowledge.played
        return all(
            call_is_plausible(hands[seat] | played[seat], call, open_calls, turned)
            for seat, call, open_calls in self._evidence
        )

    def _replay(
        self, hands: dict[int, int], placed: dict[int, list[int]], rng: random.Random
    ) -> DealState | None:
        """Build the deck that deals `hands`, replay the public history; None if it fails."""
        originals = {s: hands[s] | self.knowledge.played[s] for s in self.others}
        originals[self.seat] = self._my_hand | self.knowledge.played[self.seat]
        deck = self._deck(originals, hands.get(STOCK, 0), rng)
        actions = list(self._actions)
        for seat, fp in self._first_plays.items():
            play = actions[fp.index]
            assert isinstance(play, Play)
            declare = tuple(tuple(CARD[c] for c in bits(m)) for m in placed[seat])
            actions[fp.index] = Play(play.seat, play.card, declare, play.belote)
        state = new_deal(self.ruleset, self.view.dealer, deck, self.view.hanging_in)
        try:
            for action in actions:
                state = apply(state, action)
        except RuleError:
            return None
        if self.view.declarations and view(state, self.seat).declarations != (
            self.view.declarations
        ):
            return None
        return state

    def _deck(self, originals: dict[int, int], stock: int, rng: random.Random) -> list[Card]:
        """A deck (top first) that deals `originals` to the seats (C-9, BG-3, FR-2, FR-4,
        CRO-1): the ruleset's packets before the bidding, from each seat's own cards and, for
        what it does not hold yet (a Croatian pair still face down), from the stock; then the
        turned card; then the rest of each seat's cards, or the stock during the bidding."""
        ruleset = self.ruleset
        dealer = self.view.dealer
        order = [(dealer + 1 + i) % ruleset.seats for i in range(ruleset.seats)]
        turned = self.view.turned
        turned_bit = 0 if turned is None else 1 << int(turned)
        own: dict[int, list[int]] = {}
        for seat in order:
            own[seat] = list(bits(originals[seat] & ~turned_bit))
            rng.shuffle(own[seat])
        tail = list(bits(stock))
        rng.shuffle(tail)
        deck: list[int] = []
        for size, _slot in ruleset.before:
            for seat in order:
                for _ in range(size):
                    deck.append(own[seat].pop() if own[seat] else tail.pop())
        if turned is not None:
            deck.append(int(turned))
        if self.bidding:
            deck.extend(tail)
        else:
            for seat in order:
                deck.extend(own[seat])
        return [CARD[c] for c in deck]
