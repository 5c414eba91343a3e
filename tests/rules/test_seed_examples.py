"""Worked examples of the seeds (RULES.md BG-25..BG-27, FR-9..FR-13) as named tests.

Where a figure needs a whole deal, the deal is really played: a deck laid out for a scripted
deal (helpers.py) and every bid and card applied through the engine. Expected figures are worked
out by hand from the rules, in the comments.
"""

from __future__ import annotations

from app.rules import (
    Bid,
    Call,
    Contract,
    DealState,
    HouseRules,
    Phase,
    Ruleset,
    apply,
    full_deck,
    new_match,
    record_deal,
)
from app.rules.scoring import bulgarian_points, french_points

from .helpers import (
    ALL_TO_LEADER_TRUMP_FIRST,
    HEARTS_81_81,
    HEARTS_81_81_TURNED,
    HEARTS_92_70,
    HEARTS_92_70_TURNED,
    HEARTS_BELOTE_28,
    NT_80_50,
    NT_ALL_TO_PARTNER,
    NT_ALL_TO_SECOND,
    bids_for,
    scripted_deal,
)

BG = Ruleset.bulgarian()
FR = Ruleset.french()
DEFAULT = HouseRules()
HEARTS = Contract.HEARTS
SPADES = Contract.SPADES
CLUBS = Contract.CLUBS
NT = Contract.NO_TRUMPS
AT = Contract.ALL_TRUMPS


def _finished(state: DealState) -> DealState:
    assert state.phase is Phase.FINISHED and state.result is not None
    return state


# ------------------------------------------------------------------ BG-25 worked examples


def test_bg25_suit_92_70_made_scores_9_7_in_a_played_deal() -> None:
    """BG-23, BG-25: suit 92:70, made → 9:7 (92 → 9, 70 → 7)."""
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70))
    assert deal.result is not None
    assert list(deal.result.totals) == [92, 70]
    assert deal.result.contracting_team == 0
    assert list(deal.result.mp) == [9, 7]
    assert deal.result.hanging_out == 0


def test_bg25_suit_contracting_team_on_70_is_inside_dash_16() -> None:
    """BG-23, BG-25: the same deal bid by the team that makes 70: inside, a dash for it and
    92 + 70 = 162 → 16 for the other team."""
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 1, "hearts"), HEARTS_92_70))
    assert deal.result is not None
    assert list(deal.result.totals) == [92, 70]
    assert deal.result.contracting_team == 1
    assert list(deal.result.mp) == [16, None]


def test_bg25_suit_92_70_table_function() -> None:
    """BG-25 as a table: 92:70 made → 9:7; contracting team on 70 → dash and 16."""
    assert bulgarian_points(HEARTS, 0, (92, 70), 1, None, DEFAULT).mp == (9, 7)
    assert bulgarian_points(HEARTS, 0, (70, 92), 1, None, DEFAULT).mp == (None, 16)


def test_bg21_bg25_no_trumps_80_50_doubles_to_160_100_scores_16_10() -> None:
    """BG-21: No Trumps card points and last trick doubled: 80:50 → 160:100 → 16:10."""
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 0, "no_trumps"), NT_80_50))
    assert deal.result is not None
    teams = deal.result.breakdown["teams"]
    assert [t["card_points"] + t["last_trick"] for t in teams] == [80, 50]
    assert list(deal.result.totals) == [160, 100]
    assert list(deal.result.mp) == [16, 10]


def test_bg25_suit_35_rounds_to_3() -> None:
    """BG-25: suit, remainder 5 rounds down: 35 → 3 (and 127 → 13)."""
    assert bulgarian_points(SPADES, 1, (35, 127), 1, None, DEFAULT).mp == (3, 13)


def test_bg25_suit_125_rounds_to_12() -> None:
    """BG-25: suit, remainder 5 rounds down: 125 → 12 (and 37 → 4)."""
    assert bulgarian_points(CLUBS, 0, (125, 37), 1, None, DEFAULT).mp == (12, 4)


def test_bg25_all_trumps_125_rounds_to_13() -> None:
    """BG-25: All Trumps, remainder 5 rounds up: 125 → 13 (and 133 → 13)."""
    assert bulgarian_points(AT, 1, (125, 133), 1, None, DEFAULT).mp == (13, 13)


def test_bg25_no_trumps_54_before_doubling_scores_11() -> None:
    """BG-25: No Trumps 54 → doubled 108 → 11 (the other team 76 → 152 → 15)."""
    assert bulgarian_points(NT, 1, (108, 152), 1, None, DEFAULT).mp == (11, 15)


def test_bg25_all_trumps_154_144_both_end_in_4_scores_15_15() -> None:
    """BG-25: All Trumps, both totals end in 4: the smaller rounds up, the larger down."""
    assert bulgarian_points(AT, 0, (154, 144), 1, None, DEFAULT).mp == (15, 15)
    assert bulgarian_points(AT, 1, (144, 154), 1, None, DEFAULT).mp == (15, 15)


def test_bg25_suit_both_end_in_6_smaller_down_either_order() -> None:
    """BG-25: suit, both totals end in 6: the smaller rounds down, the larger up (default),
    whichever team holds the larger one; `smaller_up` does the opposite."""
    assert bulgarian_points(HEARTS, 0, (86, 76), 1, None, DEFAULT).mp == (9, 7)
    assert bulgarian_points(HEARTS, 1, (76, 86), 1, None, DEFAULT).mp == (7, 9)
    up = HouseRules(suit_tie_rounding="smaller_up")
    assert bulgarian_points(HEARTS, 0, (86, 76), 1, None, up).mp == (8, 8)
    assert bulgarian_points(HEARTS, 1, (76, 86), 1, None, up).mp == (8, 8)


def test_bg25_equal_totals_in_a_played_deal_81_81() -> None:
    """BG-23, BG-25: 81:81 in a suit: the other team scores 8, the contracting team's 8 hang."""
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_81_81))
    assert deal.result is not None
    assert list(deal.result.totals) == [81, 81]
    assert list(deal.result.mp) == [None, 8]
    assert deal.result.hanging_out == 8


def test_bg22_valat_bonus_added_after_rounding_and_never_multiplied() -> None:
    """BG-22, BG-24: a valat in No Trumps with re-contra: 260 → 26, ×4 = 104, + 9 = 113."""
    bids = bids_for(3, 0, "no_trumps", ["contra", "recontra"])
    deal = _finished(scripted_deal(BG, 3, bids, NT_ALL_TO_PARTNER))
    assert deal.result is not None
    assert deal.result.valat_team == 0
    assert deal.result.multiplier == 4
    assert list(deal.result.totals) == [260, 0]
    assert list(deal.result.mp) == [113, None]


# -------------------------------------------------------------------- BG-26 hanging points


def test_bg26_hanging_points_go_to_the_winner_of_the_next_deal() -> None:
    """BG-26: 8 hang after 81:81; the next deal is made by team 1 (92:70 → 9:7 seen from the
    other side) and team 1 collects 9 + 8 = 17."""
    match = new_match(BG, first_dealer=3)
    first = _finished(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_81_81))
    match = record_deal(match, first)
    assert match.hanging == 8
    assert match.scores == (0, 8)  # team 1 scored 8, team 0 a dash
    second = scripted_deal(BG, 0, bids_for(0, 1, "hearts"), HEARTS_92_70, hanging_in=8)
    second = _finished(second)
    assert second.result is not None
    assert list(second.result.totals) == [70, 92]
    assert list(second.result.mp) == [7, 17]
    match = record_deal(match, second)
    assert match.hanging == 0
    assert match.scores == (7, 25)


def test_bg26_hanging_points_go_to_the_other_team_when_the_contract_is_inside() -> None:
    """BG-26: the team that wins the next deal is the other team if the contracting team is
    inside: it scores both totals (162 → 16) plus the 8 hanging."""
    second = scripted_deal(BG, 0, bids_for(0, 0, "hearts"), HEARTS_92_70, hanging_in=8)
    second = _finished(second)
    assert second.result is not None
    assert second.result.contracting_team == 0
    assert list(second.result.totals) == [70, 92]
    assert list(second.result.mp) == [None, 24]
    assert second.result.hanging_out == 0


def test_bg26_hanging_points_accumulate_over_ties() -> None:
    """BG-26: a second tie adds its own hanging share to the first (8 + 8 = 16); the next
    winner collects all of it (9 + 16 = 25)."""
    match = new_match(BG, first_dealer=3)
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_81_81))
    match = record_deal(match, deal)
    deal = scripted_deal(BG, 0, bids_for(0, 1, "hearts"), HEARTS_81_81, hanging_in=8)
    deal = _finished(deal)
    assert deal.result is not None
    assert list(deal.result.mp) == [8, None]
    assert deal.result.hanging_out == 16
    match = record_deal(match, deal)
    assert match.hanging == 16
    deal = scripted_deal(BG, 1, bids_for(1, 2, "hearts"), HEARTS_92_70, hanging_in=16)
    deal = _finished(deal)
    assert deal.result is not None
    assert list(deal.result.mp) == [25, 7]
    match = record_deal(match, deal)
    assert match.scores == (8 + 25, 8 + 7)
    assert match.hanging == 0


# ------------------------------------------------------------------------- BG-27 match end


def test_bg27_a_valat_deal_is_never_the_last() -> None:
    """BG-27: team 0 passes 151 with a valat (113 + 61 = 174): the match goes on; the next
    deal, without valat, ends it with team 0 ahead."""
    match = new_match(BG, first_dealer=3)
    assert match.target == 151
    bids = bids_for(3, 0, "no_trumps", ["contra", "recontra"])
    deal = _finished(scripted_deal(BG, 3, bids, NT_ALL_TO_PARTNER))
    match = record_deal(match, deal)
    assert match.scores == (113, 0)
    assert not match.finished
    # dealer 0: seat 2 bids, is doubled by seat 3, and takes every trick (team 0 again)
    bids = ["pass", "no_trumps", "contra", "pass", "pass", "pass"]
    deal = _finished(scripted_deal(BG, 0, bids, NT_ALL_TO_SECOND))
    assert deal.result is not None
    assert deal.result.valat_team == 0
    assert list(deal.result.mp) == [26 * 2 + 9, None]
    match = record_deal(match, deal)
    assert match.scores == (174, 0)
    assert not match.finished, "a deal with a valat is never the last (BG-27)"
    assert match.winner is None
    deal = _finished(scripted_deal(BG, 1, bids_for(1, 2, "no_trumps"), NT_80_50))
    assert deal.result is not None and deal.result.valat_team is None
    match = record_deal(match, deal)
    assert match.finished
    assert match.winner == 0


def test_bg27_a_void_deal_does_not_count_as_the_deal_owed_after_a_valat() -> None:
    """BG-27 with BG-7: after the valat that takes team 0 past 151, the next deal is all passes;
    nothing was scored, so the match still waits for a deal that is played out."""
    match = new_match(BG, first_dealer=3)
    bids = bids_for(3, 0, "no_trumps", ["contra", "recontra"])
    match = record_deal(match, _finished(scripted_deal(BG, 3, bids, NT_ALL_TO_PARTNER)))
    bids = ["pass", "no_trumps", "contra", "pass", "pass", "pass"]
    match = record_deal(match, _finished(scripted_deal(BG, 0, bids, NT_ALL_TO_SECOND)))
    assert match.scores == (174, 0) and not match.finished
    void = match.start_deal(full_deck(BG))
    for seat in (2, 3, 0, 1):
        void = apply(void, Bid(seat, Call.PASS))
    assert void.result is not None and void.result.void
    match = record_deal(match, void)
    assert not match.finished, "an all-pass deal is not the deal owed after a valat"
    assert match.next_dealer == 2
    deal = _finished(scripted_deal(BG, 2, bids_for(2, 3, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.finished


def test_bg27_match_ends_at_151_when_scores_differ() -> None:
    """BG-27: the first deal that leaves a team on 151 or more, scores differing and no
    valat, ends the match; the higher score wins."""
    match = new_match(BG, first_dealer=3)
    deal = _finished(
        scripted_deal(BG, 3, bids_for(3, 0, "no_trumps", ["contra", "recontra"]), NT_80_50)
    )
    assert deal.result is not None
    # 80:50 doubled 160:100, made with re-contra: (16 + 10)... the sum 260 → 26 × 4 = 104
    assert list(deal.result.mp) == [104, None]
    match = record_deal(match, deal)
    assert not match.finished
    deal = _finished(
        scripted_deal(BG, 0, bids_for(0, 2, "no_trumps", ["contra", "recontra"]), NT_80_50)
    )
    assert deal.result is not None
    # dealer 0: the leading team is team 1 (80 → 160), team 0 bid and is inside: 26 × 4 = 104
    # for team 1.
    assert list(deal.result.mp) == [None, 104]
    match = record_deal(match, deal)
    assert match.scores == (104, 104)
    assert not match.finished
    deal = _finished(scripted_deal(BG, 1, bids_for(1, 2, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.scores == (104 + 16, 104 + 10)
    assert not match.finished
    deal = _finished(scripted_deal(BG, 2, bids_for(2, 3, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.scores == (104 + 16 + 10, 104 + 10 + 16)
    assert not match.finished
    deal = _finished(scripted_deal(BG, 3, bids_for(3, 0, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.scores == (146, 140)
    assert not match.finished
    deal = _finished(scripted_deal(BG, 0, bids_for(0, 1, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.scores == (156, 156)
    assert not match.finished, "both over 151 but equal: the match goes on"
    deal = _finished(scripted_deal(BG, 1, bids_for(1, 2, "no_trumps"), NT_80_50))
    match = record_deal(match, deal)
    assert match.scores == (172, 166)
    assert match.finished
    assert match.winner == 0


# ----------------------------------------------------------------------- French FR-9..FR-13


def test_fr10_made_each_team_scores_its_own_total() -> None:
    """FR-10: 92 against 70, the takers made: 92 and 70 points, no rounding (FR-13)."""
    deal = scripted_deal(FR, 3, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
    deal = _finished(deal)
    assert deal.result is not None
    assert deal.result.contracting_team == 0
    assert list(deal.result.totals) == [92, 70]
    assert list(deal.result.mp) == [92, 70]


def test_fr11_dedans_defenders_score_162_takers_keep_their_belote() -> None:
    """FR-7, FR-11: the takers (seat 1) hold belote-rebelote and fall: 28 + 20 = 48 against
    134; they keep their 20, the defenders score 162."""
    extras = {"KH": {"belote": True}, "QH": {"rebelote": True}}
    deal = scripted_deal(FR, 3, ["pass", "take"], HEARTS_BELOTE_28, turned="QH", extras=extras)
    deal = _finished(deal)
    assert deal.result is not None
    assert deal.result.contracting_team == 1
    assert list(deal.result.totals) == [134, 48]
    assert list(deal.result.mp) == [162, 20]


def test_fr12_litige_defenders_score_now_takers_total_is_held() -> None:
    """FR-12: 81:81: the defenders score 81 now, the takers' 81 are held."""
    deal = scripted_deal(FR, 3, ["take"], HEARTS_81_81, turned=HEARTS_81_81_TURNED)
    deal = _finished(deal)
    assert deal.result is not None
    assert list(deal.result.totals) == [81, 81]
    assert (deal.result.mp[0] or 0) == 0
    assert deal.result.mp[1] == 81
    assert deal.result.hanging_out == 81


def test_fr12_litige_held_points_go_to_the_next_winner_takers_made() -> None:
    """FR-12: the held 81 go to the team that wins the next deal: here its takers (team 1,
    92:70 made) score 92 + 81."""
    match = new_match(FR, first_dealer=3)
    deal = _finished(scripted_deal(FR, 3, ["take"], HEARTS_81_81, turned=HEARTS_81_81_TURNED))
    match = record_deal(match, deal)
    assert match.hanging == 81
    deal = scripted_deal(FR, 0, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED, hanging_in=81)
    deal = _finished(deal)
    assert deal.result is not None
    assert deal.result.contracting_team == 1
    assert list(deal.result.mp) == [70, 92 + 81]
    match = record_deal(match, deal)
    assert match.scores == (70, 81 + 92 + 81)
    assert match.hanging == 0


def test_fr12_litige_held_points_go_to_the_defenders_when_the_next_deal_fails() -> None:
    """FR-12: if the next deal's takers fall, its defenders win it and take the held points:
    162 + 81 (the takers keep their belote, 20)."""
    extras = {"KH": {"belote": True}, "QH": {"rebelote": True}}
    deal = scripted_deal(
        FR, 0, ["pass", "take"], HEARTS_BELOTE_28, turned="QH", extras=extras, hanging_in=81
    )
    deal = _finished(deal)
    assert deal.result is not None
    assert deal.result.contracting_team == 0  # dealer 0: seat 2 took
    assert list(deal.result.mp) == [20, 162 + 81]
    assert deal.result.hanging_out == 0


def test_fr9_capot_counts_252() -> None:
    """FR-9: the takers take all eight tricks: 252 instead of 162."""
    deal = _finished(scripted_deal(FR, 3, ["take"], ALL_TO_LEADER_TRUMP_FIRST, turned="JH"))
    assert deal.result is not None
    assert deal.result.valat_team == 0
    assert list(deal.result.totals) == [252, 0]
    assert list(deal.result.mp) == [252, 0]


def test_fr9_fr11_capot_against_the_takers_gives_the_defenders_252() -> None:
    """FR-9, FR-11: the defenders take every trick: they score 252, the takers nothing.
    Seat 1 names hearts in the second round (FR-3) and gets the turned TC (FR-4)."""
    deal = scripted_deal(
        FR,
        3,
        ["pass", "pass", "pass", "pass", "pass", "hearts"],
        ALL_TO_LEADER_TRUMP_FIRST,
        turned="TC",
    )
    deal = _finished(deal)
    assert deal.result is not None
    assert deal.result.contracting_team == 1
    assert deal.result.mp[0] == 252
    assert (deal.result.mp[1] or 0) == 0


def test_fr13_round_to_tens_85_up_84_down() -> None:
    """FR-13 house rule `round_to_tens`: each team's score to the nearest ten, 5 up."""
    house = HouseRules(round_to_tens=True)
    assert french_points(0, (85, 77), (0, 0), (0, 0), None, house).mp == (90, 80)
    assert french_points(0, (84, 78), (0, 0), (0, 0), None, house).mp == (80, 80)
    assert french_points(0, (85, 77), (0, 0), (0, 0), None, DEFAULT).mp == (85, 77)


def test_fr13_round_to_tens_in_a_played_deal() -> None:
    """FR-13: 92:70 with `round_to_tens` → 90:70."""
    rules = FR.with_house_rules(round_to_tens=True)
    deal = _finished(scripted_deal(rules, 3, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED))
    assert deal.result is not None
    assert list(deal.result.mp) == [90, 70]


def test_fr13_match_ends_at_the_target_and_an_equal_score_plays_one_more_deal() -> None:
    """FR-13: 162:162 after two deals with a 150 target: equal, one more deal; 254:232 ends
    it and the higher score wins."""
    match = new_match(FR, first_dealer=3, target=150)
    for dealer in (3, 0):
        deal = scripted_deal(FR, dealer, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
        match = record_deal(match, _finished(deal))
    assert match.scores == (162, 162)
    assert not match.finished
    assert match.winner is None
    deal = scripted_deal(FR, 1, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
    match = record_deal(match, _finished(deal))
    assert match.scores == (254, 232)
    assert match.finished
    assert match.winner == 0


def test_fr13_default_target_is_1000() -> None:
    """FR-13: the match target defaults to 1000; a deal below it does not end the match."""
    match = new_match(FR, first_dealer=3)
    assert match.target == 1000
    deal = scripted_deal(FR, 3, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
    match = record_deal(match, _finished(deal))
    assert not match.finished
