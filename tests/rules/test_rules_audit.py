"""An audit of the engine against RULES.md, rule id by rule id: a test for each disagreement
found (it failed on the code as it was) and for rule ids that no other test cited.

Expected figures are worked out by hand from RULES.md in the docstrings and comments, never
taken from the engine.
"""

from __future__ import annotations

import random

import pytest

from app.rules import (
    Card,
    Contract,
    Phase,
    Play,
    Ruleset,
    apply,
    full_deck,
    legal_actions,
    new_deal,
    new_match,
)
from app.rules.declarations import Announced, classify, scoring
from app.rules.scoring import french_points, scoring_declarations, three_player_points

from .helpers import cards, play_randomly, scripted_deal
from .tables import bid, deck_for

HEARTS = Contract.HEARTS
FR_ANNOUNCES = Ruleset.french(announces=True)


def _announced(declared: list[tuple[int, list[str]]]) -> list[Announced]:
    """Declarations announced in this order (FR-8's "announced first")."""
    out = []
    for order, (seat, texts) in enumerate(declared):
        declaration = classify(cards(*texts))
        assert declaration is not None, texts
        out.append(Announced(seat, declaration, order))
    return out


def _points_by_side(
    ruleset: Ruleset,
    contract: Contract,
    declared: list[tuple[int, list[str]]],
    with_tricks: list[int],
) -> list[int]:
    points = [0] * len(ruleset.sides)
    for a in scoring(ruleset, contract, _announced(declared), with_tricks):
        points[ruleset.team_of(a.seat)] += a.declaration.points
    return points


# ------------------------------------------------------------ FR-8 + BG-13: the run of eight

CLUBS_8 = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
# The run of 8 written whole, or as its quinte to the ace plus the tierce below (BG-13): the
# engine accepts both (test_engine.py: test_bg13_run_of_8_whole_or_quinte_to_the_ace_plus_tierce).
RUN_8_FORMS = {"whole": [CLUBS_8], "quinte_plus_tierce": [CLUBS_8[:3], CLUBS_8[3:]]}

# French, hearts taken by seat 3 (the dealer) on the turned T♥; seat 0 holds the eight clubs,
# seat 3 the quinte T♥-A♥ in trumps. Every trick below is legal by FR-6 (checked by `apply`).
#   seat 0: clubs 7..A          seat 1: spades 7..A
#   seat 2: 7H 8H 9H AD TD KD QD JD     seat 3: TH JH QH KH AH 7D 8D 9D
FR_RUN_8_TRICKS = [
    ["AC", "7S", "JD", "TH"],  # seat 3 trumps and declares its quinte; seat 0 declares the run
    ["7D", "7C", "8S", "AD"],  # seat 2 wins with AD: team 0 has a trick (BG-20 via FR-8)
    ["TD", "8D", "8C", "9S"],
    ["KD", "9D", "9C", "TS"],
    ["QD", "JH", "TC", "JS"],
    ["AH", "JC", "QS", "9H"],  # seat 2 must beat A♥ and can, with 9♥
    ["7H", "QH", "QC", "KS"],
    ["KH", "KC", "AS", "8H"],
]


@pytest.mark.parametrize("form", list(RUN_8_FORMS))
def test_fr8_bg13_a_run_of_8_compares_as_its_quinte_in_a_played_deal(form: str) -> None:
    """FR-8 with BG-13 (runs of 6-8 as in BG-13: a run of 8 counts as a quinte plus a tierce).

    Seat 0's run of eight clubs is, for the comparison, a quinte to the ace in clubs; seat 3's
    quinte T♥-A♥ is a quinte to the ace in trumps. Equal value (100), equal length, equal top
    card: the one in trumps is best, so only team 1 scores its announces (100), team 0's 120
    do not score — however seat 0 wrote its run in the record.

    Team 1 (takers): T♥ 10 + J♥ 20 + K♥ 4 ... worked by trick: trick 1 AC 11 + JD 2 + TH 10 = 23,
    trick 5 QD 3 + JH 20 + TC 10 + JS 2 = 35, trick 7 7H 0 + QH 3 + QC 3 + KS 4 = 10,
    trick 8 KH 4 + KC 4 + AS 11 + 8H 0 = 19 and the last 10: 97 card points, + 100 = 197.
    Team 0: 162 - 97 = 65. Made (197 > 65): 65 and 197 (FR-10).

    Before the fix, the run written whole was valued at its 120 points, beat the trump quinte,
    and the takers fell (65 + 120 = 185 against 97): 282 to nothing."""
    extras = {
        "AC": {"declare": RUN_8_FORMS[form]},
        "TH": {"declare": [["TH", "JH", "QH", "KH", "AH"]]},
    }
    deal = scripted_deal(
        FR_ANNOUNCES, 3, ["pass", "pass", "pass", "take"], FR_RUN_8_TRICKS, turned="TH",
        extras=extras,
    )  # fmt: skip
    assert deal.phase is Phase.FINISHED and deal.result is not None
    scored = scoring_declarations(deal)
    assert {a.seat for a in scored} == {3}
    assert sum(a.declaration.points for a in scored) == 100
    assert list(deal.result.totals) == [65, 197]
    assert list(deal.result.mp) == [65, 197]


@pytest.mark.parametrize("form", list(RUN_8_FORMS))
def test_fr8_bg13_a_run_of_8_against_a_carre_of_100(form: str) -> None:
    """FR-8: at equal value a carré beats a sequence. The run of 8 counts as a quinte (100)
    plus a tierce (BG-13), so a carré of queens (100) is the best announce whichever way the
    run was written. (Table function: no deal can hold both, a carré needs a club.)"""
    run = [(0, cards_) for cards_ in RUN_8_FORMS[form]]
    queens = (1, ["QC", "QD", "QH", "QS"])
    assert _points_by_side(FR_ANNOUNCES, Contract.SPADES, [*run, queens], [0, 1]) == [0, 100]
    assert _points_by_side(FR_ANNOUNCES, Contract.SPADES, [queens, *run], [0, 1]) == [0, 100]


def test_fr8_bg13_a_run_of_8_still_beats_a_lower_quinte_and_scores_120() -> None:
    """FR-8 / BG-13: written whole or split, the run of 8 (a quinte to the ace) beats a quinte
    to the king and scores its 120."""
    for form in RUN_8_FORMS.values():
        declared = [*((0, c) for c in form), (1, ["KH", "QH", "JH", "TH", "9H"])]
        assert _points_by_side(FR_ANNOUNCES, Contract.SPADES, declared, [0, 1]) == [120, 0]


# ------------------------------------------------------------------ declarations, values


@pytest.mark.parametrize(
    ("rank", "points"),
    [("J", 200), ("9", 150), ("A", 100), ("K", 100), ("Q", 100), ("T", 100)],
)
def test_bg14_carre_values(rank: str, points: int) -> None:
    """BG-14: carré of J 200, 9 150, A / K / Q / 10 100, scored by a team alone."""
    carre = [rank + s for s in "CDHS"]
    rules = Ruleset.bulgarian()
    assert _points_by_side(rules, HEARTS, [(1, carre)], [0, 1]) == [0, points]


@pytest.mark.parametrize(
    ("texts", "points"),
    [
        (["9D", "TD", "JD"], 20),
        (["9D", "TD", "JD", "QD"], 50),
        (["9D", "TD", "JD", "QD", "KD"], 100),
        (["9D", "TD", "JD", "QD", "KD", "AD"], 100),
        (["8D", "9D", "TD", "JD", "QD", "KD", "AD"], 100),
        (CLUBS_8, 120),
    ],
)
def test_bg13_sequence_values(texts: list[str], points: int) -> None:
    """BG-13: tierce 20, quarte 50, quinte 100; runs of 6 and 7 a quinte; 8 a quinte + tierce."""
    assert _points_by_side(Ruleset.bulgarian(), HEARTS, [(0, texts)], [0, 1]) == [points, 0]


def test_bg17_the_team_with_the_best_sequence_scores_its_partners_too() -> None:
    """BG-17: team 0's quinte (seat 2) is best: seat 0's tierce scores with it (120); team 1's
    quarte scores nothing. BG-18: team 1's carré of aces still scores (a carré never cancels
    a sequence)."""
    declared = [
        (0, ["7S", "8S", "9S"]),
        (1, ["9D", "TD", "JD", "QD"]),
        (2, ["8C", "9C", "TC", "JC", "QC"]),
        (3, ["AC", "AD", "AH", "AS"]),
    ]
    assert _points_by_side(Ruleset.bulgarian(), HEARTS, declared, [0, 1]) == [120, 100]


# ------------------------------------------------------------------ the small tables


def test_bg3_11_bgn8_the_two_defenders_are_not_a_side_for_declarations() -> None:
    """BG3-11, BGN-8 (ruling R6): seat 1's quarte is the best sequence, so seat 1 alone scores
    sequences; the other defender's tierce does not score with it, nor the contractor's."""
    rules = Ruleset.of("bulgarian3")
    declared = [
        (0, ["AS", "KS", "QS"]),
        (1, ["9D", "TD", "JD", "QD"]),
        (2, ["9C", "TC", "JC"]),
    ]
    assert _points_by_side(rules, HEARTS, declared, [0, 1, 2]) == [0, 50, 0]


@pytest.mark.parametrize("preset", ["bulgarian2", "open_belot"])
def test_bg2_8_ob_14_declarations_between_the_two_players(preset: str) -> None:
    """BG2-8, OB-14: BG-17, BG-18 and BG-20 with player for team: the longer sequence wins and
    its holder scores all of his; equal bests cancel; carrés apart; a player without a trick
    is left out."""
    rules = Ruleset.of(preset)
    quarte = ["9D", "TD", "JD", "QD"]
    tierce = ["TC", "JC", "QC"]
    assert _points_by_side(
        rules, HEARTS, [(0, quarte), (0, tierce), (1, ["9S", "TS", "JS"])], [0, 1]
    ) == [70, 0]
    assert _points_by_side(rules, HEARTS, [(0, tierce), (1, ["TS", "JS", "QS"])], [0, 1]) == [0, 0]
    assert _points_by_side(
        rules, HEARTS, [(0, quarte), (1, ["9S", "TS", "JS"]), (1, ["AC", "AD", "AH", "AS"])], [0, 1]
    ) == [50, 100]
    assert _points_by_side(rules, HEARTS, [(0, quarte), (1, ["9S", "TS", "JS"])], [1]) == [0, 20]


def test_bg3_8_eight_tricks_of_three_cards() -> None:
    """BG3-8: eight tricks of three cards, each trick led by the winner of the one before."""
    rules = Ruleset.of("bulgarian3")
    played = 0
    for seed in range(8):
        deck = full_deck(rules)
        random.Random(seed).shuffle(deck)
        state = play_randomly(new_deal(rules, seed % 3, deck), random.Random(seed))
        if state.contract is None:
            continue
        played += 1
        assert len(state.tricks) == 8
        assert all(len(t.cards) == 3 for t in state.tricks)
        for before, after in zip(state.tricks, state.tricks[1:], strict=False):
            assert after.leader == before.winner
    assert played


@pytest.mark.parametrize("preset", ["bulgarian3", "bulgarian2", "open_belot"])
def test_bgn13_bg3_22_bg2_12_ob_18_default_target_151(preset: str) -> None:
    """BGN-13 (ruling R10), BG3-22, BG2-12, OB-18: the room setting `target` defaults to 151."""
    match = new_match(Ruleset.of(preset), 0)
    assert match.target == 151
    assert len(match.scores) == len(Ruleset.of(preset).sides)


def test_ob_17_valat_is_all_sixteen_tricks() -> None:
    """OB-17: the non-dealer (seat 0, dealer 1) holds every heart and every spade, hand and
    table, and plays hearts: every card he plays wins, so he takes all sixteen tricks:
    162 → 16 MP, + 9 for the valat (BG-22) = 25; the other player scores 0."""
    rules = Ruleset.of("open_belot")
    hearts = [r + "H" for r in "789TJQKA"]
    spades = [r + "S" for r in "789TJQKA"]
    clubs = [r + "C" for r in "789TJQKA"]
    diamonds = [r + "D" for r in "789TJQKA"]
    slots = {
        (0, "hand"): hearts[:5] + spades[:3],
        (1, "hand"): clubs[:5] + diamonds[:3],
    }
    for k in range(4):
        slots[0, f"down{k}"] = [hearts[5 + k] if k < 3 else spades[3]]
        slots[0, f"up{k}"] = [spades[4 + k]]
        slots[1, f"down{k}"] = [clubs[5 + k] if k < 3 else diamonds[3]]
        slots[1, f"up{k}"] = [diamonds[4 + k]]
    state = bid(new_deal(rules, 1, deck_for(rules, 1, slots)), "hearts", "pass")
    assert state.phase is Phase.PLAYING and state.contract is Contract.HEARTS
    while state.phase is Phase.PLAYING:
        plays = [a for a in legal_actions(state) if isinstance(a, Play)]
        state = apply(state, plays[0])
    result = state.result
    assert result is not None
    assert len(state.tricks) == 16 and all(t.winner == 0 for t in state.tricks)
    assert result.valat_team == 0
    assert list(result.totals) == [162, 0]
    assert list(result.mp) == [25, 0]


# ------------------------------------------------------------------ kirtik


KIRTIK3 = Ruleset.of("bulgarian3", kirtik=True).house_rules


@pytest.mark.parametrize(("multiplier", "whole"), [(2, 32), (4, 64)])
def test_kir2_a_doubled_three_player_deal_costs_both_losers_a_kirtik(
    multiplier: int, whole: int
) -> None:
    """KIR-2 with BG3-20: doubled, 70, 60, 32: seat 0 takes 162 → 16 × m; the two players who
    score nothing were committed and lost: −10 each (never multiplied, KIR-5)."""
    got = three_player_points(HEARTS, 0, (70, 60, 32), multiplier, None, KIRTIK3)
    assert got.mp == (whole, -10, -10)
    assert got.kirtik == (1, 2)


def test_kir2_kir6_a_doubled_deal_that_hangs_costs_nobody() -> None:
    """KIR-2, KIR-6: 65, 65, 32 doubled: the sum hangs, nobody scores and nobody loses 10."""
    got = three_player_points(HEARTS, 0, (65, 65, 32), 2, None, KIRTIK3)
    assert (got.mp, got.hanging_out, got.kirtik) == ((None, None, None), 32, ())


def test_kir4_one_kirtik_when_inside_and_valat() -> None:
    """KIR-4 (ruling R16): seat 0 contracts with belote (20) and seat 1 takes every trick:
    seat 0 is inside and valat, yet loses 10 once; seat 2, also without a trick, loses 10
    (KIR-3). Seat 1: 182 → 18 + 9 valat = 27."""
    got = three_player_points(HEARTS, 0, (20, 162, 0), 1, 1, KIRTIK3)
    assert got.mp == (-10, 27, -10)


# ------------------------------------------------------------------ French scoring


def test_fr11_dedans_the_defenders_take_every_scoring_announce() -> None:
    """FR-10, FR-11: the takers (team 0) hold the best announce, a quarte (50), and belote; the
    defenders hold belote too. With 60 card points the takers have 60 + 20 + 50 = 130 against
    102 + 20 = 122: made, each scores its own. With 40 they have 110 against 142: dedans — the
    takers keep only their belote (20), the defenders score 162 + the quarte 50 + their belote
    20 = 232."""
    house = FR_ANNOUNCES.house_rules
    made = french_points(0, (60, 102), (20, 20), (50, 0), None, house)
    assert made.mp == (130, 122)
    failed = french_points(0, (40, 122), (20, 20), (50, 0), None, house)
    assert failed.mp == (20, 232)
    assert failed.winner == 1


def test_fr9_capot_counts_252_plus_announces_and_belote() -> None:
    """FR-9: the takers (team 1) take all eight tricks: 252 + their quinte 100 + belote 20 =
    372, compared with the defenders' 0 + belote 20 (kept, FR-7): made, 20 and 372."""
    house = FR_ANNOUNCES.house_rules
    got = french_points(1, (0, 252), (20, 20), (0, 100), 1, house)
    assert got.mp == (20, 372)


def test_fr9_fr11_capot_against_the_takers_with_announces() -> None:
    """FR-9, FR-11: the defenders take every trick: they score 252 plus every scoring announce
    (here their own tierce, 20); the takers keep only their belote (20)."""
    house = FR_ANNOUNCES.house_rules
    got = french_points(0, (0, 252), (20, 0), (0, 20), 1, house)
    assert got.mp == (20, 272)


# ------------------------------------------------------------------ notation


def test_c2_card_notation() -> None:
    """C-2: rank 7 8 9 T J Q K A + suit C D H S; `TH` is the 10 of hearts."""
    ten_hearts = Card.parse("TH")
    assert (ten_hearts.rank, int(ten_hearts.suit)) == (3, 2)
    texts = [r + s for s in "CDHS" for r in "789TJQKA"]
    assert [str(Card.parse(t)) for t in texts] == texts
    assert len({Card.parse(t) for t in texts}) == 32
    for bad in ("10H", "1H", "TX", "ZC"):
        with pytest.raises(ValueError):
            Card.parse(bad)
