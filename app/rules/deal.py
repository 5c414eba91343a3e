"""One deal as an immutable state: dealing, bidding, play (C-9, BG-3..BG-20, FR-2..FR-7).

`legal_actions(state)` is the single source of legality and `apply(state, action)` returns a new
state or raises a `RuleError` before touching anything. A deal is a pure function of
(ruleset, dealer, deck, actions): that is what records store and what replays recompute.

Hands and the cards taken are bitmasks. States are small slotted objects copied on every action,
so a bot can branch from any state without undo bugs.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from . import declarations
from .actions import PLAIN_PLAYS, Action, Bid, Call, Play
from .cards import BIT, CARDS, PLAIN_POINTS_BY_RANK, RK, RQ, SUIT_MASK, Card, iter_bits
from .contracts import TABLES, Contract, Table
from .errors import (
    BadRecord,
    IllegalBelote,
    IllegalBid,
    IllegalCard,
    IllegalDeclaration,
    NotYourTurn,
    WrongPhase,
)
from .ruleset import DOWN, HAND, PAIR, UP, Packet, Ruleset

if TYPE_CHECKING:
    from .scoring import DealResult


class Phase(Enum):
    BIDDING = "bidding"
    PLAYING = "playing"
    FINISHED = "finished"


class Trick:
    """A completed trick: who led, the cards in the order played, who won it."""

    __slots__ = ("cards", "leader", "winner")

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int) -> None:
        self.leader = leader
        self.cards = cards
        self.winner = winner

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and (self.leader, self.cards, self.winner) == (
            other.leader,
            other.cards,
            other.winner,
        )

    def __hash__(self) -> int:
        return hash((self.leader, self.cards, self.winner))

    def __repr__(self) -> str:
        return f"Trick({self.leader}, {[str(c) for c in self.cards]}, {self.winner})"


BULGARIAN_CONTRACT_CALLS = (
    Call.CLUBS,
    Call.DIAMONDS,
    Call.HEARTS,
    Call.SPADES,
    Call.NO_TRUMPS,
    Call.ALL_TRUMPS,
)
SUIT_CALLS = BULGARIAN_CONTRACT_CALLS[:4]
_BIDS = {(seat, call): Bid(seat, call) for seat in range(4) for call in Call}
CANCEL_LIMIT = 7
"""CAN-1: a dealer whose hand is worth this or less may still pass."""
_BELOTE_PAIRS = tuple(BIT[s * 8 + RK] | BIT[s * 8 + RQ] for s in range(4))


def _plays_by_suit_byte(seat: int) -> tuple[tuple[tuple[Play, ...], ...], ...]:
    """For each suit and each byte of that suit's bits, the plain plays of those cards."""
    return tuple(
        tuple(
            tuple(PLAIN_PLAYS[seat][suit * 8 + r] for r in range(8) if byte >> r & 1)
            for byte in range(256)
        )
        for suit in range(4)
    )


_PLAYS_BY_BYTE = tuple(_plays_by_suit_byte(seat) for seat in range(4))


class Auction(NamedTuple):
    """What the deal was dealt from and what the bidding decided.

    It changes only during the bidding, so the states of the play share one Auction and copying a
    state on every card stays cheap.
    """

    dealer: int
    deck: tuple[Card, ...]
    hanging_in: int
    turned: Card | None
    """French: the card turned up after the first packets (FR-2); None in Bulgarian."""
    bids: tuple[Bid, ...] = ()
    contract: Contract | None = None
    bidder: int | None = None
    """The seat that made the current (highest) contract bid, or took (French)."""
    multiplier: int = 1
    passes: int = 0
    """Passes in a row (BG-7), or in the current round (FR-3)."""
    round: int = 1
    """French bidding round (1 or 2); always 1 in Bulgarian."""


Stack = tuple[int, int]
"""One table stack (OB-2): (face-up card, face-down card), -1 where there is none."""


class Layout(NamedTuple):
    """Cards dealt but not in a hand: the Croatian pairs (CRO-3) and Open Belot's stacks (OB-2).

    None on a DealState of the presets that have neither, so their hot path copies one
    reference more and reads nothing.
    """

    hidden: tuple[int, ...]
    """Each seat's face-down pair not yet his (CRO-3), as a bitmask; 0 once it joined the hand."""
    stacks: tuple[tuple[Stack, ...], ...]
    """Each seat's table stacks; () without stacks."""
    uncover: tuple[tuple[int, int], ...] = ()
    """(seat, stack) whose face-down card turns when the trick ends (OB-11, `trick_end`)."""
    deferred: tuple[tuple[int, int], ...] = ()
    """(seat, suit) of a belote that may be announced with its second card (OB-16)."""
    played_from: tuple[tuple[int, int], ...] = ()
    """(card, stack) of every card played from a table stack, in play order (OB-9)."""


def up_mask(stacks: tuple[Stack, ...]) -> int:
    """The face-up table cards of one player (OB-9: playable, like his hand)."""
    mask = 0
    for up, _down in stacks:
        if up >= 0:
            mask |= BIT[up]
    return mask


def down_mask(stacks: tuple[Stack, ...]) -> int:
    """The face-down table cards of one player: nobody sees them, not even their owner (OB-7)."""
    mask = 0
    for _up, down in stacks:
        if down >= 0:
            mask |= BIT[down]
    return mask


class DealState:
    """The whole state of one deal. Treat as immutable: `apply` returns a new one."""

    __slots__ = (
        "_legal",
        "_log",
        "action_count",
        "auction",
        "belotes",
        "best",
        "best_pos",
        "declared",
        "hands",
        "layout",
        "leader",
        "phase",
        "points",
        "result",
        "ruleset",
        "table",
        "trick",
        "tricks",
        "turn",
    )

    ruleset: Ruleset
    auction: Auction
    phase: Phase
    turn: int | None
    hands: tuple[int, ...]
    """Each seat's playable cards as a bitmask: his hand and, in Open Belot, his face-up table
    cards (OB-9), so that legality never looks at the table; a Croatian pair joins it only
    when CRO-3 makes it his."""
    layout: Layout | None
    table: Table | None
    leader: int
    trick: tuple[Card, ...]
    best: int
    """The card winning the current trick so far, -1 before its first card."""
    best_pos: int
    tricks: tuple[Trick, ...]
    points: tuple[int, ...]
    """Card points each side has taken in completed tricks (before the last-trick bonus)."""
    declared: tuple[declarations.Announced, ...]
    belotes: tuple[tuple[int, int], ...]
    """(seat, suit) of every belote announced."""
    _log: tuple[Action, object] | None
    """The actions so far as a linked list, newest first: appending is O(1) on the hot path."""
    action_count: int
    """How many actions were taken (the length of ``actions``, without walking the list)."""
    result: DealResult | None
    _legal: int
    """The legal cards' mask once computed for this state, -1 before."""

    def _clone(self) -> DealState:
        new = object.__new__(DealState)
        new.ruleset = self.ruleset
        new.auction = self.auction
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.layout = self.layout
        new.table = self.table
        new.leader = self.leader
        new.trick = self.trick
        new.best = self.best
        new.best_pos = self.best_pos
        new.tricks = self.tricks
        new.points = self.points
        new.declared = self.declared
        new.belotes = self.belotes
        new._log = self._log
        new.action_count = self.action_count
        new.result = None
        new._legal = -1
        return new

    @property
    def dealer(self) -> int:
        return self.auction.dealer

    @property
    def deck(self) -> tuple[Card, ...]:
        return self.auction.deck

    @property
    def hanging_in(self) -> int:
        return self.auction.hanging_in

    @property
    def turned(self) -> Card | None:
        return self.auction.turned

    @property
    def bids(self) -> tuple[Bid, ...]:
        return self.auction.bids

    @property
    def contract(self) -> Contract | None:
        return self.auction.contract

    @property
    def bidder(self) -> int | None:
        return self.auction.bidder

    @property
    def multiplier(self) -> int:
        return self.auction.multiplier

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action taken in this deal, in order."""
        out: list[Action] = []
        node = self._log
        while node is not None:
            out.append(node[0])
            node = node[1]  # type: ignore[assignment]
        out.reverse()
        return tuple(out)

    @property
    def contracting_team(self) -> int | None:
        bidder = self.auction.bidder
        return None if bidder is None else self.ruleset.team_of(bidder)

    @property
    def is_void(self) -> bool:
        return self.phase is Phase.FINISHED and self.auction.contract is None

    def hand(self, seat: int) -> list[Card]:
        """A seat's hand (for the engine's own callers: clients get `view`)."""
        return [CARDS[c] for c in iter_bits(self.hand_mask(seat))]

    def hand_mask(self, seat: int) -> int:
        """A seat's hand as a bitmask: its playable cards less its face-up table cards."""
        layout = self.layout
        if layout is None or not layout.stacks:
            return self.hands[seat]
        return self.hands[seat] & ~up_mask(layout.stacks[seat])

    def holding(self, seat: int) -> int:
        """Every unplayed card dealt to a seat, seen or not (hand, pair, stacks)."""
        mask = self.hands[seat]
        layout = self.layout
        if layout is not None:
            mask |= layout.hidden[seat]
            if layout.stacks:
                mask |= down_mask(layout.stacks[seat])
        return mask

    def __repr__(self) -> str:
        return f"<DealState {self.phase.value} turn={self.turn} actions={len(self.actions)}>"


def new_deal(ruleset: Ruleset, dealer: int, deck: Sequence[Card], hanging_in: int = 0) -> DealState:
    """Deal the packets of the bidding from `deck` (top first, after shuffle and cut) — C-9,
    BG-3, FR-2, BG3-3, BG2-2, OB-3..OB-5, CRO-1."""
    if not isinstance(dealer, int) or not 0 <= dealer < ruleset.seats:
        raise BadRecord(f"dealer must be a seat 0..{ruleset.seats - 1}")
    try:
        cards = tuple(map(CARDS.__getitem__, deck))
    except (IndexError, TypeError):
        cards = ()
    if len(cards) != ruleset.deck_size() or frozenset(cards) != ruleset.deck_cards:
        raise BadRecord(f"the deck must hold the preset's {ruleset.deck_size()} different cards")
    if not isinstance(hanging_in, int) or hanging_in < 0:
        raise BadRecord("hanging_in must be a whole number of points, 0 or more")
    seats = ruleset.seats
    hands = [0] * seats
    order = _packets(seats, ruleset.before, dealer, None)
    layout = None
    if ruleset.deals_to_hands_only:
        for (seat, _slot), card in zip(order, cards, strict=False):
            hands[seat] |= BIT[card]
    else:
        layout = _deal_layout(ruleset, order, cards, hands)
    state = object.__new__(DealState)
    state.ruleset = ruleset
    state.auction = Auction(
        dealer, cards, hanging_in, cards[len(order)] if ruleset.turned_card else None
    )
    state.phase = Phase.BIDDING
    state.turn = state.leader = (dealer + 1) % seats
    state.hands = tuple(hands)
    state.layout = layout
    state.table = None
    state.trick = ()
    state.best = -1
    state.best_pos = -1
    state.tricks = ()
    state.points = (0,) * len(ruleset.sides)
    state.declared = ()
    state.belotes = ()
    state._log = None
    state.action_count = 0
    state.result = None
    state._legal = -1
    return state


def _deal_layout(
    ruleset: Ruleset, order: Sequence[tuple[int, int]], cards: Sequence[Card], hands: list[int]
) -> Layout:
    """Deal the packets that do not all go to hands: the Croatian pairs (CRO-1) and Open
    Belot's stacks (OB-4, OB-5; a face-up card is playable, so it joins `hands` too)."""
    seats = ruleset.seats
    hidden = [0] * seats
    stacks = [[[-1, -1] for _ in range(ruleset.stacks)] for _ in range(seats)]
    for (seat, slot), card in zip(order, cards, strict=False):
        if slot == HAND:
            hands[seat] |= BIT[card]
        elif slot == PAIR:
            hidden[seat] |= BIT[card]
        elif slot >= UP:
            stacks[seat][slot - UP][0] = card
            hands[seat] |= BIT[card]
        else:
            stacks[seat][slot - DOWN][1] = card
    return Layout(tuple(hidden), tuple(tuple((up, down) for up, down in own) for own in stacks))


@lru_cache(maxsize=512)
def _packets(
    seats: int, packets: tuple[Packet, ...], dealer: int, taker: int | None
) -> tuple[tuple[int, int], ...]:
    """The (seat, slot) each card of the deck goes to, in deck order, for some packets (C-9).

    Each packet goes to every seat in turn from `dealer+1`; the French `taker` gets one card
    less in the packets after the bidding, since the turned card is his (FR-4).
    """
    order: list[tuple[int, int]] = []
    for size, slot in packets:
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            order.extend([(seat, slot)] * (size - 1 if seat == taker else size))
    return tuple(order)


# ----------------------------------------------------------------------------------- bidding


def _legal_calls(state: DealState) -> list[Call]:
    seat = state.turn
    auction = state.auction
    ruleset = state.ruleset
    assert seat is not None
    if ruleset.is_french:
        if auction.round == 1:
            return [Call.PASS, Call.TAKE]
        assert auction.turned is not None
        turned_suit = auction.turned >> 3
        return [Call.PASS] + [c for i, c in enumerate(SUIT_CALLS) if i != turned_suit]
    calls = []
    if not (ruleset.house_rules.dealer_must_bid and _dealer_forced(state)):
        calls.append(Call.PASS)
    low = 0 if auction.contract is None else auction.contract + 1
    calls.extend(BULGARIAN_CONTRACT_CALLS[low:])
    if auction.contract is not None and auction.bidder is not None:
        # BG-5 / BGN-5: contra on another side's contract, re-contra on one's own side's.
        own = ruleset.seat_sides[auction.bidder] == ruleset.seat_sides[seat]
        if not own and auction.multiplier == 1:
            calls.append(Call.CONTRA)
        if own and auction.multiplier == 2:
            calls.append(Call.RECONTRA)
        if not own and auction.multiplier == 4 and ruleset.house_rules.sur_contra != "off":
            calls.append(Call.SURCONTRA)  # SUR-2: the doubling side, over a re-contra
    return calls


def hand_worth(hand: int) -> int:
    """CAN-2: the plain-suit card points of a hand (A 11, 10 10, K 4, Q 3, J 2)."""
    return sum(PLAIN_POINTS_BY_RANK[c & 7] for c in iter_bits(hand))


def _dealer_forced(state: DealState) -> bool:
    """BG-7 / BGN-7 `dealer_must_bid`: everyone before the dealer passed, so he must bid;
    CAN-1 `dealer_may_cancel`: unless his hand is worth 7 or less."""
    auction = state.auction
    house = state.ruleset.house_rules
    if not (
        house.dealer_must_bid
        and auction.contract is None
        and auction.passes == state.ruleset.seats - 1
        and state.turn == auction.dealer
    ):
        return False
    worth = hand_worth(state.hand_mask(auction.dealer))  # CAN-2: table cards do not count
    return not (house.dealer_may_cancel and worth <= CANCEL_LIMIT)


def _bid_error(state: DealState, call: Call) -> IllegalBid:
    small = state.ruleset.seats < 4
    rule = "FR-3" if state.ruleset.is_french else "BGN-5" if small else "BG-5"
    if state.ruleset.is_french:
        if call == Call.TAKE:
            why = "take is said only in the first round"
        elif call in SUIT_CALLS and state.auction.round == 1:
            why = "in the first round you may only take or pass"
        elif call in SUIT_CALLS:
            why = "in the second round name a suit other than the turned card's"
        else:
            why = f"{call.value} is not a bid of French Belote"
        return IllegalBid(why, rule)
    if call == Call.PASS:
        if state.ruleset.house_rules.dealer_may_cancel:
            return IllegalBid("the dealer's hand is worth more than 7: he must bid", "CAN-1")
        why = "the dealer must bid when everyone before him has passed"
        return IllegalBid(why, "BGN-7" if small else "BG-7")
    if call == Call.TAKE:
        return IllegalBid("take is not a bid of Bulgarian Belot", rule)
    if call == Call.CONTRA:
        why = "contra is said on another side's contract, once"
    elif call == Call.RECONTRA:
        why = "re-contra is said on your own side's contract after a contra"
    elif call == Call.SURCONTRA:
        return IllegalBid("sur-contra is said by the doubling side after a re-contra", "SUR-2")
    else:
        why = "a bid must be higher than the current contract"
    return IllegalBid(why, rule)


def _apply_bid(state: DealState, bid: Bid) -> DealState:
    call = bid.call
    if call not in _legal_calls(state):
        raise _bid_error(state, call)
    seats = state.ruleset.seats
    new = state._clone()
    new._log = (bid, state._log)
    new.action_count += 1
    assert state.turn is not None
    new.turn = (state.turn + 1) % seats
    auction = state.auction
    bids = (*auction.bids, bid)
    if state.ruleset.is_french:
        return _french_bid(new, bid, bids)
    if (
        state.layout is not None
        and state.layout.hidden[bid.seat]
        and state.ruleset.house_rules.croatian_reveal == "own_call"
    ):
        _reveal_pairs(new, (bid.seat,))  # CRO-3: his pair is his after his first call
    if call == Call.PASS:
        passes = auction.passes + 1
        new.auction = auction._replace(bids=bids, passes=passes)
        if auction.contract is None and passes == seats:
            return _finish_void(new)
        if auction.contract is not None and passes == seats - 1:
            return _start_play(new)
        return new
    if call == Call.CONTRA:
        new.auction = auction._replace(bids=bids, passes=0, multiplier=2)
    elif call == Call.RECONTRA:
        new.auction = auction._replace(bids=bids, passes=0, multiplier=4)
    elif call == Call.SURCONTRA:
        new.auction = auction._replace(bids=bids, passes=0, multiplier=8)  # SUR-1, SUR-3
    else:
        # BG-6: a higher contract cancels contra and re-contra.
        contract = Contract.parse(call.value)
        new.auction = auction._replace(
            bids=bids, passes=0, contract=contract, bidder=bid.seat, multiplier=1
        )
    return new


def _french_bid(new: DealState, bid: Bid, bids: tuple[Bid, ...]) -> DealState:
    auction = new.auction
    if bid.call == Call.PASS:
        passes = auction.passes + 1
        if passes < new.ruleset.seats:
            new.auction = auction._replace(bids=bids, passes=passes)
            return new
        if auction.round == 2:
            new.auction = auction._replace(bids=bids, passes=passes)
            return _finish_void(new)
        new.auction = auction._replace(bids=bids, passes=0, round=2)
        return new
    assert auction.turned is not None
    suit = auction.turned >> 3 if bid.call == Call.TAKE else SUIT_CALLS.index(bid.call)
    new.auction = auction._replace(bids=bids, contract=Contract(suit), bidder=bid.seat)
    return _start_play(new)


def _reveal_pairs(new: DealState, seats: Sequence[int]) -> None:
    """CRO-3: the face-down pairs of these seats join their hands."""
    layout = new.layout
    assert layout is not None
    hands = list(new.hands)
    hidden = list(layout.hidden)
    for seat in seats:
        hands[seat] |= hidden[seat]
        hidden[seat] = 0
    new.hands = tuple(hands)
    new.layout = layout._replace(hidden=tuple(hidden))


def _start_play(new: DealState) -> DealState:
    """Deal the rest of the deck (BG-3, FR-4, BG3-3, BG2-2, OB-6), give every Croatian pair to
    its owner (CRO-3) and hand the lead to `dealer+1` (FR-5, BGN-2)."""
    ruleset = new.ruleset
    auction = new.auction
    seats = ruleset.seats
    if new.layout is not None and any(new.layout.hidden):
        _reveal_pairs(new, range(seats))
    hands = list(new.hands)
    pos = ruleset.dealt_before
    taker = None
    if ruleset.turned_card:
        assert auction.turned is not None and auction.bidder is not None
        taker = auction.bidder
        hands[taker] |= BIT[auction.turned]
        pos += 1
    order = _packets(seats, ruleset.after, auction.dealer, taker)
    for (seat, _slot), card in zip(order, auction.deck[pos:], strict=False):
        hands[seat] |= BIT[card]
    assert auction.contract is not None
    new.hands = tuple(hands)
    new.table = TABLES[auction.contract]
    new.phase = Phase.PLAYING
    new.leader = new.turn = (auction.dealer + 1) % seats
    return new


def _finish_void(new: DealState) -> DealState:
    from .scoring import score_deal

    new.phase = Phase.FINISHED
    new.turn = None
    new.result = score_deal(new)
    return new


# -------------------------------------------------------------------------------------- play


def legal_mask(state: DealState) -> int:
    """The cards the player to act may play, as a bitmask (BG-8..BG-11, FR-6, BGN-4, OB-10)."""
    if state._legal >= 0:
        return state._legal
    assert state.turn is not None and state.table is not None
    hand = state.hands[state.turn]  # OB-9, OB-10: face-up table cards included
    if not state.trick:
        state._legal = hand
        return hand
    ruleset = state.ruleset
    free = ruleset.partner[state.turn] == (state.leader + state.best_pos) % ruleset.seats or (
        ruleset.house_rules.defenders_partners and _defender_is_master(state)
    )
    mask = playable(
        state.table, hand, state.trick[0] >> 3, state.best, free,
        ruleset.house_rules.must_undertrump,
    )  # fmt: skip
    state._legal = mask
    return mask


def playable(table: Table, hand: int, led: int, best: int, free: bool, undertrump: bool) -> int:
    """The cards of `hand` that may follow a trick of suit `led` whose best card so far is `best`
    (BG-8..BG-11, FR-6), as a bitmask: `free` when the partner is master (BG-9, BG3-9),
    `undertrump` the house rule `must_undertrump`. A pure function of those facts, so that a
    search walking bare bitmasks (app.bots.solver) plays by this very rule."""
    follow = hand & SUIT_MASK[led]
    contract = table.contract
    if contract == Contract.NO_TRUMPS:
        return follow or hand
    if contract == Contract.ALL_TRUMPS or led == contract:
        # BG-10 / BG-8: beat the best card of the suit led if you can, whoever holds it.
        return ((follow & table.beaters[best]) or follow) if follow else hand
    if follow:
        return follow
    if free:
        return hand  # BG-9 / FR-6: the partner is master, anything goes
    trumps = hand & table.trumps
    if not trumps:
        return hand
    if not BIT[best] & table.trumps:
        return trumps
    return (trumps & table.beaters[best]) or (trumps if undertrump else hand)


def _defender_is_master(state: DealState) -> bool:
    """BG3-9 `defenders_partners`: the other defender is winning the trick. Otherwise nobody
    has a partner in the small presets (BGN-4): `Ruleset.partner` is -1 there."""
    winner = (state.leader + state.best_pos) % state.ruleset.seats
    return state.ruleset.seats == 3 and state.bidder not in (winner, state.turn)


def _card_error(state: DealState, card: Card) -> IllegalCard:
    """Name the rule a card breaks, for the player and for replay error lines."""
    assert state.turn is not None and state.table is not None
    hand = state.hands[state.turn]
    if not hand & BIT[card]:
        if state.ruleset.stacks:
            return IllegalCard(f"{card} is not in your hand or face up on your table", "OB-9")
        return IllegalCard(f"{card} is not in your hand", "C-9")
    contract = state.table.contract
    if state.ruleset.is_french:
        rule = "FR-6"
    elif contract == Contract.NO_TRUMPS:
        rule = "BG-11"
    elif contract == Contract.ALL_TRUMPS:
        rule = "BG-10"
    elif hand & SUIT_MASK[state.trick[0] >> 3] or state.trick[0] >> 3 == contract:
        rule = "BG-8"
    elif state.ruleset.partner[state.turn] < 0:
        rule = "BGN-4"
    else:
        rule = "BG-9"
    legal = " ".join(str(CARDS[c]) for c in iter_bits(legal_mask(state)))
    return IllegalCard(f"{card} may not be played now; legal: {legal}", rule)


def belote_eligible(state: DealState, card: Card) -> bool:
    """May the player announce belote with this card (BG-19, FR-7, OB-15, OB-16)?"""
    table = state.table
    assert table is not None and state.turn is not None
    if table.contract == Contract.NO_TRUMPS or not table.trumps & BIT[card]:
        return False
    suit = card >> 3
    if card & 7 not in (RK, RQ):
        return False
    if table.contract == Contract.ALL_TRUMPS and state.trick and state.trick[0] >> 3 != suit:
        return False
    other = _BELOTE_PAIRS[suit] ^ BIT[card]
    if state.hands[state.turn] & other:
        return True  # the first of the two, the other in hand (or face up, OB-16)
    layout = state.layout
    return layout is not None and (state.turn, suit) in layout.deferred  # OB-16: the second


def _rebelote_allowed(state: DealState, seat: int, card: Card) -> bool:
    return state.ruleset.is_french and card & 7 in (RK, RQ) and (seat, card >> 3) in state.belotes


def declarable(state: DealState, seat: int) -> int | None:
    """The cards `seat` may declare with the card it plays now, or None if it may not declare:
    its hand (and face-up table cards, OB-13) with its first card (BG-16); with
    `declarations_in_two_tricks`, also with its second, adding the cards it already played
    (TWO-1, TWO-2)."""
    if len(state.tricks) >= state.ruleset.declaration_tricks:
        return None
    available = state.hands[seat]
    seats = state.ruleset.seats
    for trick in state.tricks:
        available |= BIT[trick.cards[(seat - trick.leader) % seats]]
    return available


def _earlier(state: DealState, seat: int) -> tuple[declarations.Declaration, ...]:
    """What `seat` declared with an earlier card (TWO-2)."""
    if state.ruleset.declaration_tricks == 1 or not state.declared:
        return ()
    return tuple(a.declaration for a in state.declared if a.seat == seat)


def _announce(state: DealState, new: DealState, play: Play) -> None:
    """Validate and record what is announced with a card: declarations, belote, rebelote."""
    seat, card = play.seat, play.card
    if play.declare:
        available = declarable(state, seat)
        if available is None:
            if state.ruleset.declaration_tricks == 2:
                raise IllegalDeclaration(
                    "declarations are made with your first or second card", "TWO-1"
                )
            raise IllegalDeclaration("declarations are made with your first card only", "BG-16")
        assert state.contract is not None
        found = declarations.check(
            state.ruleset, state.contract, available, play.declare, _earlier(state, seat)
        )
        start = len(state.declared)
        new.declared = state.declared + tuple(
            declarations.Announced(seat, d, start + i) for i, d in enumerate(found)
        )
    if play.belote:
        if not belote_eligible(state, card):
            raise IllegalBelote(_belote_why(state), _belote_rule(state))
        new.belotes = (*state.belotes, (seat, card >> 3))
    if play.rebelote and not _rebelote_allowed(state, seat, card):
        raise IllegalBelote(
            "rebelote follows your own belote, with the other card", _belote_rule(state)
        )


def _belote_rule(state: DealState) -> str:
    """The rule a refused belote breaks: FR-7, BG-12 in No Trumps, OB-16, otherwise BG-19."""
    if state.ruleset.is_french:
        return "FR-7"
    if state.contract == Contract.NO_TRUMPS:
        return "BG-12"
    if state.ruleset.stacks:
        return "OB-16"
    return "BG-19"


def _belote_why(state: DealState) -> str:
    if state.table is not None and state.table.contract == Contract.NO_TRUMPS:
        return "there is no belote in No Trumps"
    return (
        "belote is announced with the first of your king and queen of trumps, "
        "led or following the suit led"
    )


# ------------------------------------------------------------------------------------ the API


def legal_actions(state: DealState) -> tuple[Action, ...]:
    """Every action the player to act may take: the one list the server, bots and UI share."""
    seat = state.turn
    if seat is None:
        return ()
    if state.phase is Phase.BIDDING:
        return tuple(_BIDS[seat, call] for call in _legal_calls(state))
    mask = state._legal if state._legal >= 0 else legal_mask(state)
    by_byte = _PLAYS_BY_BYTE[seat]
    plays = (
        by_byte[0][mask & 0xFF]
        + by_byte[1][mask >> 8 & 0xFF]
        + by_byte[2][mask >> 16 & 0xFF]
        + by_byte[3][mask >> 24]
    )
    table = state.table
    assert table is not None
    if state.layout is None:
        hand = state.hands[seat]
        pairs = False
        for pair in table.belote_pairs:
            if hand & pair == pair:
                pairs = True
    else:
        pairs = _may_hold_belote(state, seat, table)
    rebelote = bool(state.belotes) and state.ruleset.is_french
    if not (pairs or rebelote) and len(state.tricks) >= state.ruleset.declaration_tricks:
        return plays  # the common case: nothing to announce
    available = (
        declarable(state, seat) if declarations.allowed(state.ruleset, table.contract) else None
    )
    if available is None and not (pairs or rebelote):
        return plays
    options = (
        declarations.options(state.ruleset, table.contract, available, _earlier(state, seat))
        if available is not None
        else ((),)
    )
    out: list[Action] = []
    for play in plays:
        card = play.card
        belotes = (False, True) if pairs and belote_eligible(state, card) else (False,)
        rebelotes = (False, True) if rebelote and _rebelote_allowed(state, seat, card) else (False,)
        for option in options:
            for belote in belotes:
                for re in rebelotes:
                    if option or belote or re:
                        out.append(Play(seat, card, option, belote, re))
                    else:
                        out.append(play)
    return tuple(out)


def forced_last_card(state: DealState) -> Action | None:
    """The play the seat to act cannot avoid: its last card, with nothing it may announce
    along with it (a French rebelote is a choice, FR-7). Everyone knows a player holds one card
    at the last trick, so playing it for them, at a pace that does not depend on the player,
    tells nobody anything: the server does (docs/protocol.md, TURN's ``forced``)."""
    seat = state.turn
    if seat is None or state.hands[seat].bit_count() > 1:
        return None  # the common case, asked of every action (the hand is part of the holding)
    if state.phase is not Phase.PLAYING or state.holding(seat).bit_count() != 1:
        return None
    legal = legal_actions(state)
    return legal[0] if len(legal) == 1 else None


def _may_hold_belote(state: DealState, seat: int, table: Table) -> bool:
    """Whether belote can come up for `seat` at all: it holds a pair, face-down cards included
    (OB-15), or a belote waits for its second card (OB-16)."""
    layout = state.layout
    assert layout is not None
    hand = state.holding(seat)
    if any(hand & pair == pair for pair in table.belote_pairs):
        return True
    return any(s == seat for s, _suit in layout.deferred)


def apply(state: DealState, action: Action) -> DealState:
    """The state after `action`; raise a RuleError (state untouched) if it is not legal."""
    if type(action) is Play and action.seat == state.turn and state.phase is Phase.PLAYING:
        return _apply_play(state, action)
    return _apply_other(state, action)


def _apply_play(state: DealState, play: Play) -> DealState:
    """A card played in turn: the hot path of every simulation."""
    seat = play.seat
    card = play.card
    bit = BIT[card]
    legal = state._legal if state._legal >= 0 else legal_mask(state)
    if not legal & bit:
        raise _card_error(state, card)
    new = state._clone()
    if play.declare or play.belote or play.rebelote:
        _announce(state, new, play)
    table = state.table
    assert table is not None
    hands = list(state.hands)
    hands[seat] ^= bit
    if state.layout is not None and state.layout.stacks:
        _play_on_table(state, new, hands, card)
    new.hands = tuple(hands)
    new._log = (play, state._log)
    new.action_count += 1
    trick = (*state.trick, card)
    best = state.best
    strength = table.strength
    if best < 0 or (
        (card >> 3 == trick[0] >> 3 or table.ruffs & bit) and strength[card] > strength[best]
    ):
        new.best = card
        new.best_pos = len(trick) - 1
    seats = state.ruleset.seats
    if len(trick) < seats:
        new.trick = trick
        new.turn = (seat + 1) % seats
        return new
    winner = (state.leader + new.best_pos) % seats
    points = table.points
    if seats == 4:  # two teams (C-6)
        taken = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        if state.ruleset.seat_sides[winner]:
            new.points = (state.points[0], state.points[1] + taken)
        else:
            new.points = (state.points[0] + taken, state.points[1])
    else:  # every player a side (BGN-3)
        by_side = list(state.points)
        by_side[state.ruleset.seat_sides[winner]] += sum(points[c] for c in trick)
        new.points = tuple(by_side)
    new.tricks = (*state.tricks, Trick(state.leader, trick, winner))
    new.trick = ()
    new.best = -1
    new.best_pos = -1
    new.leader = new.turn = winner
    if new.layout is not None and new.layout.uncover:
        _turn_uncovered(new)
    if not any(new.hands):  # every card played (the out-of-play ones never were in a hand)
        from .scoring import score_deal

        new.phase = Phase.FINISHED
        new.turn = None
        new.result = score_deal(new)
    return new


def _play_on_table(state: DealState, new: DealState, hands: list[int], card: Card) -> None:
    """Open Belot's table after a card: if it was a stack's face-up card (OB-9), the card under
    it turns now (`open_reveal` = `at_once`, and joins the playable cards) or when the trick
    ends (OB-11); and a belote may have to wait for its second card (OB-16)."""
    layout = state.layout
    assert layout is not None and state.turn is not None
    seat = state.turn
    own = list(layout.stacks[seat])
    k = next((i for i, (up, _down) in enumerate(own) if up == card), None)
    if k is not None:
        down = own[k][1]
        uncover = layout.uncover
        if down < 0:
            own[k] = (-1, -1)
        elif state.ruleset.house_rules.open_reveal == "at_once":
            own[k] = (down, -1)
            hands[seat] |= BIT[down]
        else:
            own[k] = (-1, down)
            uncover = (*uncover, (seat, k))
        stacks = list(layout.stacks)
        stacks[seat] = tuple(own)
        new.layout = layout._replace(
            stacks=tuple(stacks), uncover=uncover, played_from=(*layout.played_from, (card, k))
        )
    _defer_belote(state, new, card)


def _defer_belote(state: DealState, new: DealState, card: Card) -> None:
    """OB-16: the first card of a belote pair is played while the other is face down."""
    layout = new.layout
    table = state.table
    assert layout is not None and table is not None and state.layout is not None
    if card & 7 not in (RK, RQ) or not table.trumps & BIT[card] or not table.belote_pairs:
        return
    suit = card >> 3
    other = _BELOTE_PAIRS[suit] ^ BIT[card]
    if down_mask(state.layout.stacks[state.turn or 0]) & other:
        new.layout = layout._replace(deferred=(*layout.deferred, (state.turn or 0, suit)))


def _turn_uncovered(new: DealState) -> None:
    """OB-11 `trick_end`: the face-down cards whose cover was played in this trick turn up."""
    layout = new.layout
    assert layout is not None
    stacks = [list(own) for own in layout.stacks]
    hands = list(new.hands)
    for seat, k in layout.uncover:
        down = stacks[seat][k][1]
        stacks[seat][k] = (down, -1)
        hands[seat] |= BIT[down]
    new.hands = tuple(hands)
    new.layout = layout._replace(stacks=tuple(tuple(own) for own in stacks), uncover=())


def _apply_other(state: DealState, action: Action) -> DealState:
    """Bids, and every action that is out of turn or out of phase."""
    if state.phase is Phase.FINISHED:
        raise WrongPhase("the deal is over", "BG-27" if not state.ruleset.is_french else "FR-13")
    if action.seat != state.turn:
        rule = (
            "C-7"
            if state.phase is Phase.PLAYING
            else ("FR-3" if state.ruleset.is_french else "BG-5")
        )
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {action.seat}'s", rule)
    if isinstance(action, Bid):
        if state.phase is not Phase.BIDDING:
            raise WrongPhase("the bidding is over", "FR-3" if state.ruleset.is_french else "BG-7")
        return _apply_bid(state, action)
    if state.phase is not Phase.PLAYING:
        raise WrongPhase(
            "cards are played after the bidding", "FR-4" if state.ruleset.is_french else "BG-3"
        )
    return _apply_play(state, action)
