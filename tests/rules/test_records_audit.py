"""Audit of the deal-record format and its replay against RECORDS.md (the fixed core).

Each test cites the RECORDS.md section it holds the code to. Malformed or hostile records must
give a clear error line (`rule` `record`), never a traceback, and never an output line that is
not JSON; records valid per RECORDS.md in forms our writer never produces must replay alike.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.rules import (
    CARDS,
    PRESETS,
    Bid,
    Call,
    DealState,
    Phase,
    Ruleset,
    apply,
    deal_record,
    legal_actions,
    match_record,
    new_deal,
    new_match,
    record_deal,
    replay_deal,
    replay_match,
)
from app.rules.records import ReplayError
from app.rules.replay import main, replay_document, replay_file
from app.rules.ruleset import HOUSE_RULES

# docs/records.md's complete Bulgarian example: seat 0 bids spades, seat 1 doubles; seat 3
# declares a tierce with its first card (action 8) and announces belote (action 9). 33 : 169,
# inside under contra → (33 + 169) / 10 → 20, × 2 = 40 (BG-24, BG-25).
DEAL: dict[str, Any] = {
    "format": "belote-deal/1",
    "rules": {"preset": "bulgarian", "house_rules": {}},
    "dealer": 3,
    "deck": [
        *("AH", "KH", "9C", "8D", "QD", "AC", "TD", "QH", "AS", "KD", "JS", "AD", "QC", "JD"),
        *("JH", "8C", "7H", "9D", "8H", "QS", "JC", "7C", "8S", "TC", "9H", "TS", "7S", "TH"),
        *("9S", "7D", "KC", "KS"),
    ],
    "hanging_in": 0,
    "actions": [
        {"seat": 0, "bid": "spades"},
        {"seat": 1, "bid": "contra"},
        {"seat": 2, "bid": "pass"},
        {"seat": 3, "bid": "pass"},
        {"seat": 0, "bid": "pass"},
        {"seat": 0, "play": "9C"},
        {"seat": 1, "play": "8C"},
        {"seat": 2, "play": "QH"},
        {"seat": 3, "play": "KC", "declare": [["KS", "QS", "JS"]]},
        {"seat": 3, "play": "QS", "belote": True},
        *(
            {"seat": seat, "play": card}
            for seat, card in (
                *((0, "8S"), (1, "TS"), (2, "9S"), (2, "7H"), (3, "8H"), (0, "KH"), (1, "JH")),
                *((0, "JC"), (1, "TC"), (2, "AS"), (3, "JS"), (3, "KD"), (0, "JD"), (1, "QD")),
                *((2, "9D"), (3, "AD"), (0, "QC"), (1, "8D"), (2, "TD"), (3, "KS"), (0, "7C")),
                *((1, "9H"), (2, "7S"), (3, "7D"), (0, "AH"), (1, "AC"), (2, "TH")),
            )
        ),
    ],
}


def deal() -> dict[str, Any]:
    return copy.deepcopy(DEAL)


def test_the_base_record_replays_as_documented() -> None:
    """Sanity check of the fixture the other tests mutate (RECORDS.md "Replaying")."""
    out = replay_document(deal())
    assert out["contract"] == "spades" and out["multiplier"] == 2
    assert out["totals"] == [33, 169]
    assert out["mp"] == [None, 40]


def strict_json(line: dict[str, Any]) -> dict[str, Any]:
    """Serialise as `main` does, then read back as strict JSON (no NaN / Infinity)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"not JSON: {name}")

    loaded: dict[str, Any] = json.loads(json.dumps(line), parse_constant=refuse)
    return loaded


def replay_error(document: Any) -> dict[str, Any]:
    with pytest.raises(ReplayError) as caught:
        replay_document(document)
    return caught.value.to_dict()


# ------------------------------------------------------------------------ hostile documents


def test_a_too_deeply_nested_file_is_an_error_line_and_the_next_file_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RECORDS.md "Replaying": a malformed record gives its error line (`rule` `record`), the
    other files are still replayed, and the exit status is 1 — never a traceback. JSON nested
    deeper than the parser's recursion limit raised RecursionError out of the command."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(deal()), encoding="utf-8")
    status = main([str(deep), str(good)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert [line["file"] for line in lines] == [str(deep), str(good)]
    assert lines[0]["error"]["rule"] == "record"
    assert lines[1]["mp"] == [None, 40]


@pytest.mark.parametrize(
    "seat_json", ["NaN", "Infinity", "[1, 2]", "true", '{"a": 1}', '"0"', "0.0"]
)
def test_an_action_with_a_malformed_seat_gives_a_json_error_line_with_seat_null(
    tmp_path: Path, seat_json: str
) -> None:
    """RECORDS.md "Replaying": the command prints one JSON object per line, and an error names
    `"seat": s`, the seat of the action. A malformed seat was echoed raw: `NaN` (which Python's
    reader accepts) made the line invalid JSON, a list or object was copied into `seat`."""
    text = json.dumps(deal()).replace('{"seat": 2, "play": "QH"}', '{"seat": §, "play": "QH"}')
    path = tmp_path / "bad-seat.json"
    path.write_text(text.replace("§", seat_json), encoding="utf-8")
    line = strict_json(replay_file(str(path)))
    assert line["error"]["index"] == 7
    assert line["error"]["rule"] == "record"
    assert line["error"]["seat"] is None


def test_an_illegal_action_still_names_its_seat() -> None:
    """The fix above keeps a well-formed seat in the error (RECORDS.md "Replaying")."""
    record = deal()
    record["actions"][6] = {"seat": 1, "play": "TS"}  # 8C led: seat 1 holds 8C, must follow
    error = replay_error(record)
    assert (error["index"], error["seat"]) == (6, 1)
    assert error["rule"] != "record"


# --------------------------------------------------------------------------------- rules


@pytest.mark.parametrize("house_rules", [[], 0, False, "", [["kirtik", True]]])
def test_house_rules_of_the_wrong_type_are_a_malformed_record(house_rules: Any) -> None:
    """RECORDS.md: `rules` is `{"preset": …, "house_rules": {}}`, `house_rules` the named options
    of RULES.md (an object), absent = default. A list, 0, false or "" was read as "every
    default" and the record replayed as if it were well formed."""
    record = deal()
    record["rules"]["house_rules"] = house_rules
    error = replay_error(record)
    assert error["rule"] == "record"
    assert "house_rules" in error["message"]


def test_absent_house_rules_mean_every_default() -> None:
    """RECORDS.md: `house_rules` absent = default (another tool may omit it)."""
    record = deal()
    del record["rules"]["house_rules"]
    assert replay_document(record) == replay_document(deal())


# ----------------------------------------------------------------------- card notation (C-2)


def test_a_deck_in_lower_case_is_a_malformed_record() -> None:
    """RECORDS.md `deck` / RULES.md C-2: cards are rank `7 8 9 T J Q K A` + suit `C D H S`.
    `ah` is not that notation (bids are case-sensitive: `Spades` is refused), yet a lower-case
    deck replayed as if it were upper case."""
    record = deal()
    record["deck"] = [card.lower() for card in record["deck"]]
    error = replay_error(record)
    assert error["rule"] == "record"
    assert error["index"] is None


@pytest.mark.parametrize("card", ["9c", "9C ", "c9", "10C"])
def test_a_played_card_not_in_c2_notation_is_malformed(card: str) -> None:
    """RECORDS.md "Plays": `play` is the card (C-2). Action 5 is seat 0's 9C."""
    record = deal()
    record["actions"][5]["play"] = card
    error = replay_error(record)
    assert (error["index"], error["seat"], error["rule"]) == (5, 0, "record")


def test_a_declared_card_not_in_c2_notation_is_malformed() -> None:
    """RECORDS.md "Plays": `declare` lists the exact cards (C-2) of each declaration."""
    record = deal()
    record["actions"][8]["declare"] = [["ks", "qs", "js"]]
    error = replay_error(record)
    assert (error["index"], error["seat"], error["rule"]) == (8, 3, "record")


def test_the_declaration_may_be_written_in_any_card_order() -> None:
    """docs/records.md: the order of the lists and of the cards inside them does not matter."""
    record = deal()
    record["actions"][8]["declare"] = [["JS", "KS", "QS"]]
    assert replay_document(record) == replay_document(deal())


# ---------------------------------------------------------------------------- match records


def one_deal_match() -> dict[str, Any]:
    """The base deal as the only deal of a match dealt first by seat 3, target 20."""
    state = replay_deal(deal())
    match = record_deal(new_match(state.ruleset, 3, 20), state)
    return match_record(match, [state])


@pytest.mark.parametrize("first_dealer", [None, "3", [3], 3.0, True])
def test_a_match_record_with_a_malformed_first_dealer_is_an_error_not_a_crash(
    first_dealer: Any,
) -> None:
    """RECORDS.md "Match records": deal 1 is dealt by `first_dealer`, a seat. A null, a string
    or a list raised TypeError out of replay_match (a traceback from the command); 3.0 and true
    were taken for seats."""
    record = one_deal_match()
    assert replay_match(copy.deepcopy(record))[0].scores == (0, 40)
    record["first_dealer"] = first_dealer
    with pytest.raises(ReplayError) as caught:
        replay_match(record)
    assert caught.value.rule == "record"
    assert "first_dealer" in str(caught.value)


@pytest.mark.parametrize("target", [True, "20", 20.0])
def test_a_match_record_with_a_target_of_the_wrong_type_is_malformed(target: Any) -> None:
    """docs/records.md: `target` is the points to reach, a whole number; `true` was read as 1."""
    record = one_deal_match()
    record["target"] = target
    with pytest.raises(ReplayError) as caught:
        replay_match(record)
    assert caught.value.rule == "record"


def test_a_match_record_with_a_bad_first_dealer_gives_an_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RECORDS.md "Replaying": error line, other files replayed, exit status 1."""
    record = one_deal_match()
    record["first_dealer"] = None
    bad = tmp_path / "match.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(deal()), encoding="utf-8")
    status = main([str(bad), str(good)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0]["error"]["rule"] == "record"
    assert lines[1]["mp"] == [None, 40]


# ------------------------------------------------------------------------------ round trip


def _play(state: DealState, rng: random.Random) -> DealState:
    """Random legal actions, announcing whenever possible more often than not."""
    while state.phase is not Phase.FINISHED:
        actions = legal_actions(state)
        passes = [a for a in actions if isinstance(a, Bid) and a.call == Call.PASS]
        announcing = [a for a in actions if getattr(a, "declare", ()) or getattr(a, "belote", 0)]
        if passes and rng.random() < 0.3:
            action = passes[0]
        elif announcing and rng.random() < 0.7:
            action = rng.choice(announcing)
        else:
            action = rng.choice(actions)
        state = apply(state, action)
    return state


def _alternative_form(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same record as another tool might write it (RECORDS.md): every house rule spelt out
    at its value, `hanging_in` 0 omitted, declarations and their cards in another order, an
    explicit `belote: false`, no `rebelote` (optional), keys in another order."""
    alt: dict[str, Any] = json.loads(json.dumps(record))
    preset = alt["rules"]["preset"]
    spelt = {
        h.name: alt["rules"]["house_rules"].get(h.name, h.default)
        for h in HOUSE_RULES
        if preset in (*h.presets, *h.inert)
    }
    alt["rules"] = {"house_rules": dict(reversed(spelt.items())), "preset": preset}
    if alt["hanging_in"] == 0:
        del alt["hanging_in"]
    for action in alt["actions"]:
        if "play" in action:
            if "declare" in action:
                declare = [list(reversed(d)) for d in action["declare"]]
                rng.shuffle(declare)
                action["declare"] = declare
            action.setdefault("belote", False)
            action.pop("rebelote", None)
    return dict(reversed(alt.items()))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_deal_round_trips_through_its_record(preset: str) -> None:
    """RECORDS.md intro: records replay in the project and back. Every deal the engine plays,
    under random house rules, exports to a record that replays (through JSON) to the same
    result and the same record; written in another valid form, it replays to the same result."""
    rng = random.Random(f"records-audit-{preset}")
    options = [h for h in HOUSE_RULES if preset in (*h.presets, *h.inert)]
    for _ in range(60):
        house = {h.name: rng.choice(h.choices) for h in options if rng.random() < 0.4}
        ruleset = Ruleset.of(preset, **house)
        deck = [c for c in CARDS if c in ruleset.deck_cards]
        rng.shuffle(deck)
        dealer = rng.randrange(ruleset.seats)
        state = _play(new_deal(ruleset, dealer, deck, rng.choice([0, 7])), rng)
        assert state.result is not None
        record = json.loads(json.dumps(deal_record(state)))
        assert replay_document(record) == state.result.to_dict()
        assert deal_record(replay_deal(record)) == record
        assert replay_document(_alternative_form(record, rng)) == state.result.to_dict()
