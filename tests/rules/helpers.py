"""Shared helpers for the rules tests: golden files, a rules oracle, scripted deals.

The oracle here is written from RULES.md (C-3, C-4, C-7, BG-8..BG-11, FR-6) independently of the
engine, so that tests compare the engine against a second reading of the rules rather than
against itself. Scripted deals go through the public API only: a deck is laid out by C-9 from
the hands a script needs, and every bid and card is applied with `apply`, which validates it.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from app.rules import (
    Bid,
    Call,
    Card,
    DealState,
    Phase,
    Play,
    RuleError,
    Ruleset,
    apply,
    legal_actions,
    new_deal,
)

SUITS = "CDHS"
SUIT_OF_CONTRACT = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
CONTRACT_OF_SUIT = {v: k for k, v in SUIT_OF_CONTRACT.items()}
TRUMP_ORDER = "J9ATKQ87"  # C-3, high -> low
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}  # C-4
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
ALL_CARD_TEXTS = [r + s for s in SUITS for r in "789TJQKA"]


# ----------------------------------------------------------------------------- golden files


WORKPLACE_GOLDEN = Path("/work/shared/golden")
"""Where the project's shared folder lives on its machines, for checkouts made elsewhere."""


def golden_dir() -> Path | None:
    """$BELOTE_GOLDEN_DIR, else `shared/golden` beside the repository or the workplace's."""
    env = os.environ.get("BELOTE_GOLDEN_DIR")
    if env and Path(env).is_dir():
        return Path(env)
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "golden"
        if candidate.is_dir():
            return candidate
    return WORKPLACE_GOLDEN if WORKPLACE_GOLDEN.is_dir() else None


def load_golden(name: str) -> list[dict[str, Any]]:
    """The cases of one golden file, or [] if the golden directory is absent."""
    directory = golden_dir()
    if directory is None:
        return []
    with open(directory / name, encoding="utf-8") as handle:
        cases: list[dict[str, Any]] = json.load(handle)
    return cases


# ----------------------------------------------------------------------------------- oracle


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


def is_trump(card: str, contract: str) -> bool:
    if contract == "all_trumps":
        return True
    if contract == "no_trumps":
        return False
    return card[1] == SUIT_OF_CONTRACT[contract]


def power(card: str, contract: str) -> int:
    """Strength inside the card's suit under the contract (C-3); higher wins."""
    if is_trump(card, contract):
        return 8 - TRUMP_ORDER.index(card[0])
    return 8 - PLAIN_ORDER.index(card[0])


def card_points(card: str, contract: str) -> int:
    """C-4 (All Trumps: every suit scores as trumps; No Trumps: as plain, before doubling)."""
    table = TRUMP_POINTS if is_trump(card, contract) else PLAIN_POINTS
    return table[card[0]]


def winning_position(trick: Sequence[str], contract: str) -> int:
    """C-7: the highest trump (suit contracts), else the highest card of the suit led."""
    led = trick[0][1]
    if contract in SUIT_OF_CONTRACT:
        trumps = [i for i, c in enumerate(trick) if is_trump(c, contract)]
        if trumps:
            return max(trumps, key=lambda i: power(trick[i], contract))
    same = [i for i, c in enumerate(trick) if c[1] == led]
    return max(same, key=lambda i: power(trick[i], contract))


def oracle_legal(
    contract: str,
    trick: Sequence[str],
    leader: int,
    seat: int,
    hand: Iterable[str],
    must_undertrump: bool = True,
    seats: int = 4,
    partners: Iterable[int] | None = None,
) -> set[str]:
    """The legal cards by BG-8..BG-11 and FR-6, written straight from RULES.md; `hand` is what
    the player may play (OB-10: hand and face-up table cards). `partners` are the seats whose
    winning card frees the player (BG-9): by default the partner across the table (C-6) at four
    seats and nobody at fewer (BGN-4)."""
    if partners is None:
        partners = [(seat + 2) % 4] if seats == 4 else []
    partners = set(partners)
    hand = set(hand)
    if not trick:
        return hand
    led = trick[0][1]
    follow = {c for c in hand if c[1] == led}
    if contract == "no_trumps":  # BG-11
        return follow or hand
    if contract == "all_trumps" or led == SUIT_OF_CONTRACT[contract]:  # BG-10, BG-8
        if not follow:
            return hand
        best = max((c for c in trick if c[1] == led), key=lambda c: power(c, contract))
        higher = {c for c in follow if power(c, contract) > power(best, contract)}
        return higher or follow
    if follow:  # BG-8
        return follow
    win = winning_position(trick, contract)  # BG-9 / FR-6
    if (leader + win) % seats in partners:
        return hand
    trumps = {c for c in hand if is_trump(c, contract)}
    if not trumps:
        return hand
    best = trick[win]
    if not is_trump(best, contract):
        return trumps
    higher = {c for c in trumps if power(c, contract) > power(best, contract)}
    if higher:
        return higher
    return trumps if must_undertrump else hand


def oracle_belote(contract: str, trick: Sequence[str], hand: Iterable[str], card: str) -> bool:
    """BG-19 / FR-7: belote may be announced with this (legal) card: the K or Q of trumps
    (All Trumps: of any suit) with the other one still in hand; in All Trumps only when the card
    is led or follows the suit led. Never in No Trumps (BG-12)."""
    if contract == "no_trumps" or card[0] not in "KQ" or not is_trump(card, contract):
        return False
    other = ("Q" if card[0] == "K" else "K") + card[1]
    if other not in set(hand):
        return False
    return not (contract == "all_trumps" and trick and trick[0][1] != card[1])


RANKS = "789TJQKA"  # C-5 sequence order, low to high


def oracle_declaration_options(
    hand: Iterable[str], card_in_two: bool
) -> set[frozenset[tuple[str, ...]]]:
    """BG-13..BG-15, BG-20: every set of declarations a hand may announce (each declaration as
    its sorted card texts): for each carré of 9s..aces, it or nothing; for each maximal run of
    3+ cards, nothing or one part of 3+ adjacent cards of it (a run of 8 also as its quinte to
    the ace plus the tierce below); no card twice unless `card_in_two` (carré + sequence)."""
    hand = set(hand)
    choices: list[list[tuple[tuple[str, ...], ...]]] = []
    for rank in "9TJQKA":
        carre = tuple(sorted(rank + suit for suit in SUITS))
        if all(c in hand for c in carre):
            choices.append([(), (carre,)])
    for suit in SUITS:
        start = None
        for i in range(9):
            present = i < 8 and RANKS[i] + suit in hand
            if present and start is None:
                start = i
            elif not present and start is not None:
                if i - start >= 3:
                    run = [RANKS[k] + suit for k in range(start, i)]
                    parts: list[tuple[tuple[str, ...], ...]] = [()]
                    for size in range(3, len(run) + 1):
                        for at in range(len(run) - size + 1):
                            parts.append((tuple(sorted(run[at : at + size])),))
                    if len(run) == 8:
                        parts.append((tuple(sorted(run[:3])), tuple(sorted(run[3:]))))
                    choices.append(parts)
                start = None
    out: set[frozenset[tuple[str, ...]]] = set()
    for combo in itertools.product(*choices):
        picked = [d for group in combo for d in group]
        used = [c for d in picked for c in d]
        if not card_in_two and len(used) != len(set(used)):
            continue
        out.add(frozenset(picked))
    return out


# ---------------------------------------------------------------------------- scripted deals


def contract_and_taker(
    ruleset: Ruleset, dealer: int, bids: Sequence[str], turned: str | None
) -> tuple[str, int]:
    """Which contract a scripted bidding ends in, and the seat that made it."""
    contract, taker = "", -1
    for i, call in enumerate(bids):
        seat = (dealer + 1 + i) % 4
        if call in ("pass", "contra", "recontra", "surcontra"):
            continue
        if call == "take":
            assert turned is not None
            contract, taker = CONTRACT_OF_SUIT[turned[1]], seat
        else:
            contract, taker = call, seat
    assert taker >= 0, "the scripted bidding names no contract"
    return contract, taker


def layout_deck(
    ruleset: Ruleset,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    taker: int | None = None,
    turned: str | None = None,
) -> list[Card]:
    """Lay out a deck so that C-9 deals exactly `hands` (French: `turned` goes to `taker`).

    Each seat's first five cards (in list order, the turned card left aside) go out in the
    first packets, the rest after the bidding.
    """
    first_packets = (2, 3) if ruleset.house_rules.deal_packets == "2-3" else (3, 2)
    if not ruleset.is_french:
        first_packets = (3, 2)
    early: dict[int, list[str]] = {}
    late: dict[int, list[str]] = {}
    for seat in range(4):
        own = [c for c in hands[seat] if c != turned]
        assert len(own) == (7 if ruleset.is_french and seat == taker else 8), (seat, own)
        early[seat], late[seat] = own[:5], own[5:]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    deck: list[str] = []
    taken = dict.fromkeys(range(4), 0)
    for size in first_packets:
        for seat in order:
            deck += early[seat][taken[seat] : taken[seat] + size]
            taken[seat] += size
    if ruleset.is_french:
        assert turned is not None
        deck.append(turned)
    for seat in order:
        deck += late[seat]
    assert sorted(deck) == sorted(ALL_CARD_TEXTS), "the hands must hold the 32 cards once"
    return cards(*deck)


def scripted_deal(
    ruleset: Ruleset,
    dealer: int,
    bids: Sequence[str],
    tricks: Sequence[Sequence[str]],
    *,
    unplayed: Mapping[int, Sequence[str]] | None = None,
    turned: str | None = None,
    extras: Mapping[str, Mapping[str, Any]] | None = None,
    hanging_in: int = 0,
) -> DealState:
    """Deal from a deck laid out for the script, then apply every bid and card through `apply`.

    `tricks` are cards in the order played; the first is led by `dealer+1`, each next one by the
    winner of the previous one (C-7, computed by the oracle). `unplayed` holds cards still in
    hand when the script stops. `extras` maps a card to what is announced with it:
    `{"declare": [["AS", "KS", "QS"]], "belote": True, "rebelote": True}`.
    """
    contract, taker = contract_and_taker(ruleset, dealer, bids, turned)
    extras = extras or {}
    hands: dict[int, list[str]] = {s: [] for s in range(4)}
    plays: list[tuple[int, str]] = []
    leader = (dealer + 1) % 4
    for trick in tricks:
        for i, card in enumerate(trick):
            seat = (leader + i) % 4
            hands[seat].append(card)
            plays.append((seat, card))
        if len(trick) == 4:
            leader = (leader + winning_position(trick, contract)) % 4
    for seat, rest in (unplayed or {}).items():
        hands[seat] += list(rest)
    deck = layout_deck(ruleset, dealer, hands, taker, turned)
    state = new_deal(ruleset, dealer, deck, hanging_in)
    for i, call in enumerate(bids):
        state = apply(state, Bid((dealer + 1 + i) % 4, Call(call)))
    for seat, card in plays:
        extra = extras.get(card, {})
        declare = tuple(tuple(sorted(cards(*d))) for d in extra.get("declare", ()))
        declare = tuple(sorted(declare, key=lambda d: (d[0], len(d))))
        state = apply(
            state,
            Play(
                seat,
                Card.parse(card),
                declare,
                bool(extra.get("belote", False)),
                bool(extra.get("rebelote", False)),
            ),
        )
    return state


def position_state(
    ruleset: Ruleset,
    contract: str,
    trick: Sequence[str],
    hand: Sequence[str],
    seed: str,
    tries: int = 500,
    budget: int = 100,
) -> DealState:
    """A real deal in play whose current trick, led by seat 0, holds `trick` and whose player
    to act (seat len(trick)) holds exactly `hand`.

    The other cards are dealt at random (dealer 3, so seat 0 bids and leads first); the earlier
    tricks are found by a depth-first search over cards that both the engine and the oracle
    call legal, keeping back the cards the position needs, until seat 0 wins the trick before
    the position. Every bid and card goes through `apply`.
    """
    actor = len(trick)
    keep = len(hand)
    reserved = set(trick) | set(hand)
    pool = [c for c in ALL_CARD_TEXTS if c not in reserved]
    rng = random.Random(seed)
    for _ in range(tries):
        rng.shuffle(pool)
        hands: dict[int, list[str]] = {}
        kept: dict[int, set[str]] = {}
        at = 0
        for seat in range(4):
            own = [trick[seat]] if seat < actor else []
            if seat == actor:
                own = list(hand)
            need = 8 - len(own)
            hands[seat] = pool[at : at + need] + own
            at += need
            # the cards a seat must still hold when the position's trick begins
            kept[seat] = set(own) | set(hands[seat][: keep - len(own)])
        must_undertrump = ruleset.house_rules.must_undertrump
        if not all(
            trick[seat]
            in oracle_legal(contract, trick[:seat], 0, seat, kept[seat], must_undertrump)
            for seat in range(actor)
        ):
            continue  # the position's own trick would not be legal from these hands
        start = _deal_and_bid(ruleset, contract, hands)
        if start is None:
            continue
        state = _search(start, contract, kept, 8 - keep, rng, [budget])
        if state is None:
            continue
        try:
            for seat, card in enumerate(trick):
                state = apply(state, Play(seat, Card.parse(card)))
        except RuleError:
            continue
        assert state.phase is Phase.PLAYING and state.turn == actor
        return state
    raise AssertionError(f"no deal found for position {seed}")


def _deal_and_bid(ruleset: Ruleset, contract: str, hands: dict[int, list[str]]) -> DealState | None:
    """Deal `hands` with dealer 3 and let seat 0 make `contract` (French: take or name it)."""
    turned: str | None = None
    if ruleset.is_french:
        trumps = [c for c in hands[0] if c[1] == SUIT_OF_CONTRACT[contract]]
        turned = trumps[0] if trumps else hands[0][0]
        bids = ["take"] if trumps else ["pass"] * 4 + [contract]
    else:
        bids = [contract, "pass", "pass", "pass"]
    state = new_deal(ruleset, 3, layout_deck(ruleset, 3, hands, 0, turned))
    for i, call in enumerate(bids):
        state = apply(state, Bid((i) % 4, Call(call)))
    return state


def _search(
    state: DealState,
    contract: str,
    kept: Mapping[int, set[str]],
    tricks: int,
    rng: random.Random,
    budget: list[int],
) -> DealState | None:
    """Play `tricks` tricks without touching kept cards, ending with seat 0 to lead."""
    if len(state.tricks) == tricks and not state.trick:
        return state if state.turn == 0 else None
    budget[0] -= 1
    if budget[0] < 0:
        return None
    seat = state.turn
    assert seat is not None
    oracle = oracle_legal(
        contract,
        [str(c) for c in state.trick],
        state.leader,
        seat,
        [str(c) for c in state.hand(seat)],
        state.ruleset.house_rules.must_undertrump,
    )
    options = sorted((legal_cards(state) & oracle) - kept[seat])
    rng.shuffle(options)
    for card in options:
        found = _search(
            apply(state, Play(seat, Card.parse(card))), contract, kept, tricks, rng, budget
        )
        if found is not None:
            return found
    return None


def legal_cards(state: DealState) -> set[str]:
    """The distinct cards among `legal_actions` (declaration and belote variants merged)."""
    return {str(a.card) for a in legal_actions(state) if isinstance(a, Play)}


def play_randomly(state: DealState, rng: random.Random, pass_bias: float = 0.5) -> DealState:
    """Play a deal to its end with random legal actions (passing with some bias in bidding)."""
    while state.phase is not Phase.FINISHED:
        actions = legal_actions(state)
        passes = [a for a in actions if isinstance(a, Bid) and a.call == Call.PASS]
        if passes and rng.random() < pass_bias:
            state = apply(state, passes[0])
        else:
            state = apply(state, rng.choice(actions))
    return state


def shuffled_deck(ruleset: Ruleset, seed: int) -> list[Card]:
    deck = cards(*ALL_CARD_TEXTS)
    random.Random(seed).shuffle(deck)
    return deck


# --------------------------------------------------------------------------- scripted layouts
#
# Complete deals written trick by trick (cards in the order played; the first trick is led by
# `dealer+1`, each next one by the winner of the previous one). They hold for any dealer: the
# team of `dealer+1` is called the "leading team" below. Every trick is one suit, so following
# suit is always possible, and wherever a follower must beat the card led (a trump led, All
# Trumps) the leader plays the highest card left in that suit. Card points are worked out by
# hand from C-4 in the comments.

# Hearts. Leading team: 82 card points + 10 last trick = 92; other team: 70 (BG-25 "92:70").
#   other team:  7C KC QC JC  9 | JH 9H AH TH 55 | JD 9D 8D 7D  2 | KS 9S 8S 7S  4   = 70
#   leading:     TC AC 9C 8C 21 | AD TD KD QD 28 | AS TS QS JS 26 | KH QH 8H 7H  7   = 82
HEARTS_92_70 = [
    ["7C", "KC", "QC", "JC"],  # led by dealer+1, won by dealer+2 (KC)
    ["JH", "9H", "AH", "TH"],
    ["JD", "9D", "8D", "7D"],
    ["KS", "9S", "8S", "7S"],
    ["TC", "AC", "9C", "8C"],  # AC: won by dealer+3, the leading team again
    ["AD", "TD", "KD", "QD"],
    ["AS", "TS", "QS", "JS"],
    ["KH", "QH", "8H", "7H"],  # last trick: leading team
]
HEARTS_92_70_TURNED = "TH"  # played by dealer+1 in the second trick

# Hearts. Leading team: 71 card points + 10 last trick = 81; other team: 55 + 26 = 81.
HEARTS_81_81 = [
    ["QS", "AS", "JS", "TS"],  # won by dealer+2
    ["JH", "9H", "AH", "TH"],
    ["KC", "AC", "QC", "TC"],  # won by dealer+3
    ["JC", "9C", "8C", "7C"],
    ["AD", "TD", "KD", "QD"],
    ["JD", "9D", "8D", "7D"],
    ["KS", "9S", "8S", "7S"],
    ["KH", "QH", "8H", "7H"],
]
HEARTS_81_81_TURNED = "TH"  # played by dealer+1 in the second trick

# Hearts, dealer+2 holds KH and QH (belote with KH, rebelote with QH) and takes only clubs
# A T K Q (28). Leading team: 152 - 28 + 10 = 134.
HEARTS_BELOTE_28 = [
    ["JH", "KH", "9H", "7H"],  # dealer+2 follows with KH: belote
    ["AD", "TD", "KD", "QD"],
    ["AS", "TS", "KS", "QS"],
    ["JS", "9S", "8S", "7S"],
    ["JD", "9D", "8D", "7D"],
    ["KC", "AC", "QC", "TC"],  # won by dealer+2
    ["QH", "AH", "TH", "8H"],  # dealer+2 leads QH: rebelote; AH (dealer+3) wins
    ["JC", "9C", "8C", "7C"],
]

# The leading seat takes every trick, leading the best card of each suit in turn.
ALL_TO_LEADER_TRUMP_FIRST = [
    ["JH", "9H", "AH", "TH"],
    ["KH", "QH", "8H", "7H"],
    ["AC", "TC", "KC", "QC"],
    ["JC", "9C", "8C", "7C"],
    ["AD", "TD", "KD", "QD"],
    ["JD", "9D", "8D", "7D"],
    ["AS", "TS", "KS", "QS"],
    ["JS", "9S", "8S", "7S"],
]

# No Trumps: dealer+3 (the leader's partner) takes every trick. 120 card points + 10.
NT_ALL_TO_PARTNER = [
    ["KC", "QC", "AC", "TC"],
    ["JC", "9C", "8C", "7C"],
    ["AD", "TD", "KD", "QD"],
    ["JD", "9D", "8D", "7D"],
    ["AH", "TH", "KH", "QH"],
    ["JH", "9H", "8H", "7H"],
    ["AS", "TS", "KS", "QS"],
    ["JS", "9S", "8S", "7S"],
]

# No Trumps: dealer+2 takes the first trick with the ace of clubs, then every other trick.
NT_ALL_TO_SECOND = [["KC", "AC", "QC", "TC"], *NT_ALL_TO_PARTNER[1:]]

# No Trumps. Leading team: 70 card points + 10 last trick = 80; other team 50 (BG-25 "80:50").
#   other team: spades A T K Q 28, J 9 8 7 2, hearts T K J 7 16, clubs J98 7 2, diamonds 2 = 50
#   leading:    clubs A T K Q 28, diamonds A T K Q 28, hearts A Q 9 8 14                    = 70
NT_80_50 = [
    ["QS", "AS", "KS", "TS"],  # won by dealer+2
    ["JS", "9S", "8S", "7S"],
    ["TH", "KH", "JH", "7H"],
    ["JC", "9C", "8C", "7C"],
    ["JD", "9D", "8D", "7D"],
    ["KC", "AC", "QC", "TC"],  # won by dealer+3
    ["AD", "TD", "KD", "QD"],
    ["AH", "QH", "9H", "8H"],
]


def seat_after(dealer: int, steps: int) -> int:
    """`dealer+steps` round the table (C-6)."""
    return (dealer + steps) % 4


def bids_for(dealer: int, bidder: int, contract: str, extra: Sequence[str] = ()) -> list[str]:
    """Bulgarian bidding: passes up to `bidder`, who bids `contract`, then `extra` calls, then
    three passes (BG-7). `extra` are the calls that follow the contract in seat order."""
    before = (bidder - dealer - 1) % 4
    return ["pass"] * before + [contract, *extra, "pass", "pass", "pass"]


def snapshot(state: DealState) -> str:
    """Everything observable of a state: its record and every seat's and a spectator's view."""
    from app.rules import deal_record, view

    views = [view(state, seat).to_dict() for seat in (*range(state.ruleset.seats), None)]
    return json.dumps([deal_record(state), views], sort_keys=True)


def hand_texts(state: DealState, seat: int) -> set[str]:
    return {str(c) for c in state.hand(seat)}
