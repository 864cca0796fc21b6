"""M42 stat-block files: Ld, model count and special rules per [[unit]], each error at its line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import InvalidOrderError
from rules.systems.m42.statfile import parse_m42_file

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

GOOD = """\
[[unit]]
name = "Alpha"
side = "Red"
at = "D5"
ld = 3
models = 5

[[unit]]
name = "Bravo"
side = "Red"
at = "D15"
ld = 2
models = 4
traits = ["interlinked"]
"""


def test_an_m42_file_reads_each_units_stat_block() -> None:
    alpha, bravo = parse_m42_file(GOOD)
    assert (alpha.name, str(alpha.at), alpha.stats) == ("Alpha", "D5", {"ld": 3, "models": 5})
    assert bravo.stats == {"ld": 2, "models": 4, "traits": ["interlinked"]}
    assert bravo.line == 8


def test_the_example_file_reads() -> None:
    assert [s.name for s in parse_m42_file((EXAMPLES / "m42" / "squads.toml").read_text(encoding="utf-8"))] == [
        "Alpha", "Bravo"]


@pytest.mark.parametrize(("old", "new", "fragment"), [
    ("ld = 2", "ld = 0", r"^Line 12 \(unit Bravo\), field `ld`: `ld` is a whole number from 1 to 12, not `0`"),
    ("models = 5", "models = 40", r"^Line 6 \(unit Alpha\), field `models`: `models` is a whole number from 1 to 30"),
    ('traits = ["interlinked"]', 'traits = ["flying"]', r"^Line 14 \(unit Bravo\), field `traits`: `flying` is not"),
    ("ld = 3", "ws = 30", r"^Line 5 \(unit Alpha\), field `ws`: `ws` is not an M42 stat"),
    ('at = "D5"', 'at = "D"', r"^Line 4 \(unit Alpha\), field `at`: `D` is not a cell"),
])
def test_a_bad_field_names_its_line(old: str, new: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        parse_m42_file(GOOD.replace(old, new, 1))
