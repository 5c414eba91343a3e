"""Determinization: deal the cards a seat cannot see, consistently with everything public, and
rebuild the whole deal as an engine state that the search can play forward.

The engine has no constructor for "a deal with these hands at this point", so the sampler makes a
deck that deals the sampled cards, and replays the public history (the bids, every card played,
the declarations and belotes announced with them) through `new_deal`/`apply`. The replay is the
final judge: a sample the engine rejects, or whose view from the seat differs from the seat's own
view, is thrown away and another one drawn (the tests check the whole view of every sample).

Where the unseen cards may lie is read from the ruleset and the view, the same for every preset:
the other seats' hands, the face-down table cards of Open Belot (the seat's own included: nobody
sees them, OB-7), the Croatian pairs not yet anybody's (CRO-3, the seat's own included), and the
rest of the deck (the packets still to deal during the bidding, the six out-of-play cards of
`bulgarian2`, BG2-4). The deck is then laid out packet by packet from the ruleset's own packets
(C-9, BG3-3, BG2-2, OB-3..OB-6, CRO-1).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from app.rules import (
    Action,
    Card,
    Contract,
    DealState,
    Phase,
    Play,
    RuleError,
    SeatView,
    apply,
    new_deal,
    view,
)

from .bidding import BID_AT, bid_at
from .cards import CARD, RK, RQ, bits, deck_mask, mask_of, ruleset_of, table_up
from .inference import Evidence, bar_cards
from .knowledge import Knowledge, deduce

_HAND = 0
_PAIR = 1
_DOWN = 2
"""Slot numbers of the ruleset's packets (`app.rules.ruleset`): hand, Croatian pair, and the
face-down (DOWN + k) and face-up (UP + k) cards of table stack k."""
_UP = 6

_RUN_LENGTH = {"tierce": 3, "quarte": 4, "quinte": 5, "quinte_tierce": 8}
_CARRE_RANKS = range(2, 8)  # 9 10 J Q K A: carrés of 8s and 7s do not exist (BG-20)


def _combinations(kind: str) -> list[int]:
    """Every set of cards that makes a declaration of this kind, as masks."""
    if kind == "carre":
        return [mask_of(s * 8 + r for s in range(4)) for r in _CARRE_RANKS]
    length = _RUN_LENGTH[kind]
    return [((1 << length) - 1) << (8 * s + start) for s in range(4) for start in range(9 - length)]


_COMBINATIONS = {kind: _combinations(kind) for kind in (*_RUN_LENGTH, "carre")}


MOVES = 16
"""Swaps the soft sampler's chain tries between two deals it returns (`Sampler.sample`)."""
BURN_IN = 40
"""Swaps from a chain's first (uniform) draw to its first deal returned."""

_Hidden = tuple[list[int], list[tuple[Card, ...]], int]
"""The hidden cards shared out: per place, the declarations' cards, the cards free to move."""


@dataclass(frozen=True, slots=True)
class _Deal:
    """Where every card of a sampled deal was dealt, per seat, and the cards never dealt yet."""

    hands: list[list[int]]
    """Each seat's hand cards as dealt, in deck order of its packets."""
    pairs: list[list[int]]
    stacks: list[list[tuple[int, int]]]
    """Each seat's table stacks as dealt: (face-up card, face-down card)."""
    rest: list[int]


class Sampler:
    """Draws full deals consistent with one seat's view. Build once per decision, sample often.

    With `soft` (the default) the deals come weighted by how well their hands explain what the
    other players chose to do (`inference.Evidence`); without it, uniformly among the deals
    the hard facts allow."""

    def __init__(self, seat_view: SeatView, soft: bool = True) -> None:
        if seat_view.seat is None or seat_view.hand is None:
            raise ValueError("a sampler needs a seat's view, not a spectator's")
        self.view = seat_view
        self.seat = seat_view.seat
        self.ruleset = ruleset = ruleset_of(seat_view)
        seats = self.seats = ruleset.seats
        self.knowledge: Knowledge = deduce(seat_view, ruleset)
        self.bidding = seat_view.phase is Phase.BIDDING
        self.others = [s for s in range(seats) if s != self.seat]
        self._my_hand = mask_of(seat_view.hand)
        self._up = [table_up(seat_view, s) for s in range(seats)]
        # Face-up table cards that may be in a first-trick declaration: not one turned up by
        # the play (OB-11, OB-13), unless declarations go on into the second trick (TWO-2).
        self._declarable = list(self._up)
        if seat_view.stacks is not None and ruleset.declaration_tricks == 1:
            self._declarable = [
                mask_of(up for up, down in own if up is not None and down)
                for own in seat_view.stacks
            ]
        know = self.knowledge
        seen = self._my_hand | mask_of(p.card for p in know.plays)
        for s in range(seats):
            seen |= self._up[s] | know.holds[s]
        if self.bidding and seat_view.turned is not None:
            seen |= 1 << int(seat_view.turned)
        self._pool = deck_mask(ruleset) & ~seen
        # How many unseen cards each place takes: the others' hands, the pairs, the face-down
        # table cards, and (last) the rest of the deck.
        need = [0] * (3 * seats + 1)
        for s in self.others:
            need[s] = seat_view.hand_sizes[s] - know.holds[s].bit_count()
        for s in range(seats):
            need[seats + s] = 0 if seat_view.pairs is None else seat_view.pairs[s]
            stacks = () if seat_view.stacks is None else seat_view.stacks[s]
            need[2 * seats + s] = sum(down for _up, down in stacks)
        need[-1] = self._pool.bit_count() - sum(need)
        self._need = need
        # The bar of a bid on the cards seen in the bidding (OB-8: with the face-up table
        # cards); the French bar is BID_AT, as the basic bot bids.
        bar = BID_AT if ruleset.is_french else bid_at(bar_cards(ruleset), ruleset)
        self.evidence = Evidence(seat_view, ruleset, self.knowledge, bar) if soft else None
        self._chain: _Hidden | None = None
        self._factors: list[float] = []
        self._hidden_declarations = any(d.cards is None for d in seat_view.declarations)

    def sample(self, rng: random.Random, tries: int = 30) -> DealState | None:
        """A full deal consistent with the view, or None if none was found in `tries` draws.

        Without soft inference each draw is independent. With it, the hidden cards move by a
        Metropolis chain kept from one call to the next: MOVES times per sample, two free cards
        of different places (each allowed in the other's place) are swapped, and the swap is
        kept with probability min(1, new weight / old weight). Its deals come in proportion to
        uniform × weight however unlikely the evidence makes a typical deal, where rejecting
        independent draws would cost hundreds of draws per deal. A chain whose deal the replay
        refuses starts afresh; the second half of the tries draw independently, as without
        soft inference, so that a view whose deals are hard to lay out still gets one."""
        for attempt in range(tries):
            walk = self.evidence is not None and attempt < tries // 2
            dealt = self._walk(rng) if walk else self._deal_hidden(rng)
            if dealt is None:
                continue
            places, declared, _free = dealt
            deal = self._as_dealt(places, rng)
            if deal is None:
                self._chain = None
                continue
            state = self._replay(self._deck(deal, rng), declared, rng)
            if state is not None:
                return state
            self._chain = None
        return None

    def _walk(self, rng: random.Random) -> _Hidden | None:
        """The chain's next state, MOVES swaps on from the last one, or BURN_IN swaps on from
        a fresh draw (which is uniform, not weighted). A swap re-weighs the two places it
        changes only (`Evidence.seat_weight`)."""
        evidence = self.evidence
        assert evidence is not None
        moves = MOVES
        if self._chain is None:
            self._chain = self._deal_hidden(rng)
            if self._chain is None:
                return None
            self._factors = [self._place_weight(p, m) for p, m in enumerate(self._chain[0])]
            moves = BURN_IN
        elif self._hidden_declarations:
            self._jump(rng)
        places, declared, free = self._chain
        places = list(places)
        factors = self._factors
        forbidden = self.knowledge.forbidden
        seats = self.seats
        cards = list(bits(free))
        if len(cards) < 2:
            return places, declared, free
        where = {c: next(p for p, m in enumerate(places) if m >> c & 1) for c in cards}
        for _ in range(moves):
            a, b = rng.sample(cards, 2)
            pa, pb = where[a], where[b]
            if pa == pb or (pb < seats and forbidden[pb] >> a & 1):
                continue
            if pa < seats and forbidden[pa] >> b & 1:
                continue
            swap = 1 << a | 1 << b
            old = factors[pa] * factors[pb]
            fa = self._place_weight(pa, places[pa] ^ swap)
            fb = self._place_weight(pb, places[pb] ^ swap)
            if fa * fb >= old or rng.random() * old < fa * fb:
                places[pa] ^= swap
                places[pb] ^= swap
                factors[pa], factors[pb] = fa, fb
                where[a], where[b] = pb, pa
        self._chain = (places, declared, free)
        return self._chain

    def _jump(self, rng: random.Random) -> None:
        """An independence move: a fresh draw replaces the chain's state with probability
        min(1, its weight / the state's). Swaps never move the cards of a hidden declaration,
        so without it every deal of a chain would place those the same way."""
        fresh = self._deal_hidden(rng)
        if fresh is None:
            return
        factors = [self._place_weight(p, m) for p, m in enumerate(fresh[0])]
        new, old = math.prod(factors), math.prod(self._factors)
        if new >= old or rng.random() * old < new:
            self._chain, self._factors = fresh, factors

    def _place_weight(self, place: int, cards: int) -> float:
        """The factors about the seat whose hand `place` is (1 for the other places)."""
        assert self.evidence is not None
        if place >= self.seats or place == self.seat:
            return 1.0
        return self.evidence.seat_weight(place, cards | self._up[place])

    def _deal_hidden(self, rng: random.Random) -> _Hidden | None:
        """Share the unseen cards out: known holdings, then a combination for each hidden
        declaration, then the rest. Returns the cards of each place (hands, pairs, face-down
        cards, rest; as in `_need`), the cards of every declaration in the view's order, and
        the cards shared out last (neither known nor declared: free to move between places)."""
        know = self.knowledge
        seats = self.seats
        places = [0] * len(self._need)
        for s in self.others:
            places[s] = know.holds[s]
        need = list(self._need)
        pool = self._pool
        used: dict[int, int] = {}
        declared: list[tuple[Card, ...]] = []
        for d in self.view.declarations:
            seat = d.seat
            if d.cards is not None:
                declared.append(d.cards)
                used[seat] = used.get(seat, 0) | mask_of(d.cards)
                continue
            own = seat == self.seat  # even our own hidden declaration is only a kind
            have = self._my_hand if own else places[seat]
            have |= know.played[seat] | self._declarable[seat]
            free = 0 if own else pool & ~know.forbidden[seat]
            taken = used.get(seat, 0)
            options = [
                m
                for m in _COMBINATIONS[d.kind]
                if m & ~(have | free) == 0
                and not m & taken
                and (m & ~have).bit_count() <= (0 if own else need[seat])
            ]
            if not options:
                return None
            chosen = rng.choice(options)
            declared.append(tuple(CARD[c] for c in bits(chosen)))
            used[seat] = taken | chosen
            if not own:
                places[seat] |= chosen & pool
                need[seat] -= (chosen & pool).bit_count()
                pool &= ~chosen
        cards = list(bits(pool))
        rng.shuffle(cards)
        free_places = [p for p in range(seats, len(need)) if need[p]]
        choices = []
        for card in cards:
            options = [s for s in self.others if not know.forbidden[s] >> card & 1]
            options += free_places
            choices.append((len(options), card, options))
        choices.sort(key=lambda x: x[0])
        for _, card, options in choices:
            open_places = [p for p in options if need[p] > 0]
            if not open_places:
                return None
            pick = rng.randrange(sum(need[p] for p in open_places))
            for p in open_places:
                pick -= need[p]
                if pick < 0:
                    places[p] |= 1 << card
                    need[p] -= 1
                    break
        return places, declared, pool

    def _as_dealt(self, places: list[int], rng: random.Random) -> _Deal | None:
        """Where each card was dealt: hand cards (now held or played from the hand), pairs and
        table stacks; None if the cards played cannot be placed on the stacks."""
        seats = self.seats
        know = self.knowledge
        pair_size = sum(size for size, slot in self.ruleset.before if slot == _PAIR)
        hands, pairs, stacks = [], [], []
        for s in range(seats):
            played = know.played[s]
            own: list[tuple[int, int]] = []
            if self.ruleset.stacks:
                laid = self._stacks_from_view(s, places[2 * seats + s], rng)
                if laid is None:
                    return None
                own = laid
                for up, down in own:
                    played &= ~(1 << up) & ~(1 << down)
            hand = (self._my_hand if s == self.seat else places[s]) | played
            pair = list(bits(places[seats + s]))
            if pair_size and not pair:  # the pair joined the hand already (CRO-3)
                pair = rng.sample(list(bits(hand)), pair_size)
                hand &= ~mask_of(pair)
            cards = list(bits(hand))
            rng.shuffle(cards)
            hands.append(cards)
            pairs.append(pair)
            stacks.append(own)
        rest = list(bits(places[-1]))
        rng.shuffle(rest)
        return _Deal(hands, pairs, stacks, rest)

    def _stacks_from_view(
        self, seat: int, downs: int, rng: random.Random
    ) -> list[tuple[int, int]] | None:
        """Seat's table stacks as dealt, where the view says which stack each card played from
        the table came from (`played_from`): the first card played from a stack was its face-up
        one, a second the card it covered; only the face-down cards still covered are sampled."""
        assert self.view.stacks is not None and self.view.played_from is not None
        own_plays = {p.card for p in self.knowledge.plays if p.seat == seat}
        from_stack: list[list[int]] = [[] for _ in self.view.stacks[seat]]
        for card, k in self.view.played_from:
            if int(card) in own_plays:
                from_stack[k].append(int(card))
        hidden = list(bits(downs))
        rng.shuffle(hidden)
        laid: list[tuple[int, int]] = []
        for (up, covered), played in zip(self.view.stacks[seat], from_stack, strict=True):
            if covered and hidden and up is not None and not played:  # untouched
                laid.append((int(up), hidden.pop()))
            elif covered and hidden and up is None and len(played) == 1:  # cover in this trick
                laid.append((played[0], hidden.pop()))
            elif not covered and up is not None and len(played) == 1:  # turned, cover played
                laid.append((played[0], int(up)))
            elif not covered and up is None and len(played) == 2:  # both played
                laid.append((played[0], played[1]))
            else:
                return None  # the view contradicts itself: no world to sample
        return laid

    def _deck(self, deal: _Deal, rng: random.Random) -> list[Card]:
        """The deck (top first) that deals `deal` through the ruleset's packets; the French
        taker's turned card lies after the first packets (FR-2, FR-4)."""
        ruleset = self.ruleset
        seats = self.seats
        dealer = self.view.dealer
        order = [(dealer + 1 + i) % seats for i in range(seats)]
        turned = self.view.turned
        hands = [list(h) for h in deal.hands]
        pairs = [list(p) for p in deal.pairs]
        taker = None
        if turned is not None and not self.bidding:
            taker = self.view.bidder
            assert taker is not None
            hands[taker].remove(int(turned))
        deck: list[int] = []
        for size, slot in ruleset.before:
            for seat in order:
                if slot == _HAND:
                    deck.extend(hands[seat][:size])
                    del hands[seat][:size]
                elif slot == _PAIR:
                    deck.extend(pairs[seat][:size])
                    del pairs[seat][:size]
                elif slot >= _UP:
                    deck.append(deal.stacks[seat][slot - _UP][0])
                else:
                    deck.append(deal.stacks[seat][slot - _DOWN][1])
        if turned is not None:
            deck.append(int(turned))
        if not self.bidding:
            for size, _slot in ruleset.after:
                for seat in order:
                    n = size - 1 if seat == taker else size
                    deck.extend(hands[seat][:n])
                    del hands[seat][:n]
        deck.extend(deal.rest)
        return [CARD[c] for c in deck]

    def _replay(
        self, deck: list[Card], declared: list[tuple[Card, ...]], rng: random.Random
    ) -> DealState | None:
        """Deal `deck` and replay the public history on it; None if the engine refuses it or
        the seat would see anything other than its view. Declarations go with their seat's first
        card, or with its second (TWO-1) when the order they were announced in leaves room;
        a belote goes with the first card it may be announced with (BG-19, OB-16)."""
        v = self.view
        state = new_deal(self.ruleset, v.dealer, deck, v.hanging_in)
        belotes = {(seat, int(Contract.parse(suit))) for seat, suit in v.belotes}
        entries = [(d.seat, cards) for d, cards in zip(v.declarations, declared, strict=True)]
        chances = self.ruleset.declaration_tricks
        made = [0] * self.seats
        at = 0
        try:
            action: Action
            for action in v.bids:
                state = apply(state, action)
            for p in self.knowledge.plays:
                declare: tuple[tuple[Card, ...], ...] = ()
                if made[p.seat] < chances:
                    run = 0
                    while at + run < len(entries) and entries[at + run][0] == p.seat:
                        run += 1
                    take = run
                    last = at + run == len(entries)  # nothing announced after: room to split
                    if run and last and made[p.seat] < chances - 1 and rng.random() < 0.5:
                        take = rng.randint(0, run)
                    declare = tuple(cards for _seat, cards in entries[at : at + take])
                    at += take
                made[p.seat] += 1
                card = CARD[p.card]
                key = (p.seat, p.card >> 3)
                if key in belotes and p.card & 7 in (RQ, RK):
                    try:
                        state = apply(state, Play(p.seat, card, declare, True))
                        belotes.discard(key)
                        continue
                    except RuleError:
                        pass
                state = apply(state, Play(p.seat, card, declare))
        except RuleError:
            return None
        if at != len(entries) or belotes:
            return None
        # The same public actions replayed make the same public view, except for what the
        # hidden cards decide: which declarations score and show, and the stacks as laid out.
        if (v.declarations or v.stacks is not None) and view(state, self.seat) != v:
            return None
        return state
