"""The small-table presets `bulgarian3` and `bulgarian2` (RULES.md BGN, BG3, BG2): their
deals, bidding, play, declarations and scoring, each worked example and table row a test."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import (
    Bid,
    Call,
    Contract,
    IllegalBid,
    Phase,
    Play,
    RuleError,
    Ruleset,
    apply,
    legal_actions,
    new_deal,
    new_match,
    record_deal,
    view,
)
from app.rules.declarations import Announced, classify, scoring
from app.rules.scoring import bulgarian_points, three_player_points

from .helpers import cards
from .tables import bid, positions, preset_cards, start

BG3 = Ruleset.of("bulgarian3")
BG2 = Ruleset.of("bulgarian2")
CONTRACTS = {
    "hearts": Contract.HEARTS,
    "clubs": Contract.CLUBS,
    "spades": Contract.SPADES,
    "all_trumps": Contract.ALL_TRUMPS,
    "no_trumps": Contract.NO_TRUMPS,
}


def legal_cards(state: Any) -> set[str]:
    return {str(a.card) for a in legal_actions(state) if isinstance(a, Play)}


def calls(state: Any) -> set[str]:
    return {a.call.value for a in legal_actions(state) if isinstance(a, Bid)}


# --------------------------------------------------------------------------- presets as data


@pytest.mark.parametrize(
    ("preset", "seats", "sides", "deck"),
    [
        ("bulgarian", 4, ((0, 2), (1, 3)), 32),
        ("french", 4, ((0, 2), (1, 3)), 32),
        ("bulgarian3", 3, ((0,), (1,), (2,)), 24),
        ("bulgarian2", 2, ((0,), (1,)), 24),
        ("open_belot", 2, ((0,), (1,)), 32),
    ],
)
def test_c1_c6_bgn3_bg3_1_bg2_1_ob_1_seats_sides_and_deck_are_data(
    preset: str, seats: int, sides: Any, deck: int
) -> None:
    """C-1, C-6, BGN-3 (every player a side of his own), BG3-1, BG2-1, OB-1."""
    rules = Ruleset.of(preset)
    assert (rules.seats, rules.sides, rules.deck_size()) == (seats, sides, deck)
    assert [rules.team_of(s) for s in range(seats)] == [
        next(i for i, side in enumerate(sides) if s in side) for s in range(seats)
    ]


@pytest.mark.parametrize("preset", ["bulgarian3", "bulgarian2"])
def test_bg3_1_bg2_1_the_24_card_deck_is_9_to_ace(preset: str) -> None:
    """BG3-1, BG2-1: the 24 cards 9 10 J Q K A; a 32-card deck is refused."""
    from app.rules import BadRecord, full_deck

    rules = Ruleset.of(preset)
    assert sorted(str(c) for c in full_deck(rules)) == sorted(preset_cards(rules))
    with pytest.raises(BadRecord):
        new_deal(rules, 0, cards(*[r + s for s in "CDHS" for r in "789TJQKA"]))
    with pytest.raises(BadRecord):  # 24 cards, but with a 7 in place of a 9
        bad = [c for c in preset_cards(rules) if c != "9C"] + ["7C"]
        new_deal(rules, 0, cards(*bad))


# ----------------------------------------------------------------------------------- dealing


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_bg3_3_bg3_4_index_map(dealer: int) -> None:
    """BG3-3, BG3-4: 3 + 2 to d+1, d+2, d before the bidding, 3 each after it."""
    deck = cards(*preset_cards(BG3))
    state = new_deal(BG3, dealer, deck)
    where = positions(BG3, dealer)
    for seat in range(3):
        early = {str(deck[i]) for i in range(15) if where[i][0] == seat}
        assert {str(c) for c in state.hand(seat)} == early and len(early) == 5
    assert state.turn == (dealer + 1) % 3  # BGN-2: dealer+1 speaks first
    state = bid(state, "hearts", "pass", "pass")
    for seat in range(3):
        assert {str(c) for c in state.hand(seat)} == {
            str(deck[i]) for i in range(24) if where[i][0] == seat
        }
    assert state.turn == state.leader == (dealer + 1) % 3  # BGN-2: and leads


@pytest.mark.parametrize("dealer", [0, 1])
def test_bg2_2_bg2_3_index_map_and_six_cards_out_of_play(dealer: int) -> None:
    """BG2-2, BG2-3: 3, 3, 3, 3 alternately from the non-dealer, then 3 each; deck[18-23]
    are out of play; BGN-2: the non-dealer speaks first and leads."""
    deck = cards(*preset_cards(BG2))
    state = new_deal(BG2, dealer, deck)
    nondealer = 1 - dealer
    where = positions(BG2, dealer)
    assert {str(c) for c in state.hand(nondealer)} == {
        str(deck[i]) for i in range(12) if where[i][0] == nondealer
    }
    assert state.turn == nondealer
    state = bid(state, "spades", "pass")
    assert state.phase is Phase.PLAYING and state.leader == nondealer
    for seat in (0, 1):
        assert {str(c) for c in state.hand(seat)} == {
            str(deck[i]) for i in range(18) if where[i][0] == seat and where[i][1] == "hand"
        }
    out = {str(c) for c in deck[18:]}
    assert not out & {str(c) for s in (0, 1) for c in state.hand(s)}


def test_bg2_4_out_of_play_cards_are_seen_by_nobody() -> None:
    """BG2-4: the six cards out of play appear in no view (players, spectators), whole deal
    long; they exist only in the stored record (after a void bidding: all twelve undealt)."""
    import json
    import random

    from app.rules import deal_record

    rng = random.Random(7)
    for _ in range(20):
        deck = cards(*preset_cards(BG2))
        rng.shuffle(deck)
        states = [new_deal(BG2, rng.randrange(2), deck)]
        while states[-1].phase is not Phase.FINISHED:
            states.append(play_randomly_step(states[-1], rng))
        hidden = {str(c) for c in deck[12 if states[-1].contract is None else 18 :]}
        for state in states:
            for seat in (0, 1, None):
                text = json.dumps(view(state, seat).to_dict())
                assert not any(f'"{c}"' in text for c in hidden)
        assert [str(c) for c in deck] == deal_record(states[-1])["deck"]


def play_randomly_step(state: Any, rng: Any) -> Any:
    actions = legal_actions(state)
    passes = [a for a in actions if isinstance(a, Bid) and a.call == Call.PASS]
    if passes and rng.random() < 0.5:
        return apply(state, passes[0])
    return apply(state, rng.choice(actions))


# ----------------------------------------------------------------------------------- bidding


def test_bg3_7_bidding_examples() -> None:
    """BG3-7 (seats; dealer 0 so seat 1 speaks first)."""
    deck = cards(*preset_cards(BG3))
    s = bid(new_deal(BG3, 0, deck), "hearts", "contra", "pass", "recontra", "pass", "pass")
    assert (s.phase, s.contract, s.bidder, s.multiplier) == (
        Phase.PLAYING,
        Contract.HEARTS,
        1,
        4,
    )
    s = bid(new_deal(BG3, 0, deck), "hearts", "contra", "spades", "pass", "pass")
    assert (s.phase, s.contract, s.bidder, s.multiplier) == (
        Phase.PLAYING,
        Contract.SPADES,
        0,
        1,
    )  # BGN-6
    s = bid(new_deal(BG3, 0, deck), "pass", "pass", "pass")
    assert s.phase is Phase.FINISHED and s.result is not None and s.result.void  # BGN-7
    assert s.result.mp == (0, 0, 0)


def test_bg3_6_either_defender_contra_only_the_contractor_recontra() -> None:
    """BG3-6 (ruling R3), BGN-5."""
    deck = cards(*preset_cards(BG3))
    s = bid(new_deal(BG3, 0, deck), "hearts")
    assert "contra" in calls(s) and "recontra" not in calls(s)  # seat 2, a defender
    s = bid(s, "pass")
    assert "contra" in calls(s)  # seat 0, the other defender
    s = bid(s, "contra")
    assert s.turn == 1 and "recontra" in calls(s)  # the contractor
    s2 = bid(s, "pass")
    assert s2.turn == 2 and not {"contra", "recontra"} & calls(s2)
    with pytest.raises(IllegalBid):
        apply(s2, Bid(2, Call.RECONTRA))


def test_bgn7_bg3_5_two_passes_after_a_bid_end_the_bidding() -> None:
    """BGN-7, BG3-5: n-1 passes in a row after a bid end it."""
    s = bid(new_deal(BG3, 2, cards(*preset_cards(BG3))), "pass", "clubs", "pass")
    assert s.phase is Phase.BIDDING
    s = bid(s, "pass")
    assert s.phase is Phase.PLAYING and s.bidder == 1


def test_bgn7_dealer_must_bid_in_three_and_two() -> None:
    """BGN-7 `dealer_must_bid`: if the first n-1 pass, the dealer must bid."""
    s = bid(
        new_deal(BG3.with_house_rules(dealer_must_bid=True), 0, cards(*preset_cards(BG3))),
        "pass",
        "pass",
    )
    assert s.turn == 0 and "pass" not in calls(s)
    s = bid(
        new_deal(BG2.with_house_rules(dealer_must_bid=True), 0, cards(*preset_cards(BG2))), "pass"
    )
    assert s.turn == 0 and "pass" not in calls(s)


@pytest.mark.parametrize(
    ("script", "contract", "multiplier"),
    [
        (["hearts", "pass"], Contract.HEARTS, 1),
        (["pass", "spades", "contra", "pass"], Contract.SPADES, 2),
        (["hearts", "contra", "recontra", "pass"], Contract.HEARTS, 4),
    ],
    ids=["nondealer-hearts", "dealer-spades-contra", "hearts-contra-recontra"],
)
def test_bg2_6_bidding_examples(script: list[str], contract: Contract, multiplier: int) -> None:
    """BG2-5, BG2-6: one pass after a bid, contra or re-contra ends the bidding."""
    s = bid(new_deal(BG2, 1, cards(*preset_cards(BG2))), *script)
    assert (s.phase, s.contract, s.multiplier) == (Phase.PLAYING, contract, multiplier)


def test_bg2_5_two_passes_void_and_the_other_player_deals_next() -> None:
    """BG2-5, BG-7: two passes at the start void the deal; the non-dealer deals next."""
    match = new_match(BG2, 1)
    s = bid(match.start_deal(cards(*preset_cards(BG2))), "pass", "pass")
    assert s.result is not None and s.result.void and s.result.mp == (0, 0)
    match = record_deal(match, s)
    assert match.next_dealer == 0 and match.scores == (0, 0)


# ------------------------------------------------------------------------------------- play

# BG3 "Legal cards" examples: hearts by seat 0, dealer 0, so seat 1 leads the first trick.
BG3_LEGAL_1 = {
    0: ["9H", "QH", "JH", "KH", "AH", "QC", "KC", "AC"],
    1: ["AS", "KS", "QS", "JS", "TS", "9S", "TD", "9D"],
    2: ["TH", "AD", "KD", "QD", "JD", "9C", "TC", "JC"],
}
BG3_LEGAL_2 = {
    0: ["9H", "QH", "AD", "KC", "AC", "QC", "KD", "QD"],
    1: ["AS", "KS", "QS", "JS", "TS", "9S", "9D", "JD"],
    2: ["JH", "TH", "AH", "KH", "9C", "TC", "JC", "TD"],
}


def _bg3_hearts_by_0(hands: dict[int, list[str]], **house: Any) -> Any:
    rules = BG3.with_house_rules(**house)
    return bid(start(rules, 0, hands), "pass", "pass", "hearts", "pass", "pass")


def test_bgn4_bg3_8_no_partner_a_defender_must_trump_over_the_other() -> None:
    """BGN-4, BG3 "Legal cards": seat 1 leads A♠; seat 2 with 10♥ and no spade must trump."""
    s = _bg3_hearts_by_0(BG3_LEGAL_1)
    s = apply(s, Play(1, cards("AS")[0]))
    assert legal_cards(s) == {"TH"}
    with pytest.raises(RuleError) as error:
        apply(s, Play(2, cards("AD")[0]))
    assert error.value.rule == "BGN-4"


def test_bg3_9_defenders_partners_may_discard_on_the_other_defenders_trick() -> None:
    """BG3-9 `defenders_partners`: both cards (all of the hand) are legal for seat 2."""
    s = _bg3_hearts_by_0(BG3_LEGAL_1, defenders_partners=True)
    s = apply(s, Play(1, cards("AS")[0]))
    assert legal_cards(s) == set(BG3_LEGAL_1[2])


def test_bg3_9_the_contractor_has_no_partner_even_with_defenders_partners() -> None:
    """BG3-9: the contractor still has no partner (seat 0 must trump over seat 1's ace)."""
    hands = {0: BG3_LEGAL_1[2], 1: BG3_LEGAL_1[1], 2: BG3_LEGAL_1[0]}
    s = _bg3_hearts_by_0(hands, defenders_partners=True)
    s = apply(s, Play(1, cards("AS")[0]))
    s = apply(s, Play(2, cards("9H")[0]))
    assert legal_cards(s) == {"TH"}  # seat 0: must trump; 10♥ cannot beat 9♥, undertrump


@pytest.mark.parametrize(("undertrump", "legal"), [(True, {"9H", "QH"}), (False, None)])
def test_bg3_must_undertrump_against_a_defender(undertrump: bool, legal: Any) -> None:
    """BG3 "Legal cards", BG-9 `must_undertrump`: seat 1 A♠, seat 2 J♥; seat 0 with 9♥ Q♥ must
    play one of them; with the house rule off any card."""
    s = _bg3_hearts_by_0(BG3_LEGAL_2, must_undertrump=undertrump)
    s = apply(s, Play(1, cards("AS")[0]))
    s = apply(s, Play(2, cards("JH")[0]))
    assert legal_cards(s) == (legal or set(BG3_LEGAL_2[0]))


def test_bg2_7_legal_cards_example() -> None:
    """BG2-7: ♠ contract, the non-dealer leads K♦; the dealer with 9♠ and no diamond must
    trump (BGN-4): 9♠ only."""
    hands = {
        1: ["9S", "AC", "QC", "KC", "JC", "TC", "9C", "AH", "KH"],
        0: ["KD", "AD", "QD", "JS", "AS", "TS", "KS", "QS", "9H"],
    }
    s = bid(start(BG2, 1, hands, out=["TD", "JD", "9D", "TH", "JH", "QH"]), "spades", "pass")
    s = apply(s, Play(0, cards("KD")[0]))
    assert legal_cards(s) == {"9S"}


def test_bg2_7_bg2_10_nine_tricks_and_a_valat() -> None:
    """BG2-7: nine tricks of two cards, the non-dealer leading; BG2-10: one player taking all
    nine scores the valat (+9 MP)."""
    hands = {
        0: ["JS", "9S", "AS", "TS", "KS", "QS", "AC", "AD", "AH"],
        1: ["9C", "TC", "JC", "9D", "TD", "JD", "9H", "TH", "JH"],
    }
    s = bid(start(BG2, 1, hands, out=["QC", "KC", "QD", "KD", "QH", "KH"]), "spades", "pass")
    from .tables import play

    for lead, follow in [
        ("JS", "9C"),
        ("9S", "TC"),
        ("AS", "JC"),
        ("TS", "9D"),
        ("KS", "TD"),
        ("QS", "JD"),
        ("AC", "9H"),
        ("AD", "TH"),
        ("AH", "JH"),
    ]:
        s = play(s, lead, follow)
    r = s.result
    assert r is not None and len(r.tricks) == 9 and r.valat_team == 0
    # cards in play: spades 20+14+11+10+4+3 = 62, three aces 33, the rest 10+2+10+2+10+2 = 36
    assert r.totals == (62 + 33 + 36 + 10, 0)
    assert r.mp == (14 + 9, 0)


# ------------------------------------------------------------------------------ declarations


def _announce(seat: int, *texts: str) -> Announced:
    d = classify(cards(*texts))
    assert d is not None
    return Announced(seat, d, 0)


@pytest.mark.parametrize(
    ("announced", "with_tricks", "points"),
    [
        (
            [("0", "KH QH JH TH"), ("1", "AS KS QS"), ("2", "9C 9D 9H 9S")],
            (0, 1, 2),
            [50, 0, 150],
        ),
        ([("0", "AS KS QS"), ("1", "AH KH QH"), ("2", "KD QD JD")], (0, 1, 2), [0, 0, 0]),
        ([("0", "AD KD QD JD TD"), ("1", "9C TC JC")], (1, 2), [0, 20, 0]),
    ],
    ids=["bgn8-bgn9-each-for-himself", "bgn8-best-shared", "bgn10-no-trick"],
)
def test_bgn8_bgn10_bg3_11_declarations_examples(
    announced: list[tuple[str, str]], with_tricks: tuple[int, ...], points: list[int]
) -> None:
    """BG3 "Declarations" examples (♣ contract): BGN-8, BGN-9, BGN-10."""
    ann = [_announce(int(seat), *text.split()) for seat, text in announced]
    scored = scoring(BG3, Contract.CLUBS, ann, with_tricks)
    out = [0, 0, 0]
    for a in scored:
        out[a.seat] += a.declaration.points
    assert out == points


def test_bg3_10_a_run_of_six_counts_as_the_highest_quinte() -> None:
    """BG3-10, BG-13: 9..A of a suit is the longest run; it counts as the quinte to the ace."""
    d = classify(cards("9S", "TS", "JS", "QS", "KS", "AS"))
    assert d is not None and (d.kind, d.points, d.length) == ("quinte", 100, 5)


# ----------------------------------------------------------------------------------- scoring

BG3_TABLE = [
    # contract, x, house, totals, mp, hanging, valat seat, rule
    ("hearts", 1, {}, (70, 52, 40), (7, 5, 4), 0, None, "BG3-14/15"),
    ("hearts", 1, {}, (76, 46, 40), (8, 5, 4), 0, None, "BG3-13 17 MP"),
    ("hearts", 1, {}, (60, 51, 51), (6, 5, 5), 0, None, "beats each defender"),
    ("hearts", 1, {}, (60, 70, 32), (None, 13, 3), 0, None, "BG3-16 C to the best"),
    ("hearts", 1, {}, (50, 56, 56), (None, 6, 6), 5, None, "BG3-16 defenders equal"),
    ("hearts", 1, {}, (56, 56, 50), (None, 6, 5), 6, None, "BG3-17"),
    ("hearts", 1, {}, (54, 54, 54), (None, 5, 5), 5, None, "BG3-17 all equal"),
    ("all_trumps", 1, {}, (100, 94, 64), (10, 9, 6), 0, None, "BG3-13 all trumps"),
    ("no_trumps", 1, {}, (100, 90, 70), (10, 9, 7), 0, None, "BG3-13 no trumps"),
    ("no_trumps", 1, {}, (90, 90, 80), (None, 9, 8), 9, None, "BG3-17 no trumps"),
    ("hearts", 2, {}, (70, 60, 32), (32, None, None), 0, None, "BG3-20 contra"),
    ("hearts", 4, {}, (70, 60, 32), (64, None, None), 0, None, "BG3-20 recontra"),
    ("hearts", 2, {}, (60, 70, 32), (None, 32, None), 0, None, "BG3-20 defender"),
    ("hearts", 2, {}, (65, 65, 32), (None, None, None), 32, None, "BG3-20 shared"),
    ("hearts", 1, {}, (162, 0, 0), (25, 0, 0), 0, 0, "BG3-12 valat"),
    ("hearts", 1, {}, (20, 162, 0), (None, 27, 0), 0, 1, "BG3-16 valat by 1"),
    ("hearts", 1, {"bg3_goal": "beat_both"}, (90, 40, 32), (9, 4, 3), 0, None, "BG3-18 made"),
    ("hearts", 1, {"bg3_goal": "beat_both"}, (70, 60, 32), (None, 13, 3), 0, None, "BG3-18"),
    ("hearts", 1, {"bg3_inside": "each"}, (60, 70, 32), (None, 13, 9), 0, None, "BG3-19 each"),
    ("hearts", 1, {"bg3_inside": "lost"}, (60, 70, 32), (None, 7, 3), 0, None, "BG3-19 lost"),
]


@pytest.mark.parametrize(
    ("contract", "multiplier", "house", "totals", "mp", "hanging", "valat", "rule"),
    BG3_TABLE,
    ids=[f"{i}-{row[-1]}" for i, row in enumerate(BG3_TABLE)],
)
def test_bg3_worked_examples_table(
    contract: str,
    multiplier: int,
    house: dict[str, str],
    totals: tuple[int, int, int],
    mp: tuple[int | None, ...],
    hanging: int,
    valat: int | None,
    rule: str,
) -> None:
    """BG3-12..BG3-20, the "Worked examples" table row by row (contractor seat 0)."""
    rules = BG3.with_house_rules(**house)
    got = three_player_points(CONTRACTS[contract], 0, totals, multiplier, valat, rules.house_rules)
    assert (got.mp, got.hanging_out) == (mp, hanging), rule


def test_bg3_13_suit_tie_rounding_has_no_effect() -> None:
    """BG3-13: BG-25's tie-digit adjustments are not used, so `suit_tie_rounding` changes
    nothing (accepted, applicability table "no effect")."""
    up = BG3.with_house_rules(suit_tie_rounding="smaller_up")
    for totals in [(76, 46, 40), (56, 56, 50), (86, 46, 30)]:
        a = three_player_points(Contract.HEARTS, 0, totals, 1, None, BG3.house_rules)
        b = three_player_points(Contract.HEARTS, 0, totals, 1, None, up.house_rules)
        assert a == b


@pytest.mark.parametrize(
    ("totals", "hanging_in", "mp", "hanging_out"),
    [
        ((70, 52, 40), 10, (17, 5, 4), 0),  # made: the contractor collects
        ((60, 70, 32), 10, (None, 23, 3), 0),  # inside: the strictly higher defender
        ((50, 56, 56), 10, (None, 6, 6), 15),  # equal defenders: no winner, it accumulates
        ((56, 56, 50), 10, (None, 6, 5), 16),  # BG3-17: no winner
    ],
)
def test_bg3_21_hanging_points_go_to_the_winner_of_the_next_deal(
    totals: tuple[int, int, int], hanging_in: int, mp: Any, hanging_out: int
) -> None:
    """BG3-21."""
    got = three_player_points(Contract.HEARTS, 0, totals, 1, None, BG3.house_rules, hanging_in)
    assert (got.mp, got.hanging_out) == (mp, hanging_out)


def test_bg3_21_hanging_points_in_a_doubled_deal_go_to_the_player_who_scores() -> None:
    """BG3-21: in a doubled deal the player who scores collects them."""
    got = three_player_points(Contract.HEARTS, 0, (60, 70, 32), 2, None, BG3.house_rules, 7)
    assert (got.mp, got.hanging_out, got.winner) == ((None, 39, None), 0, 1)


BG2_EXAMPLES = [
    ("hearts", (80, 52), {}, (8, 5), 0),
    ("hearts", (50, 82), {}, (None, 13), 0),
    ("hearts", (76, 46), {}, (8, 4), 0),
    ("hearts", (76, 46), {"suit_tie_rounding": "smaller_up"}, (7, 5), 0),
    ("hearts", (66, 66), {}, (None, 6), 7),
    ("no_trumps", (90, 70), {}, (9, 7), 0),
    ("all_trumps", (114, 104), {}, (11, 11), 0),
]


@pytest.mark.parametrize(
    ("contract", "totals", "house", "mp", "hanging"),
    BG2_EXAMPLES,
    ids=["80-52", "50-82", "76-46", "76-46-smaller-up", "66-66", "nt-90-70", "at-114-104"],
)
def test_bg2_11_worked_examples(
    contract: str, totals: tuple[int, int], house: dict[str, str], mp: Any, hanging: int
) -> None:
    """BG2-9, BG2-11 (ruling R9): BG-23..BG-25 applied to two totals whatever their sum."""
    rules = BG2.with_house_rules(**house)
    got = bulgarian_points(CONTRACTS[contract], 0, totals, 1, None, rules.house_rules)
    assert (got.mp, got.hanging_out) == (mp, hanging)


def test_bgn11_bg3_2_a_whole_deal_totals_162_and_each_scores_his_own() -> None:
    """BG3-2, BGN-11, BG3-15: a full 3-player hearts deal through the engine. Seat 0 (the
    contractor) takes the hearts and spades, seats 1 and 2 the clubs and diamonds."""
    from .tables import play

    hands = {
        0: ["JH", "9H", "AH", "TH", "AS", "TS", "KS", "QS"],
        1: ["AC", "TC", "KC", "QC", "KH", "JS", "9S", "JC"],
        2: ["AD", "TD", "KD", "QD", "QH", "JD", "9D", "9C"],
    }
    s = bid(start(BG3, 2, hands), "hearts", "pass", "pass")  # dealer 2: seat 0 first
    s = play(s, "JH", "KH", "QH")  # 0 wins: 20+4+3
    s = play(s, "9H", "JS", "9D")  # 0: 14+2+0
    s = play(s, "AH", "9S", "JD")  # 0: 11+2
    s = play(s, "TH", "JC", "9C")  # 0: 10+2
    s = play(s, "AS", "AC", "AD")  # 0: 33
    s = play(s, "TS", "TC", "TD")  # 0: 30
    s = play(s, "KS", "KC", "KD")  # 0: 12
    s = play(s, "QS", "QC", "QD")  # 0: 9 + last trick
    r = s.result
    assert r is not None and r.valat_team == 0
    assert r.totals == (162, 0, 0) and r.mp == (25, 0, 0)
    assert sum(r.totals) == 162


@pytest.mark.parametrize("preset", ["bulgarian3", "bulgarian2", "open_belot"])
def test_bg2_gathered_deck_holds_every_card_of_the_preset(preset: str) -> None:
    """BG-2 `gather_not_shuffle` on the small tables: the tricks in the order played, then the
    cards never dealt (BG2-3's six out of play) in deck order; after a void deal what each seat
    was dealt (OB's stacks included) from `dealer+1`, then the undealt cards."""
    import random

    from app.rules import full_deck, gathered_deck

    rules = Ruleset.of(preset, gather_not_shuffle=True)
    rng = random.Random(5)
    deck = full_deck(rules)
    rng.shuffle(deck)
    played = bid(new_deal(rules, 1, deck), "hearts", *["pass"] * (rules.seats - 1))
    while played.phase is not Phase.FINISHED:
        played = play_randomly_step(played, rng)
    gathered = gathered_deck(played)
    assert [str(c) for c in gathered] == [str(c) for t in played.tricks for c in t.cards] + [
        str(c) for c in deck if c not in {c for t in played.tricks for c in t.cards}
    ]
    assert sorted(gathered) == sorted(deck)
    void = bid(new_deal(rules, 1, deck), *["pass"] * rules.seats)
    again = gathered_deck(void)
    assert sorted(again) == sorted(deck)
    first = (1 + 1) % rules.seats
    dealt_to_first = {"bulgarian3": 5, "bulgarian2": 6, "open_belot": 13}[preset]
    assert {str(c) for c in again[:dealt_to_first]} == {str(c) for c in void.hand(first)} | (
        set() if preset != "open_belot" else _table_cards(void, first)
    )


def _table_cards(state: Any, seat: int) -> set[str]:
    from .tables import open_table

    stacks, _ = open_table(state)
    return {c for own in stacks[seat] for c in own if c is not None}


@pytest.mark.parametrize("preset", ["bulgarian3", "bulgarian2", "open_belot"])
def test_bgn12_match_records_per_seat_and_no_deal_after_the_end(preset: str) -> None:
    """BGN-12, RECORDS.md match records: one score per seat; deal n+1 is dealt by the next
    seat with deal n's hanging points; the record replays; a deal after the end is refused."""
    import json
    import random

    from app.rules import ReplayError, full_deck, match_record, replay_match

    rules = Ruleset.of(preset)
    rng = random.Random(11)
    match = new_match(rules, 1, target=30)
    deals = []
    while not match.finished:
        deck = full_deck(rules)
        rng.shuffle(deck)
        state = match.start_deal(deck)
        while state.phase is not Phase.FINISHED:
            state = play_randomly_step(state, rng)
        deals.append(state)
        match = record_deal(match, state)
    assert len(match.scores) == rules.seats
    assert match.winner == match.scores.index(max(match.scores))
    record = json.loads(json.dumps(match_record(match, deals)))
    assert replay_match(record)[0] == match
    record["deals"].append(record["deals"][-1])
    with pytest.raises(ReplayError) as error:
        replay_match(record)
    assert error.value.deal == len(deals)
