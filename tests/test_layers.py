"""Dependencies point one way (DESIGN.md): rules ← bots ← rooms ← {transport, api, db} ← main.

Checked on the source with ``ast``, so a forbidden import fails here even inside a function.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"
STDLIB = sys.stdlib_module_names


def imports_of(package: str) -> list[tuple[Path, str]]:
    """Every module imported by the files of ``app/<package>``, absolute, with the file."""
    found: list[tuple[Path, str]] = []
    for path in sorted((APP / package).rglob("*.py")):
        parts = ["app", *path.relative_to(APP).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.extend((path, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = parts[: len(parts) - node.level + (path.name == "__init__.py")]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                found.append((path, module))
    return found


def top(module: str) -> str:
    return module.split(".")[0]


def within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_rules_import_only_the_standard_library_and_themselves() -> None:
    bad = [
        (str(path), module)
        for path, module in imports_of("rules")
        if top(module) not in STDLIB and not within(module, "app.rules")
    ]
    assert bad == []


def test_bots_import_only_the_standard_library_rules_and_bots() -> None:
    bad = [
        (str(path), module)
        for path, module in imports_of("bots")
        if top(module) not in STDLIB and not within(module, "app.rules", "app.bots")
    ]
    assert bad == []


@pytest.mark.parametrize(
    "forbidden",
    ["app.transport", "app.api", "app.db", "app.main", "fastapi", "sqlalchemy", "starlette"],
)
def test_rooms_do_not_reach_outwards(forbidden: str) -> None:
    bad = [(str(path), module) for path, module in imports_of("rooms") if within(module, forbidden)]
    assert bad == []


def test_the_checker_sees_relative_and_absolute_imports() -> None:
    """Guard against a checker that passes because it reads nothing."""
    rooms = {module for _, module in imports_of("rooms")}
    assert "app.rules" in rooms
    assert any(within(module, "app.rules") for _, module in imports_of("rules"))
