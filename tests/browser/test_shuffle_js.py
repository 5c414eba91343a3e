"""The browser's shuffle check (static/js/shuffle.js) gives the Python verifier's verdict on the
same records — shuffled, gathered after played and after void deals, tampered — run in Node
(when installed) since it is the same ES module the History page loads."""

from __future__ import annotations

import copy
import json
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.rooms.shuffle import Contribution, verify_record
from tests.rooms.test_shuffle import TAMPERINGS, bots_match, honest_deal, void_then_gathered

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "shuffle.js"
CHECK = f"""
import {{ verifyMatch }} from {json.dumps(MODULE.as_uri())};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const record of JSON.parse(input)) out.push([...(await verifyMatch(record)).values()]);
console.log(JSON.stringify(out));
"""


def as_match(deal: dict[str, Any]) -> dict[str, Any]:
    return {"format": "belote-match/1", "rules": deal["rules"], "deals": [deal]}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
async def test_the_browser_and_python_verifiers_agree() -> None:
    honest = honest_deal([Contribution(0, secrets.token_hex(32)), Contribution(3, "cd" * 32)])
    tampered = []
    for tamper in TAMPERINGS.values():
        record = copy.deepcopy(honest)
        tamper(record)
        tampered.append(as_match(record))
    records = [
        await bots_match(),
        await bots_match(gather_not_shuffle=True),
        void_then_gathered(),
        as_match(honest),
        as_match({**honest, "commitment": None}),
        *tampered,
    ]
    python = [[v["verdict"] for v in verify_record(r)] for r in records]
    assert {"verified", "mismatch", "uncommitted"} == {v for r in python for v in r}
    node = subprocess.run(
        ["node", "--input-type=module", "-e", CHECK],
        input=json.dumps(records),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(node.stdout) == python
