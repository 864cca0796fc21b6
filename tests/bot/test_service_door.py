"""The table service is the only door: no front end reaches the storage behind it.

The import contracts keep `storage` out of cogs/ and web/, but the service's own `db` attribute would let a cog
read and write the database all the same. These tests read the source of every front end module and refuse any
use of that attribute (or of the turn clocks and locks, which are the database too), so storage work stays a
method of the service, where the rules of each job (who may, which lock, what is told) are kept.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.service import TableService

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = ("cogs", "web")
# Attributes of the service that hold storage: the database, the turn clocks that read and write it, and the
# locks it keeps there.
STORAGE_ATTRIBUTES = frozenset({"db", "turn_clocks", "locks", "board_locks"})


def front_end_modules() -> list[Path]:
    """Return every Python module of the front ends."""
    return sorted(p for package in FRONT_ENDS for p in (ROOT / package).rglob("*.py"))


def storage_reaches(source: str) -> list[tuple[int, str]]:
    """Return the line and text of every reach for a storage attribute in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in STORAGE_ATTRIBUTES:
            found.append((node.lineno, ast.unparse(node)))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"getattr", "setattr"}
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in STORAGE_ATTRIBUTES):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_front_ends_are_found() -> None:
    # A wrong root would make the next test pass over nothing.
    modules = front_end_modules()
    names = {p.relative_to(ROOT).as_posix() for p in modules}
    assert "cogs/turn/notifier.py" in names and "web/server.py" in names
    assert len(modules) > 50


@pytest.mark.parametrize("path", front_end_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_front_end_reaches_storage(path: Path) -> None:
    reaches = storage_reaches(path.read_text(encoding="utf-8"))
    where = "; ".join(f"line {line}: {text}" for line, text in reaches)
    assert not reaches, f"{path.relative_to(ROOT)} reaches storage past the table service ({where}); add a method to bot.service"


def test_the_check_sees_every_way_in() -> None:
    # The check itself must catch a direct read, one through an alias, and one by name.
    source = ("async def f(service, bot):\n"
              "    await service.db.players.get(1, 2)\n"
              "    db = bot.service.db\n"
              "    getattr(service, 'db')\n"
              "    await service.turn_clocks.replan(1)\n"
              "    await service.posting(1)\n")
    assert sorted(line for line, _ in storage_reaches(source)) == [2, 3, 4, 5]


def test_the_service_keeps_its_storage_under_those_names() -> None:
    # Were the service's database renamed, the check above would look for the wrong attribute.
    init = ast.parse((ROOT / "bot" / "service" / "core.py").read_text(encoding="utf-8"))
    assigned = {target.attr for node in ast.walk(init) if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Attribute)}
    assert STORAGE_ATTRIBUTES <= assigned
    assert TableService.__mro__[-2].__name__ == "ServiceCore"
