"""Combat Action stat blocks: every kind of unit, and bad blocks refused naming the field."""

from __future__ import annotations

import pytest

from rules.errors import InvalidOrderError
from rules.systems.combat_action.statblock import apply_stats
from rules.systems.combat_action.units import Unit


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
    unit = _unit({"kind": "vehicle", "pf": 6, "crew": 2, "transported": ["A1", "A2"],
                  "weapons": [{"name": "Cannon", "class": "very heavy", "pen": 5}]})
    assert unit.size == "large" and unit.machine
    assert unit.locations[0] == "antenna" and unit.locations[-1] == "power_plant" and "hold" in unit.locations
    assert unit.transported == ["A1", "A2"]


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
    ({"kind": "vehicle", "locations": ["turret"]}, "`locations` is `turret`"),
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
