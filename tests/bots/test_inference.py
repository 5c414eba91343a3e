"""Soft inference on hand-made positions: what the other players' calls, leads, discards and
silences say about their hands, as weights on the sampled deals (`app/bots/inference.py`).

Each position is dealt from a deck laid out by hand and played through the engine, so the view
is one the server could send. The soft sampler's frequencies are compared with the uniform
sampler's (`Sampler(view, soft=False)`) on the same number of deals; the gaps asserted are many
standard errors wide, so the tests do not depend on the seed's luck.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.bots.bidding import BID_AT
from app.bots.inference import DECLARATIONS, CallSeen, call_likelihood, likely
from app.bots.sampler import Sampler
from app.rules import (
    Action,
    Bid,
    Call,
    Card,
    DealState,
    Play,
    Ruleset,
    SeatView,
    apply,
    full_deck,
    legal_actions,
    mask_of,
    new_deal,
    view,
)

BULGARIAN = Ruleset.bulgarian()
SAMPLES = 400


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def deal(ruleset: Ruleset, dealer: int, hands: dict[int, str]) -> DealState:
    """A Bulgarian deal (BG-3: packets of 3, 2, then 3 from dealer+1) giving each listed seat
    its eight cards in the order written; the other cards go out in a fixed order."""
    seats = ruleset.seats
    given = {s: cards(h) for s, h in hands.items()}
    rest = [c for c in full_deck(ruleset) if all(c not in h for h in given.values())]
    full = {s: given.get(s) or [rest.pop() for _ in range(8)] for s in range(seats)}
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    deck: list[Card] = []
    for start, size in ((0, 3), (3, 2), (5, 3)):
        for s in order:
            deck += full[s][start : start + size]
    return new_deal(ruleset, dealer, deck)


def play(state: DealState, actions: Sequence[Action]) -> DealState:
    for action in actions:
        state = apply(state, action)
    return state


def bids(*calls: tuple[int, Call]) -> list[Action]:
    return [Bid(seat, call) for seat, call in calls]


def frequency(seat_view: SeatView, soft: bool, event: Callable[[DealState], bool]) -> float:
    """How often `event` holds over SAMPLES deals drawn from the view."""
    rng = random.Random(11)
    sampler = Sampler(seat_view, soft=soft)
    worlds = [sampler.sample(rng) for _ in range(SAMPLES)]
    drawn = [w for w in worlds if w is not None]
    assert len(drawn) == SAMPLES
    assert all(view(w, seat_view.seat) == seat_view for w in drawn)
    return sum(event(w) for w in drawn) / SAMPLES


def holds(seat: int, card: str) -> Callable[[DealState], bool]:
    bit = 1 << int(Card.parse(card))
    return lambda w: bool(w.hand_mask(seat) & bit)


def test_the_bidder_holds_the_missing_trump_jack_far_more_often_than_uniform_bg5() -> None:
    """BG-5: seat 1 bid hearts over seat 0's pass, and seat 0 does not hold the jack of
    hearts: uniformly seat 1 has it 5 times in 27, weighted by its bid far more often."""
    state = deal(BULGARIAN, 3, {0: "7C 8D 9S QC KD 7D 8C 9C"})
    state = play(state, bids((0, Call.PASS), (1, Call.HEARTS), (2, Call.PASS), (3, Call.PASS)))
    seat_view = view(state, 0)
    uniform = frequency(seat_view, False, holds(1, "JH"))
    soft = frequency(seat_view, True, holds(1, "JH"))
    assert 0.1 < uniform < 0.28  # 5/27
    assert soft > 2 * uniform and soft > 0.35


def test_a_french_take_puts_the_trump_jack_with_the_taker_fr3() -> None:
    """FR-3: seat 1 takes the turned seven of hearts; the jack, not in seat 0's hand,
    is with the taker far more often than with either other seat."""
    french = Ruleset.french()
    mine = cards("7C 8C 9C QC KC")
    turned = Card.parse("7H")
    rest = [c for c in full_deck(french) if c not in mine and c != turned]
    deck = mine[:3] + rest[:9] + mine[3:] + rest[9:15] + [turned] + rest[15:]
    state = new_deal(french, 3, deck)  # FR-2: 3 each from seat 0, then 2 each, then the turn
    state = play(state, bids((0, Call.PASS), (1, Call.TAKE)))
    seat_view = view(state, 0)
    soft = [frequency(seat_view, True, holds(s, "JH")) for s in (1, 2, 3)]
    uniform = frequency(seat_view, False, holds(1, "JH"))
    assert soft[0] > 2 * uniform and soft[0] > 2 * max(soft[1:])


def test_a_contra_puts_the_trumps_with_the_doubler_bg5() -> None:
    """BG-5: seat 2 says contra on seat 1's spades, seat 3 passes: the jack of spades, not in
    seat 0's hand, is with the doubler far more often than with seat 3 (uniformly as often)."""
    state = deal(BULGARIAN, 3, {0: "7C 8D 9D QC KD 7D 8C 9C"})
    calls = bids((0, Call.PASS), (1, Call.SPADES), (2, Call.CONTRA), (3, Call.PASS))
    seat_view = view(play(state, calls), 0)
    uniform = [frequency(seat_view, False, holds(s, "JS")) for s in (2, 3)]
    soft = [frequency(seat_view, True, holds(s, "JS")) for s in (2, 3)]
    assert abs(uniform[0] - uniform[1]) < 0.08
    assert soft[0] > 2 * soft[1]


def test_a_pass_over_an_open_suit_says_the_hand_is_weak_in_it_bg5() -> None:
    """BG-5: seat 1 passed with every contract open; it rarely holds both top hearts."""
    state = deal(BULGARIAN, 3, {0: "7C 8D 9D QC KD 7D 8C 9C"})
    seat_view = view(play(state, bids((0, Call.PASS), (1, Call.PASS))), 0)

    def both(w: DealState) -> bool:
        return holds(1, "JH")(w) and holds(1, "9H")(w)

    top = [frequency(seat_view, soft, both) for soft in (False, True)]
    assert top[1] < top[0] / 2


def _hearts_by_seat_1(seat_0: str, seat_1: str) -> DealState:
    """Dealer 0; seat 1 bids hearts and everyone passes, so seat 1 leads the first trick."""
    state = deal(BULGARIAN, 0, {0: seat_0, 1: seat_1})
    return play(state, bids((1, Call.HEARTS), (2, Call.PASS), (3, Call.PASS), (0, Call.PASS)))


def test_a_lead_under_the_master_says_the_leader_lacks_it_c7() -> None:
    """C-7: seat 1 leads the seven of spades; the ace, the spade master, is not in seat 0's
    hand: a leader holding it would have cashed it first."""
    state = _hearts_by_seat_1("7C 8C 9C QC KC 7D 8D 9D", "JH 9H AH 7S 8S QD KD AD")
    state = play(state, [Play(1, Card.parse("7S"))])
    seat_view = view(state, 0)
    ace = [frequency(seat_view, soft, holds(1, "AS")) for soft in (False, True)]
    assert ace[1] < ace[0] * 0.7


def test_a_belote_not_announced_says_the_other_card_is_elsewhere_bg19() -> None:
    """BG-19: seat 1 plays the king of trumps with no belote: the queen is rarely its own."""
    state = _hearts_by_seat_1("7C 8C 9C QC KC 7D 8D 9D", "KH JH 9H AH 7S 8S QD AD")
    state = play(state, [Play(1, Card.parse("KH"))])
    seat_view = view(state, 0)
    queen = [frequency(seat_view, soft, holds(1, "QH")) for soft in (False, True)]
    assert queen[0] > 0.15 and queen[1] < queen[0] / 3


def test_no_declaration_says_the_first_card_went_without_one_bg16() -> None:
    """BG-16: seat 1 led without declaring: its eight cards rarely held a tierce or carré."""
    state = _hearts_by_seat_1("7C 8C 9C QC KC 7D 8D 9D", "JH 9H AH 7S 8S QD KD TS")
    seat_view = view(play(state, [Play(1, Card.parse("JH"))]), 0)

    def seat_1_could_declare(w: DealState) -> bool:
        hand = w.hand_mask(1) | 1 << int(Card.parse("JH"))
        return any(hand & m == m for m in DECLARATIONS)

    rate = [frequency(seat_view, soft, seat_1_could_declare) for soft in (False, True)]
    assert rate[0] > 0.2 and rate[1] < rate[0] / 2


def test_a_hidden_declaration_is_placed_anew_across_the_deals_bg16() -> None:
    """BG-16: seat 1 declares a tierce with its lead, announcing only the kind; seat 0 sees
    no cards of it. The soft sampler's chain keeps the declared cards in place between swaps,
    so its fresh-draw moves must still place the tierce in many ways."""
    state = _hearts_by_seat_1("7C 8C 9C QC KC 7D 8D 9D", "JH 9H AH 7S 8S 9S QD AD")
    lead = next(
        a
        for a in legal_actions(state)
        if isinstance(a, Play) and a.card == Card.parse("JH") and a.declare
    )
    seat_view = view(play(state, [lead]), 0)
    assert seat_view.declarations and seat_view.declarations[0].cards is None
    rng = random.Random(4)
    sampler = Sampler(seat_view)
    placed = set()
    for _ in range(60):
        world = sampler.sample(rng)
        assert world is not None
        placed |= {a.declaration.cards for a in world.declared}
    assert len(placed) >= 4


def test_a_discard_of_points_says_no_cheaper_card_was_at_hand_bg11() -> None:
    """BG-11 (No Trumps): seat 2, void in spades, throws the king of diamonds on seat 1's
    ace: a world where it kept a cheaper card of another suit is half as likely."""
    state = deal(BULGARIAN, 0, {0: "7C 8C 9C QC TC 7D 8D 9D", 2: "KD AD JD QD AC KC JC TH"})
    state = play(state, bids((1, Call.NO_TRUMPS), (2, Call.PASS), (3, Call.PASS), (0, Call.PASS)))
    state = play(state, [Play(1, Card.parse("AS")), Play(2, Card.parse("KD"))])
    sampler = Sampler(view(state, 0))
    assert sampler.evidence is not None
    rich = mask_of(cards("AD AC TH AH TS"))  # nothing cheaper than the king of diamonds
    poor = mask_of(cards("AD AC TH AH 7H"))
    hands = [0, 0, rich, 0]
    base = sampler.evidence.weight(hands)
    hands[2] = poor
    assert sampler.evidence.weight(hands) == base * 0.5


def test_a_world_against_the_hard_facts_never_appears_bg9() -> None:
    """BG-9: seat 2 trumps seat 1's spade lead, so it holds no spade. However the weights
    lean, no sample gives seat 2 a spade, and every sample shows seat 0 its own view."""
    hands = {
        0: "7C 8C 9C QC KC 7D 8D 9D",
        1: "JH 9H AH 7S 8S QD KD AD",
        2: "TC JC AC TD JD 7H 8H QH",
    }
    state = deal(BULGARIAN, 0, hands)
    state = play(state, bids((1, Call.HEARTS), (2, Call.PASS), (3, Call.PASS), (0, Call.PASS)))
    state = play(state, [Play(1, Card.parse("7S")), Play(2, Card.parse("7H"))])
    spades = mask_of(c for c in full_deck(BULGARIAN) if c.suit == 3)
    assert frequency(view(state, 0), True, lambda w: bool(w.hand_mask(2) & spades)) == 0.0


def test_call_likelihoods_follow_the_hand_bg5() -> None:
    monster = mask_of(cards("JH 9H AH AS AC"))
    nothing = mask_of(cards("7H 8D 7S 8S QC"))
    open_calls = (Call.CLUBS, Call.DIAMONDS, Call.HEARTS)
    bid = CallSeen(1, Call.HEARTS, open_calls, None, False, 0.0)
    passed = CallSeen(1, Call.PASS, open_calls, None, False, 0.0)
    assert call_likelihood(monster, bid, None, BID_AT) > 0.9
    assert call_likelihood(nothing, bid, None, BID_AT) < 0.1
    assert call_likelihood(nothing, passed, None, BID_AT) > 0.9
    assert call_likelihood(monster, passed, None, BID_AT) < 0.1
    assert 0 < likely(-100) < likely(0) == 0.5 < likely(100) < 1
