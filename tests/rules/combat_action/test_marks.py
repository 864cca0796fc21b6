"""What the map and its unit key say of Combat Action units: badges, facing, damage and squad."""

from __future__ import annotations

from rules.systems.combat_action.statblock import apply_stats
from rules.systems.combat_action.units import Unit, compass


def _unit(**stats: object) -> Unit:
    unit = Unit("U", "Red", 0, 0)
    apply_stats(unit, dict(stats))
    return unit


def test_model_badges_and_words() -> None:
    """A pinned, flat down model of a squad shows P and FD and no facing; the key names its squad."""
    model = _unit(kind="infantry", squad="Alpha", statuses=["pinned", "flat_down"])
    assert model.badges() == ("P", "FD") and model.heading() is None
    assert model.status_words() == ("Alpha squad", "pinned", "flat down")
    assert model.summary_line() == "infantry SS 4 PF 0 MV 10 cm, unhurt, Alpha squad, pinned, flat down"
    # The key shows health and statuses for every system: its own words add only the squad.
    assert model.key_words() == ("Alpha squad",)


def test_machine_damage_facing_and_control() -> None:
    """A vehicle shows its facing, its damaged locations by name and an out-of-control badge."""
    tank = _unit(kind="vehicle", facing="SE", crew=2)
    tank.damaged = ["engine", "locomotion"]
    tank.ooc_turns = -1
    assert tank.badges() == ("OC", "DL") and tank.heading() == 135
    assert tank.health_text() == "damaged: Engine, Locomotive System; crew 2"
    assert "facing SE" in tank.status_words() and "out of control" in tank.status_words()
    assert tank.key_words() == ("out of control",)


def test_carried_model_is_off_the_map() -> None:
    """A model inside a vehicle, or fallen, is not drawn on the table."""
    model = _unit(kind="infantry")
    assert model.on_map
    model.inside = "u1"
    assert not model.on_map and "carried in a vehicle" in model.status_words()
    model.inside, model.state = "", "killed"
    assert not model.on_map, "a fallen model is removed from play"


def test_compass_rounds_to_the_nearest_point() -> None:
    """Headings read as the nearest of eight points."""
    assert [compass(d) for d in (0, 22, 23, 90, 200, 338)] == ["N", "N", "NE", "E", "S", "N"]
