"""Combat Action stat blocks: every kind of unit, and bad blocks refused naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.battle import Battle
from rules.errors import InvalidOrderError
from rules.orders import AddUnit
from rules.statfile import StatError
from rules.systems.combat_action.statblock import apply_stats, parse_statblock_file
from rules.systems.combat_action.units import Unit
from tests.rules.combat_action.helpers import dice


def _unit(stats: dict[str, object]) -> Unit:
    unit = Unit("Test", "Red", 0, 0)
    apply_stats(unit, stats)
    return unit


def test_infantry_model_in_a_squad() -> None:
    """An infantry model: squad, SS, PF, MV in cm, a rifle and grenades (area weapon, deviates x3 cm)."""
    unit = _unit({"kind": "infantry", "squad": "Alpha", "ss": 4, "pf": 2, "mv": 15,
                  "weapons": [{"name": "Rifle", "class": "Rifle", "pen": 2},
                              {"name": "Frag", "class": "Grenades", "pen": 3}]})
    assert (unit.squad, unit.ss, unit.pf, unit.mv, unit.size) == ("Alpha", 4, 2, 15, "medium")
    assert [w.wclass for w in unit.weapons] == ["rifle", "grenades"]
    assert unit.weapons[1].area == "grenade"


def test_vehicle_has_every_location_and_is_large() -> None:
    """003:L75 "Large target or vehicle: +1"; a vehicle has every location of the damage table."""
    unit = _unit({"kind": "vehicle", "pf": 6, "crew": 2, "capacity": 6, "facing": "E",
                  "weapons": [{"name": "Cannon", "class": "very heavy", "pen": 5}]})
    assert unit.size == "large" and unit.machine
    assert unit.locations[0] == "antenna" and unit.locations[-1] == "power_plant" and "hold" in unit.locations
    assert (unit.crew, unit.capacity, unit.facing, unit.hatch) == (2, 6, 90, "closed")


def test_robot_has_no_hold_and_defaults_autonomous() -> None:
    """Robots carry no hold; a robot's control is slave or autonomous (003:L130, L137)."""
    unit = _unit({"kind": "robot", "pf": 4})
    assert "hold" not in unit.locations and unit.control == "autonomous"
    assert _unit({"kind": "robot", "control": "slave"}).control == "slave"


def test_flying_vehicle_starts_low() -> None:
    """A77: flight levels are Low and High."""
    unit = _unit({"kind": "vehicle", "flying": True})
    assert unit.altitude == "low"
    assert _unit({"kind": "vehicle", "flying": True, "altitude": "high"}).altitude == "high"


@pytest.mark.parametrize(("stats", "field"), [
    ({"kind": "infantry", "pf": -1}, "`pf` cannot be negative"),
    ({"kind": "infantry", "weapons": [{"name": "Zap", "class": "Laser"}]}, "`weapons[1].class` is `Laser`"),
    ({"kind": "tank"}, "`kind` is `tank`"),
    ({"kind": "infantry", "size": "huge"}, "`size` is `huge`"),
    ({"kind": "infantry", "ss": "x"}, "`ss` must be a whole number"),
    ({"kind": "infantry", "colour": "red"}, "`colour` is not a Combat Action stat"),
    ({"kind": "vehicle", "locations": ["turret"]}, "`locations[1]` is `turret`"),
    ({"kind": "robot", "capacity": 2}, "`capacity` is 2, but Test has no hold"),
    ({"kind": "infantry", "flying": True}, "`flying` is for vehicles and robots"),
    ({"kind": "infantry", "weapons": [{"name": "Gun", "class": "rifle", "ammo": -1}]}, "`weapons[1].ammo`"),
    ({"kind": "infantry", "weapons": [{"name": "Gun", "class": "rifle", "range": 3}]}, "`weapons[1].range` is not"),
    ({"kind": "infantry", "weapons": [{"name": "Gun", "class": "rifle"}, {"name": "gun", "class": "pistol"}]},
     "`weapons[2].name` `gun` is used twice"),
    ({"kind": "building", "material": "cheese"}, "`material` is `cheese`"),
    ({"kind": "infantry", "statuses": ["dizzy"]}, "`statuses[1]` is `dizzy`"),
    ({"kind": "vehicle", "facing": "up"}, "`facing` is `up`"),
    ({"kind": "infantry", "weapons": [{"name": "Gun", "class": "rifle", "max_band": "far"}]}, "`weapons[1].max_band`"),
])
def test_bad_stat_block_names_the_field(stats: dict[str, object], field: str) -> None:
    """Bad input: "a stat block with an unknown weapon class or a negative PF: a specific message"."""
    with pytest.raises(InvalidOrderError) as caught:
        _unit(stats)
    assert field in caught.value.message


def test_round_trip_through_dict() -> None:
    """A saved unit comes back whole, damage and weapons included."""
    unit = _unit({"kind": "vehicle", "weapons": [{"name": "Cannon", "class": "heavy", "pen": 4}]})
    unit.damaged.append("locomotion")
    unit.weapons[0].faulty = True
    again = Unit.from_dict(unit.to_dict())
    assert again == unit and again.mv_now() == unit.mv // 2


# --- stat-block files ------------------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "combat-action"
FILE = """\
[[unit]]
name = "Tank"
side = "Red"
at = "B2"
kind = "vehicle"
pf = 8
capacity = 2
weapons = [
  { name = "Cannon", class = "very heavy", pen = 5 },
  { name = "Coax", class = "rifle", pen = 2 },
]

[[unit]]
name = "Rider"
side = "Red"
at = "B2"
inside = "Tank"
pf = 1
"""


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_examples_load_and_can_be_added(path: Path) -> None:
    """Every example stat-block file reads whole and places every unit in a combat-action battle."""
    specs = parse_statblock_file(path.read_text(encoding="utf-8"))
    battle = Battle.new("combat-action", 20, 16)
    for spec in specs:
        battle.apply(AddUnit(name=spec.name, side=spec.side, at=spec.at, stats=spec.stats), dice())
    assert [u.name for u in battle.iter_units()] == [s.name for s in specs]


def test_file_places_a_model_inside_its_vehicle() -> None:
    """`inside` names the vehicle a model starts in; the model rides at the vehicle's square."""
    battle = Battle.new("combat-action", 10, 10)
    for spec in parse_statblock_file(FILE):
        battle.apply(AddUnit(name=spec.name, side=spec.side, at=spec.at, stats=spec.stats), dice())
    assert battle.unit("Rider").inside == battle.unit("Tank").id


@pytest.mark.parametrize(("old", "new", "where"), [
    ("pf = 8", "pf = -3", "Line 6 (unit Tank), field `pf`: `pf` cannot be negative"),
    ('class = "rifle"', 'class = "laser"', "Line 10 (unit Tank), field `weapons[2].class`: `weapons[2].class` is `laser`"),
    ('side = "Red"\nat = "B2"\ninside', 'side = "Red"\nat = "B2"\nsize = "tiny"\ninside', "Line 17 (unit Rider), field `size`"),
])
def test_file_errors_name_line_and_field(old: str, new: str, where: str) -> None:
    """Bad input: an unknown weapon class or a negative PF is refused with its line and field."""
    with pytest.raises(InvalidOrderError) as caught:
        parse_statblock_file(FILE.replace(old, new, 1))
    assert where in caught.value.message


def test_inside_an_unknown_vehicle_is_refused() -> None:
    """A model cannot start inside a vehicle the battle does not have."""
    battle = Battle.new("combat-action", 10, 10)
    (_, rider) = parse_statblock_file(FILE)
    with pytest.raises(StatError, match="not a vehicle with a hold") as caught:
        battle.apply(AddUnit(name=rider.name, side=rider.side, at=rider.at, stats=rider.stats), dice())
    assert caught.value.path == ("inside",)
