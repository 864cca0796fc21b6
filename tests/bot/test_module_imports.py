"""Modules import each other at their top, where the import contracts see every arrow.

An import inside a function runs late enough to slip past an import cycle, which hides the cycle from the
contracts (and from readers). Only the command line's entry point imports late, so that each command loads
just what it runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = frozenset({"rules", "storage", "render", "bot", "cogs", "web", "loopback"})
CHECKED = ("bot", "cogs", "web")
LATE_ON_PURPOSE = frozenset({"bot/__main__.py"})


def modules() -> list[Path]:
    """Return every Python module of the packages checked, but those that import late on purpose."""
    return sorted(p for package in CHECKED for p in (ROOT / package).rglob("*.py")
                  if p.relative_to(ROOT).as_posix() not in LATE_ON_PURPOSE)


def late_imports(source: str) -> list[tuple[int, str]]:
    """Return the line and module of every import of one of our packages made inside a function."""
    found: set[tuple[int, str]] = set()
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found |= {(node.lineno, name) for name in names if name.split(".")[0] in OURS}
    return sorted(found)


def test_the_modules_are_found() -> None:
    # A wrong root would make the next test pass over nothing.
    names = {p.relative_to(ROOT).as_posix() for p in modules()}
    assert {"bot/service/core.py", "cogs/common/transformers.py", "bot/webfront.py"} <= names


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_imports_ours_inside_a_function(path: Path) -> None:
    late = late_imports(path.read_text(encoding="utf-8"))
    assert not late, f"{path.relative_to(ROOT)} imports inside a function: {late}; import at the top"


def test_the_check_sees_a_late_import() -> None:
    source = ("import asyncio\n"
              "def f():\n"
              "    from bot.app import open_services\n"
              "    import aiohttp\n"
              "    async def g():\n"
              "        import cogs.common\n")
    assert late_imports(source) == [(3, "bot.app"), (6, "cogs.common")]
