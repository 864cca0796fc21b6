"""The limits the README and the docs state are the ones the code enforces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.archive import MAX_IMPORT_BYTES, MAX_ORDERS
from bot.clock import DAY, MAX_DEADLINE, MAX_REMINDERS
from bot.clockhours import MAX_VACATION_DAYS
from bot.service import MAX_UNDO
from cogs.common.attachments import MAX_FILE_BYTES
from rules.battle import MAX_SIDES, MAX_UNITS
from rules.coords import MAX_SIDE
from rules.dice import (
    MAX_DICE_PER_TERM,
    MAX_DICE_ROLLED,
    MAX_FACES,
    MAX_NOTATION_LENGTH,
    MAX_TERMS,
    parse_expression,
    split_notation,
)
from rules.filelimits import MAX_WHOLE
from rules.homebrew import MAX_BYTES as HOMEBREW_BYTES
from rules.homebrew import MAX_ROWS
from rules.scale import MAX_LONG_SIDE
from rules.statfile import MAX_FILE_UNITS
from rules.turnorders import MAX_STANDING_TEXT
from rules.units import NAME_MAX

ROOT = Path(__file__).resolve().parents[1]
KIB, MIB = 1024, 1024 * 1024


def _number(text: str) -> int:
    """Read the first number of a cell, in the units it gives (`256 KiB`, `8 MiB`, `30 days`, `10,000`)."""
    found = re.search(r"(\d[\d,]*)\s*(KiB|MiB|days?)?", text)
    assert found is not None, f"no number in {text!r}"
    value = int(found.group(1).replace(",", ""))
    scale = {"KiB": KIB, "MiB": MIB, "day": int(DAY), "days": int(DAY)}.get(found.group(2) or "", 1)
    return value * scale


def readme_limits() -> dict[str, int]:
    """Return the README's Limits table: each row's text and the number it states."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    return {what.strip(): _number(limit) for what, limit in rows[1:]}


CODE = {
    "map": MAX_SIDE,
    "map at a fine scale (M42, Combat Action)": MAX_LONG_SIDE,
    "sides in a battle": MAX_SIDES,
    "units in a battle": MAX_UNITS,
    "units in one stat-block file": MAX_FILE_UNITS,
    "a name (battle, side, unit, weapon)": NAME_MAX,
    "an attached file (stat blocks, maps, homebrew)": MAX_FILE_BYTES,
    "a battle export to import": MAX_IMPORT_BYTES,
    "orders in an export": MAX_ORDERS,
    "a standing order": MAX_STANDING_TEXT,
    "orders undone at once (`/gm undo`)": MAX_UNDO,
    "a turn deadline": int(MAX_DEADLINE),
    "reminders before a deadline": MAX_REMINDERS,
    "a vacation (`/vacation start`)": MAX_VACATION_DAYS * int(DAY),
    "a battle's vacation allowance per player": MAX_VACATION_DAYS * int(DAY),
    "dice notation": MAX_NOTATION_LENGTH,
    "terms in one roll (`1d6+2d4+3`)": MAX_TERMS,
    "dice in one term (`100d6`)": MAX_DICE_PER_TERM,
    "dice rolled by one roll, rerolls and explosions included": MAX_DICE_ROLLED,
    "faces of a die": MAX_FACES,
    "homebrew rows in one table": MAX_ROWS,
    "a whole number typed or in a file (an owner's id, a stat)": MAX_WHOLE,
}


def test_the_readme_lists_every_limit_once() -> None:
    assert set(readme_limits()) == set(CODE)


@pytest.mark.parametrize("what", sorted(CODE))
def test_each_readme_limit_is_the_codes(what: str) -> None:
    assert readme_limits()[what] == CODE[what], f"README says {what}: {readme_limits()[what]}, the code {CODE[what]}"


@pytest.mark.parametrize(("doc", "pattern", "value"), [
    ("docs/importing.md", r"UTF-8 text of at most (\d+ KiB)", MAX_FILE_BYTES),
    ("docs/importing.md", r"a battle export, at\s+most (\d+ MiB)", MAX_IMPORT_BYTES),
    ("docs/homebrew.md", r"over (\d+ KiB)", HOMEBREW_BYTES),
    ("docs/homebrew.md", r"\(up to (\d+) characters\)", NAME_MAX),
    ("docs/statblocks.md", r"\| `name` \| 1 to (\d+) characters", NAME_MAX),
])
def test_the_docs_state_the_codes_limits(doc: str, pattern: str, value: int) -> None:
    found = re.search(pattern, (ROOT / doc).read_text(encoding="utf-8"))
    assert found is not None, f"{doc} no longer says {pattern!r}"
    assert _number(found.group(1)) == value


def test_the_readme_roll_line_shows_dice_the_bot_reads() -> None:
    line = next(x for x in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if x.startswith("| `/roll"))
    examples = re.findall(r"`(\d*d[\d%][^`]*)`", line.split("|")[2])
    assert len(examples) == 12, examples
    for example in examples:
        dice, _comment = split_notation(example)
        assert parse_expression(dice), example
    # Each kind of notation the parser knows is shown.
    assert {"d%", "4d6kh3", "2d20kl1", "4d6pl1", "2d6rr1", "8d6e6", "2d6mi2"} <= set(examples)
    assert any(" adv" in e for e in examples) and "dis" in line
