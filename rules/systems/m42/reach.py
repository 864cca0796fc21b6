"""What a unit's options look like from where it stands: how far each action goes, and its Command Radius now."""

from __future__ import annotations

from dataclasses import dataclass

from rules.coords import Cell
from rules.systems.m42.board import Battle, opening_models, openings, region
from rules.systems.m42.kinds import actions_of
from rules.systems.m42.movement import allowance, reachable_all
from rules.systems.m42.placement import legal_spots, standing_at
from rules.systems.m42.units import Spot, Unit


@dataclass(frozen=True, slots=True)
class ActionReach:
    """One action from here: its full and halved distances in inches, and where the leader may end."""

    action: str
    name: str
    inches: float  # with the road bonus when the leader stands on a road
    halved: float  # through area terrain, over an obstacle or a wall without opening (A90)
    spots: frozenset[Spot]
    assault: bool

    @property
    def squares(self) -> frozenset[Cell]:
        """Return the squares the leader may end on, whatever the floor."""
        return frozenset(s.cell for s in self.spots)


def action_reach(battle: Battle, unit: Unit) -> list[ActionReach]:
    """Return every action of the battle with its distances and the spots its leader may reach now."""
    road = bool(region(battle, unit.leader.cell, "road"))
    out = []
    reaches = reachable_all(battle, unit)
    for action in actions_of(battle).values():
        full = allowance(battle, action, frozenset(), road)
        half = allowance(battle, action, frozenset({"area"}), road)
        out.append(ActionReach(action.key, action.title, full, half, frozenset(reaches[action.key]), action.assault))
    return out


def command_radius(battle: Battle, unit: Unit) -> frozenset[Cell]:
    """Return the squares a model of the unit could stand on now, around where its leader stands."""
    return frozenset(s.cell for s in legal_spots(battle, unit, unit.leader, set()))


@dataclass(frozen=True, slots=True)
class OpeningRoom:
    """An opening of the building the leader stands in that takes models outside it: how many, and how many more."""

    label: str
    width: float
    takes: int  # one model per full half inch of width, frame included (A95)
    left: int  # how many more it takes now, with the models standing at it


def opening_room(battle: Battle, unit: Unit) -> list[OpeningRoom]:
    """Return the unopenable openings of the leader's building, each with the models it takes and still takes."""
    building = region(battle, unit.leader.cell, "building")
    out = []
    for found in openings(battle, building) if building else ():
        if found.obstacle.openable:
            continue  # models stand inside behind it, anywhere within the Command Radius (004:L94)
        takes = opening_models(battle, found.width)
        there = standing_at(battle, unit, found, set(unit.spots()))
        out.append(OpeningRoom(found.label(), found.width, takes, max(0, takes - there)))
    return out


def reach_by_action(battle: Battle, unit_name: str) -> dict[str, dict[str, float]]:
    """Return, per action, the ground squares the leader may end on and the inches walked to each (4.5, not 4)."""
    unit = battle.unit(unit_name)
    out: dict[str, dict[str, float]] = {}
    reaches = reachable_all(battle, unit)
    for action in actions_of(battle).values():
        found = reaches[action.key]
        squares: dict[str, float] = {}
        for spot, reach in sorted(found.items(), key=lambda item: (item[0].y, item[0].x, item[0].level)):
            key = str(spot.cell)
            # To the hundredth: a quarter-inch grid walks 4.25", and a diagonal's root needs no more to be read.
            squares[key] = min(squares.get(key, 10.0**6), round(reach.walked, 2))
        out[action.key] = squares
    return out
