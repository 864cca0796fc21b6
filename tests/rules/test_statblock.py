"""Stat blocks: field validation, weapons and qualities, and the TOML stat-block file with line-and-field errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.battle import Battle
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, EditUnit
from rules.statfile import StatError
from rules.systems.strategic.movement import allowance
from rules.systems.strategic.statblock import apply_stats, parse_weapon
from rules.systems.strategic.statblock_file import parse_statblock_file
from rules.systems.strategic.units import UNIT_KINDS, Unit
from tests.rules.conftest import add, dice

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def unit(**stats: object) -> Unit:
    """Return a fresh unit with the given stats applied."""
    u = Unit(name="U", side="S", x=0, y=0)
    apply_stats(u, dict(stats), UNIT_KINDS)
    return u


# --- fields ----------------------------------------------------------------------------------


def test_bonus_is_the_tens_digit_times_unnatural() -> None:
    """A01: a characteristic bonus is floor(C/10); an Unnatural multiplier applies after flooring."""
    u = unit(s=47, t=52, unnatural={"s": 2})
    assert u.bonus("s") == 8 and u.bonus("t") == 5


def test_kinds_and_e_scale_alias() -> None:
    assert unit(kind="e-scale").kind == "ic"
    assert unit(kind="Horde").is_horde
    with pytest.raises(StatError, match="An Independent Character or E-Scale unit is `ic`"):
        unit(kind="dragon")


def test_horde_has_magnitude_not_wounds() -> None:
    """A01: a Horde has Magnitude instead of Wounds; squads and MP are Horde stats."""
    h = unit(kind="horde", magnitude=25, squads=3, mp=5)
    assert (h.magnitude, h.max_magnitude, h.squads, h.movement_points) == (25, 25, 3, 5)
    assert unit(kind="horde").magnitude == 30
    with pytest.raises(StatError, match="A Horde has `magnitude`, not `wounds`") as err:
        unit(kind="horde", wounds=10)
    assert err.value.path == ("wounds",)
    for key in ("magnitude", "squads", "mp"):
        with pytest.raises(StatError, match="is a Horde stat"):
            unit(**{key: 3})


def test_armour_by_location() -> None:
    u = unit(ap=6, armour={"head": 10})
    assert u.armour == {"head": 10, "body": 6, "r_arm": 6, "l_arm": 6, "r_leg": 6, "l_leg": 6}
    with pytest.raises(StatError, match="not a location") as err:
        unit(armour={"tail": 3})
    assert err.value.path == ("armour", "tail")


def test_movement_traits_and_altitude() -> None:
    u = unit(flyer=8, altitude=3, aquatic=True)
    assert u.flying and u.aquatic
    assert unit(hoverer=4).hovering
    with pytest.raises(StatError, match="Flyer trait"):
        unit(altitude=2)


def test_statuses_are_checked_and_deduplicated() -> None:
    assert unit(statuses=["prone", "Prone", "sunk"]).statuses == ["prone", "sunk"]
    with pytest.raises(StatError, match="one of") as err:
        unit(statuses=["prone", "asleep"])
    assert err.value.path == ("statuses", 1)


def test_skills_are_not_characteristics() -> None:
    assert unit(skills={"Dodge": 40, "heavy weapons": 30}).skills == {"dodge": 40, "heavy_weapons": 30}
    with pytest.raises(StatError, match="is a characteristic"):
        unit(skills={"ag": 40})


def test_nothing_is_written_when_one_field_is_wrong() -> None:
    u = unit(ag=40)
    before = u.to_dict()
    with pytest.raises(StatError):
        apply_stats(u, {"ag": 50, "wounds": -1}, UNIT_KINDS)
    assert u.to_dict() == before


# --- weapons ---------------------------------------------------------------------------------


def test_qualities_fill_their_fields() -> None:
    w = parse_weapon({"name": "Mines", "range": 5, "damage": "1d10+6X", "qualities": ["Tearing", "Blast(4)", "Reliable"]})
    assert (w.dtype, w.damage, w.blast, w.tearing, w.qualities) == ("X", "1d10+6", 4, True, ("Reliable",))
    assert w.area == "blast" and w.quality_words() == ["Blast(4)", "Tearing", "Reliable"]
    line = parse_weapon({"name": "Beam", "range": 12, "qualities": ["Line"]})
    assert line.line == 12 and line.area == "line"
    cone = parse_weapon({"name": "Flamer", "range": 3, "cone": True, "indirect": False})
    assert cone.area == "cone"
    field = parse_weapon({"name": "Angel Cross", "range": 10, "ats": 8})
    assert field.area == "at_field"
    knife = parse_weapon({"name": "Knife", "melee": True, "reach": 0})
    assert knife.melee and knife.reach == 0 and knife.area is None


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        ({"name": "Gun"}, ("weapons", 0, "range"), "needs a `range`"),
        ({"name": "Gun", "range": 5, "type": "Q"}, ("weapons", 0, "type"), "E, I, R or X"),
        ({"name": "Gun", "range": 5, "damage": "lots"}, ("weapons", 0, "damage"), "not dice notation"),
        ({"name": "Gun", "range": 5, "damage": "1d10X", "type": "E"}, ("weapons", 0, "type"), "says type X"),
        ({"name": "Gun", "range": 5, "blast": 2, "cone": True}, ("weapons", 0, "cone"), "Blast, Cone or Line"),
        ({"name": "Gun", "range": 5, "qualities": ["Blast"]}, ("weapons", 0, "qualities"), "needs its size"),
        ({"name": "Gun", "range": 5, "blast": 3, "qualities": ["Blast(2)"]}, ("weapons", 0, "blast"), "disagrees"),
        ({"name": "Gun", "range": 5, "pen": 101}, ("weapons", 0, "pen"), "0 to 100"),
        ({"name": "Gun", "range": 5, "range_unit": "ft"}, ("weapons", 0, "range_unit"), "dm, m, km, sq"),
        ({"name": "Gun", "range": 5, "scope": True}, ("weapons", 0, "scope"), "not a weapon field"),
        ({"range": 5}, ("weapons", 0, "name"), "needs a `name`"),
    ],
)
def test_bad_weapons(data: dict[str, object], path: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(StatError, match=fragment) as err:
        parse_weapon(data)
    assert err.value.path == path


def test_weapon_names_are_unique() -> None:
    with pytest.raises(StatError, match="`gun` is used twice") as err:
        unit(weapons=[{"name": "Gun", "range": 5}, {"name": "gun", "range": 6}])
    assert err.value.path == ("weapons", 1, "name")


def test_add_unit_refusal_changes_nothing(battle_p: Battle) -> None:
    before = battle_p.to_dict()
    with pytest.raises(InvalidOrderError, match="ag"):
        add(battle_p, "U", "Red", "A1", ag=500)
    assert battle_p.to_dict() == before


def test_edit_unit_of_a_horde(battle_p: Battle) -> None:
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=20)
    battle_p.apply(EditUnit(unit="Mob", stats={"magnitude": 12}), dice())
    assert battle_p.unit("Mob").magnitude == 12 and battle_p.unit("Mob").max_magnitude == 20


# --- the file format --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_examples_load_and_can_be_added(path: Path) -> None:
    specs = parse_statblock_file(path.read_text(encoding="utf-8"))
    battle = Battle.new("strategic-e", 20, 20)
    for spec in specs:
        battle.apply(AddUnit(name=spec.name, side=spec.side, at=spec.at, stats=spec.stats), dice())
    assert len(battle.units) == len(specs) >= 1


def test_the_four_examples_are_what_they_say() -> None:
    def one(name: str) -> Unit:
        (spec,) = parse_statblock_file((EXAMPLES / name).read_text(encoding="utf-8"))
        u = Unit(name=spec.name, side=spec.side, x=spec.at.x, y=spec.at.y)
        apply_stats(u, spec.stats, UNIT_KINDS)
        return u

    eva, tank, infantry, armour = (one(n) for n in ("eva-01.toml", "superheavy.toml", "infantry-horde.toml",
                                                    "armoured-horde.toml"))
    assert eva.unit_class == "eva" and not eva.is_horde and eva.bonus("s") == 10
    assert tank.unit_class == "superheavy" and tank.sinks_in_deep_water
    assert infantry.is_horde and infantry.squads == 4 and infantry.unit_class == "infantry"
    assert armour.is_horde and armour.magnitude == 25 and armour.max_magnitude == 30
    assert allowance(Battle.new("strategic-p", 5, 5), armour, "full") == 6


GOOD = """\
# two units
[[unit]]
name = "Eva-02"
side = "NERV"
at = "C4"
owner = "@asuka"
class = "eva"
ag = 52
wounds = 40

[unit.armour]
head = 9
body = 12

[[unit.weapons]]
name = "Sonic Glaive"
melee = true
damage = "2d10+5"
type = "R"

[[unit.weapons]]
name = "Pallet Rifle"
range = 300
damage = "2d10+6"
pen = 4

[[unit]]
name = "Riflemen"
side = "JSSDF"
at = "D5"
kind = "horde"
magnitude = 30
weapons = [
  { name = "Rifles", range = 100, range_unit = "m" },
  { name = "Grenades", range = 3, damage = "2d10", qualities = ["Blast(2)"] },
]
"""


def test_good_file() -> None:
    eva, mob = parse_statblock_file(GOOD)
    assert (eva.name, eva.side, str(eva.at), eva.owner, eva.line) == ("Eva-02", "NERV", "C4", "asuka", 2)
    assert eva.stats["armour"] == {"head": 9, "body": 12} and len(eva.stats["weapons"]) == 2
    assert mob.owner is None and mob.stats["kind"] == "horde" and mob.line == 27


@pytest.mark.parametrize(
    ("old", "new", "line", "field"),
    [
        ("ag = 52", "ag = 520", 8, "ag"),
        ("ag = 52", 'ag = "quick"', 8, "ag"),
        ("body = 12", "tail = 12", 13, "armour.tail"),
        ('type = "R"', 'type = "Z"', 19, "weapons[1].type"),
        ("pen = 4", "pen = -4", 25, "weapons[2].pen"),
        ('at = "C4"', 'at = "4C"', 5, "at"),
        ('class = "eva"', 'class = "angel"', 7, "class"),
        ("wounds = 40", "wounds = 40\nmagnitude = 3", 10, "magnitude"),
        ('qualities = ["Blast(2)"]', 'qualities = ["Blast"]', 35, "weapons[2].qualities"),
        ('range_unit = "m"', 'range_unit = "yards"', 34, "weapons[1].range_unit"),
        ("magnitude = 30", "magnitude = 30\nspeed = 4", 33, "speed"),
        ('name = "Riflemen"', 'name = "eva-02"', 28, "name"),
        ('at = "D5"', 'at = "D5"\nowner = true', 31, "owner"),
    ],
)
def test_errors_name_the_line_and_the_field(old: str, new: str, line: int, field: str) -> None:
    assert old in GOOD
    with pytest.raises(InvalidOrderError) as err:
        parse_statblock_file(GOOD.replace(old, new, 1))
    assert err.value.message.startswith(f"Line {line} ")
    assert f"field `{field}`" in err.value.message


def test_missing_required_field_points_at_the_unit() -> None:
    with pytest.raises(InvalidOrderError, match=r"^Line 27 \(unit Riflemen\), field `side`: every unit needs `side`"):
        parse_statblock_file(GOOD.replace('side = "JSSDF"\n', ""))


def test_syntax_error_names_line_and_column() -> None:
    with pytest.raises(InvalidOrderError, match=r"^Line 8, column \d+: this is not valid TOML"):
        parse_statblock_file(GOOD.replace("ag = 52", "ag = = 52"))


def test_two_hordes_on_one_square_are_refused() -> None:
    text = GOOD + '\n[[unit]]\nname = "More"\nside = "JSSDF"\nat = "D5"\nkind = "horde"\n'
    with pytest.raises(InvalidOrderError, match=r"^Line 41 \(unit More\), field `at`.*two Hordes"):
        parse_statblock_file(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("", "no units"), ("title = 'x'\n", r"^Line 1: `title` is not part"), ("[[unit]]\n" * 401, "at most 400"),
     ("[[unit]]\nname = 'a'\nside = 's'\nat = 'A1'\nborn = 1999-01-01\n", r"^Line 5 .*`born`.*date")],
)
def test_bad_files(text: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        parse_statblock_file(text)


def test_nothing_is_imported_when_a_later_unit_is_wrong(battle_p: Battle) -> None:
    """Every unit is validated before any is returned, so a broken file adds nobody."""
    with pytest.raises(InvalidOrderError, match=r"^Line 32 .*field `magnitude`"):
        parse_statblock_file(GOOD.replace("magnitude = 30", "magnitude = -30"))


def test_adding_a_spec_onto_an_enemy_horde_is_refused(battle_p: Battle) -> None:
    _, mob = parse_statblock_file(GOOD)
    add(battle_p, "Other", "Reds", "D5", kind="horde", magnitude=10)
    before = battle_p.to_dict()
    with pytest.raises(IllegalOrderError, match="enemy Horde"):
        battle_p.apply(AddUnit(name=mob.name, side=mob.side, at=mob.at, stats=mob.stats), dice())
    assert battle_p.to_dict() == before
