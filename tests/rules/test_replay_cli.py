"""`python -m app.rules.replay FILE [FILE ...]` as a user runs it (RECORDS.md "Replaying")."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.rules import Ruleset, deal_record, match_record, new_match, record_deal

from .helpers import HEARTS_92_70, HEARTS_92_70_TURNED, bids_for, scripted_deal, shuffled_deck

ROOT = Path(__file__).resolve().parents[2]
BG = Ruleset.bulgarian()
FR = Ruleset.french()
RESULT_KEYS = {
    "void",
    "contract",
    "contracting_team",
    "multiplier",
    "tricks",
    "totals",
    "valat_team",
    "mp",
    "hanging_out",
    "breakdown",
}


def replay(*paths: Path) -> tuple[int, list[dict[str, Any]]]:
    """Run the command; return its exit status and its output lines, parsed."""
    done = subprocess.run(
        [sys.executable, "-m", "app.rules.replay", *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.returncode, lines


def write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def good_record() -> dict[str, Any]:
    """HEARTS_92_70, bid by seat 0: made, 92:70 → 9:7 (BG-25)."""
    return deal_record(scripted_deal(BG, 3, bids_for(3, 0, "hearts"), HEARTS_92_70))


def test_a_good_deal_record_prints_one_line_with_the_result(tmp_path: Path) -> None:
    path = write(tmp_path / "good.json", good_record())
    status, lines = replay(path)
    assert status == 0
    assert len(lines) == 1
    line = lines[0]
    assert line["file"] == str(path)
    assert set(line) == RESULT_KEYS | {"file"}
    assert line["void"] is False
    assert line["contract"] == "hearts"
    assert line["contracting_team"] == 0
    assert line["multiplier"] == 1
    assert line["totals"] == [92, 70]
    assert line["mp"] == [9, 7]
    assert line["valat_team"] is None
    assert line["hanging_out"] == 0
    assert [t["cards"] for t in line["tricks"]] == HEARTS_92_70
    assert [t["leader"] for t in line["tricks"]] == [0, 1, 1, 1, 1, 2, 2, 2]
    assert [t["winner"] for t in line["tricks"]] == [1, 1, 1, 1, 2, 2, 2, 2]
    teams = line["breakdown"]["teams"]
    assert [t["card_points"] for t in teams] == [82, 70]
    assert [t["last_trick"] for t in teams] == [10, 0]


def test_errors_stop_only_their_own_file(tmp_path: Path) -> None:
    """An illegal action gives an error line naming index, seat and rule; a malformed record
    gives rule `record`; the other files are still replayed, in order; the status is 1."""
    good = write(tmp_path / "a-good.json", good_record())
    illegal_record = good_record()
    # action 5: seat 1 must follow the 7C led with a club (it holds KC): KS breaks BG-8
    assert illegal_record["actions"][5] == {"seat": 1, "play": "KC"}
    illegal_record["actions"][5] = {"seat": 1, "play": "KS"}
    illegal = write(tmp_path / "b-illegal.json", illegal_record)
    malformed = write(tmp_path / "c-malformed.json", dict(good_record(), deck=["JH"] * 32))
    not_json = tmp_path / "d-not-json.json"
    not_json.write_text("{not json", encoding="utf-8")
    missing = tmp_path / "e-missing.json"
    again = write(tmp_path / "f-good.json", good_record())
    status, lines = replay(good, illegal, malformed, not_json, missing, again)
    assert status == 1
    assert [line["file"] for line in lines] == [
        str(p) for p in (good, illegal, malformed, not_json, missing, again)
    ]
    assert lines[0]["mp"] == [9, 7] and lines[5]["mp"] == [9, 7]
    error = lines[1]["error"]
    assert set(error) >= {"index", "seat", "rule", "message"}
    assert (error["index"], error["seat"], error["rule"]) == (5, 1, "BG-8")
    assert error["message"]
    assert set(lines[1]) == {"file", "error"}
    for line in lines[2:5]:
        assert set(line) == {"file", "error"}
        assert line["error"]["rule"] == "record"


def test_a_bad_action_in_a_record_is_reported_with_its_index(tmp_path: Path) -> None:
    """A malformed action (an unknown card) stops the replay at that index, rule `record`."""
    record = good_record()
    record["actions"][9] = {"seat": record["actions"][9]["seat"], "play": "1H"}
    status, lines = replay(write(tmp_path / "bad.json", record))
    assert status == 1
    assert lines[0]["error"]["rule"] == "record"
    assert lines[0]["error"]["index"] == 9


def test_a_record_that_stops_before_the_end_is_an_error(tmp_path: Path) -> None:
    """RECORDS.md / docs: a record cut short is reported with rule `record`."""
    record = good_record()
    record["actions"] = record["actions"][:10]
    status, lines = replay(write(tmp_path / "short.json", record))
    assert status == 1
    assert lines[0]["error"]["rule"] == "record"
    assert lines[0]["error"]["index"] == 10


def test_a_void_deal(tmp_path: Path) -> None:
    """BG-7: four passes: `void` true, no tricks."""
    record = {
        "format": "belote-deal/1",
        "rules": {"preset": "bulgarian", "house_rules": {}},
        "dealer": 1,
        "deck": [str(c) for c in shuffled_deck(BG, 5)],
        "actions": [{"seat": s, "bid": "pass"} for s in (2, 3, 0, 1)],
    }
    status, lines = replay(write(tmp_path / "void.json", record))
    assert status == 0
    assert lines[0]["void"] is True
    assert lines[0]["tricks"] == []
    assert lines[0]["contract"] is None


def test_a_match_record_replays_to_its_scoresheet(tmp_path: Path) -> None:
    """A match record prints its scoresheet (FR-13: 162:162 goes on, 254:232 ends it)."""
    match = new_match(FR, first_dealer=3, target=150)
    deals = []
    for dealer in (3, 0, 1):
        deal = scripted_deal(FR, dealer, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
        deals.append(deal)
        match = record_deal(match, deal)
    path = write(tmp_path / "match.json", match_record(match, deals))
    status, lines = replay(path)
    assert status == 0
    line = lines[0]
    assert line["file"] == str(path)
    sheet = line["scoresheet"]
    assert sheet["scores"] == [254, 232]
    assert sheet["finished"] is True and sheet["winner"] == 0
    assert [entry["mp"] for entry in sheet["lines"]] == [[92, 70], [70, 92], [92, 70]]
    assert [entry["dealer"] for entry in sheet["lines"]] == [3, 0, 1]
    assert [d["mp"] for d in line["deals"]] == [[92, 70], [70, 92], [92, 70]]


def test_a_match_record_with_a_wrong_scoresheet_is_an_error(tmp_path: Path) -> None:
    match = new_match(FR, first_dealer=3, target=150)
    deal = scripted_deal(FR, 3, ["take"], HEARTS_92_70, turned=HEARTS_92_70_TURNED)
    match = record_deal(match, deal)
    record = match_record(match, [deal])
    record["scoresheet"]["scores"] = [70, 92]
    status, lines = replay(write(tmp_path / "forged.json", record))
    assert status == 1
    assert lines[0]["error"]["rule"] == "record"


def test_no_file_is_a_usage_error() -> None:
    status, lines = replay()
    assert status != 0
    assert lines == []


def _doc_examples() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """docs/records.md's complete examples: each record followed by its documented replay."""
    doc = ROOT / "docs" / "records.md"
    if not doc.exists():
        return []
    blocks = []
    for chunk in doc.read_text(encoding="utf-8").split("```json")[1:]:
        try:
            blocks.append(json.loads(chunk.split("```")[0]))
        except ValueError:
            continue  # an excerpt, not a whole document
    pairs = []
    for record, output in itertools.pairwise(blocks):
        if (
            isinstance(record, dict)
            and str(record.get("format", "")).startswith("belote-")
            and isinstance(output, dict)
            and "file" in output
        ):
            pairs.append((record, output))
    return pairs


def test_the_complete_examples_of_docs_records_md_replay_as_documented(tmp_path: Path) -> None:
    """docs/records.md shows complete records and their replay output: they must agree."""
    pairs = _doc_examples()
    if not pairs:
        pytest.skip("docs/records.md has no complete example with its replay")
    paths = [write(tmp_path / f"example{i}.json", r) for i, (r, _) in enumerate(pairs)]
    status, lines = replay(*paths)
    assert status == 0
    for line, (_, documented) in zip(lines, pairs, strict=True):
        line.pop("file")
        documented = dict(documented)
        documented.pop("file")
        assert line == documented


def test_docs_records_md_has_a_complete_example_for_every_preset() -> None:
    """RECORDS.md: deal and match records of every preset are documented with complete
    examples (each replayed by the test above)."""
    from app.rules import PRESETS

    pairs = _doc_examples()
    deals = {r["rules"]["preset"] for r, _ in pairs if r["format"] == "belote-deal/1"}
    matches = {r["rules"]["preset"] for r, _ in pairs if r["format"] == "belote-match/1"}
    assert deals | matches >= set(PRESETS)
    assert {"bulgarian3", "bulgarian2", "open_belot"} <= deals
    assert matches & {"bulgarian3", "bulgarian2", "open_belot"}


def test_docs_house_rules_md_lists_every_house_rule_with_its_presets() -> None:
    """docs/house-rules.md's table is the engine's HOUSE_RULES: names, presets, defaults."""
    from app.rules import HOUSE_RULES

    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip(" `"): line for line in text.splitlines() if line.startswith("| `")
    }
    assert set(rows) == {h.name for h in HOUSE_RULES}
    for rule in HOUSE_RULES:
        cells = [c.strip() for c in rows[rule.name].split("|")]
        assert cells[2] == ", ".join(rule.presets)
        assert cells[3] == (", ".join(rule.inert) or "–")
        assert rule.rule in cells
