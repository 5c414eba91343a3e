"""The regional house rules of the Bulgarian family (RULES.md SUR, KIR, CAN, CRO, TWO): each
rule and each worked example a named test, on the presets the applicability table names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules import (
    BadRecord,
    Bid,
    Call,
    Contract,
    IllegalBid,
    IllegalDeclaration,
    Phase,
    Play,
    Ruleset,
    apply,
    deal_record,
    house_rules_for,
    legal_actions,
    new_deal,
    new_match,
    record_deal,
    replay_deal,
    view,
)
from app.rules.scoring import bulgarian_points, three_player_points

from .helpers import (
    ALL_CARD_TEXTS,
    HEARTS_81_81,
    HEARTS_92_70,
    bids_for,
    cards,
    layout_deck,
    scripted_deal,
)
from .tables import bid, deck_for, play, preset_cards, start

BG = Ruleset.bulgarian()
HEARTS = Contract.HEARTS
NT = Contract.NO_TRUMPS


def calls(state: Any) -> set[str]:
    return {a.call.value for a in legal_actions(state) if isinstance(a, Bid)}


# ------------------------------------------------------------------------ applicability table

OFFERED = {
    "bulgarian": {
        "gather_not_shuffle",
        "card_in_two_declarations",
        "dealer_must_bid",
        "must_undertrump",
        "suit_tie_rounding",
        "sur_contra",
        "kirtik",
        "dealer_may_cancel",
        "declarations_in_two_tricks",
        "croatian_deal",
        "croatian_reveal",
    },
    "bulgarian3": {
        "gather_not_shuffle",
        "card_in_two_declarations",
        "dealer_must_bid",
        "must_undertrump",
        "sur_contra",
        "kirtik",
        "dealer_may_cancel",
        "declarations_in_two_tricks",
        "croatian_deal",
        "croatian_reveal",
        "defenders_partners",
        "bg3_goal",
        "bg3_inside",
    },
    "bulgarian2": {
        "gather_not_shuffle",
        "card_in_two_declarations",
        "dealer_must_bid",
        "suit_tie_rounding",
        "sur_contra",
        "kirtik",
        "dealer_may_cancel",
        "declarations_in_two_tricks",
    },
    "open_belot": {
        "gather_not_shuffle",
        "card_in_two_declarations",
        "dealer_must_bid",
        "suit_tie_rounding",
        "sur_contra",
        "kirtik",
        "dealer_may_cancel",
        "declarations_in_two_tricks",
        "open_reveal",
    },
}
NO_EFFECT = {
    "bulgarian3": {"suit_tie_rounding"},
    "bulgarian2": {"must_undertrump"},
    "open_belot": {"must_undertrump"},
}
REGIONAL = [
    ("sur_contra", "x8"),
    ("kirtik", True),
    ("dealer_may_cancel", True),
    ("croatian_deal", True),
    ("croatian_reveal", "bidding_end"),
    ("declarations_in_two_tricks", True),
    ("defenders_partners", True),
    ("bg3_goal", "beat_both"),
    ("bg3_inside", "lost"),
    ("open_reveal", "at_once"),
    ("must_undertrump", False),
    ("suit_tie_rounding", "smaller_up"),
]


@pytest.mark.parametrize("preset", sorted(OFFERED))
def test_applicability_table_offered_no_effect_and_refused(preset: str) -> None:
    """RULES.md "Which house rules apply where": ✓ offered, "no effect" accepted, – refused."""
    assert {h.name for h in house_rules_for(preset)} == OFFERED[preset]
    for name, value in REGIONAL:
        data = {"preset": preset, "house_rules": {name: value}}
        if name in OFFERED[preset] | NO_EFFECT.get(preset, set()):
            assert Ruleset.from_dict(data).to_dict() == data
        else:
            with pytest.raises(BadRecord):
                Ruleset.from_dict(data)


def test_regional_rules_defaults_off() -> None:
    """SUR, KIR, CAN, CRO, TWO: all default off (`own_call`, `beat_each`, `best`,
    `trick_end` for the choices)."""
    house = BG.house_rules
    assert (house.sur_contra, house.kirtik, house.dealer_may_cancel, house.croatian_deal) == (
        "off",
        False,
        False,
        False,
    )
    assert house.croatian_reveal == "own_call" and not house.declarations_in_two_tricks
    assert (house.bg3_goal, house.bg3_inside, house.open_reveal) == (
        "beat_each",
        "best",
        "trick_end",
    )


# -------------------------------------------------------------------------------- sur-contra


def test_sur1_sur2_sur_contra_by_the_doubling_team_after_a_recontra() -> None:
    """SUR-1, SUR-2 (ruling R17): either member of the doubling team may say sur-contra over
    a re-contra; never the contracting team; no fourth level; not offered when off."""
    rules = BG.with_house_rules(sur_contra="x8")
    s = bid(new_deal(rules, 3, cards(*ALL_CARD_TEXTS)), "hearts", "contra", "recontra")
    assert s.turn == 3 and "surcontra" in calls(s)  # seat 3, partner of the doubler
    s1 = bid(s, "pass")
    assert s1.turn == 0 and "surcontra" not in calls(s1)  # the contracting team
    s2 = bid(s1, "pass", "surcontra")  # seat 1, the doubler himself
    assert s2.multiplier == 8
    assert not {"contra", "recontra", "surcontra"} & calls(s2)
    off = bid(new_deal(BG, 3, cards(*ALL_CARD_TEXTS)), "hearts", "contra", "recontra")
    assert "surcontra" not in calls(off)
    with pytest.raises(IllegalBid) as error:
        apply(off, Bid(3, Call.SURCONTRA))
    assert error.value.rule == "SUR-2"


@pytest.mark.parametrize(
    ("preset", "script", "seat"),
    [
        ("bulgarian3", ["hearts", "contra", "pass", "recontra", "pass"], 0),  # the other defender
        ("bulgarian3", ["hearts", "contra", "pass", "recontra"], 2),  # the doubler
        ("bulgarian2", ["hearts", "contra", "recontra"], 1),  # the doubler (dealer 1)
        ("open_belot", ["hearts", "contra", "recontra"], 1),
    ],
)
def test_sur2_who_may_say_sur_contra_on_the_small_tables(
    preset: str, script: list[str], seat: int
) -> None:
    """SUR-2: either defender in `bulgarian3`, the doubler in the 2-player presets."""
    rules = Ruleset.of(preset, sur_contra="x8")
    dealer = {"bulgarian3": 0}.get(preset, 1)
    s = bid(new_deal(rules, dealer, cards(*preset_cards(rules))), *script)
    assert s.turn == seat and "surcontra" in calls(s)


def test_sur3_sur_contra_counts_like_a_bid_and_a_higher_contract_cancels_it() -> None:
    """SUR-3: three passes after a sur-contra end the bidding; a higher contract cancels
    every level of doubling (BG-6)."""
    rules = BG.with_house_rules(sur_contra="x8")
    s = bid(
        new_deal(rules, 3, cards(*ALL_CARD_TEXTS)),
        "hearts",
        "contra",
        "recontra",
        "surcontra",
        "pass",
        "pass",
    )
    assert s.phase is Phase.BIDDING
    assert bid(s, "pass").phase is Phase.PLAYING
    s = bid(s, "spades")
    assert (s.contract, s.multiplier, s.bidder) == (Contract.SPADES, 1, 2)


@pytest.mark.parametrize(
    ("contract", "contracting", "totals", "mp", "hanging"),
    [
        (HEARTS, 0, (92, 70), (128, None), 0),
        (HEARTS, 0, (81, 81), (None, None), 128),
        (NT, 1, (100, 160), (None, 208), 0),
    ],
    ids=["92-70", "81-81", "nt-100-160"],
)
def test_sur4_examples(
    contract: Contract, contracting: int, totals: Any, mp: Any, hanging: int
) -> None:
    """SUR-4 examples (`bulgarian`): the winner's rounded sum ×8; on equal totals all ×8 hangs."""
    got = bulgarian_points(contract, contracting, totals, 8, None, BG.house_rules)
    assert (got.mp, got.hanging_out) == (mp, hanging)


def test_sur4_three_players_use_bg3_20_with_eight() -> None:
    """SUR-4: in `bulgarian3` BG3-20 with multiplier 8."""
    got = three_player_points(
        HEARTS, 0, (70, 60, 32), 8, None, Ruleset.of("bulgarian3").house_rules
    )
    assert got.mp == (128, None, None)


SUR_BIDS = ["hearts", "contra", "recontra", "surcontra", "pass", "pass", "pass"]


@pytest.mark.parametrize(("mode", "finished"), [("wins_match", True), ("x8", False)])
def test_sur5_a_scored_sur_contra_deal_wins_the_match(mode: str, finished: bool) -> None:
    """SUR-5: with `wins_match` the side that scores a sur-contra deal wins the match at
    once, 128 < 151 notwithstanding; with `x8` it is only 128 MP. SUR-6: bid `surcontra`
    in the record, which replays."""
    rules = BG.with_house_rules(sur_contra=mode)
    deal = scripted_deal(rules, 3, SUR_BIDS, HEARTS_92_70)
    assert deal.result is not None and deal.result.mp == (128, None)
    match = record_deal(new_match(rules, 3), deal)
    assert (match.finished, match.winner) == (finished, 0 if finished else None)
    record = json.loads(json.dumps(deal_record(deal)))
    assert {"seat": 3, "bid": "surcontra"} in record["actions"]
    again = replay_deal(record)
    assert again.result is not None and again.result.to_dict() == deal.result.to_dict()


def test_sur5_a_sur_contra_deal_that_hangs_does_not_end_the_match() -> None:
    """SUR-5, BG-27: an equal sur-contra deal hangs 128 and ends nothing."""
    rules = BG.with_house_rules(sur_contra="wins_match")
    deal = scripted_deal(rules, 3, SUR_BIDS, HEARTS_81_81)
    assert deal.result is not None and deal.result.hanging_out == 128
    match = record_deal(new_match(rules, 3), deal)
    assert not match.finished and match.hanging == 128


# ------------------------------------------------------------------------------------ kirtik

KIRTIK = BG.with_house_rules(kirtik=True).house_rules


@pytest.mark.parametrize(
    ("totals", "multiplier", "valat", "mp", "hanging"),
    [
        ((60, 102), 1, None, (-10, 16), 0),
        ((162, 0), 1, 0, (25, -10), 0),
        ((0, 162), 1, 1, (-10, 25), 0),
        ((92, 70), 2, None, (32, -10), 0),
        ((70, 92), 2, None, (-10, 32), 0),
        ((81, 81), 1, None, (None, 8), 8),
    ],
    ids=["inside", "valat-by-0", "valat-by-1-one-kirtik", "contra-made", "contra-lost", "tie"],
)
def test_kir_examples_bulgarian(
    totals: Any, multiplier: int, valat: Any, mp: Any, hanging: int
) -> None:
    """KIR-1..KIR-6 examples (`bulgarian`, team 0 contracting, suit)."""
    got = bulgarian_points(HEARTS, 0, totals, multiplier, valat, KIRTIK)
    assert (got.mp, got.hanging_out) == (mp, hanging)


@pytest.mark.parametrize(
    ("totals", "valat", "mp"),
    [((60, 70, 32), None, (-10, 13, 3)), ((162, 0, 0), 0, (25, -10, -10))],
    ids=["inside", "valat"],
)
def test_kir_examples_bulgarian3(totals: Any, valat: Any, mp: Any) -> None:
    """KIR examples (`bulgarian3`, contractor seat 0); KIR-3: both players without a trick."""
    house = Ruleset.of("bulgarian3", kirtik=True).house_rules
    assert three_player_points(HEARTS, 0, totals, 1, valat, house).mp == mp


def test_kir6_an_inside_contractor_whose_total_hangs_still_gets_one() -> None:
    """KIR-6: BG3-16 with equal defenders: C hangs, the contractor still loses 10."""
    house = Ruleset.of("bulgarian3", kirtik=True).house_rules
    got = three_player_points(HEARTS, 0, (50, 56, 56), 1, None, house)
    assert (got.mp, got.hanging_out) == ((-10, 6, 6), 5)
    got = three_player_points(HEARTS, 0, (56, 56, 50), 1, None, house)  # BG3-17: no kirtik
    assert got.mp == (None, 6, 5)


def test_kir5_kir7_a_played_deal_lists_the_kirtik_and_scores_go_below_zero() -> None:
    """KIR-5, KIR-7: the breakdown lists each kirtik; the scoresheet may go negative."""
    rules = BG.with_house_rules(kirtik=True)
    deal = scripted_deal(rules, 3, bids_for(3, 1, "hearts"), HEARTS_92_70)
    result = deal.result
    assert result is not None and result.mp == (16, -10)
    assert result.breakdown["kirtik"] == [{"team": 1, "match_points": -10}]
    match = record_deal(new_match(rules, 3), deal)
    assert match.scores == (16, -10)
    plain = scripted_deal(BG, 3, bids_for(3, 1, "hearts"), HEARTS_92_70).result
    assert plain is not None and "kirtik" not in plain.breakdown


# -------------------------------------------------------------------------- dealer may cancel


def bg_deck(dealer: int, first_five: list[str]) -> list[Any]:
    """A `bulgarian` deck dealing `first_five` to the dealer before the bidding."""
    rest = [c for c in ALL_CARD_TEXTS if c not in first_five]
    hands: dict[int, list[str]] = {}
    for seat in range(4):
        if seat == dealer:
            hands[seat] = first_five + rest[:3]
            rest = rest[3:]
        else:
            hands[seat], rest = rest[:8], rest[8:]
    return layout_deck(BG, dealer, hands)


@pytest.mark.parametrize(
    ("hand", "may_pass"),
    [
        (["KS", "QS", "9D", "8C", "7H"], True),
        (["JS", "JH", "QD", "9C", "8C"], True),
        (["TS", "7D", "8D", "9C", "JH"], False),
    ],
    ids=["7-K-Q", "7-two-jacks", "12"],
)
def test_can_examples_bulgarian(hand: list[str], may_pass: bool) -> None:
    """CAN-1..CAN-3 examples: with `dealer_must_bid`, a dealer worth 7 or less may still pass
    (the deal is void, `dealer+1` deals next); otherwise he must bid."""
    rules = BG.with_house_rules(dealer_must_bid=True, dealer_may_cancel=True)
    s = bid(new_deal(rules, 3, bg_deck(3, hand)), "pass", "pass", "pass")
    assert s.turn == 3 and ("pass" in calls(s)) == may_pass
    if may_pass:
        s = bid(s, "pass")
        assert s.result is not None and s.result.void  # CAN-3: an ordinary pass
    else:
        with pytest.raises(IllegalBid) as error:
            apply(s, Bid(3, Call.PASS))
        assert error.value.rule == "CAN-1"


def test_can1_without_dealer_must_bid_it_changes_nothing() -> None:
    """CAN-1, CAN-4: only with `dealer_must_bid` on; otherwise the dealer may always pass."""
    rules = BG.with_house_rules(dealer_may_cancel=True)
    s = bid(new_deal(rules, 3, bg_deck(3, ["TS", "7D", "8D", "9C", "JH"])), "pass", "pass", "pass")
    assert "pass" in calls(s)


@pytest.mark.parametrize(
    ("hand", "may_pass"),
    [(["QS", "JS", "9D", "9C", "9H", "JH"], True), (["KS", "QS", "9D", "9C", "9H", "JH"], False)],
    ids=["7", "9"],
)
def test_can_examples_bulgarian2(hand: list[str], may_pass: bool) -> None:
    """CAN-2 example `bulgarian2`: the dealer's six cards count."""
    rules = Ruleset.of("bulgarian2", dealer_must_bid=True, dealer_may_cancel=True)
    rest = [c for c in preset_cards(rules) if c not in hand]
    s = bid(start(rules, 1, {1: hand + rest[:3], 0: rest[3:12]}, out=rest[12:]), "pass")
    assert s.turn == 1 and ("pass" in calls(s)) == may_pass


def test_can2_croatian_deal_the_face_down_pair_is_not_counted() -> None:
    """CAN-2 (ruling R18): under the Croatian deal the dealer's six seen cards count."""
    rules = BG.with_house_rules(croatian_deal=True, dealer_must_bid=True, dealer_may_cancel=True)
    # dealer 3: six seen cards worth 7, a pair of aces face down
    slots = _croatian_slots(3, {3: (["QS", "JS", "9D", "9C", "9H", "JH"], ["AS", "AH"])})
    s = bid(new_deal(rules, 3, deck_for(rules, 3, slots)), "pass", "pass", "pass")
    assert "pass" in calls(s)


# ------------------------------------------------------------------------------ croatian deal


def _croatian_slots(
    dealer: int, given: dict[int, tuple[list[str], list[str]]], seats: int = 4
) -> dict[tuple[int, str], list[str]]:
    """(seat, hand|pair) -> cards: `given` seats as given, the others filled in order."""
    deck = ALL_CARD_TEXTS if seats == 4 else preset_cards(Ruleset.of("bulgarian3"))
    used = {c for hand, pair in given.values() for c in hand + pair}
    rest = [c for c in deck if c not in used]
    slots: dict[tuple[int, str], list[str]] = {}
    for seat in range(seats):
        if seat in given:
            slots[seat, "hand"], slots[seat, "pair"] = given[seat]
        else:
            slots[seat, "hand"], slots[seat, "pair"], rest = rest[:6], rest[6:8], rest[8:]
    return slots


@pytest.mark.parametrize(("preset", "seats"), [("bulgarian", 4), ("bulgarian3", 3)])
def test_cro1_cro2_cro4_all_eight_cards_before_the_bidding(preset: str, seats: int) -> None:
    """CRO-1, CRO-2 index maps; CRO-4: nothing dealt after the bidding."""
    rules = Ruleset.of(preset, croatian_deal=True)
    deck = cards(*preset_cards(rules))
    s = new_deal(rules, 0, deck)
    from .tables import positions

    where = positions(rules, 0)
    for seat in range(seats):
        assert {str(c) for c in s.hand(seat)} == {
            str(deck[i])
            for i, (owner, slot) in enumerate(where)
            if owner == seat and slot == "hand"
        }
    s = bid(s, "hearts", *["pass"] * (seats - 1))
    for seat in range(seats):
        assert {str(c) for c in s.hand(seat)} == {
            str(deck[i]) for i, (owner, _slot) in enumerate(where) if owner == seat
        }


@pytest.mark.parametrize("reveal", ["own_call", "bidding_end"])
def test_cro3_the_face_down_pair_is_the_owners_only_from_his_first_call(reveal: str) -> None:
    """CRO-3 (ruling R19), `croatian_reveal`: nobody sees a pair before its owner's first
    call (`own_call`) or before the bidding ends with a contract (`bidding_end`); nobody else
    ever sees it until it is played."""
    rules = BG.with_house_rules(croatian_deal=True, croatian_reveal=reveal)
    deck = cards(*ALL_CARD_TEXTS)
    s = new_deal(rules, 3, deck)
    pairs = {
        seat: {str(c) for c in deck[24 + 2 * i : 26 + 2 * i]} for i, seat in enumerate((0, 1, 2, 3))
    }

    def seen(state: Any, seat: int | None) -> set[str]:
        text = json.dumps(view(state, seat).to_dict())
        return {c for cs in pairs.values() for c in cs if f'"{c}"' in text}

    for viewer in (0, 1, 2, 3, None):
        assert seen(s, viewer) == set()
    assert view(s, None).pairs == (2, 2, 2, 2)
    s = bid(s, "pass")  # seat 0's first call
    assert seen(s, 0) == (pairs[0] if reveal == "own_call" else set())
    assert seen(s, 1) == seen(s, None) == set()
    s = bid(s, "hearts", "pass", "pass", "pass")
    assert s.phase is Phase.PLAYING
    for seat in range(4):
        assert seen(s, seat) == pairs[seat]
    assert seen(s, None) == set()


def test_cro4_after_a_void_bidding_unseen_pairs_are_never_shown() -> None:
    """CRO-4: `bidding_end` and all pass: no pair is ever shown."""
    rules = BG.with_house_rules(croatian_deal=True, croatian_reveal="bidding_end")
    deck = cards(*ALL_CARD_TEXTS)
    s = bid(new_deal(rules, 3, deck), "pass", "pass", "pass", "pass")
    assert s.result is not None and s.result.void
    for viewer in (0, 1, 2, 3, None):
        text = json.dumps(view(s, viewer).to_dict())
        assert not any(f'"{c}"' in text for c in deck[24:])


def test_cro5_declarations_use_all_eight_cards() -> None:
    """CRO-5: a tierce completed by the face-down pair is declared with the first card."""
    rules = BG.with_house_rules(croatian_deal=True)
    slots = _croatian_slots(3, {0: (["AS", "7C", "8C", "7D", "8D", "7H"], ["KS", "QS"])})
    s = bid(new_deal(rules, 3, deck_for(rules, 3, slots)), "clubs", "pass", "pass", "pass")
    tierce = tuple(sorted(cards("AS", "KS", "QS")))
    assert any(isinstance(a, Play) and a.declare == (tierce,) for a in legal_actions(s))


# ------------------------------------------------------------- declarations in two tricks

TWO_HANDS = {
    0: ["AS", "KS", "QS", "AH", "KH", "QH", "7D", "8D"],
    1: ["7S", "8S", "9C", "TC", "JC", "QC", "KC", "AC"],
    2: ["9S", "TS", "9D", "TD", "JD", "QD", "KD", "AD"],
    3: ["JS", "7C", "8C", "7H", "8H", "9H", "TH", "JH"],
}


def _two_tricks(**house: Any) -> Any:
    rules = BG.with_house_rules(**house)
    return bid(
        new_deal(rules, 3, layout_deck(rules, 3, TWO_HANDS)), "clubs", "pass", "pass", "pass"
    )


def _others_play(state: Any) -> Any:
    """The other seats play their first legal card (no announcement) until seat 0's turn."""
    while state.turn not in (0, None):
        plain = [
            a
            for a in legal_actions(state)
            if isinstance(a, Play) and not a.declare and not a.belote
        ]
        state = apply(state, plain[0])
    return state


def test_two1_two2_declaring_with_the_second_card_cards_already_played_included() -> None:
    """TWO-1, TWO-2 (ruling R20): seat 0 leads A♠ without declaring; with its second card it
    declares the tierce A-K-Q♠ (A♠ already played) and the tierce A-K-Q♥."""
    s = _others_play(play(_two_tricks(declarations_in_two_tricks=True), "AS"))
    assert s.turn == 0 and len(s.tricks) == 1
    spades = tuple(sorted(cards("AS", "KS", "QS")))
    hearts = tuple(sorted(cards("AH", "KH", "QH")))
    both = tuple(sorted((spades, hearts), key=lambda d: (d[0], len(d))))
    assert any(isinstance(a, Play) and a.declare == both for a in legal_actions(s))
    s = play(s, "AH", declare=[["AS", "KS", "QS"], ["AH", "KH", "QH"]])
    assert [a.declaration.kind for a in s.declared] == ["tierce", "tierce"]


def test_two1_without_the_house_rule_the_second_card_declares_nothing() -> None:
    """BG-16: with the house rule off, declarations go with the first card only."""
    s = _others_play(play(_two_tricks(), "AS"))
    assert not any(isinstance(a, Play) and a.declare for a in legal_actions(s))
    with pytest.raises(IllegalDeclaration) as error:
        play(s, "AH", declare=[["AH", "KH", "QH"]])
    assert error.value.rule == "BG-16"


def test_two2_a_card_in_one_declaration_across_both_announcements() -> None:
    """TWO-2, BG-15: the tierce declared with the first card cannot be declared again."""
    s = play(_two_tricks(declarations_in_two_tricks=True), "AS", declare=[["AS", "KS", "QS"]])
    s = _others_play(s)
    spades = tuple(sorted(cards("AS", "KS", "QS")))
    assert not any(isinstance(a, Play) and spades in a.declare for a in legal_actions(s))
    with pytest.raises(IllegalDeclaration):
        play(s, "AH", declare=[["AS", "KS", "QS"]])
    with pytest.raises(IllegalDeclaration) as error:  # no third card
        s = play(s, "AH")
        s = _others_play(s)
        play(s, "KH", declare=[["AH", "KH", "QH"]])
    assert error.value.rule == "TWO-1"


def test_two3_declarations_are_shown_when_the_second_trick_ends() -> None:
    """TWO-3: kinds only during the first two tricks; the scoring cards after the second."""
    s = play(_two_tricks(declarations_in_two_tricks=True), "AS", declare=[["AS", "KS", "QS"]])
    s = _others_play(s)
    assert len(s.tricks) == 1
    shown = view(s, 2).declarations
    assert shown[0].kind == "tierce" and shown[0].cards is None
    s = _others_play(play(s, "AH"))
    assert len(s.tricks) == 2
    shown = view(s, 2).declarations
    assert shown[0].cards is not None


def test_two4_records_carry_declare_on_the_second_play_and_replay() -> None:
    """TWO-4: `declare` may accompany a player's second play; the record replays."""
    s = _others_play(play(_two_tricks(declarations_in_two_tricks=True), "AS"))
    s = play(s, "AH", declare=[["AH", "KH", "QH"]])
    record = json.loads(json.dumps(deal_record(s)))
    assert record["actions"][8]["declare"] == [["AH", "KH", "QH"]]
    assert deal_record(replay_deal(record)) == record
