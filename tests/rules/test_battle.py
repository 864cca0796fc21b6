"""The toy battle: create, paint, add units, move within the Full Move, d100 tests, undo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError, NotFoundError, NothingToUndoError, RulesetError
from rules.orders import AddUnit, EditUnit, Move, Paint, RemoveUnit, SetRule, SkillTest
from tests.rules.conftest import add, dice, start


def test_new_battle_is_all_default_terrain(battle_e: Battle) -> None:
    assert battle_e.width == 20 and battle_e.height == 15
    assert {battle_e.terrain_at(Cell(x, y)).key for x in range(20) for y in range(15)} == {"plain"}


@pytest.mark.parametrize(("w", "h"), [(0, 10), (101, 10), (10, 0), (10, 101)])
def test_map_size_is_limited(w: int, h: int) -> None:
    with pytest.raises(InvalidOrderError, match="1 to 100"):
        Battle.new("strategic-e", w, h)


def test_100_by_100_map_is_allowed() -> None:
    b = Battle.new("strategic-p", 100, 100)
    assert b.check_cell(Cell.parse("CV100")) == Cell(99, 99)


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(RulesetError, match="strategic-e"):
        Battle.new("warhammer", 10, 10)


def test_paint_rectangle_and_single_cell(battle_e: Battle) -> None:
    battle_e.apply(Paint(terrain="Forest", frm=Cell.parse("C3"), to=Cell.parse("A1")), dice())
    battle_e.apply(Paint(terrain="water", frm=Cell.parse("T15")), dice())
    assert battle_e.terrain_at(Cell.parse("B2")).key == "forest"
    assert battle_e.terrain_at(Cell.parse("D4")).key == "plain"
    assert battle_e.terrain_at(Cell.parse("T15")).key == "water"


def test_paint_off_map_changes_nothing(battle_e: Battle) -> None:
    before = battle_e.to_dict()
    with pytest.raises(IllegalOrderError, match=r"off the map.*A1 to T15"):
        battle_e.apply(Paint(terrain="forest", frm=Cell.parse("A1"), to=Cell.parse("Z9")), dice())
    assert battle_e.to_dict() == before


def test_unknown_terrain_lists_the_known_ones(battle_e: Battle) -> None:
    with pytest.raises(RulesetError, match="`mountain`"):
        battle_e.apply(Paint(terrain="lava", frm=Cell(0, 0)), dice())


def test_the_two_scales_keep_their_own_terrain() -> None:
    p = Battle.new("strategic-p", 5, 5)
    with pytest.raises(RulesetError):
        p.apply(Paint(terrain="mountain", frm=Cell(0, 0)), dice())
    e = Battle.new("strategic-e", 5, 5)
    with pytest.raises(RulesetError):
        e.apply(Paint(terrain="rough", frm=Cell(0, 0)), dice())


@pytest.mark.parametrize(("name", "fragment"), [("", "empty"), ("x" * 65, "65 characters"), ("   ", "empty")])
def test_bad_unit_names(battle_e: Battle, name: str, fragment: str) -> None:
    before = battle_e.to_dict()
    with pytest.raises(InvalidOrderError, match=fragment):
        battle_e.apply(AddUnit(name=name, side="NERV", at=Cell(0, 0)), dice())
    assert battle_e.to_dict() == before


def test_duplicate_unit_name_refused(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1")
    with pytest.raises(IllegalOrderError, match="already a unit"):
        add(battle_e, "eva-01", "NERV", "B1")


def test_move_within_full_move(battle_e: Battle) -> None:
    # 001:L11 "a Full moves them AB": Ag 45 gives AB 4, so 4 squares.
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    start(battle_e)
    out = battle_e.apply(Move(unit="Eva-01", to=Cell.parse("E5")), dice())
    assert battle_e.unit("eva-01").cell == Cell.parse("E5")
    assert out.details.allowance == 4 and out.details.cost == 4
    assert out.highlight.path[0] == "A1" and out.highlight.path[-1] == "E5"


def test_move_beyond_full_move_is_refused_and_changes_nothing(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    start(battle_e)
    before = battle_e.to_dict()
    with pytest.raises(IllegalOrderError, match=r"5 squares .* allows 4 squares \(AB 4\)"):
        battle_e.apply(Move(unit="Eva-01", to=Cell.parse("F1")), dice())
    assert battle_e.to_dict() == before


def test_move_off_map_refused(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    start(battle_e)
    with pytest.raises(IllegalOrderError, match="off the map"):
        battle_e.apply(Move(unit="Eva-01", to=Cell.parse("A99")), dice())


def test_move_before_start_refused(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    with pytest.raises(IllegalOrderError, match="not started"):
        battle_e.apply(Move(unit="Eva-01", to=Cell.parse("B1")), dice())


def test_unknown_unit(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1")
    start(battle_e)
    with pytest.raises(NotFoundError, match="Eva-01"):
        battle_e.apply(Move(unit="Eva-02", to=Cell.parse("B1")), dice())


def test_d100_test_success_and_degrees(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    out = battle_e.apply(SkillTest(unit="Eva-01", stat="ag", modifier=10), dice(23))
    result = out.tests[0]
    assert result.target == 55 and result.roll == 23 and result.success and result.degrees == 3
    assert out.rolls[0].faces == (23,)


@pytest.mark.constant("dof_plus_one")
def test_d100_failure_degrees(battle_e: Battle) -> None:
    # A08: DoF = floor((roll - target) / 10)
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    out = battle_e.apply(SkillTest(unit="Eva-01", stat="ag"), dice(77))
    assert not out.tests[0].success and out.tests[0].degrees == 3
    battle_e.apply(SetRule(key="dof_plus_one", value="true"), dice())
    out = battle_e.apply(SkillTest(unit="Eva-01", stat="ag"), dice(77))
    assert out.tests[0].degrees == 4


def test_modifier_cap_clamps_to_60(battle_e: Battle) -> None:
    # A05: the total of situational modifiers is capped at +-60.
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    out = battle_e.apply(SkillTest(unit="Eva-01", stat="ag", modifier=-90), dice(5))
    assert out.tests[0].breakdown.raw_total == -90
    assert out.tests[0].target == 45 - 60


def test_set_rule_is_validated(battle_e: Battle) -> None:
    with pytest.raises(RulesetError, match="between 0 and 100"):
        battle_e.apply(SetRule(key="modifier_cap", value="500"), dice())
    with pytest.raises(RulesetError, match="no rule constant"):
        battle_e.apply(SetRule(key="nope", value="1"), dice())


def test_edit_and_remove_unit(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1")
    battle_e.apply(EditUnit(unit="Eva-01", stats={"ag": 61, "wounds": 30}), dice())
    unit = battle_e.unit("Eva-01")
    assert unit.ab == 6 and unit.wounds == 30 and unit.max_wounds == 30
    battle_e.apply(RemoveUnit(unit="Eva-01"), dice())
    assert not battle_e.units


def test_undo_restores_exact_state(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    start(battle_e)
    before = battle_e.to_dict()
    battle_e.apply(Move(unit="Eva-01", to=Cell.parse("C3")), dice())
    battle_e.undo()
    assert battle_e.to_dict() == before


def test_an_order_applied_without_undo_resolves_the_same_and_keeps_no_snapshot(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A1", ag=45)
    start(battle_e)
    twin = Battle.from_dict(battle_e.to_dict())
    kept = battle_e.apply(Move(unit="Eva-01", to=Cell.parse("C3")), dice())
    lean = twin.apply(Move(unit="Eva-01", to=Cell.parse("C3")), dice(), undoable=False)
    assert lean.to_dict() == kept.to_dict()
    assert twin.to_dict() == battle_e.to_dict()
    with pytest.raises(NothingToUndoError):
        twin.undo()


def test_undo_past_start(battle_e: Battle) -> None:
    with pytest.raises(NothingToUndoError):
        battle_e.undo()


def test_state_round_trips_through_dict(battle_p: Battle) -> None:
    battle_p.apply(Paint(terrain="water", frm=Cell(2, 2), to=Cell(4, 4)), dice())
    add(battle_p, "Rei", "NERV", "A1", ag=35, weapons=[{"name": "Pallet Rifle", "range": 300, "damage": "2d10", "type": "E"}])
    again = Battle.from_dict(battle_p.to_dict())
    assert again.to_dict() == battle_p.to_dict()
    assert again.unit("rei").weapon("pallet rifle") is not None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.integers(0, 9), st.integers(0, 9),
                          st.sampled_from(["half", "full", "charge", "run"])), max_size=25))
def test_random_orders_keep_everyone_on_the_map_and_undo_exact(moves: list[tuple[str, int, int, str]]) -> None:
    b = Battle.new("strategic-e", 10, 10)
    add(b, "A", "red", "A1", ag=35)
    add(b, "B", "blue", "J10", ag=45, kind="horde", magnitude=30)
    add(b, "C", "blue", "E5", ag=25, kind="horde", magnitude=20)
    start(b)
    for name, x, y, mode in moves:
        before = b.to_dict()
        try:
            b.apply(Move(unit=name, to=Cell(x, y), mode=mode), dice())
        except (IllegalOrderError, InvalidOrderError):
            assert b.to_dict() == before
            continue
        hordes = [(u.x, u.y) for u in b.iter_units() if u.is_horde]
        assert len(hordes) == len(set(hordes))
        assert all(b.on_map(u.cell) for u in b.iter_units())
        b.undo()
        assert b.to_dict() == before
        b.apply(Move(unit=name, to=Cell(x, y), mode=mode), dice())


def test_a_mistyped_unit_or_weapon_name_gets_a_suggestion() -> None:
    battle = Battle.new("strategic-e", 10, 10, "Typos")
    battle.apply(AddUnit(name="Sachiel", side="Angels", at=Cell(1, 1),
                         stats={"weapons": [{"name": "Pallet Rifle", "range": 10, "damage": "1d10"}]}), dice())
    with pytest.raises(NotFoundError, match="Did you mean `Sachiel`"):
        battle.unit("Sachel")
    with pytest.raises(NotFoundError, match="Did you mean `Pallet Rifle`"):
        battle.unit("Sachiel").require_weapon("palet rifle")
    with pytest.raises(NotFoundError) as far:
        battle.unit("Ramiel")
    assert "Did you mean" not in str(far.value)
