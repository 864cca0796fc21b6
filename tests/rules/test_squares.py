"""A square's state: typed fields its rule system declares, saved as the same small document, malformed saves refused."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import RulesetError
from rules.squares import Square as CoreSquare
from rules.systems.strategic.squares import Square

C3 = Cell.parse("C3")


def test_only_set_fields_are_saved_and_zero_cover_is_kept() -> None:
    """Worn-out cover (0 AP) is not the feature's own cover: it must survive a save (A22)."""
    square = Square(feature="trench", feature_side="Blue", feature_ap=0, smoke=0, storm=False)
    assert square.to_dict() == {"feature": "trench", "feature_side": "Blue", "feature_ap": 0}
    assert Square.from_dict(square.to_dict()).feature_ap == 0


def test_a_hidden_trap_keeps_its_empty_list_of_finders() -> None:
    square = Square(feature="fire_trap", revealed=[])
    assert square.to_dict() == {"feature": "fire_trap", "revealed": []}
    assert Square.from_dict({"feature": "fire_trap"}).revealed is None


@pytest.mark.parametrize(("doc", "words"), [
    ({"smok": 1}, "`smok` is not a square field"),
    ({"smoke": "two"}, "`smoke` must be a whole number"),
    ({"storm": 1}, "`storm` must be true or false"),
    ({"fire": True}, "`fire` must be a whole number"),
    ({"revealed": [3]}, "`revealed` must be a list of side names"),
])
def test_a_malformed_square_is_refused_with_its_field(doc: dict[str, object], words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        Square.from_dict(doc, "square C3")


def test_a_saved_battle_with_a_bad_square_names_the_square(battle_p: Battle) -> None:
    doc = battle_p.to_dict()
    doc["cells"] = {"C3": {"fire": "yes"}}
    with pytest.raises(RulesetError, match="square C3: `fire` must be a whole number"):
        Battle.from_dict(doc)


def test_clearing_the_last_field_drops_the_square(battle_p: Battle) -> None:
    battle_p.square(C3).smoke = 2
    battle_p.square(C3).storm = True
    battle_p.clear_square(C3, "smoke")
    assert battle_p.cells == {"C3": {"storm": True}}
    battle_p.clear_square(C3, "storm")
    assert "C3" not in battle_p.cells


def test_reading_a_square_never_creates_it(battle_p: Battle) -> None:
    assert battle_p.square_state(C3).empty and "C3" not in battle_p.cells
    assert battle_p.squares_with("smoke") == []
    battle_p.square(Cell.parse("D1")).smoke = 1
    battle_p.square(Cell.parse("A2")).smoke = 1
    assert battle_p.squares_with("smoke") == [Cell.parse("A2"), Cell.parse("D1")]


def test_the_document_view_names_the_same_fields() -> None:
    square = Square()
    square["fire"] = 2
    square.update(feature="trench", feature_side="Blue")
    assert square.fire == 2 and square.feature == "trench" and "smoke" not in square
    assert square.pop("fire") == 2 and square.fire == 0
    with pytest.raises(KeyError):
        square["smoke"]
    with pytest.raises(RulesetError, match="not a square field"):
        square["smok"] = 1


def test_each_battle_keeps_squares_of_its_systems_type() -> None:
    """DESIGN §3: what one system alone needs is that system's typed state, in the slot its System declares."""
    strategic, m42, action = (Battle.new(r, 5, 5) for r in ("strategic-p", "m42", "combat-action"))
    assert type(strategic.square(C3)).__module__ == "rules.systems.strategic.squares"
    assert type(m42.square(C3)).__module__ == "rules.systems.m42.squares" and m42.square(C3).keys() == ("road", "floors")
    assert type(action.square(C3)) is CoreSquare and CoreSquare.keys() == ()


def test_a_field_of_another_system_is_refused_naming_the_fields_there_are() -> None:
    m42 = Battle.new("m42", 5, 5)
    doc = m42.to_dict()
    doc["cells"] = {"C3": {"smoke": 2}}
    with pytest.raises(RulesetError, match="square C3: `smoke` is not a square field; use one of road, floors"):
        Battle.from_dict(doc)
    action = Battle.new("combat-action", 5, 5)
    with pytest.raises(RulesetError, match="this rule system keeps nothing on its squares"):
        action.square(C3)["road"] = True
