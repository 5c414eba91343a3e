"""What one seat — or a spectator — may see of a deal. The only projection sent to a client.

A seat sees its own hand and everything the rules make public: bids, cards played, the turned
card (French), the kinds of declarations announced during the first trick and the cards of the
scoring ones once it ends (BG-16; the second with TWO-3), belotes announced, and in Open Belot
every face-up table card (OB-7). A spectator (`seat=None`) sees no hand. Nobody sees a face-down
table card (its owner included, OB-7), a Croatian pair before CRO-3 gives it to its owner, or
the cards out of play (BG2-4). The hands become public only through the tricks played.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action, Bid
from .cards import CARD_NAMES, CARDS, SUIT_NAMES, Card
from .contracts import TABLES, Contract
from .deal import DealState, Phase, Trick, legal_actions
from .ruleset import Ruleset
from .scoring import scoring_declarations


class _ByIdentity:
    """The JSON form of immutable parts that successive states of a deal share as the same
    object: the completed tricks change once a trick, the bids not at all once the play began.
    A server projects every state of every table, so each would otherwise be made again per
    action; the memo keeps each part alive until it is cleared (at ``size`` entries), so that
    an id is never another object's while it is here. The forms are shared: read only."""

    def __init__(self, make: Callable[[Any], Any], size: int = 4096) -> None:
        self._make = make
        self._size = size
        self._memo: dict[int, tuple[object, Any]] = {}

    def __call__(self, part: object) -> Any:
        hit = self._memo.get(id(part))
        if hit is not None and hit[0] is part:
            return hit[1]
        if len(self._memo) >= self._size:
            self._memo.clear()
        made = self._make(part)
        self._memo[id(part)] = (part, made)
        return made


def _tricks_wire(tricks: tuple[Trick, ...]) -> list[dict[str, Any]]:
    return [
        {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner} for t in tricks
    ]


def _bids_wire(bids: tuple[Bid, ...]) -> list[dict[str, Any]]:
    return [b.to_dict() for b in bids]


_TRICKS = _ByIdentity(_tricks_wire)
_BIDS = _ByIdentity(_bids_wire)
_rules_wire: Callable[[Ruleset], dict[str, Any]] = _ByIdentity(Ruleset.to_dict, size=256)
"""A table's rules: every state of a table holds the same `Ruleset` object (by identity: hashing
a ruleset costs more than the rest of the lookup; shared: read only)."""


@dataclass(frozen=True, slots=True)
class AnnouncedView:
    """A declaration as a seat sees it: its kind always, its cards only once shown."""

    seat: int
    kind: str
    points: int | None
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """A deal seen from `seat` (None: a spectator). Holds no card the viewer may not see."""

    seat: int | None
    rules: dict[str, Any]
    phase: Phase
    dealer: int
    turn: int | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    turned: Card | None
    bids: tuple[Bid, ...]
    contract: str | None
    bidder: int | None
    multiplier: int
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, ...]
    declarations: tuple[AnnouncedView, ...]
    belotes: tuple[tuple[int, str], ...]
    legal: tuple[Action, ...]
    hanging_in: int
    result: dict[str, Any] | None
    stacks: tuple[tuple[tuple[Card | None, bool], ...], ...] | None = None
    """Open Belot: each seat's table stacks as (face-up card or None, a face-down card lies
    under it); None in the other presets."""
    pairs: tuple[int, ...] | None = None
    """Croatian deal: how many face-down cards each seat holds that are not yet his (CRO-3)."""
    played_from: tuple[tuple[Card, int], ...] | None = None
    """Open Belot: (card, stack) of every card played from a table stack in this deal, so a
    client can say where a card on the table came from; None in the other presets."""
    played_for_you: tuple[tuple[int, Action], ...] = ()
    """The viewer's own actions of this deal that the server made for him (a stand-in or the
    clock), with their sequence numbers; nobody else's: private like the hand."""
    shared_wire: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    """`shared_dict()` as `view` made it once for all the viewers of the state."""

    def shared_dict(self) -> dict[str, Any]:
        """The JSON form of every field that all viewers of the state see alike."""
        return {
            "rules": self.rules,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand_sizes": list(self.hand_sizes),
            "turned": None if self.turned is None else str(self.turned),
            "bids": _BIDS(self.bids),
            "contract": self.contract,
            "bidder": self.bidder,
            "multiplier": self.multiplier,
            "leader": self.leader,
            "trick": [
                {"seat": (self.leader + i) % len(self.hand_sizes), "card": str(c)}
                for i, c in enumerate(self.trick)
            ],
            "tricks": _TRICKS(self.tricks),
            "points": list(self.points),
            "declarations": [
                {
                    "seat": d.seat,
                    "kind": d.kind,
                    "points": d.points,
                    "cards": None if d.cards is None else [str(c) for c in d.cards],
                }
                for d in self.declarations
            ],
            "belotes": [{"seat": s, "suit": suit} for s, suit in self.belotes],
            "hanging_in": self.hanging_in,
            "result": self.result,
            "stacks": None
            if self.stacks is None
            else [
                [{"up": None if up is None else str(up), "down": down} for up, down in own]
                for own in self.stacks
            ],
            "pairs": None if self.pairs is None else list(self.pairs),
            "played_from": None
            if self.played_from is None
            else {str(card): stack for card, stack in self.played_from},
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the wire and the history page."""
        shared = self.shared_wire if self.shared_wire is not None else self.shared_dict()
        return {
            **shared,
            **_own_wire(self.seat, self.hand, self.legal, self.played_for_you),
        }


def _own_wire(
    seat: int | None,
    hand: tuple[Card, ...] | None,
    legal: tuple[Action, ...],
    played_for_you: tuple[tuple[int, Action], ...] = (),
) -> dict[str, Any]:
    """The JSON form of the fields that differ between viewers (the last keys of `to_dict`).
    `played_for_you` is there only when not empty: the frames of the hot path carry no such
    key (their `action` events say `auto` instead), a snapshot does."""
    own: dict[str, Any] = {
        "seat": seat,
        "hand": None if hand is None else [CARD_NAMES[c] for c in hand],
        "legal": [a.to_dict() for a in legal],
    }
    if played_for_you:
        own["played_for_you"] = [{"seq": seq, **a.to_dict()} for seq, a in played_for_you]
    return own


def _display_orders(strength: tuple[int, ...]) -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For each suit and each byte of that suit's bits, its cards strongest first."""
    return tuple(
        tuple(
            tuple(
                sorted(
                    (CARDS[suit * 8 + r] for r in range(8) if byte >> r & 1),
                    key=lambda c: -strength[c],
                )
            )
            for byte in range(256)
        )
        for suit in range(4)
    )


_DISPLAY = tuple(_display_orders(table.strength) for table in TABLES)
"""Hands in display order by contract; before one is agreed, the plain order of No Trumps."""


def _sorted_hand(state: DealState, mask: int) -> tuple[Card, ...]:
    """Suit by suit, strongest first under the contract (plain order before one is agreed)."""
    order = _DISPLAY[state.contract if state.contract is not None else Contract.NO_TRUMPS]
    return (
        order[0][mask & 0xFF]
        + order[1][mask >> 8 & 0xFF]
        + order[2][mask >> 16 & 0xFF]
        + (order[3][mask >> 24])
    )


def _declarations(state: DealState) -> tuple[AnnouncedView, ...]:
    if not state.declared:
        return ()
    if state.phase is Phase.FINISHED:
        shown = scoring_declarations(state)
    elif len(state.tricks) >= state.ruleset.declaration_tricks:
        shown = scoring_declarations(state, as_shown=True)
    else:
        shown = []
    out = []
    for a in state.declared:
        visible = a in shown
        out.append(
            AnnouncedView(
                a.seat,
                a.declaration.kind,
                a.declaration.points if visible else None,
                a.declaration.cards if visible else None,
            )
        )
    return tuple(out)


_last_shared: tuple[DealState, SeatView, dict[str, Any]] | None = None
"""The shared part of the last state viewed. A server projects each new state for all its viewers
in a row, so one entry catches four of five calls without keeping old states' views alive."""


def _shared(state: DealState) -> tuple[SeatView, dict[str, Any]]:
    """What every viewer of `state` sees alike, as a spectator's view and its JSON form."""
    global _last_shared
    cached = _last_shared
    if cached is None or cached[0] is not state:
        base = SeatView(
            seat=None,
            rules=_rules_wire(state.ruleset),
            phase=state.phase,
            dealer=state.dealer,
            turn=state.turn,
            hand=None,
            hand_sizes=tuple(state.hand_mask(s).bit_count() for s in range(state.ruleset.seats)),
            turned=state.turned if state.ruleset.is_french else None,
            bids=state.bids,
            contract=None if state.contract is None else state.contract.record_name,
            bidder=state.bidder,
            multiplier=state.multiplier,
            leader=state.leader,
            trick=state.trick,
            tricks=state.tricks,
            points=state.points,
            declarations=_declarations(state),
            belotes=tuple((s, SUIT_NAMES[suit]) for s, suit in state.belotes),
            legal=(),
            hanging_in=state.hanging_in,
            result=None if state.result is None else state.result.to_dict(),
            stacks=_stacks(state),
            pairs=_pairs(state),
            played_from=_played_from(state),
        )
        cached = _last_shared = (state, base, base.shared_dict())
    return cached[1], cached[2]


def _stacks(state: DealState) -> tuple[tuple[tuple[Card | None, bool], ...], ...] | None:
    """OB-7: face-up table cards for everyone, only the presence of a face-down one."""
    layout = state.layout
    if layout is None or not layout.stacks:
        return None
    return tuple(
        tuple((None if up < 0 else CARDS[up], down >= 0) for up, down in own)
        for own in layout.stacks
    )


def _played_from(state: DealState) -> tuple[tuple[Card, int], ...] | None:
    """OB-9: which table stack each card played from the table came from (public: it was
    face up)."""
    layout = state.layout
    if layout is None or not layout.stacks:
        return None
    return tuple((CARDS[card], stack) for card, stack in layout.played_from)


def _pairs(state: DealState) -> tuple[int, ...] | None:
    """CRO-3: the size of each seat's face-down pair while it is nobody's."""
    if not state.ruleset.house_rules.croatian_deal:
        return None
    layout = state.layout
    if layout is None:
        return (0,) * state.ruleset.seats
    return tuple(h.bit_count() for h in layout.hidden)


def _own(state: DealState, seat: int | None) -> tuple[tuple[Card, ...] | None, tuple[Action, ...]]:
    """The hand and the legal actions of `seat`: the only part of a view that is private."""
    if seat is None:
        return None, ()
    if not 0 <= seat < state.ruleset.seats:
        raise ValueError(f"no seat {seat}")
    hand = _sorted_hand(state, state.hand_mask(seat))
    return hand, legal_actions(state) if seat == state.turn else ()


def _played_for(
    state: DealState, seat: int | None, auto: Collection[int]
) -> tuple[tuple[int, Action], ...]:
    """The actions of `seat` among `auto` (sequence numbers in `state.actions`)."""
    if seat is None or not auto:
        return ()
    return tuple(
        (seq, action)
        for seq, action in enumerate(state.actions)
        if seq in auto and action.seat == seat
    )


def view(state: DealState, seat: int | None, auto: Collection[int] = ()) -> SeatView:
    """Project `state` for `seat` (or a spectator). Everything a client receives comes from here.

    Only `seat`, `hand`, `legal` and `played_for_you` differ between viewers; the rest is made
    once per state. `auto`: the sequence numbers of the deal's actions the server made (the
    engine cannot tell them from the others; the room knows), of which the viewer sees his own.
    """
    hand, legal = _own(state, seat)
    base, wire = _shared(state)
    return replace(
        base,
        seat=seat,
        hand=hand,
        legal=legal,
        played_for_you=_played_for(state, seat, auto),
        shared_wire=wire,
    )


def wire_view(
    state: DealState, seat: int | None, auto: Collection[int] = ()
) -> tuple[dict[str, Any], dict[str, Any]]:
    """`view(state, seat).to_dict()` in its two parts: the part every viewer of `state` shares
    (the same dict for all of them, so a server can encode it once) and the viewer's own part.
    Merged, shared first, they are exactly `to_dict()`; the server's hot path skips the
    `SeatView` it would only turn into these."""
    hand, legal = _own(state, seat)
    return _shared(state)[1], _own_wire(seat, hand, legal, _played_for(state, seat, auto))
