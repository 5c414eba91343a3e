"""The engine is pure (DESIGN.md): no I/O, no clock, no randomness, no async.

`app/rules/replay.py` is the one exception: it is the command-line shell (`python -m
app.rules.replay`) around the pure `records` module, so it may read files and print.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"
CLI = RULES / "replay.py"
FORBIDDEN_MODULES = {
    "asyncio",
    "datetime",
    "http",
    "io",
    "logging",
    "os",
    "pathlib",
    "random",
    "secrets",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "tempfile",
    "threading",
    "time",
    "urllib",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "breakpoint"}
ENGINE_FILES = sorted(p for p in RULES.glob("*.py") if p != CLI)


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def _called(tree: ast.AST) -> set[str]:
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    assert _imported(tree) & FORBIDDEN_MODULES == set()
    assert _called(tree) & FORBIDDEN_CALLS == set()


def test_the_checker_would_catch_io() -> None:
    """Guard against a checker that passes because it reads nothing."""
    tree = ast.parse("import os\nfrom time import monotonic\nprint(open('x').read())")
    assert _imported(tree) & FORBIDDEN_MODULES == {"os", "time"}
    assert _called(tree) & FORBIDDEN_CALLS == {"open", "print"}
    assert len(ENGINE_FILES) >= 10


def test_the_exempt_cli_is_the_one_that_reads_files() -> None:
    """If the CLI stopped doing I/O, its exemption should go too."""
    tree = ast.parse(CLI.read_text(encoding="utf-8"))
    assert "open" in _called(tree)
