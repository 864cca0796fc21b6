"""Every row of every table of the Combat Action screen (seed 003), each from its own seed line."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from rules.errors import RulesetError
from rules.systems.combat_action import damage, fire
from rules.systems.combat_action.tables import parse_tables, tables

# 003:L19-41 "Number of Actions per Activity", as printed.
AP_ROWS = [
    ("Walk", 1), ("Charge", 2), ("Hide behind cover", 1), ('Go "Flat down"', 1),
    ('Getting up from "Flat down"', 1), ("Pilot a vehicle", 2), ("Control a robot", 2), ("Standard fire", 1),
    ("Aim and fire a sniping weapon", 2), ("Fire a weapon in automatic", 2), ("Fire a heavy weapon", 2),
    ("Aim with a targeting device", 1), ("Attack in close combat", 2), ("Prime a grenade", 1),
    ("Throw a grenade", 1), ("Impart an order", 1), ("Open a door", 1), ("Jump over an obstacle", 1),
    ("Climb over an obstacle", 2), ("Reload a weapon", 1), ("Unjam a weapon", 2),
]


@pytest.mark.parametrize(("action", "ap"), AP_ROWS)
def test_ap_cost_row(action: str, ap: int) -> None:
    """003:L19-41: `| <action> | <AP> |`, one row each."""
    costs = {name: points for name, points in tables().ap_costs.values()}
    assert costs[action] == ap


def test_ap_table_has_exactly_the_screen_rows() -> None:
    """The screen lists 21 actions; no row is missing or invented."""
    assert sorted(n for n, _ in tables().ap_costs.values()) == sorted(n for n, _ in AP_ROWS)


def test_phases() -> None:
    """003:L11-15: Discipline Phase, Action Resolution Phase, End Phase, in that order."""
    assert tables().phases == ("discipline", "action_resolution", "end")


# 003:L45-53 Range Categories; A75 upper bounds inclusive. (squares at 5 cm, band) at each edge.
@pytest.mark.parametrize(("squares", "band"), [
    (0, "CC"),                      # "Close Combat (CC) | 0 cm"
    (1, "PB"), (2, "PB"),           # "Point Blank (PB) | Up to 10 cm": 5, 10 cm
    (3, "S"), (6, "S"),             # "Short (S) | 10 to 30 cm": 15 .. 30 cm
    (7, "L"), (14, "L"),            # "Long (L) | 30 to 70 cm": 35 .. 70 cm
    (15, "VL"), (22, "VL"),         # "Very Long (VL) | 70 to 110cm": 75 .. 110 cm
    (23, "BF"), (100, "BF"),        # "Battlefield (BF) | 110cm to 500cm": 115 .. 500 cm
    (101, "UL"), (400, "UL"),       # "Unlimited (UL) | Above 500cm"
])
def test_band_edges_at_five_cm(squares: int, band: str) -> None:
    """Every band edge at the squares it falls on with the default 5 cm a square."""
    assert fire.band_for_squares(squares, 5).key == band


@pytest.mark.parametrize(("squares", "band"), [(1, "PB"), (2, "S"), (3, "S"), (4, "L"), (7, "L"), (8, "VL"),
                                               (11, "VL"), (12, "BF"), (50, "BF"), (51, "UL")])
def test_band_edges_at_ten_cm(squares: int, band: str) -> None:
    """A GM scale of 10 cm a square moves each edge: 10 cm is 1 square, 30 cm 3, 70 cm 7, 110 cm 11, 500 cm 50."""
    assert fire.band_for_squares(squares, 10).key == band


def test_base_contact_squares_widen_close_combat() -> None:
    """A75: CC = base contact; counting adjacent squares as contact makes 1 square CC instead of PB."""
    assert fire.band_for_squares(1, 5, 0).key == "PB"
    assert fire.band_for_squares(1, 5, 1).key == "CC"


# 003:L57-68 Weapon Ranges and Bonuses to Hit; blank = +0 (A74).
CLASS_ROWS = {
    "pistol": {"PB": 1}, "rifle": {"PB": 1}, "sniping": {"PB": 1}, "heavy": {"PB": 1},
    "very_heavy": {"S": 1}, "assault": {"PB": 2, "S": 1}, "grenades": {"PB": 1},
    "close_combat": {"CC": 1}, "heavy_close_combat": {"CC": 2}, "starcraft": {},
}


@pytest.mark.parametrize(("wclass", "row"), CLASS_ROWS.items())
def test_weapon_class_row(wclass: str, row: dict[str, int]) -> None:
    """003:L59-68: each class's bonus in every band, blank cells +0."""
    table = tables()
    for band in table.bands:
        assert fire.class_bonus(table.weapon_classes[wclass], band) == row.get(band.key, 0), (wclass, band.key)


@pytest.mark.parametrize(("wclass", "last"), [
    ("pistol", "S"), ("assault", "S"), ("grenades", "S"), ("rifle", "VL"), ("heavy", "VL"),
    ("sniping", "BF"), ("very_heavy", "BF"), ("close_combat", "CC"), ("heavy_close_combat", "CC"),
    ("starcraft", "UL"),
])
def test_default_max_band(wclass: str, last: str) -> None:
    """A74: "use the defaults Pistol S, Assault S, Grenades S, Rifle VL, Heavy VL, Sniping BF, Very Heavy BF,
    Close Combat and Heavy Close Combat CC only, Starcraft UL"."""
    table = tables()
    wc = table.weapon_classes[wclass]
    index = table.band_index(last)
    assert fire.may_reach(wc, None, table.band(last))
    if index + 1 < len(table.bands):
        assert not fire.may_reach(wc, None, table.bands[index + 1])


def test_profile_max_band_overrides_class() -> None:
    """A74: "The maximum range comes from the weapon profile (maxBand)"."""
    table = tables()
    pistol = table.weapon_classes["pistol"]
    assert not fire.may_reach(pistol, None, table.band("L"))
    assert fire.may_reach(pistol, "L", table.band("L"))


def test_ranged_classes_cannot_fire_in_close_combat_band_by_reach() -> None:
    """CC-only classes fire only in CC (A74); a rifle's reach starts at PB."""
    table = tables()
    assert not fire.may_reach(table.weapon_classes["close_combat"], None, table.band("PB"))
    assert not fire.may_reach(table.weapon_classes["rifle"], None, table.band("CC"))


@pytest.mark.parametrize(("size", "mod"), [("small", -1), ("medium", 0), ("large", 1), ("very_large", 2)])
def test_size_modifier(size: str, mod: int) -> None:
    """003:L72-75: Small -1; Medium (man-sized) 0; Large target or vehicle +1; Very large or building +2."""
    assert fire.size_mod(size) == mod


@pytest.mark.parametrize(("moved", "mod"), [(0, 0), (29, 0), (30, -1), (39, -1), (40, -2), (49, -2), (50, -3)])
def test_speed_modifier(moved: int, mod: int) -> None:
    """003:L83-84 "Moved 30cm or more: -1; Every additional 10cm moved after 30cm: -1" (A76: full steps)."""
    assert fire.speed_mod(moved) == mod


def test_speed_modifier_thresholds_are_parameters() -> None:
    """A76 constants: a 20 cm threshold penalises a 25 cm move the default leaves alone."""
    assert fire.speed_mod(25) == 0
    assert fire.speed_mod(25, threshold=20, step=10) == -1


@pytest.mark.parametrize(("cover", "pf"), [("flat_down", 1), ("partial", 2), ("slit", 3)])
def test_cover_pf_row(cover: str, pf: int) -> None:
    """003:L88-90: Flat down +1; Partial cover +2; Slit +3."""
    assert fire.cover_bonus([cover]) == pf


def test_cover_highest_only_and_stacking_override() -> None:
    """A78: "take only the highest applicable bonus; they do not stack"; the override adds them."""
    assert fire.cover_bonus(["flat_down", "slit"]) == 3
    assert fire.cover_bonus(["flat_down", "slit"], stacks=True) == 4


@pytest.mark.parametrize(("face", "living", "building"), [
    (6, "wounded", "section_pierced"), (5, "wounded", "section_pierced"),
    (4, "ooa", "partial_collapse"), (3, "ooa", "partial_collapse"),
    (2, "killed", "section_destroyed"), (1, "killed", "section_destroyed"),
])
def test_living_and_building_rows(face: int, living: str, building: str) -> None:
    """003:L94-98 with merged cells read in pairs (A79): 6-5 Wounded/Pierced, 4-3 OoA/Partial, 2-1 Killed/Destroyed."""
    assert damage.living_result(face, pf=0, pen=0) == living
    assert damage.building_result(face, pf=0, pen=0) == building


def test_living_lookup_uses_pf_minus_pen_clamped() -> None:
    """A79: "the value looked up is clamp(d6 + PF - Pen, 1, 6)"; the raw-d6 alternative ignores both."""
    assert damage.living_value(3, pf=2, pen=0) == 5       # cover makes the result milder
    assert damage.living_value(2, pf=0, pen=4) == 1       # clamped at 1
    assert damage.living_value(6, pf=5, pen=0) == 6       # clamped at 6
    assert damage.living_result(3, pf=2, pen=0) == "wounded"
    assert damage.living_result(3, pf=2, pen=0, uses_pf=False) == "ooa"


# 003:L186-197 Vehicle and Robot Damage Table.
@pytest.mark.parametrize(("value", "key"), [
    (-5, "antenna"), (-3, "antenna"), (-2, "hold"), (-1, "weapon_system"), (0, "locomotion"),
    (1, "power_grid"), (2, "ammo_feed"), (3, "engine"), (4, "control"), (5, "pilot"), (6, "power_plant"),
    (9, "power_plant"),
])
def test_machine_rows(value: int, key: str) -> None:
    """"-3 or less | Antenna" ... "6 or more | Power Plant", one row each."""
    assert damage.machine_row(value).key == key


def test_machine_roll_is_d6_plus_pen_minus_pf() -> None:
    """003:L184 "Roll a d6, add the Pen of the weapon that hit it and subtract the PF of the target"."""
    assert damage.machine_value(4, pen=3, pf=5) == 2


def test_next_result_down() -> None:
    """003:L184 "If the location does not exist or has already been damaged, select the next result down";
    A82: down is toward Power Plant, repeated; the override searches toward Antenna."""
    everything = [r.key for r in tables().locations]
    assert damage.machine_location(0, everything, ["locomotion"]).key == "power_grid"
    assert damage.machine_location(0, everything, ["locomotion", "power_grid"]).key == "ammo_feed"
    robot = [k for k in everything if k != "hold"]
    assert damage.machine_location(-2, robot, []).key == "weapon_system"
    assert damage.machine_location(6, [], []).key == "power_plant"
    assert damage.machine_location(0, everything, ["locomotion"], down=False).key == "weapon_system"


@pytest.mark.parametrize(("face", "action"), [(1, "halt"), (2, "halt"), (3, "halt"), (4, "repeat"),
                                              (5, "repeat"), (6, "repeat")])
def test_slave_robot_row(face: int, action: str) -> None:
    """003:L130-133: "1 - 3 | Grinds to a halt", "4 - 6 | Repeats same action as previous turn"."""
    assert tables().ooc_slave[face] == action


@pytest.mark.parametrize(("face", "action"), [
    (1, "halt"), (2, "halt"), (3, "halt"), (4, "shoot_nearest_enemy"), (5, "move_half_random"),
    (6, "shoot_nearest_any"),
])
def test_autonomous_robot_row(face: int, action: str) -> None:
    """003:L137-142: 1-3 halt; 4 shoots nearest enemy; 5 moves half MV at random; 6 nearest target, friend or foe."""
    assert tables().ooc_autonomous[face] == action


@pytest.mark.parametrize(("face", "change"), [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_altitude_row(face: int, change: int) -> None:
    """003:L155-159: "1 - 2 | 1 Level lower", "3 - 4 | Same level", "5 - 6 | 1 Level Higher"."""
    assert tables().altitude[face] == change


@pytest.mark.parametrize(("face", "turn"), [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_vehicle_direction_row(face: int, turn: int) -> None:
    """A80: "1-2 = 45 degrees left, 3-4 = straight ahead, 5-6 = 45 degrees right of the vehicle's front"."""
    assert tables().vehicle_direction[face] == turn


@pytest.mark.parametrize(("terrain", "pf"), [("rock", 10), ("earth", 8), ("woods", 6), ("ice", 8), ("snow", 3),
                                             ("concrete", "concrete_pf"),
                                             ("military_concrete", "military_concrete_pf")])
def test_obstacle_pf_row(terrain: str, pf: int | str) -> None:
    """003:L118-126 PF for Terrain Features; Concrete "9 or more" and Military "13 or more" are constants (A81)."""
    assert tables().obstacle_pf[terrain] == pf


@pytest.mark.parametrize(("miss", "grenade", "cm"), [(1, True, 3), (2, True, 6), (1, False, 4), (3, False, 12),
                                                     (0, True, 0)])
def test_deviation_distance(miss: int, grenade: bool, cm: int) -> None:
    """003:L109-111: "miss = SS - to hit die roll"; "Grenades = miss * 3cm"; "Other Weapons = miss * 4cm"."""
    assert fire.deviation_cm(miss, grenade) == cm


@pytest.mark.parametrize(("face", "deg"), [(1, 0), (2, 60), (3, 120), (4, 180), (5, 240), (6, 300)])
def test_deviation_sectors(face: int, deg: int) -> None:
    """A80: "six 60 degree sectors, clockwise. 1 = straight on ... 4 = 180 (back toward the shooter)"."""
    assert fire.deviation_angle(face) == deg


def test_deviation_lands_on_the_map_direction() -> None:
    """A80: a 1 carries on along the line of fire; a 4 comes back toward the shooter."""
    from rules.coords import Cell

    shooter, target = Cell(0, 5), Cell(10, 5)
    assert fire.deviate(shooter, target, 1, 10, 5) == Cell(12, 5)
    assert fire.deviate(shooter, target, 4, 10, 5) == Cell(8, 5)
    assert fire.deviate(shooter, target, 1, 10, 5, sector_degrees=90) == Cell(12, 5)
    assert fire.deviate(shooter, target, 2, 10, 5, sector_degrees=90) == Cell(10, 7)


def test_to_hit_meets_or_beats_ss() -> None:
    """A73: "roll 1d6 + modifiers; hit if the total >= SS"; miss = SS - modified roll, only when > 0."""
    from rules.modifiers import Modifier

    shot = fire.ToHit(die=3, modifiers=(Modifier("Point Blank", 1),), ss=4)
    assert shot.total == 4 and shot.hit and shot.miss == 0
    shot = fire.ToHit(die=1, modifiers=(Modifier("Small target", -1),), ss=4)
    assert not shot.hit and shot.miss == 4
    equal = fire.ToHit(die=4, modifiers=(), ss=4, on_equal=False)
    assert not equal.hit  # the A73 override: the roll must beat SS


def test_invalid_table_names_the_field() -> None:
    """A data file with a band a class does not know is refused, naming the file and the field."""
    path = resources.files("rules.systems.combat_action").joinpath("data").joinpath("combat-action.toml")
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc["combat_action"]["weapon_class"]["pistol"]["max_band"] = "XX"
    with pytest.raises(RulesetError, match=r"combat-action.toml combat_action.weapon_class.pistol"):
        parse_tables(doc)


RULINGS = [f"A{n}" for n in range(72, 89)]


@pytest.mark.parametrize("ruling", RULINGS)
def test_every_ruling_is_a_named_constant(ruling: str) -> None:
    """RULES.md: "Every ruling is a named, documented constant in the ruleset data" (A72..A88; A79's data
    is the damage table itself and A79's alternative is `living_damage_uses_pf`)."""
    path = resources.files("rules.systems.combat_action").joinpath("data").joinpath("combat-action.toml")
    constants = tomllib.loads(path.read_text(encoding="utf-8"))["constants"]
    assert any(spec.get("ruling") == ruling and spec.get("doc") for spec in constants.values()), ruling
