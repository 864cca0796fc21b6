"""GM overrides: gm-place ignores movement and turns, gm-set changes any field, both undo and round-trip."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import Order
from rules.statfile import StatError
from rules.systems.strategic.actions.gm import GmPlace, GmSet
from rules.turnorders import StandingOrder
from tests.rules.conftest import add, dice, start


@pytest.fixture
def battle() -> Battle:
    b = Battle.new("strategic-e", 20, 15, "GM")
    add(b, "Eva-01", "NERV", "C3", ag=45)
    add(b, "Sachiel", "Angels", "P10", ag=38, wounds=40)
    add(b, "Swarm", "Angels", "P12", kind="horde", magnitude=30)
    start(b, "side")
    return b


def test_orders_round_trip_as_text() -> None:
    for order in (GmPlace(target="Eva-01", at=Cell.parse("T15")),
                  GmSet(target="Eva 01", changes={"wounds": 3, "add_status": "pinned", "armour.head": "8"})):
        assert Order.parse(str(order)) == order


def test_place_goes_anywhere_on_the_map_out_of_turn_and_spends_nothing(battle: Battle) -> None:
    # It is the NERV phase; Sachiel is far from T15 and not due, and still the GM can put it there.
    outcome = battle.apply(GmPlace(target="Sachiel", at=Cell.parse("A1")), dice())
    assert battle.unit("Sachiel").cell == Cell.parse("A1")
    assert outcome.effects[0].to_dict() == {"type": "placed", "unit": "Sachiel", "frm": "P10", "to": "A1"}
    assert battle.turn.left[battle.unit("Sachiel").id] == 2
    battle.undo()
    assert battle.unit("Sachiel").cell == Cell.parse("P10")


def test_place_keeps_what_may_never_share_a_square(battle: Battle) -> None:
    with pytest.raises(IllegalOrderError, match="enemy Horde"):
        battle.apply(GmPlace(target="Eva-01", at=Cell.parse("P12")), dice())
    with pytest.raises(IllegalOrderError, match="off the map"):
        battle.apply(GmPlace(target="Eva-01", at=Cell.parse("Z99")), dice())
    with pytest.raises(IllegalOrderError, match="already on"):
        battle.apply(GmPlace(target="Eva-01", at=Cell.parse("C3")), dice())


def test_set_changes_stats_statuses_and_tables(battle: Battle) -> None:
    outcome = battle.apply(GmSet(target="Sachiel", changes={"wounds": "12", "ag": "50", "armour.head": "8",
                                                             "add_status": "pinned, prone"}), dice())
    unit = battle.unit("Sachiel")
    assert (unit.wounds, unit.chars["ag"], unit.armour["head"], unit.statuses) == (12, 50, 8, ["pinned", "prone"])
    assert outcome.details.changed["wounds"].to_dict() == {"old": 40, "new": 12}
    battle.apply(GmSet(target="Sachiel", changes={"remove_status": "pinned", "skills.dodge": 40}), dice())
    assert unit.statuses == ["prone"] and battle.unit("Sachiel").skills == {"dodge": 40}


def test_set_actions_owner_side_and_name(battle: Battle) -> None:
    battle.apply(StandingOrder(unit="Eva-01", text="hold"), dice())
    battle.apply(GmSet(target="Eva-01", changes={"actions": 1, "owner": "<@42>", "name": "Unit 01"}), dice())
    assert battle.turn.left[battle.unit("Unit 01").id] == 1 and "Eva-01" not in battle.turn.left
    assert battle.turn.standing == {battle.unit("Unit 01").id: "hold"}
    assert battle.unit("unit 01").owner == 42
    battle.apply(GmSet(target="Unit 01", changes={"owner": "none", "side": "Rebels"}), dice())
    assert battle.unit("Unit 01").owner is None and battle.unit("Unit 01").side == "Rebels"


def test_set_refuses_what_cannot_be(battle: Battle) -> None:
    before = battle.to_dict()
    with pytest.raises(InvalidOrderError, match="not a field"):
        battle.apply(GmSet(target="Eva-01", changes={"colour": "red"}), dice())
    with pytest.raises(StatError, match="cannot be above"):
        battle.apply(GmSet(target="Eva-01", changes={"max_wounds": 5, "wounds": 9}), dice())
    with pytest.raises(InvalidOrderError, match="not a status"):
        battle.apply(GmSet(target="Eva-01", changes={"add_status": "sleepy"}), dice())
    with pytest.raises(InvalidOrderError, match="Say what to set"):
        battle.apply(GmSet(target="Eva-01"), dice())
    with pytest.raises(InvalidOrderError, match="from 0 to 20"):
        battle.apply(GmSet(target="Eva-01", changes={"actions": 99}), dice())
    with pytest.raises(InvalidOrderError, match="user id or mention"):
        battle.apply(GmSet(target="Eva-01", changes={"owner": "bob"}), dice())
    assert battle.to_dict() == before


def test_actions_need_a_running_round() -> None:
    b = Battle.new("strategic-e", 5, 5)
    add(b, "Eva-01", "NERV", "A1")
    with pytest.raises(IllegalOrderError, match="once the battle has started"):
        b.apply(GmSet(target="Eva-01", changes={"actions": 1}), dice())
