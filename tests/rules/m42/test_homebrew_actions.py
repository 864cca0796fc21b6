"""A GM's own M42 actions from a homebrew [[action]] table: played as the built-in actions, kept with the battle,
refused line by line when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError
from rules.homebrew import MAX_BYTES, HomebrewError
from rules.orders import ImportHomebrew, Move, Order
from rules.replay import Step, replay, same_state
from rules.systems.m42.kinds import actions_of
from rules.systems.m42.reach import action_reach
from rules.systems.m42.units import Unit
from tests.rules.m42.helpers import DICE, ends, field, paint, rule, start, unit

EXAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "m42" / "actions.toml").read_text(encoding="utf-8")


def brew(battle: Battle[Unit], text: str = EXAMPLE) -> None:
    """Import a homebrew table through the order a GM gives."""
    battle.apply(ImportHomebrew(text=text), DICE)


def refused(battle: Battle[Unit], text: str, error: type[GameError], fragment: str) -> None:
    """Check a homebrew table is refused with a message naming what is wrong, and changes nothing."""
    before = battle.to_dict()
    with pytest.raises(error, match=fragment):
        brew(battle, text)
    assert battle.to_dict() == before


def action(key: str, name: str, inches: object, extra: str = "") -> str:
    """Return one [[action]] row as a GM writes it."""
    return f'[[action]]\nkey = "{key}"\nname = "{name}"\ninches = {inches}\n{extra}'


def test_the_example_actions_are_offered_beside_the_built_in_ones() -> None:
    """A89: "Other actions are configurable"; examples/m42/actions.toml adds Forced March 9" and Charge 4"."""
    b = field()
    brew(b)
    acts = actions_of(b)
    assert list(acts)[:5] == ["advance", "shooting-advance", "fall-back", "at-the-double", "assault"]
    assert [(a.key, a.title, a.assault) for a in list(acts.values())[5:]] == [
        ("forced-march", "Forced March", False), ("charge", "Charge", True)]
    assert b.const("forced_march_inches") == 9 and b.const("charge_inches") == 4
    assert "forced-march" in b.ruleset.move_modes


def test_a_homebrew_action_moves_the_leader_its_distance_and_the_gm_can_change_it() -> None:
    """A89: the distance of an action is the GM's. On open ground one square is one inch: from C5, Forced March
    (9") ends at L5 and not M5; set to 12" with /battle rules set, it ends at O5, as At-The-Double does."""
    b = field()
    brew(b)
    unit(b, "A", "C5")
    start(b)
    got = ends(b, "A", "forced-march")
    assert "L5" in got and "M5" not in got
    rule(b, "forced_march_inches", "12")
    assert ends(b, "A", "forced_march") == ends(b, "A", "at-the-double")
    b.apply(Move(unit="A", to=Cell.parse("O5"), mode="forced-march"), DICE)
    assert b.unit("A").cell == Cell.parse("O5")


def test_a_homebrew_action_is_halved_through_area_terrain() -> None:
    """A90: area terrain halves the leader's move once. Forced March through woods goes 4.5", not 9"."""
    b = field()
    brew(b)
    paint(b, "woods", "A1", "T10")
    u = unit(b, "A", "C5")
    start(b)
    found = {r.action: r for r in action_reach(b, u)}["forced-march"]
    assert (found.name, found.inches, found.halved) == ("Forced March", 9, 4.5)
    got = ends(b, "A", "forced-march")
    assert "G5" in got and "H5" not in got


def test_only_an_action_flagged_assault_closes_within_the_standoff() -> None:
    """A93: "No model moves or is placed closer than 2" to an enemy model, except in an assault." At 6" from B2,
    the built-in Assault reaches H2 beside the enemy on I2; a homebrew action of 6" reaches it only if it is an
    assault."""
    b = field(20, 3)
    brew(b, action("rush", "Rush", 6) + action("storm", "Storm", 6, "assault = true\n"))
    unit(b, "A", "B2")
    unit(b, "E", "I2", side="Blue")
    start(b)
    assert "H2" in ends(b, "A", "assault") and "H2" in ends(b, "A", "storm")
    assert "H2" not in ends(b, "A", "rush")
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="cannot rush to H2"):
        b.apply(Move(unit="A", to=Cell.parse("H2"), mode="rush"), DICE)
    assert b.to_dict() == before


def test_the_table_survives_saving_undo_and_replay() -> None:
    """The table is part of the battle: saved and loaded, restored by undo, rebuilt by replaying the log."""
    b = field()
    unit(b, "A", "C5")
    initial = b.to_dict()
    texts = [str(ImportHomebrew(text=EXAMPLE)), "start", "move unit:A to:L5 mode:forced-march"]
    steps = []
    for seq, text in enumerate(texts, start=1):
        out = b.apply(b.parse_order(text), DICE)
        steps.append(Step.from_outcome(seq, text, out.to_dict()))
    loaded = Battle.from_dict(b.to_dict())
    assert "charge" in actions_of(loaded) and loaded.unit("A").cell == Cell.parse("L5")
    assert same_state(replay(initial, steps).to_dict(), b.to_dict())
    b.undo()
    b.undo()
    assert "forced-march" in actions_of(b)
    b.undo()
    assert b.homebrew == {} and "forced-march" not in actions_of(b) and "forced_march_inches" not in b.ruleset.constants


def test_order_text_round_trips() -> None:
    order = ImportHomebrew(text=EXAMPLE)
    assert Order.parse(str(order)) == order
    assert field().parse_order(str(order)) == order


def test_a_new_table_replaces_the_old_and_forgets_overrides_of_actions_it_drops() -> None:
    """A re-import replaces the table; the GM's distance for an action no longer there does not linger."""
    b = field()
    brew(b)
    rule(b, "charge_inches", "5")
    brew(b, action("charge", "Charge", 3))
    assert b.const("charge_inches") == 5  # kept: the action is still there
    brew(b, action("crawl", "Crawl", 2))
    assert "charge" not in actions_of(b) and "charge_inches" not in b.constants
    brew(b, action("charge", "Charge", 3))
    assert b.const("charge_inches") == 3


@pytest.mark.parametrize(("text", "error", "fragment"), [
    ('[[action]]\nkey = "dash"\nname = \n', HomebrewError, r"not valid TOML: Invalid value \(at line 3"),
    (action("dash", "Dash", 8, "speed = 3\n"), HomebrewError,
     r"Line 5 \(\[\[action\]\] #1 `dash`\), field `speed`: not a field of a homebrew action; use assault, inches, "
     r"key, name"),
    (action("dash", "Dash", -3), HomebrewError, r"Line 4 \(\[\[action\]\] #1 `dash`\), field `inches`: -3 is negative"),
    (action("dash", "Dash", 0), HomebrewError, r"field `inches`: 0 is outside 1 to 48"),
    (action("dash", "Dash", 500), HomebrewError, r"field `inches`: 500 is outside 1 to 48"),
    (action("dash", "Dash", 7.5), HomebrewError, r"field `inches`: `7.5` is not a whole number of inches"),
    ('[[action]]\nkey = "dash"\nname = "Dash"\n', HomebrewError, r"field `inches`: Missing; say how far"),
    (action("dash", "Dash", 8, 'assault = "yes"\n'), HomebrewError, r"field `assault`: `yes` is not true or false"),
    (action("advance", "Quick Step", 8), HomebrewError,
     r"Line 2 \(\[\[action\]\] #1 `advance`\), field `key`: `advance` is Advance, a built-in action of m42"),
    (action("at_the_double", "Quick Step", 8), HomebrewError, r"`at_the_double` is At-The-Double, a built-in action"),
    (action("step", "fall back", 8), HomebrewError,
     r"field `name`: \"fall back\" is the name of a built-in action; give yours its own name"),
    (action("dash", "Dash", 8) + action("dash", "Sprint", 9), HomebrewError,
     r"Line 6 \(\[\[action\]\] #2 `dash`\), field `key`: `dash` is already the key of \[\[action\]\] #1"),
    (action("Dash!", "Dash", 8), HomebrewError, r"field `key`: a key is 1 to 32 lower-case letters"),
    ('[[terrain]]\nkey = "scree"\nname = "Scree"\nchar = "S"\n', HomebrewError,
     r"takes no homebrew terrain; a homebrew file for it holds \[\[action\]\] tables only"),
    ('[[feature]]\nkey = "pit"\nname = "Pit"\nlabel = "P"\ncost = 1\n', HomebrewError, "has no artificial features"),
    ('[[weather]]\nkey = "fog"\n', HomebrewError, r"`weather` is not a homebrew table"),
    ("", HomebrewError, r"holds no \[\[action\]\] table"),
    ("# " + "x" * MAX_BYTES, HomebrewError, "may be at most 256 KiB"),
])
def test_bad_tables_are_refused_naming_the_line_and_change_nothing(text: str, error: type[GameError],
                                                                   fragment: str) -> None:
    b = field()
    brew(b)
    refused(b, text, error, fragment)
    assert "forced-march" in actions_of(b)


def test_an_unknown_action_names_the_battles_actions() -> None:
    b = field()
    brew(b)
    unit(b, "A", "C5")
    start(b)
    with pytest.raises(IllegalOrderError, match=r"not an action of this battle; use one of advance, .*, charge"):
        b.apply(Move(unit="A", to=Cell.parse("D5"), mode="sprint"), DICE)


def test_an_ended_battle_takes_no_table() -> None:
    b = field()
    unit(b, "A", "C5")
    start(b)
    b.apply(b.parse_order("end"), DICE)
    refused(b, EXAMPLE, IllegalOrderError, "ended")


def test_a_system_without_homebrew_refuses_the_table() -> None:
    """Surface battles play no homebrew table: the import is refused there and changes nothing."""
    b: Battle[Unit] = Battle.new("surface", 1, 1)
    before = b.to_dict()
    with pytest.raises(GameError, match="`import-homebrew` orders are not played in surface"):
        b.apply(ImportHomebrew(text=EXAMPLE), DICE)
    assert b.to_dict() == before
