"""`python -m app.rules.replay FILE [FILE ...]`: replay deal or match records (RECORDS.md).

Prints one JSON object per file, in the order given, each with a `file` key: the deal's result,
or a match's deal results and scoresheet, or an `error` naming the action index and the rule.
Exits 1 if any file failed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .records import MATCH_FORMAT, ReplayError, replay_deal, replay_match, scoresheet


def replay_document(document: Any) -> dict[str, Any]:
    """The replay output for one parsed record (raises ReplayError)."""
    if isinstance(document, dict) and document.get("format") == MATCH_FORMAT:
        match, deals = replay_match(document)
        return {
            "format": MATCH_FORMAT,
            "deals": [d.result.to_dict() for d in deals if d.result is not None],
            "scoresheet": scoresheet(match),
        }
    state = replay_deal(document)
    if state.result is None:
        raise ReplayError(
            "the record ends before the deal does", "record", len(state.actions), state.turn
        )
    return state.result.to_dict()


def replay_file(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as exc:
        return {"file": path, "error": ReplayError(f"cannot read: {exc}", "record").to_dict()}
    except RecursionError:  # a document nested deeper than the parser goes: not a record
        error = ReplayError("cannot read: the JSON is nested too deeply", "record")
        return {"file": path, "error": error.to_dict()}
    try:
        return {"file": path, **replay_document(document)}
    except ReplayError as exc:
        return {"file": path, "error": exc.to_dict()}


def main(argv: list[str] | None = None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m app.rules.replay FILE [FILE ...]", file=sys.stderr)
        return 2
    status = 0
    for path in paths:
        line = replay_file(path)
        if "error" in line:
            status = 1
        print(json.dumps(line, ensure_ascii=False))
    return status


if __name__ == "__main__":
    sys.exit(main())
