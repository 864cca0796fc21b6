"""Play every numbered conformance case through the rules library and check its numbers and refusals.

The cases are data (tests/conformance/<ruleset>/NN_topic.toml), written from the seeds and RULES.md; this
module builds each case's battle with the library's own orders, plays its orders with the dice it forces,
and compares what follows. docs/conformance.md lists every case, one line each, from the same data.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import AddUnit, ImportMap, SetRule, Start
from rules.outcome import Outcome
from rules.turnorders import SetTurnMode
from tests.conformance.cases import Case, CaseError, Play, all_cases, load_section
from tests.conformance.listing import DOC, HEAD, listing

CASES = all_cases()


def _dice(faces: tuple[int, ...] = ()) -> Dice:
    """Return dice that show these faces first, then roll from a fixed seed."""
    return Dice(random.Random(0), scripted=list(faces))


def build(case: Case) -> Battle[Any]:
    """Set a case's battle up with the library's orders: map, rules, setup orders, units, arranging, the start."""
    battle = Battle.new(case.ruleset, case.width, case.height, case.id, tuple(case.rules.items()))  # the scale sizes the map
    if case.map:
        battle.apply(ImportMap(text=case.map), _dice())
    for key, value in case.rules.items():
        battle.apply(SetRule(key, value), _dice())
    for text in case.setup:
        battle.apply(battle.parse_order(text), _dice())
    for unit in case.units:
        battle.apply(AddUnit(name=unit["name"], side=unit["side"], at=Cell.parse(unit["at"]), owner=unit["owner"],
                             stats=unit["stats"] or None), _dice())
    for text in case.arrange:
        battle.apply(battle.parse_order(text), _dice())
    if case.start:
        if case.turn_mode != "none":  # a system without turns (surface) takes no turn mode
            battle.apply(SetTurnMode(mode=case.turn_mode), _dice())
        battle.apply(Start(), _dice())
    return battle


def same(actual: Any, expected: Any, where: str) -> None:
    """Assert that a value holds what a case expects: every key of a table, every item of a list, or equal.

    A table of numbered keys against a list checks those items alone (`{ "0" = {...} }`: the first).
    """
    if isinstance(expected, Mapping):
        for key, value in expected.items():
            if isinstance(actual, list | tuple):
                assert key.isdigit() and int(key) < len(actual), f"{where}: no item {key} in {actual!r}"
                same(actual[int(key)], value, f"{where}[{key}]")
            elif isinstance(actual, Mapping):
                assert key in actual, f"{where}: no `{key}` in {actual!r}"
                same(actual[key], value, f"{where}.{key}")
            else:
                assert hasattr(actual, key), f"{where}: no `{key}` on {actual!r}"
                same(getattr(actual, key), value, f"{where}.{key}")
    elif isinstance(expected, list):
        items = list(actual)
        assert len(items) == len(expected), f"{where}: {len(items)} items, expected {len(expected)}: {items!r}"
        for i, (got, want) in enumerate(zip(items, expected, strict=True)):
            same(got, want, f"{where}[{i}]")
    elif isinstance(expected, str) and not isinstance(actual, str):
        assert str(actual) == expected, f"{where}: {actual!r}, expected {expected!r}"
    else:
        assert actual == expected, f"{where}: {actual!r}, expected {expected!r}"


def _has(effects: list[dict[str, Any]], want: Mapping[str, Any]) -> bool:
    for effect in effects:
        try:
            same(effect, want, "effect")
        except AssertionError:
            continue
        return True
    return False


def check(case: Case, play: Play, battle: Battle[Any], outcome: Outcome) -> None:
    """Compare an applied order's outcome and the battle after it with what the case expects."""
    expect = play.expect
    where = f"{case.id} `{play.order}`"
    if "tests" in expect:
        same([t.to_dict() for t in outcome.tests], expect["tests"], f"{where} tests")
    if "rolls" in expect:
        same([r.purpose for r in outcome.rolls], expect["rolls"], f"{where} rolls")
    effects = [e.to_dict() for e in outcome.effects]
    for want in expect.get("effects", []):
        assert _has(effects, want), f"{where}: no effect like {want!r} in {effects!r}"
    for kind in expect.get("no_effects", []):
        assert not [e for e in effects if e["type"] == kind], f"{where}: an effect `{kind}` in {effects!r}"
    for name, fields in expect.get("units", {}).items():
        same(battle.unit(name), fields, f"{where} unit {name}")
    for cell, fields in expect.get("cells", {}).items():
        same(battle.square_state(Cell.parse(cell)), fields, f"{where} square {cell}")
    if "turn" in expect:
        same(outcome.turn, expect["turn"], f"{where} turn")
    if "details" in expect:
        same(outcome.details, expect["details"], f"{where} details")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    """Play one numbered case: each order with its forced dice, then its numbers, or its refusal and no change."""
    battle = build(case)
    assert case.plays, f"{case.id} plays no order"
    for play in case.plays:
        order = battle.parse_order(play.order)
        dice = _dice(play.dice)
        if play.refused is not None:
            before = battle.to_dict()
            with pytest.raises(GameError) as refusal:
                battle.apply(order, dice)
            assert play.refused in refusal.value.message, f"{case.id} `{play.order}`: {refusal.value.message}"
            assert battle.to_dict() == before, f"{case.id} `{play.order}` was refused but changed the battle"
            continue
        outcome = battle.apply(order, dice)
        assert not dice.scripted, f"{case.id} `{play.order}` left forced dice unrolled: {dice.scripted}"
        check(case, play, battle, outcome)


def test_numbers_are_unique() -> None:
    """Every case has its own number, so a reading of the rules can cite it."""
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


def test_the_list_in_the_docs_matches_the_cases() -> None:
    """docs/conformance.md lists every case, one line each, as the data says (regenerate it with
    `.venv/bin/python -m tests.conformance.listing --write`)."""
    assert DOC.read_text(encoding="utf-8") == listing()


def test_the_example_on_the_page_is_a_case_that_plays(tmp_path: Path) -> None:
    """The case file shown in docs/conformance.md reads and plays as every case does."""
    example = HEAD.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "01_example.toml"
    path.write_text(example, encoding="utf-8")
    [case] = load_section("combat-action", path)
    test_case(case)


@pytest.mark.parametrize(("text", "words"), [
    ('section = 1\ntitle = "T"\n[[case]]\nn = 1\ntitle = "x"\nrests_on = "A1"\nunit = []\n', "unknown key(s) unit"),
    ('section = 1\ntitle = "T"\n[[case]]\nn = 2\ntitle = "x"\nrests_on = "A1"\n', "numbered 1, 2, 3"),
    ('section = 1\ntitle = "T"\n[[case]]\nn = 1\ntitle = "x"\n', "rests_on"),
    ('section = 1\ntitle = "T"\n[[case]]\nn = 1\ntitle = "x"\nrests_on = "A1"\n[[case.play]]\norder = "end"\n'
     'refused = "no"\nexpect = { rolls = [] }\n', "a refused order expects nothing else"),
    ('section = 2\ntitle = "T"\n', "02_<topic>.toml"),
])
def test_a_case_file_that_says_too_little_or_too_much_is_refused(tmp_path: Path, text: str, words: str) -> None:
    """A case file with a misspelt key, a number out of order or no rule to rest on fails to load, naming it."""
    path = tmp_path / "01_bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError, match=re.escape(words)):
        load_section("m42", path)
