"""Targeted tests of the engine's rules: bidding, dealing, declarations, belote, errors, views,
records and decks. Rule ids of RULES.md are in every test's name or docstring."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules import (
    BadRecord,
    Bid,
    Call,
    Card,
    DealState,
    IllegalBelote,
    IllegalBid,
    IllegalCard,
    IllegalDeclaration,
    NotYourTurn,
    Phase,
    Play,
    ReplayError,
    RuleError,
    Ruleset,
    WrongPhase,
    action_from_dict,
    apply,
    cut_deck,
    deal_record,
    first_dealer_from_draw,
    full_deck,
    gathered_deck,
    legal_actions,
    new_deal,
    new_match,
    record_deal,
    replay_deal,
    view,
    wire_view,
)

from .helpers import (
    ALL_CARD_TEXTS,
    HEARTS_92_70,
    HEARTS_92_70_TURNED,
    HEARTS_BELOTE_28,
    bids_for,
    cards,
    hand_texts,
    scripted_deal,
    shuffled_deck,
    snapshot,
)

BG = Ruleset.bulgarian()
FR = Ruleset.french()


def refused(state: DealState, action: Any, error: type[Exception], rule: str | None = None) -> Any:
    """Apply an illegal action: it raises `error` (naming `rule`) and changes nothing."""
    before = snapshot(state)
    with pytest.raises(error) as info:
        apply(state, action)
    assert snapshot(state) == before
    if rule is not None:
        assert info.value.rule == rule  # type: ignore[attr-defined]
    return info.value


def calls(state: DealState) -> set[str]:
    return {a.call.value for a in legal_actions(state) if isinstance(a, Bid)}


def bid(state: DealState, *texts: str) -> DealState:
    """Apply calls in turn order from the seat to act."""
    for text in texts:
        assert state.turn is not None
        state = apply(state, Bid(state.turn, Call(text)))
    return state


def plays(state: DealState) -> list[Play]:
    """The legal actions of a seat in the play (all of them are plays)."""
    actions = legal_actions(state)
    out = [a for a in actions if isinstance(a, Play)]
    assert len(out) == len(actions)
    return out


def plays_of(state: DealState, card: str) -> list[Play]:
    """The legal actions playing `card` (one per set of announcements)."""
    return [a for a in legal_actions(state) if isinstance(a, Play) and str(a.card) == card]


def deck(seed: int = 7) -> list[Card]:
    return shuffled_deck(BG, seed)


def at_first_trick(
    ruleset: Ruleset,
    hands: dict[int, list[str]],
    contract: str,
    *,
    turned: str | None = None,
) -> DealState:
    """Dealer 3; seat 0 makes `contract` (French: takes `turned`); the first trick not begun."""
    if ruleset.is_french:
        assert turned is not None
        bids = ["take"]
    else:
        bids = bids_for(3, 0, contract)
    state = scripted_deal(ruleset, 3, bids, [], unplayed=hands, turned=turned)
    assert state.phase is Phase.PLAYING and state.turn == 0 and state.contract is not None
    assert state.contract.record_name == contract
    return state


# Seat 0: a run of 6 hearts; seat 1 and seat 2: runs of 8.
RUNS = {
    0: ["AH", "KH", "QH", "JH", "TH", "9H", "7C", "8C"],
    1: ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
    2: ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
    3: ["AC", "KC", "QC", "JC", "TC", "9C", "8H", "7H"],
}
# Seat 0: a carré of jacks sharing JH with the tierce Q-J-10 of hearts; seat 1: the 7s and 8s.
CARRES = {
    0: ["JC", "JD", "JH", "JS", "QH", "TH", "9C", "9D"],
    1: ["7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S"],
    2: ["TC", "QC", "KC", "AC", "TD", "QD", "KD", "AD"],
    3: ["9H", "KH", "AH", "9S", "TS", "QS", "KS", "AS"],
}
# K+Q pairs: seat 0 hearts, seat 1 diamonds and spades.
PAIRS = {
    0: ["7C", "8C", "9C", "TC", "KH", "QH", "7D", "8D"],
    1: ["KD", "QD", "KS", "QS", "7H", "8H", "9H", "TH"],
    2: ["JC", "QC", "KC", "AC", "9D", "TD", "JD", "AD"],
    3: ["JH", "AH", "7S", "8S", "9S", "TS", "JS", "AS"],
}


def test_hand_layouts_hold_the_deck_once() -> None:
    for layout in (RUNS, CARRES, PAIRS):
        assert sorted(c for hand in layout.values() for c in hand) == sorted(ALL_CARD_TEXTS)


# ------------------------------------------------------------------------------- dealing


def test_c9_bulgarian_packets_3_2_then_3_from_dealer_plus_one() -> None:
    """C-9, BG-3: dealer 0 — seats 1, 2, 3, 0 get 3 each, then 2 each; 3 each after bidding."""
    d = deck()
    state = new_deal(BG, 0, d)
    first = {
        1: [0, 1, 2, 12, 13],
        2: [3, 4, 5, 14, 15],
        3: [6, 7, 8, 16, 17],
        0: [9, 10, 11, 18, 19],
    }
    for seat, idx in first.items():
        assert set(state.hand(seat)) == {d[i] for i in idx}
    assert state.turn == 1
    state = bid(state, "hearts", "pass", "pass", "pass")
    later = {1: [20, 21, 22], 2: [23, 24, 25], 3: [26, 27, 28], 0: [29, 30, 31]}
    for seat, idx in first.items():
        assert set(state.hand(seat)) == {d[i] for i in idx + later[seat]}
    assert state.phase is Phase.PLAYING
    assert state.turn == state.leader == 1  # dealer+1 leads the first trick


@pytest.mark.parametrize("packets", ["3-2", "2-3"])
def test_fr2_fr4_french_packets_turned_card_and_the_takers_two(packets: str) -> None:
    """C-9, FR-2 (`deal_packets`), FR-4: dealer 1 — seats 2, 3, 0, 1; card 21 is turned; the
    taker (seat 3) gets it and 2 more, every other seat 3, in seat order from dealer+1."""
    rules = FR.with_house_rules(deal_packets=packets)
    d = deck(11)
    state = new_deal(rules, 1, d)
    if packets == "3-2":
        first = {
            2: [0, 1, 2, 12, 13],
            3: [3, 4, 5, 14, 15],
            0: [6, 7, 8, 16, 17],
            1: [9, 10, 11, 18, 19],
        }
    else:
        first = {
            2: [0, 1, 8, 9, 10],
            3: [2, 3, 11, 12, 13],
            0: [4, 5, 14, 15, 16],
            1: [6, 7, 17, 18, 19],
        }
    for seat, idx in first.items():
        assert set(state.hand(seat)) == {d[i] for i in idx}
    assert state.turned == d[20]
    assert view(state, None).turned == d[20]  # FR-2: turned face up, public
    state = bid(state, "pass", "take")
    later = {2: [21, 22, 23], 3: [24, 25, 20], 0: [26, 27, 28], 1: [29, 30, 31]}
    for seat, idx in first.items():
        assert set(state.hand(seat)) == {d[i] for i in idx + later[seat]}
    assert state.contract is not None and state.contract.record_name == d[20].suit.record_name
    assert state.bidder == 3
    assert state.turn == 2  # FR-5: dealer+1 leads, whoever took


def test_new_deal_rejects_a_bad_deck_or_dealer() -> None:
    """C-9: the deck is the 32 cards once; the dealer a seat."""
    d = deck()
    with pytest.raises(BadRecord):
        new_deal(BG, 0, d[:31])
    with pytest.raises(BadRecord):
        new_deal(BG, 0, [*d[:31], d[0]])
    with pytest.raises(BadRecord):
        new_deal(BG, 4, d)


# ------------------------------------------------------------------------------- bidding


def test_bg5_first_bid_all_contracts_no_double() -> None:
    """BG-4, BG-5: dealer+1 speaks first and may pass or bid any contract."""
    state = new_deal(BG, 2, deck())
    assert state.turn == 3
    assert calls(state) == {
        "pass",
        "clubs",
        "diamonds",
        "hearts",
        "spades",
        "no_trumps",
        "all_trumps",
    }
    refused(state, Bid(3, Call.CONTRA), IllegalBid, "BG-5")
    refused(state, Bid(3, Call.RECONTRA), IllegalBid, "BG-5")
    refused(state, Bid(3, Call.TAKE), IllegalBid)


def test_bg5_contra_by_the_other_team_recontra_by_the_contracting_team() -> None:
    """BG-5: contra on the other team's undoubled contract; re-contra on one's own doubled one."""
    state = bid(new_deal(BG, 3, deck()), "hearts")  # seat 0, team 0
    assert calls(state) == {"pass", "spades", "no_trumps", "all_trumps", "contra"}
    refused(state, Bid(1, Call.HEARTS), IllegalBid, "BG-5")  # not higher
    refused(state, Bid(1, Call.DIAMONDS), IllegalBid, "BG-5")
    refused(state, Bid(1, Call.RECONTRA), IllegalBid, "BG-5")
    state = bid(state, "pass")  # seat 1
    assert calls(state) == {"pass", "spades", "no_trumps", "all_trumps"}  # seat 2, partner
    refused(state, Bid(2, Call.CONTRA), IllegalBid, "BG-5")
    state = bid(state, "pass", "contra")  # seat 3 doubles
    assert state.multiplier == 2
    assert calls(state) == {"pass", "spades", "no_trumps", "all_trumps", "recontra"}  # seat 0
    state = bid(state, "pass")
    assert calls(state) == {"pass", "spades", "no_trumps", "all_trumps"}  # seat 1: no 2nd contra
    refused(state, Bid(1, Call.CONTRA), IllegalBid, "BG-5")
    state = bid(state, "pass", "recontra")  # seat 2 redoubles its partner's contract
    assert state.multiplier == 4
    state = bid(state, "pass")  # seat 3
    assert calls(state) == {"pass", "spades", "no_trumps", "all_trumps"}  # seat 0
    state = bid(state, "pass", "pass")
    assert state.phase is Phase.PLAYING
    assert state.contract is not None and state.contract.record_name == "hearts"
    assert state.bidder == 0 and state.multiplier == 4


def test_bg6_a_higher_contract_escapes_the_double() -> None:
    """BG-6: a higher contract cancels contra and re-contra; the new one may be doubled."""
    state = bid(new_deal(BG, 3, deck()), "hearts", "contra", "spades")  # seat 2 escapes
    assert state.multiplier == 1
    assert state.bidder == 2
    assert "contra" in calls(state)  # seat 3
    state = bid(state, "contra", "recontra", "no_trumps")  # seat 1 bids over the re-contra
    assert state.multiplier == 1 and state.bidder == 1
    state = bid(state, "pass", "pass", "pass")
    assert state.phase is Phase.PLAYING and state.multiplier == 1
    assert state.contract is not None and state.contract.record_name == "no_trumps"


def test_bg7_bidding_ends_after_three_passes_following_a_bid() -> None:
    """BG-7: three passes after a bid, contra or re-contra end the bidding; passes before the
    first bid do not count."""
    state = bid(new_deal(BG, 3, deck()), "pass", "pass", "pass", "clubs", "pass", "pass")
    assert state.phase is Phase.BIDDING
    state = bid(state, "pass")
    assert state.phase is Phase.PLAYING and state.bidder == 3
    assert all(len(state.hand(s)) == 8 for s in range(4))
    state = bid(new_deal(BG, 3, deck()), "clubs", "contra", "pass", "pass")
    assert state.phase is Phase.BIDDING
    state = bid(state, "pass")
    assert state.phase is Phase.PLAYING and state.multiplier == 2


def test_bg7_all_four_pass_the_deal_is_void_and_the_next_dealer_deals() -> None:
    """BG-7: four passes at the start: void, nothing scored, `dealer+1` deals the next deal."""
    match = new_match(BG, first_dealer=2)
    state = bid(match.start_deal(deck()), "pass", "pass", "pass", "pass")
    assert state.phase is Phase.FINISHED and state.is_void
    assert state.result is not None and state.result.void
    assert state.result.tricks == ()
    assert (state.result.mp[0] or 0) == 0 and (state.result.mp[1] or 0) == 0
    refused(state, Bid(3, Call.PASS), WrongPhase)
    assert legal_actions(state) == ()
    match = record_deal(match, state)
    assert match.scores == (0, 0)
    assert match.next_dealer == 3
    assert not match.finished


def test_bg7_void_deal_keeps_hanging_points() -> None:
    """BG-7, BG-26: a void deal scores nothing, so points hanging before it still hang."""
    state = bid(new_deal(BG, 3, deck(), hanging_in=8), "pass", "pass", "pass", "pass")
    assert state.result is not None and state.result.hanging_out == 8


def test_bg7_dealer_must_bid_house_rule() -> None:
    """BG-7 house rule `dealer_must_bid`: after three passes the dealer may not pass."""
    rules = BG.with_house_rules(dealer_must_bid=True)
    state = bid(new_deal(rules, 3, deck()), "pass", "pass", "pass")
    assert state.turn == 3
    assert "pass" not in calls(state)
    assert calls(state) == {"clubs", "diamonds", "hearts", "spades", "no_trumps", "all_trumps"}
    refused(state, Bid(3, Call.PASS), IllegalBid, "BG-7")
    state = bid(state, "spades", "pass", "pass", "pass")
    assert state.phase is Phase.PLAYING and state.bidder == 3
    # once a bid is made, passing is open to the dealer again
    state = bid(new_deal(rules, 3, deck()), "hearts", "pass", "pass")
    assert "pass" in calls(state)
    # without the house rule the dealer may pass and the deal is void
    state = bid(new_deal(BG, 3, deck()), "pass", "pass", "pass")
    assert "pass" in calls(state)


def test_fr3_first_round_take_or_pass() -> None:
    """FR-3: in round one each player says take or pass; naming a suit is not allowed."""
    state = new_deal(FR, 0, deck())
    assert calls(state) == {"pass", "take"}
    refused(state, Bid(1, Call.SPADES), IllegalBid, "FR-3")
    refused(state, Bid(1, Call.CONTRA), IllegalBid, "FR-3")
    refused(state, Bid(1, Call.NO_TRUMPS), IllegalBid, "FR-3")
    state = bid(state, "pass", "pass", "take")
    assert state.phase is Phase.PLAYING and state.bidder == 3
    assert state.turned is not None
    assert state.contract is not None and int(state.contract) == int(state.turned.suit)


def test_fr3_second_round_names_another_suit() -> None:
    """FR-3: after four passes, each may name a suit other than the turned card's, or pass."""
    state = bid(new_deal(FR, 0, deck()), "pass", "pass", "pass", "pass")
    assert state.phase is Phase.BIDDING and state.turn == 1
    assert state.turned is not None
    turned_suit = state.turned.suit.record_name
    others = {"clubs", "diamonds", "hearts", "spades"} - {turned_suit}
    assert calls(state) == {"pass"} | others
    refused(state, Bid(1, Call(turned_suit)), IllegalBid, "FR-3")
    refused(state, Bid(1, Call.TAKE), IllegalBid, "FR-3")
    name = sorted(others)[0]
    state = bid(state, "pass", name)
    assert state.phase is Phase.PLAYING and state.bidder == 2
    assert state.contract is not None and state.contract.record_name == name
    assert state.turned in state.hand(2)  # FR-4: the taker gets the turned card anyway
    assert [len(state.hand(s)) for s in range(4)] == [8, 8, 8, 8]


def test_fr3_all_pass_twice_void() -> None:
    """FR-3: all pass in both rounds: the deal is void and dealer+1 deals anew."""
    match = new_match(FR, first_dealer=0)
    state = bid(match.start_deal(deck()), *["pass"] * 7)
    assert state.phase is Phase.BIDDING
    state = bid(state, "pass")
    assert state.phase is Phase.FINISHED and state.result is not None and state.result.void
    match = record_deal(match, state)
    assert match.next_dealer == 1 and match.scores == (0, 0)


# -------------------------------------------------------------------------- declarations


def _declare_options(state: DealState, card: str) -> set[tuple[tuple[str, ...], ...]]:
    return {
        tuple(tuple(sorted(str(c) for c in d)) for d in a.declare)
        for a in plays_of(state, card)
        if not a.belote
    }


def _windows(run: str, suit: str) -> set[tuple[str, ...]]:
    """Every part of 3+ adjacent cards of a run written high to low (BG-15)."""
    out = set()
    for size in range(3, len(run) + 1):
        for start in range(len(run) - size + 1):
            out.add(tuple(sorted(r + suit for r in run[start : start + size])))
    return out


def _play(seat: int, card: str, *declare: list[str], belote: bool = False) -> Play:
    canon = tuple(sorted((tuple(sorted(cards(*d))) for d in declare), key=lambda d: (d[0], len(d))))
    return Play(seat, Card.parse(card), canon, belote)


def test_bg13_bg15_options_are_every_part_of_a_run_one_per_run() -> None:
    """BG-13, BG-15: a run of 6 offers each of its parts of 3 to 6 cards, one at a time."""
    state = at_first_trick(BG, RUNS, "clubs")
    expected = {()} | {(w,) for w in _windows("AKQJT9", "H")}
    assert _declare_options(state, "7C") == expected
    assert len(expected) == 1 + 4 + 3 + 2 + 1


def test_bg13_two_sequences_out_of_one_run_are_refused() -> None:
    """BG-13: at most one sequence out of one run (apart from a run of 8)."""
    state = at_first_trick(BG, RUNS, "clubs")
    refused(
        state, _play(0, "7C", ["AH", "KH", "QH"], ["JH", "TH", "9H"]), IllegalDeclaration, "BG-13"
    )
    new = apply(state, _play(0, "7C", ["AH", "KH", "QH", "JH", "TH", "9H"]))
    assert [(a.seat, a.declaration.kind, a.declaration.points) for a in new.declared] == [
        (0, "quinte", 100)
    ]


def test_bg13_run_of_8_whole_or_quinte_to_the_ace_plus_tierce() -> None:
    """BG-13: a run of 8 counts as a quinte plus a tierce (120); two tierces out of it, or a
    quinte not to the ace plus a tierce, are refused."""
    state = apply(at_first_trick(BG, RUNS, "clubs"), _play(0, "7C"))
    spades = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    whole = apply(state, _play(1, "7S", spades))
    assert sum(a.declaration.points for a in whole.declared) == 120
    split = apply(state, _play(1, "7S", spades[:5], spades[5:]))
    assert sum(a.declaration.points for a in split.declared) == 120
    refused(state, _play(1, "7S", spades[:3], spades[3:6]), IllegalDeclaration, "BG-13")
    refused(state, _play(1, "7S", spades[:3], spades[3:]), IllegalDeclaration, "BG-13")
    options = _declare_options(state, "7S")
    assert (tuple(sorted(spades)),) in options
    assert (tuple(sorted(spades[5:])), tuple(sorted(spades[:5]))) in options or (
        tuple(sorted(spades[:5])),
        tuple(sorted(spades[5:])),
    ) in options


def test_bg15_a_card_in_one_declaration_only_by_default() -> None:
    """BG-15: the carré of jacks and the tierce Q-J-10 of hearts share JH: one or the other."""
    state = at_first_trick(BG, CARRES, "hearts")
    both = _play(0, "9C", ["JC", "JD", "JH", "JS"], ["QH", "JH", "TH"])
    refused(state, both, IllegalDeclaration, "BG-15")
    carre = ("JC", "JD", "JH", "JS")
    tierce = ("JH", "QH", "TH")
    assert _declare_options(state, "9C") == {(), (carre,), (tierce,)}
    assert apply(state, _play(0, "9C", list(carre))).declared[0].declaration.points == 200


def test_bg15_house_rule_card_in_two_declarations() -> None:
    """BG-15 house rule `card_in_two_declarations`: a carré and a sequence may share a card."""
    rules = BG.with_house_rules(card_in_two_declarations=True)
    state = at_first_trick(rules, CARRES, "hearts")
    new = apply(state, _play(0, "9C", ["JC", "JD", "JH", "JS"], ["QH", "JH", "TH"]))
    assert sorted(a.declaration.points for a in new.declared) == [20, 200]
    assert len(_declare_options(state, "9C")) == 4


def test_bg15_declared_cards_must_be_in_the_hand() -> None:
    """BG-15: a declaration is made of the declarer's own cards."""
    state = at_first_trick(BG, CARRES, "hearts")
    refused(state, _play(0, "9C", ["AH", "KH", "QH"]), IllegalDeclaration)


def test_bg20_carre_of_sevens_or_eights_is_not_a_declaration() -> None:
    """BG-14, BG-20: four 7s or four 8s are no declaration: announcing them is illegal."""
    state = apply(at_first_trick(BG, CARRES, "hearts"), _play(0, "9C"))
    assert _declare_options(state, "7C") == {()}
    refused(state, _play(1, "7C", ["7C", "7D", "7H", "7S"]), IllegalDeclaration, "BG-20")
    refused(state, _play(1, "7C", ["8C", "8D", "8H", "8S"]), IllegalDeclaration, "BG-20")
    refused(state, _play(1, "7C", ["7C", "8C"]), IllegalDeclaration, "BG-20")


def test_bg12_no_declarations_and_no_belote_in_no_trumps() -> None:
    """BG-12, BG-20: in No Trumps nothing is offered and announcing anything is illegal."""
    state = at_first_trick(BG, PAIRS | {}, "no_trumps")
    assert all(not a.declare and not a.belote for a in plays(state))
    refused(state, _play(0, "KH", belote=True), IllegalBelote)
    state = at_first_trick(BG, RUNS, "no_trumps")
    assert all(not a.declare and not a.belote for a in plays(state))
    refused(state, _play(0, "7C", ["AH", "KH", "QH"]), IllegalDeclaration, "BG-12")


def test_bg16_declarations_only_with_the_first_card() -> None:
    """BG-16: declaring is done with one's first card, in the first trick."""
    state = at_first_trick(BG, RUNS, "clubs")
    for seat, card in ((0, "7C"), (1, "7S"), (2, "7D"), (3, "JC")):
        state = apply(state, _play(seat, card))
    assert state.turn == 3 and len(state.tricks) == 1
    assert _declare_options(state, "AC") == {()}
    refused(state, _play(3, "AC", ["AC", "KC", "QC"]), IllegalDeclaration, "BG-16")


def test_fr8_announces_off_by_default_on_with_the_house_rule() -> None:
    """FR-8: no announces in classic belote; with `announces` they are offered and score."""
    state = at_first_trick(FR, RUNS, "clubs", turned="7C")
    assert _declare_options(state, "8C") == {()}
    refused(state, _play(0, "8C", ["AH", "KH", "QH"]), IllegalDeclaration, "FR-8")
    on = at_first_trick(FR.with_house_rules(announces=True), RUNS, "clubs", turned="7C")
    assert _declare_options(on, "8C") == {()} | {(w,) for w in _windows("AKQJT9", "H")}
    new = apply(on, _play(0, "8C", ["AH", "KH", "QH", "JH"]))
    assert new.declared[0].declaration.points == 50


# -------------------------------------------------------------------------------- belote


def test_bg19_belote_with_the_king_or_queen_of_trumps_led() -> None:
    """BG-19: K and Q of trumps in one hand; announced with the first of them."""
    state = at_first_trick(BG, PAIRS, "hearts")
    assert {(str(a.card), a.belote) for a in plays(state) if a.belote} == {
        ("KH", True),
        ("QH", True),
    }
    new = apply(state, _play(0, "KH", belote=True))
    assert new.belotes == ((0, 2),)
    assert view(new, 2).belotes == ((0, "hearts"),)


def test_bg19_no_belote_with_a_plain_suit_pair() -> None:
    """BG-19: in a suit contract only the trump K and Q make belote."""
    state = at_first_trick(BG, PAIRS, "clubs")
    assert not any(a.belote for a in plays(state))
    refused(state, _play(0, "KH", belote=True), IllegalBelote, "BG-19")


def test_bg19_belote_when_trumping() -> None:
    """BG-19: in a suit contract the first of K/Q may be announced when it trumps."""
    state = apply(at_first_trick(BG, PAIRS, "diamonds"), _play(0, "7C"))
    # seat 1 has no clubs; its opponent leads: it must trump (BG-9), with KD or QD
    assert {str(a.card) for a in plays(state)} == {"KD", "QD"}
    assert {(str(a.card), a.belote) for a in plays(state)} == {
        ("KD", False),
        ("KD", True),
        ("QD", False),
        ("QD", True),
    }
    assert apply(state, _play(1, "QD", belote=True)).belotes == ((1, 1),)


def test_bg19_all_trumps_belote_of_any_suit_only_led_or_following() -> None:
    """BG-19: in All Trumps the K and Q of any suit, but not when the card is discarded."""
    state = at_first_trick(BG, PAIRS, "all_trumps")
    assert {str(a.card) for a in plays(state) if a.belote} == {"KH", "QH"}
    state = apply(state, _play(0, "7C"))
    # seat 1 holds no club: any card, but a K or Q discarded carries no belote
    assert not any(a.belote for a in plays(state))
    refused(state, _play(1, "KD", belote=True), IllegalBelote, "BG-19")
    refused(state, _play(1, "QS", belote=True), IllegalBelote, "BG-19")
    for seat, card in ((1, "7H"), (2, "JC"), (3, "7S")):
        state = apply(state, _play(seat, card))
    assert state.turn == 2
    for seat, card in ((2, "9D"), (3, "8S"), (0, "7D")):
        state = apply(state, _play(seat, card))
    # diamonds led: seat 1 follows with KD or QD and may announce belote with either
    assert {(str(a.card), a.belote) for a in plays(state)} == {
        ("KD", False),
        ("KD", True),
        ("QD", False),
        ("QD", True),
    }
    assert apply(state, _play(1, "KD", belote=True)).belotes == ((1, 1),)


def test_bg19_bg22_belote_scores_for_a_team_without_a_trick() -> None:
    """BG-19: belote always scores, even for a team that took no trick; BG-22 valat +9.
    Team 0 takes all (162 → 16, + 9 = 25); team 1's belote: 20 → 2."""
    tricks = [
        ["JH", "KH", "9H", "AH"],  # seat 1 follows with KH: belote
        ["TH", "QH", "8H", "7H"],
        ["AC", "TC", "KC", "QC"],
        ["JC", "9C", "8C", "7C"],
        ["AD", "TD", "KD", "QD"],
        ["JD", "9D", "8D", "7D"],
        ["AS", "TS", "KS", "QS"],
        ["JS", "9S", "8S", "7S"],
    ]
    state = scripted_deal(BG, 3, bids_for(3, 0, "hearts"), tricks, extras={"KH": {"belote": True}})
    assert state.result is not None
    assert state.result.valat_team == 0
    assert list(state.result.totals) == [162, 20]
    assert list(state.result.mp) == [25, 2]


def test_bg20_a_team_without_a_trick_is_left_out_of_the_comparison() -> None:
    """BG-17, BG-20: seat 1 (team 1) declares a quinte, seat 2 (team 0) a tierce; seat 0 holds
    every trump and takes every trick. Team 1 took no trick: its quinte does not score, and
    team 0's tierce scores as if team 1 had declared nothing: 162 + 20 = 182 → 18, + 9 = 27.
    When the first trick ends, though, the quinte is the one shown (BG-16)."""
    tricks = [
        ["JH", "7S", "7C", "TD"],
        ["9H", "8S", "8C", "JD"],
        ["AH", "9S", "9C", "QD"],
        ["TH", "TC", "TS", "KD"],
        ["KH", "JC", "JS", "AD"],
        ["QH", "QC", "7D", "QS"],
        ["8H", "KC", "8D", "KS"],
        ["7H", "AC", "9D", "AS"],
    ]
    extras = {
        "7S": {"declare": [["AC", "KC", "QC", "JC", "TC"]]},
        "7C": {"declare": [["9D", "8D", "7D"]]},
    }
    bids = bids_for(3, 0, "hearts")
    after_one = scripted_deal(BG, 3, bids, tricks[:1], extras=extras, unplayed=_rest(tricks, 1))
    shown = {d.seat: d for d in view(after_one, 0).declarations}
    assert shown[1].points == 100 and shown[2].cards is None
    state = scripted_deal(BG, 3, bids, tricks, extras=extras)
    assert state.result is not None
    assert state.result.valat_team == 0
    teams = state.result.breakdown["teams"]
    assert [d["points"] for d in teams[0]["declarations"]] == [20]
    assert teams[1]["declarations"] == []
    assert list(state.result.totals) == [182, 0]
    assert list(state.result.mp) == [27, 0]


def _rest(tricks: list[list[str]], played: int) -> dict[int, list[str]]:
    """The cards still in hand after the first `played` tricks of a deal in which seat 0 (the
    leader, dealer 3) wins every trick."""
    return {seat: [t[seat] for t in tricks[played:]] for seat in range(4)}


def test_fr7_rebelote_only_after_ones_own_belote() -> None:
    """FR-7: "rebelote" goes with the second card, after "belote" with the first."""
    state = at_first_trick(FR, PAIRS, "hearts", turned="KH")
    refused(state, Play(0, Card.parse("KH"), rebelote=True), IllegalBelote, "FR-7")
    state = apply(state, _play(0, "KH", belote=True))
    for seat, card in ((1, "9H"), (2, "9D"), (3, "JH")):
        state = apply(state, _play(seat, card))
    state = apply(state, _play(3, "AH"))
    assert state.turn == 0
    assert {(str(a.card), a.rebelote) for a in plays(state)} == {
        ("QH", False),
        ("QH", True),
    }
    new = apply(state, Play(0, Card.parse("QH"), rebelote=True))
    assert new.actions[-1] == Play(0, Card.parse("QH"), rebelote=True)


# -------------------------------------------------------------------------------- errors


def test_errors_out_of_turn_and_out_of_phase() -> None:
    """BG-5 / C-7 out of turn; a card in the bidding, a bid in the play, anything after the end:
    WrongPhase. Each has its stable code; none changes the state."""
    state = new_deal(BG, 3, deck())
    assert refused(state, Bid(1, Call.PASS), NotYourTurn).code == "not_your_turn"
    card = state.hand(0)[0]
    assert refused(state, Play(0, card), WrongPhase).code == "wrong_phase"
    state = bid(state, "hearts", "pass", "pass", "pass")
    assert refused(state, Bid(0, Call.PASS), WrongPhase).code == "wrong_phase"
    other = state.hand(1)[0]
    error = refused(state, Play(1, other), NotYourTurn, "C-7")
    assert isinstance(error, RuleError) and isinstance(error, ValueError)
    finished = scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70)
    refused(finished, Play(0, Card.parse("7C")), WrongPhase)


def test_errors_illegal_cards_name_their_rule() -> None:
    """C-9 a card not in the hand; BG-8 not following suit; codes `illegal_card`."""
    state = apply(at_first_trick(BG, PAIRS, "hearts"), _play(0, "7C"))
    error = refused(state, _play(1, "AC"), IllegalCard, "C-9")
    assert error.code == "illegal_card"
    # seat 1 has no club and must trump (BG-9): a discard is refused
    refused(state, _play(1, "KD"), IllegalCard, "BG-9")
    state = apply(state, _play(1, "7H"))
    refused(state, _play(2, "9D"), IllegalCard, "BG-8")  # seat 2 holds clubs


def test_errors_declarations_and_belote_codes() -> None:
    state = at_first_trick(BG, PAIRS, "clubs")
    assert refused(state, _play(0, "KH", belote=True), IllegalBelote).code == "illegal_belote"
    error = refused(state, _play(0, "7C", ["7C", "8C"]), IllegalDeclaration)
    assert error.code == "illegal_declaration"


# --------------------------------------------------------------------------------- views

VIEW_HANDS = {
    0: ["AC", "KC", "QC", "7S", "8S", "7D", "8D", "9D"],
    1: ["KS", "QS", "JS", "TS", "9C", "8C", "7H", "8H"],
    2: ["9S", "JC", "TC", "7C", "TD", "JD", "QD", "KD"],
    3: ["AS", "AD", "JH", "9H", "AH", "TH", "KH", "QH"],
}


def test_bg16_kinds_only_during_the_first_trick_scoring_cards_after() -> None:
    """BG-16, BG-17: during the first trick every view shows only the kinds announced; when it
    ends the scoring declarations (seat 1's quarte beats seat 0's tierce) show their cards,
    the others stay hidden."""
    state = at_first_trick(BG, VIEW_HANDS, "diamonds")
    state = apply(state, _play(0, "7S", ["AC", "KC", "QC"]))
    state = apply(state, _play(1, "TS", ["KS", "QS", "JS", "TS"]))
    for seat in (0, 1, 2, 3, None):
        shown = view(state, seat)
        assert [(d.seat, d.kind, d.points, d.cards) for d in shown.declarations] == [
            (0, "tierce", None, None),
            (1, "quarte", None, None),
        ]
    text = json.dumps(view(state, 2).to_dict())
    for hidden in ("AC", "KC", "QC", "KS", "QS", "JS"):
        assert f'"{hidden}"' not in text
    state = apply(apply(state, _play(2, "9S")), _play(3, "AS"))
    assert len(state.tricks) == 1
    for seat in (0, 2, 3, None):
        shown = view(state, seat)
        by_seat = {d.seat: d for d in shown.declarations}
        assert by_seat[0].cards is None and by_seat[0].kind == "tierce"
        assert by_seat[1].points == 50
        assert by_seat[1].cards is not None
        assert {str(c) for c in by_seat[1].cards} == {"KS", "QS", "JS", "TS"}
    text = json.dumps(view(state, 3).to_dict())
    assert '"QS"' in text and '"KC"' not in text


def test_view_own_hand_only_legal_only_for_the_seat_to_act() -> None:
    """view(): a seat sees its own hand, a spectator none; `legal` goes to the seat to act."""
    state = at_first_trick(BG, VIEW_HANDS, "diamonds")
    for seat in range(4):
        shown = view(state, seat)
        assert shown.hand is not None
        assert {str(c) for c in shown.hand} == set(VIEW_HANDS[seat])
        assert list(shown.hand_sizes) == [8, 8, 8, 8]
        assert bool(shown.legal) == (seat == 0)
    spectator = view(state, None)
    assert spectator.hand is None and spectator.legal == ()
    assert spectator.to_dict()["hand"] is None
    with pytest.raises(ValueError):
        view(state, 4)


def test_view_says_what_the_server_played_for_the_viewer_and_for_nobody_else() -> None:
    """`auto` names the actions the server made; each seat sees its own among them (with their
    sequence numbers), no other seat nor a spectator does, and the wire form agrees."""
    state = at_first_trick(BG, VIEW_HANDS, "diamonds")
    bids = len(state.actions)
    state = apply(state, legal_actions(state)[0])
    auto = {1, bids}  # a bid of seat 1 and seat 0's first card
    mine = view(state, 0, auto)
    assert mine.played_for_you == ((bids, state.actions[bids]),)
    assert mine.to_dict()["played_for_you"] == [{"seq": bids, **state.actions[bids].to_dict()}]
    assert [seq for seq, _ in view(state, 1, auto).played_for_you] == [1]
    for seat in (2, 3, None):
        assert view(state, seat, auto).played_for_you == ()
        assert "played_for_you" not in view(state, seat, auto).to_dict()
    shared, own = wire_view(state, 0, auto)
    assert {**shared, **own} == mine.to_dict()
    assert "played_for_you" not in view(state, 0).to_dict()  # nothing said: nothing shown


def test_view_of_a_finished_deal_holds_the_result() -> None:
    state = scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70)
    assert state.result is not None
    shown = view(state, None).to_dict()
    assert shown["phase"] == "finished"
    assert shown["result"] == state.result.to_dict()
    assert shown["result"]["mp"] == [9, 7]


# ------------------------------------------------------------------------------ records


def test_records_round_trip_with_belote_and_rebelote() -> None:
    """RECORDS.md: the core keys exactly; belote/rebelote written on their plays; the record
    replays (also through JSON text) to the same result."""
    extras = {"KH": {"belote": True}, "QH": {"rebelote": True}}
    state = scripted_deal(FR, 3, ["pass", "take"], HEARTS_BELOTE_28, turned="QH", extras=extras)
    record = deal_record(state)
    assert set(record) == {"format", "rules", "dealer", "deck", "hanging_in", "actions"}
    assert record["format"] == "belote-deal/1"
    assert record["rules"] == {"preset": "french", "house_rules": {}}
    assert record["dealer"] == 3
    assert record["actions"][:2] == [{"seat": 0, "bid": "pass"}, {"seat": 1, "bid": "take"}]
    assert {"seat": 1, "play": "KH", "belote": True} in record["actions"]
    assert {"seat": 1, "play": "QH", "rebelote": True} in record["actions"]
    assert len(record["actions"]) == 2 + 32
    assert state.result is not None
    again = replay_deal(json.loads(json.dumps(record)))
    assert again.result is not None
    assert again.result.to_dict() == state.result.to_dict()


def test_records_declarations_written_high_card_first_and_replayed() -> None:
    """RECORDS.md: each declaration as its exact cards; order inside does not matter."""
    state = at_first_trick(BG, RUNS, "clubs")
    state = apply(state, _play(0, "7C", ["9H", "TH", "JH"]))
    record = deal_record(state)
    assert record["actions"][-1] == {"seat": 0, "play": "7C", "declare": [["JH", "TH", "9H"]]}
    shuffled = dict(record["actions"][-1], declare=[["TH", "9H", "JH"]])
    assert action_from_dict(shuffled) == action_from_dict(record["actions"][-1])
    again = replay_deal(record)
    assert snapshot(again) == snapshot(state)


def test_records_house_rules_written_only_when_not_default() -> None:
    """RECORDS.md: `house_rules` holds the options that differ from the default."""
    rules = BG.with_house_rules(must_undertrump=False, suit_tie_rounding="smaller_up")
    assert rules.to_dict() == {
        "preset": "bulgarian",
        "house_rules": {"must_undertrump": False, "suit_tie_rounding": "smaller_up"},
    }
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert BG.with_house_rules(must_undertrump=True).to_dict()["house_rules"] == {}


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "belote"},
        {"preset": "french", "house_rules": {"dealer_must_bid": True}},
        {"preset": "bulgarian", "house_rules": {"announces": True}},
        {"preset": "bulgarian", "house_rules": {"must_undertrump": "no"}},
        {"preset": "bulgarian", "house_rules": {"suit_tie_rounding": "up"}},
        {"preset": "bulgarian", "house_rules": {"no_such_rule": True}},
        "bulgarian",
    ],
)
def test_records_bad_rules_are_malformed(rules: Any) -> None:
    with pytest.raises(BadRecord):
        Ruleset.from_dict(rules)


def _good_record() -> dict[str, Any]:
    return deal_record(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70))


@pytest.mark.parametrize(
    ("change", "index"),
    [
        (lambda r: r.update(format="belote-deal/2"), None),
        (lambda r: r.update(dealer=7), None),
        (lambda r: r.update(dealer="3"), None),
        (lambda r: r.update(deck=r["deck"][:31]), None),
        (lambda r: r["deck"].__setitem__(0, "1H"), None),
        (lambda r: r.update(actions={}), None),
        (lambda r: r["actions"].__setitem__(4, {"seat": 0, "bid": "pass", "play": "7C"}), 4),
        (lambda r: r["actions"].__setitem__(4, {"seat": 0, "play": "ZZ"}), 4),
        (lambda r: r["actions"].__setitem__(4, {"seat": 9, "play": "7C"}), 4),
        (lambda r: r["actions"].__setitem__(0, {"seat": 0, "bid": "double"}), 0),
        (lambda r: r["actions"].__setitem__(4, {"seat": 0, "play": "7C", "declare": [[]]}), 4),
        (lambda r: r["actions"].__setitem__(4, {"seat": 0, "play": "7C", "belote": "yes"}), 4),
    ],
)
def test_records_malformed_replay_error_rule_record(change: Any, index: int | None) -> None:
    """RECORDS.md: a malformed record or action is reported with rule `record`."""
    record = _good_record()
    change(record)
    with pytest.raises(ReplayError) as info:
        replay_deal(record)
    assert info.value.rule == "record"
    assert info.value.index == index


def test_records_illegal_action_names_index_seat_and_rule() -> None:
    """RECORDS.md: an illegal action stops the replay with its index, seat and rule."""
    record = _good_record()
    # action 4 is seat 0 leading 7C; action 5 is seat 1's KC. Play KS instead: seat 1 holds
    # clubs, so not following suit breaks BG-8.
    assert record["actions"][5] == {"seat": 1, "play": "KC"}
    record["actions"][5] = {"seat": 1, "play": "KS"}
    with pytest.raises(ReplayError) as info:
        replay_deal(record)
    assert (info.value.index, info.value.seat, info.value.rule) == (5, 1, "BG-8")
    record = _good_record()
    record["actions"][5] = {"seat": 2, "play": "QC"}
    with pytest.raises(ReplayError) as info:
        replay_deal(record)
    assert (info.value.index, info.value.seat, info.value.rule) == (5, 2, "C-7")


# -------------------------------------------------------------------------------- decks


def test_full_deck_and_cut() -> None:
    """C-1: 32 different cards; BG-2 / FR-1: the cut leaves at least 3 cards in each part."""
    d = full_deck(BG)
    assert len(d) == 32 and {str(c) for c in d} == set(ALL_CARD_TEXTS)
    assert cut_deck(d, 3) == d[3:] + d[:3]
    assert cut_deck(d, 29) == d[29:] + d[:29]
    for at in (0, 2, 30, 32):
        with pytest.raises(ValueError):
            cut_deck(d, at)


def test_bg2_gathered_deck_stacks_the_tricks_in_order() -> None:
    """BG-2 house rule `gather_not_shuffle`: the next deck is the last deal's tricks as played,
    then cut; a deal from it is dealt by C-9 as usual."""
    state = scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70)
    gathered = gathered_deck(state)
    assert [str(c) for c in gathered] == [c for trick in HEARTS_92_70 for c in trick]
    rules = BG.with_house_rules(gather_not_shuffle=True)
    nxt = new_deal(rules, 0, cut_deck(gathered, 10))
    assert [str(c) for c in nxt.deck] == [c for t in HEARTS_92_70 for c in t][10:] + [
        c for t in HEARTS_92_70 for c in t
    ][:10]


def test_bg2_gathered_deck_after_a_void_deal() -> None:
    """BG-2: after a void deal the hands are picked up in seat order from dealer+1, then the
    cards never dealt, in deck order."""
    d = deck(3)
    state = bid(new_deal(BG, 1, d), "pass", "pass", "pass", "pass")
    gathered = gathered_deck(state)
    assert sorted(gathered) == sorted(d)
    assert gathered[20:] == d[20:]
    for i, seat in enumerate((2, 3, 0, 1)):
        assert set(gathered[5 * i : 5 * i + 5]) == set(state.hand(seat))


def test_fr1_first_dealer_draws_the_lowest_card() -> None:
    """FR-1: the lowest card deals (A K Q J 10 9 8 7); a tie for lowest means a redraw."""
    assert first_dealer_from_draw(cards("AS", "7H", "KD", "9C")) == 1
    assert first_dealer_from_draw(cards("AS", "QH", "KD", "JC")) == 3
    assert first_dealer_from_draw(cards("7S", "AH", "AD", "KC")) == 0
    assert first_dealer_from_draw(cards("8S", "8H", "AS", "KD")) is None


def test_records_match_round_trip() -> None:
    """A match record replays to its scoresheet."""
    from app.rules import match_record, replay_match

    match = new_match(FR, first_dealer=3, target=150)
    deals = []
    for dealer in (3, 0, 1):
        deal = scripted_deal(FR, dealer, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
        deals.append(deal)
        match = record_deal(match, deal)
    record = json.loads(json.dumps(match_record(match, deals)))
    assert record["format"] == "belote-match/1"
    replayed, again = replay_match(record)
    assert replayed == match
    assert [d.result.to_dict() for d in again if d.result] == [
        d.result.to_dict() for d in deals if d.result
    ]
    record["scoresheet"]["scores"] = [0, 0]
    with pytest.raises(ReplayError):
        replay_match(record)


def test_hand_texts_helper_matches_view() -> None:
    state = at_first_trick(BG, PAIRS, "hearts")
    assert hand_texts(state, 1) == set(PAIRS[1])


# -------------------------------------------------------------- which declarations score


def _scored(ruleset: Ruleset, contract: str, declared: list[tuple[int, list[str]]]) -> list[int]:
    """Points per team for declarations announced in this order, every team with a trick."""
    from app.rules import Contract
    from app.rules.declarations import Announced, classify, scoring

    announced = []
    for order, (seat, texts) in enumerate(declared):
        declaration = classify(cards(*texts))
        assert declaration is not None
        announced.append(Announced(seat, declaration, order))
    points = [0, 0]
    for a in scoring(ruleset, Contract.parse(contract), announced, [0, 1]):
        points[a.seat % 2] += a.declaration.points
    return points


def test_bg18_carre_order_j_9_a_10_k_q() -> None:
    """BG-18: carrés compare J 9 A 10 K Q, whatever their points."""
    aces = ["AC", "AD", "AH", "AS"]
    kings = ["KC", "KD", "KH", "KS"]
    tens = ["TC", "TD", "TH", "TS"]
    queens = ["QC", "QD", "QH", "QS"]
    assert _scored(BG, "hearts", [(0, kings), (1, aces)]) == [0, 100]
    assert _scored(BG, "hearts", [(0, tens), (1, kings)]) == [100, 0]
    assert _scored(BG, "hearts", [(0, queens), (1, kings), (2, aces)]) == [200, 0]


def test_bg13_bg17_run_of_6_counts_as_the_highest_quinte_in_it() -> None:
    """BG-13: K-to-8 is a quinte to the K and loses to a quinte to the A; longer beats higher."""
    k_to_8 = ["KH", "QH", "JH", "TH", "9H", "8H"]
    a_to_10 = ["AS", "KS", "QS", "JS", "TS"]
    assert _scored(BG, "clubs", [(0, k_to_8), (1, a_to_10)]) == [0, 100]
    assert _scored(BG, "clubs", [(0, ["AD", "KD", "QD"]), (1, ["9C", "8C", "7C", "TC"])]) == [0, 50]


def test_fr8_best_announce_takes_all() -> None:
    """FR-8: one best announce; at equal value a carré beats a sequence; then the sequence in
    trumps; then the one announced first. Its team scores all of its announces."""
    rules = FR.with_house_rules(announces=True)
    quinte = ["AH", "KH", "QH", "JH", "TH"]
    kings = ["KC", "KD", "KS", "KH"]
    assert _scored(rules, "spades", [(0, quinte), (1, kings)]) == [0, 100]
    assert _scored(rules, "spades", [(0, ["KH", "QH", "JH"]), (1, ["KS", "QS", "JS"])]) == [0, 20]
    assert _scored(
        rules, "spades", [(1, ["KD", "QD", "JD"]), (2, ["KC", "QC", "JC"]), (2, ["9H", "8H", "7H"])]
    ) == [0, 20]
    assert _scored(
        rules, "spades", [(2, ["KC", "QC", "JC"]), (2, ["9H", "8H", "7H"]), (1, ["KD", "QD", "JD"])]
    ) == [40, 0]
    assert _scored(rules, "spades", [(0, ["9D", "8D", "7D"]), (1, ["8C", "9C", "TC"])]) == [0, 20]
