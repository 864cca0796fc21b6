"""What the map and its unit key say of Combat Action units: badges, facing, damage, squad."""

from __future__ import annotations

from rules.systems.combat_action.marks import compass, facing, health_words, map_marks, status_words
from rules.systems.combat_action.statblock import apply_stats
from rules.systems.combat_action.units import Unit


def _unit(**stats: object) -> Unit:
    unit = Unit("U", "Red", 0, 0)
    apply_stats(unit, dict(stats))
    return unit


def test_model_badges_and_words() -> None:
    """A pinned, flat down model of a squad shows P and FD and no facing; the key names its squad."""
    model = _unit(kind="infantry", squad="Alpha", statuses=["pinned", "flat_down"])
    assert map_marks(model) == ("P", "FD") and facing(model) is None
    assert status_words(model) == ("Alpha squad", "pinned", "flat down")


def test_machine_damage_facing_and_control() -> None:
    """A vehicle shows its facing, its damaged locations by name and an out-of-control badge."""
    tank = _unit(kind="vehicle", facing="SE", crew=2)
    tank.damaged = ["engine", "locomotion"]
    tank.ooc_turns = -1
    assert map_marks(tank) == ("OC", "DL") and facing(tank) == 135
    assert health_words(tank) == "damaged: Engine, Locomotive System; crew 2"
    assert "facing SE" in status_words(tank) and "out of control" in status_words(tank)


def test_compass_rounds_to_the_nearest_point() -> None:
    """Headings read as the nearest of eight points."""
    assert [compass(d) for d in (0, 22, 23, 90, 200, 338)] == ["N", "N", "NE", "E", "S", "N"]
