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
from typing import TYPE_CHECKING

from . import declarations
from .actions import PLAIN_PLAYS, Action, Bid, Call, Play
from .cards import BIT, CARDS, RK, RQ, SUIT_MASK, Card
from .contracts import TABLES, Contract, Table
from .errors import BadRecord, IllegalBelote, IllegalBid, IllegalCard, NotYourTurn, WrongPhase
from .ruleset import Ruleset

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


class DealState:
    """The whole state of one deal. Treat as immutable: `apply` returns a new one."""

    __slots__ = (
        "_legal",
        "actions",
        "best",
        "best_pos",
        "bidder",
        "bids",
        "contract",
        "dealer",
        "deck",
        "declared",
        "belotes",
        "hands",
        "hanging_in",
        "leader",
        "multiplier",
        "passes",
        "phase",
        "points",
        "result",
        "round",
        "ruleset",
        "table",
        "trick",
        "tricks",
        "turn",
        "turned",
    )

    ruleset: Ruleset
    dealer: int
    deck: tuple[Card, ...]
    hanging_in: int
    phase: Phase
    turn: int | None
    hands: tuple[int, ...]
    """Each seat's unplayed cards as a bitmask."""
    bids: tuple[Bid, ...]
    contract: Contract | None
    bidder: int | None
    """The seat that made the current (highest) contract bid, or took (French)."""
    multiplier: int
    passes: int
    round: int
    """French bidding round (1 or 2); always 1 in Bulgarian."""
    turned: Card | None
    table: Table | None
    leader: int
    trick: tuple[Card, ...]
    best: int
    best_pos: int
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    """Card points each team has taken in completed tricks (before the last-trick bonus)."""
    declared: tuple[declarations.Announced, ...]
    belotes: tuple[tuple[int, int], ...]
    """(seat, suit) of every belote announced."""
    actions: tuple[Action, ...]
    result: DealResult | None
    _legal: int

    def _clone(self) -> DealState:
        new = object.__new__(DealState)
        new.ruleset = self.ruleset
        new.dealer = self.dealer
        new.deck = self.deck
        new.hanging_in = self.hanging_in
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.bids = self.bids
        new.contract = self.contract
        new.bidder = self.bidder
        new.multiplier = self.multiplier
        new.passes = self.passes
        new.round = self.round
        new.turned = self.turned
        new.table = self.table
        new.leader = self.leader
        new.trick = self.trick
        new.best = self.best
        new.best_pos = self.best_pos
        new.tricks = self.tricks
        new.points = self.points
        new.declared = self.declared
        new.belotes = self.belotes
        new.actions = self.actions
        new.result = None
        new._legal = -1
        return new

    @property
    def contracting_team(self) -> int | None:
        return None if self.bidder is None else self.ruleset.team_of(self.bidder)

    @property
    def is_void(self) -> bool:
        return self.phase is Phase.FINISHED and self.contract is None

    @property
    def in_first_trick(self) -> bool:
        return self.phase is Phase.PLAYING and not self.tricks

    def hand(self, seat: int) -> list[Card]:
        """A seat's unplayed cards (for the engine's own callers: clients get `view`)."""
        return [CARDS[c] for c in range(32) if self.hands[seat] >> c & 1]

    def __repr__(self) -> str:
        return f"<DealState {self.phase.value} turn={self.turn} actions={len(self.actions)}>"


def new_deal(ruleset: Ruleset, dealer: int, deck: Sequence[Card], hanging_in: int = 0) -> DealState:
    """Deal the first packets from `deck` (top first, after shuffle and cut) — C-9, BG-3, FR-2."""
    if not isinstance(dealer, int) or not 0 <= dealer < ruleset.seats:
        raise BadRecord(f"dealer must be a seat 0..{ruleset.seats - 1}")
    if len(deck) != ruleset.deck_size() or len(set(deck)) != len(deck):
        raise BadRecord(f"the deck must hold {ruleset.deck_size()} different cards")
    if not isinstance(hanging_in, int) or hanging_in < 0:
        raise BadRecord("hanging_in must be a whole number of points, 0 or more")
    state = object.__new__(DealState)
    state.ruleset = ruleset
    state.dealer = dealer
    state.deck = tuple(CARDS[c] for c in deck)
    state.hanging_in = hanging_in
    state.phase = Phase.BIDDING
    state.turn = (dealer + 1) % ruleset.seats
    hands = [0] * ruleset.seats
    pos = 0
    for size in ruleset.first_packets:
        for i in range(ruleset.seats):
            seat = (dealer + 1 + i) % ruleset.seats
            for c in state.deck[pos : pos + size]:
                hands[seat] |= BIT[c]
            pos += size
    state.hands = tuple(hands)
    state.turned = state.deck[pos] if ruleset.is_french else None
    state.bids = ()
    state.contract = None
    state.bidder = None
    state.multiplier = 1
    state.passes = 0
    state.round = 1
    state.table = None
    state.leader = state.turn
    state.trick = ()
    state.best = -1
    state.best_pos = -1
    state.tricks = ()
    state.points = (0, 0)
    state.declared = ()
    state.belotes = ()
    state.actions = ()
    state.result = None
    state._legal = -1
    return state


# ----------------------------------------------------------------------------------- bidding


def _legal_calls(state: DealState) -> list[Call]:
    seat = state.turn
    assert seat is not None
    if state.ruleset.is_french:
        if state.round == 1:
            return [Call.PASS, Call.TAKE]
        assert state.turned is not None
        turned_suit = state.turned >> 3
        return [Call.PASS] + [c for i, c in enumerate(SUIT_CALLS) if i != turned_suit]
    calls = []
    forced = (
        state.ruleset.house_rules.dealer_must_bid
        and state.contract is None
        and state.passes == 3
        and seat == state.dealer
    )
    if not forced:
        calls.append(Call.PASS)
    low = 0 if state.contract is None else state.contract + 1
    calls.extend(BULGARIAN_CONTRACT_CALLS[low:])
    if state.contract is not None and state.bidder is not None:
        own = state.ruleset.team_of(state.bidder) == state.ruleset.team_of(seat)
        if not own and state.multiplier == 1:
            calls.append(Call.CONTRA)
        if own and state.multiplier == 2:
            calls.append(Call.RECONTRA)
    return calls


def _bid_error(state: DealState, call: Call) -> IllegalBid:
    rule = "FR-3" if state.ruleset.is_french else "BG-5"
    if state.ruleset.is_french:
        if call == Call.TAKE:
            why = "take is said only in the first round"
        elif call in SUIT_CALLS and state.round == 1:
            why = "in the first round you may only take or pass"
        elif call in SUIT_CALLS:
            why = "in the second round name a suit other than the turned card's"
        else:
            why = f"{call.value} is not a bid of French Belote"
        return IllegalBid(why, rule)
    if call == Call.PASS:
        return IllegalBid("the dealer must bid when the first three have passed", "BG-7")
    if call == Call.TAKE:
        return IllegalBid("take is not a bid of Bulgarian Belot", rule)
    if call == Call.CONTRA:
        why = "contra is said on the other team's contract, once"
    elif call == Call.RECONTRA:
        why = "re-contra is said on your own team's contract after a contra"
    else:
        why = "a bid must be higher than the current contract"
    return IllegalBid(why, rule)


def _apply_bid(state: DealState, bid: Bid) -> DealState:
    call = bid.call
    if call not in _legal_calls(state):
        raise _bid_error(state, call)
    seats = state.ruleset.seats
    new = state._clone()
    new.bids = (*state.bids, bid)
    new.actions = (*state.actions, bid)
    assert state.turn is not None
    new.turn = (state.turn + 1) % seats
    if state.ruleset.is_french:
        return _french_bid(new, bid)
    if call == Call.PASS:
        new.passes = state.passes + 1
        if new.contract is None and new.passes == seats:
            return _finish_void(new)
        if new.contract is not None and new.passes == seats - 1:
            return _start_play(new)
        return new
    new.passes = 0
    if call == Call.CONTRA:
        new.multiplier = 2
    elif call == Call.RECONTRA:
        new.multiplier = 4
    else:
        new.contract = Contract.parse(call.value)
        new.bidder = bid.seat
        new.multiplier = 1  # BG-6: a higher contract cancels contra and re-contra.
    return new


def _french_bid(new: DealState, bid: Bid) -> DealState:
    seats = new.ruleset.seats
    if bid.call == Call.PASS:
        new.passes += 1
        if new.passes == seats:
            if new.round == 2:
                return _finish_void(new)
            new.round = 2
            new.passes = 0
        return new
    assert new.turned is not None
    suit = new.turned >> 3 if bid.call == Call.TAKE else SUIT_CALLS.index(bid.call)
    new.contract = Contract(suit)
    new.bidder = bid.seat
    return _start_play(new)


def _start_play(new: DealState) -> DealState:
    """Deal the rest of the deck (BG-3, FR-4) and hand the lead to `dealer+1` (FR-5)."""
    ruleset = new.ruleset
    seats = ruleset.seats
    hands = list(new.hands)
    pos = sum(ruleset.first_packets) * seats
    if ruleset.is_french:
        assert new.turned is not None and new.bidder is not None
        hands[new.bidder] |= BIT[new.turned]
        pos += 1
    for i in range(seats):
        seat = (new.dealer + 1 + i) % seats
        size = 2 if ruleset.is_french and seat == new.bidder else 3
        for c in new.deck[pos : pos + size]:
            hands[seat] |= BIT[c]
        pos += size
    assert new.contract is not None
    new.hands = tuple(hands)
    new.table = TABLES[new.contract]
    new.phase = Phase.PLAYING
    new.leader = new.turn = (new.dealer + 1) % seats
    new.passes = 0
    return new


def _finish_void(new: DealState) -> DealState:
    from .scoring import score_deal

    new.phase = Phase.FINISHED
    new.turn = None
    new.result = score_deal(new)
    return new


# -------------------------------------------------------------------------------------- play


def legal_mask(state: DealState) -> int:
    """The cards the player to act may play, as a bitmask (BG-8..BG-11, FR-6)."""
    if state._legal >= 0:
        return state._legal
    assert state.turn is not None and state.table is not None
    hand = state.hands[state.turn]
    trick = state.trick
    if not trick:
        mask = hand
    else:
        mask = _follow_mask(state, hand, state.table)
    state._legal = mask
    return mask


def _follow_mask(state: DealState, hand: int, table: Table) -> int:
    led = trick_led = state.trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    contract = table.contract
    if contract == Contract.NO_TRUMPS:
        return follow or hand
    best = state.best
    if contract == Contract.ALL_TRUMPS or trick_led == contract:
        # BG-10 / BG-8: beat the best card of the suit led if you can, whoever holds it.
        if not follow:
            return hand
        return (follow & table.beaters[best]) or follow
    if follow:
        return follow
    partner_winning = (state.leader + state.best_pos) % state.ruleset.seats == (state.turn or 0) ^ 2
    if partner_winning:
        return hand
    trumps = hand & table.trumps
    if not trumps:
        return hand
    if not BIT[best] & table.trumps:
        return trumps
    higher = trumps & table.beaters[best]
    if higher:
        return higher
    return trumps if state.ruleset.house_rules.must_undertrump else hand


def _card_error(state: DealState, card: Card) -> IllegalCard:
    """Name the rule a card breaks, for the player and for replay error lines."""
    assert state.turn is not None and state.table is not None
    hand = state.hands[state.turn]
    if not hand & BIT[card]:
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
    else:
        rule = "BG-9"
    legal = " ".join(str(c) for c in state.hand(state.turn) if legal_mask(state) & BIT[c])
    return IllegalCard(f"{card} may not be played now; legal: {legal}", rule)


def belote_eligible(state: DealState, card: Card) -> bool:
    """May the player announce belote with this card (BG-19, FR-7)?"""
    table = state.table
    assert table is not None and state.turn is not None
    if table.contract == Contract.NO_TRUMPS or not table.trumps & BIT[card]:
        return False
    suit = card >> 3
    if card & 7 not in (RK, RQ):
        return False
    pair = _BELOTE_PAIRS[suit]
    if state.hands[state.turn] & pair != pair:
        return False  # the other card is gone already: this is not the first of the two
    if table.contract == Contract.ALL_TRUMPS and state.trick:
        return bool(state.trick[0] >> 3 == suit)
    return True


def _rebelote_allowed(state: DealState, seat: int, card: Card) -> bool:
    return (
        state.ruleset.is_french
        and card & 7 in (RK, RQ)
        and (seat, card >> 3) in state.belotes
    )


def _apply_play(state: DealState, play: Play) -> DealState:
    seat = play.seat
    card = play.card
    if not legal_mask(state) & BIT[card]:
        raise _card_error(state, card)
    new = state._clone()
    if play.declare:
        if state.tricks:
            raise declarations.IllegalDeclaration(
                "declarations are made with your first card only", "BG-16"
            )
        assert state.contract is not None
        found = declarations.check(state.ruleset, state.contract, state.hands[seat], play.declare)
        start = len(state.declared)
        new.declared = state.declared + tuple(
            declarations.Announced(seat, d, start + i) for i, d in enumerate(found)
        )
    if play.belote:
        if not belote_eligible(state, card):
            raise IllegalBelote(_belote_why(state), "FR-7" if state.ruleset.is_french else "BG-19")
        new.belotes = (*state.belotes, (seat, card >> 3))
    if play.rebelote and not _rebelote_allowed(state, seat, card):
        raise IllegalBelote("rebelote follows your own belote, with the other card", "FR-7")
    table = state.table
    assert table is not None
    hands = list(state.hands)
    hands[seat] ^= BIT[card]
    new.hands = tuple(hands)
    new.actions = (*state.actions, play)
    trick = (*state.trick, card)
    best = state.best
    if best < 0 or (
        (card >> 3 == trick[0] >> 3 or (table.contract <= 3 and table.trumps & BIT[card]))
        and table.strength[card] > table.strength[best]
    ):
        new.best = card
        new.best_pos = len(trick) - 1
    seats = state.ruleset.seats
    if len(trick) < seats:
        new.trick = trick
        new.turn = (seat + 1) % seats
        return new
    winner = (state.leader + new.best_pos) % seats
    team = state.ruleset.team_of(winner)
    taken = table.points[trick[0]] + table.points[trick[1]] + table.points[trick[2]]
    taken += table.points[trick[3]]
    points = list(state.points)
    points[team] += taken
    new.points = (points[0], points[1])
    new.tricks = (*state.tricks, Trick(state.leader, tuple(CARDS[c] for c in trick), winner))
    new.trick = ()
    new.best = -1
    new.best_pos = -1
    new.leader = new.turn = winner
    if not any(new.hands):
        from .scoring import score_deal

        new.phase = Phase.FINISHED
        new.turn = None
        new.result = score_deal(new)
    return new


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
    mask = legal_mask(state)
    by_byte = _PLAYS_BY_BYTE[seat]
    plays: tuple[Play, ...] = ()
    for suit in range(4):
        byte = mask >> (8 * suit) & 0xFF
        if byte:
            plays += by_byte[suit][byte]
    table = state.table
    assert table is not None and state.contract is not None
    hand = state.hands[seat]
    first = not state.tricks
    if first and declarations.allowed(state.ruleset, state.contract):
        options = declarations.options(state.ruleset, state.contract, hand)
    else:
        options = ((),)
    pairs = any(hand & p == p for p in _BELOTE_PAIRS) if table.contract != 4 else False
    rebelote = state.ruleset.is_french and any(s == seat for s, _ in state.belotes)
    if len(options) == 1 and not pairs and not rebelote:
        return plays
    out: list[Action] = []
    for play in plays:
        card = play.card
        belote_choices = (False, True) if pairs and belote_eligible(state, card) else (False,)
        rebelote_choices = (False, True) if rebelote and _rebelote_allowed(state, seat, card) else (
            False,
        )
        for option in options:
            for belote in belote_choices:
                for re in rebelote_choices:
                    if not option and not belote and not re:
                        out.append(play)
                    else:
                        out.append(Play(seat, card, option, belote, re))
    return tuple(out)


def apply(state: DealState, action: Action) -> DealState:
    """The state after `action`; raise a RuleError (state untouched) if it is not legal."""
    if state.phase is Phase.FINISHED:
        raise WrongPhase("the deal is over", "BG-27" if not state.ruleset.is_french else "FR-13")
    if action.seat != state.turn:
        rule = "C-7" if state.phase is Phase.PLAYING else ("FR-3" if state.ruleset.is_french else "BG-5")
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {action.seat}'s", rule)
    if isinstance(action, Bid):
        if state.phase is not Phase.BIDDING:
            raise WrongPhase("the bidding is over", "FR-3" if state.ruleset.is_french else "BG-7")
        return _apply_bid(state, action)
    if state.phase is not Phase.PLAYING:
        raise WrongPhase("cards are played after the bidding", "FR-4" if state.ruleset.is_french else "BG-3")
    return _apply_play(state, action)
