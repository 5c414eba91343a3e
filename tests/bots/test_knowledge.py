"""Deductions from the play, on hand-made positions (the soft evidence: test_inference.py)."""

from __future__ import annotations

from app.bots.cards import SUIT_MASK, TABLES, mask_of
from app.bots.knowledge import PastPlay, forbidden_masks
from app.rules import Card, Contract, Ruleset

HEARTS = int(Contract.HEARTS)
STRICT = Ruleset.bulgarian()
LENIENT = Ruleset.bulgarian(must_undertrump=False)
SPADES, HEARTS_SUIT = 3, 2


def c(text: str) -> int:
    return int(Card.parse(text))


def test_a_discard_against_an_opponent_shows_no_trumps_and_no_suit_led() -> None:
    """FR-6 / BG-9: seat 1 neither follows the spade nor trumps the opponent's ace."""
    plays = [PastPlay(0, c("AS"), (), 0), PastPlay(1, c("7C"), (c("AS"),), 0)]
    forbidden = forbidden_masks(plays, HEARTS, STRICT, None)
    assert forbidden[1] == SUIT_MASK[SPADES] | SUIT_MASK[HEARTS_SUIT]
    assert forbidden[0] == 0


def test_a_discard_on_partners_trick_shows_only_the_void() -> None:
    plays = [
        PastPlay(0, c("AS"), (), 0),
        PastPlay(1, c("7S"), (c("AS"),), 0),
        PastPlay(2, c("7C"), (c("AS"), c("7S")), 0),
    ]
    assert forbidden_masks(plays, HEARTS, STRICT, None)[2] == SUIT_MASK[SPADES]


def test_not_beating_a_trump_lead_shows_no_higher_trump() -> None:
    """BG-8: trump led, seat 1 plays a lower trump, so it holds none above the led nine."""
    plays = [PastPlay(0, c("9H"), (), 0), PastPlay(1, c("8H"), (c("9H"),), 0)]
    assert forbidden_masks(plays, HEARTS, STRICT, None)[1] == mask_of([c("JH")])


def test_an_undertrump_is_optional_under_the_house_rule() -> None:
    """BG-9 house rule off: a discard over an opponent's trump only shows no higher trump."""
    trick = (c("AS"), c("9H"))  # seat 1 trumped seat 0's ace
    plays = [PastPlay(0, trick[0], (), 0), PastPlay(1, trick[1], trick[:1], 0)]
    plays.append(PastPlay(2, c("7C"), trick, 0))
    strict = forbidden_masks(plays, HEARTS, STRICT, None)[2]
    lenient = forbidden_masks(plays, HEARTS, LENIENT, None)[2]
    assert strict == SUIT_MASK[SPADES] | SUIT_MASK[HEARTS_SUIT]
    assert lenient == SUIT_MASK[SPADES] | TABLES[HEARTS].beaters[c("9H")]
