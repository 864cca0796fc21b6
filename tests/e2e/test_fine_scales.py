"""Squares that stand for a fraction of an inch or a centimetre, played through slash commands.

Every limit of M42's Command Radius table (RULES.md 5.2) is reached exactly at 1", 0.5" and 0.25" a square,
every Combat Action range band's edge and the half centimetre past it can be set up with a shot, an opening
spanning several sides takes one model per full half inch, and a 6'x4' table at half an inch (144 by 96
squares) is made, drawn and played.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from PIL import Image

from render import Geometry
from render.geometry import TITLE_HEIGHT_TWO_LINES
from rules.battle import Battle
from rules.coords import Cell, column_label
from rules.ruleset import get_ruleset
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle
from tests.render.render_samples import shows_text

LEADER_X = 9  # column J: every leader stands there, and its model is placed along its row


def _at(x: int, row: int) -> str:
    return f"{column_label(x)}{row}"


@pytest.mark.parametrize("scale", ["1", "0.5", "0.25"])
async def test_every_command_radius_limit_is_reached_exactly(table: Table, scale: str) -> None:
    """RULES.md 5.2 (004:L40 "2 x Ld", 004:L38 "half (or 1 x Ld)", 004:L74 "3 x Ld"; A89 "fully within"): with
    Ld 3 a model's base may reach exactly 6", 3" into area terrain and 9" along the leader's road, at every scale;
    one square further is beyond. At 0.5" the road's 9" is 18 squares, at 0.25" 36 squares."""
    made = await table.slash("battle new", name="Scales", ruleset="m42", width=60, height=60,
                             rules=f"inches_per_square={scale}")
    assert not last_message(made).ephemeral, text_of(made)
    await table.slash("map paint", terrain="woods", **{"from": "K25"}, to="BH35")
    await table.slash("map road", **{"from": "A50"}, to="BH50")
    size = Fraction(scale)
    rows = {  # unit: (row, inches of its limit, the rule a model one square further breaks)
        "Open": (10, 6, "the Command Radius (2 x Ld = 6\", 004:L40)"),
        "Woods": (30, 3, "into area terrain from outside it: 1 x Ld = 3\" (004:L38)"),
        "Road": (50, 9, "along the leader's road: 3 x Ld = 9\" (004:L74)"),
    }
    for name, (row, _inches, _rule) in rows.items():
        added = await table.slash("unit add", name=name, side="Red", at=_at(LEADER_X, row), owner=table.alice,
                                  ld=3, models=2)
        assert not last_message(added).ephemeral, text_of(added)
    for name, (row, inches, rule) in rows.items():
        squares = int(inches / size)
        inside, beyond = _at(LEADER_X + squares, row), _at(LEADER_X + squares + 1, row)
        placed = await table.slash("place", user=table.alice, unit=name, models=inside)
        assert not last_message(placed).ephemeral, text_of(placed)
        assert [str(m) for m in (await stored_battle(table)).unit(name).models] == [inside]
        far = float((squares + 1) * size)
        await refused(table, "place", f"its base would reach {far:g}\" from the leader's, beyond the limit here, {rule}",
                      user=table.alice, unit=name, models=beyond)


def _gunner() -> str:
    """Return a Combat Action stat block with a gun that reaches every band."""
    return json.dumps({"kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
                       "weapons": [{"name": "Gun", "class": "starcraft", "pen": 0}]})


BANDS = [  # scale in cm, map width, then each shot: squares, cm, band (003:L48-53, A75)
    ("0.5", 144, [(20, 10, "PB"), (21, 10.5, "S"), (60, 30, "S"), (61, 30.5, "L"), (140, 70, "L"), (141, 70.5, "VL")]),
    ("5.5", 30, [(20, 110, "VL")]),
    ("6.5", 30, [(17, 110.5, "BF")]),
    ("62.5", 30, [(8, 500, "BF")]),
    ("83.5", 30, [(6, 501, "UL")]),
]


@pytest.mark.parametrize(("scale", "width", "shots"), BANDS, ids=[b[0] for b in BANDS])
async def test_every_range_band_edge_is_a_shot(table: Table, scale: str, width: int,
                                               shots: list[tuple[int, float, str]]) -> None:
    """003:L48-53 "Point Blank (PB) | Up to 10 cm ... Unlimited (UL) | Above 500cm" (A75, upper bounds
    inclusive): at 0.5 cm a square a 10.5 cm shot is Short, 30.5 cm Long, 70.5 cm Very Long; 110.5 cm and 501 cm
    are set up at 6.5 and 83.5 cm a square, multiples of half a centimetre (a 0.5 cm map is 144 squares at most)."""
    made = await table.slash("battle new", name="Range", ruleset="combat-action", width=width, height=len(shots),
                             rules=f"cm_per_square={scale}")
    assert not last_message(made).ephemeral, text_of(made)
    await table.slash("turn mode", mode="free")
    for row, (squares, _cm, _band) in enumerate(shots, start=1):
        await table.slash("unit add", name=f"Shooter {row}", side="Red", at=f"A{row}", stats=_gunner(),
                          owner=table.alice)
        await table.slash("unit add", name=f"Target {row}", side="Blue", at=_at(squares, row), stats=_gunner())
    await table.slash("battle start")
    for row, (_squares, cm, band) in enumerate(shots, start=1):
        shot = await table.slash("ca fire", user=table.alice, unit=f"Shooter {row}", weapon="Gun",
                                 target=f"Target {row}")
        assert not last_message(shot).ephemeral, text_of(shot)
        record = await stored(table)
        outcome = (await table.db.events.list(record.id, limit=1, newest_first=True))[0].outcome
        assert isinstance(outcome, dict)
        test = outcome["tests"][0]
        assert (test["cm"], test["band"]) == (cm, band), test


async def test_a_scale_off_the_step_or_too_small_for_the_map_is_refused(table: Table) -> None:
    """A square is a positive multiple of a quarter inch; a map no larger than its scale allows: 144 by 96 squares
    is a 6'x4' table at 0.5", too large at 1"."""
    off = await table.slash("battle new", name="Odd", ruleset="m42", width=20, height=20, rules="inches_per_square=0.3")
    assert last_message(off).ephemeral
    assert "`inches_per_square` is a multiple of 0.25 from 0.25 to 12, like `1`, not `0.3`" in text_of(off)
    assert 'at 0.25" a square a map is at most 144x96 squares' in text_of(off)
    big = await table.slash("battle new", name="Big", ruleset="m42", width=144, height=96)
    assert last_message(big).ephemeral
    assert 'A 144x96 map is too large: at 1" a square a map is at most 100 squares a side' in text_of(big)
    other = await table.slash("battle new", name="Big", ruleset="strategic-e", width=101, height=10)
    assert last_message(other).ephemeral and "must be 1 to 100 squares, not 101" in text_of(other)
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None
    await table.slash("battle new", name="Table", ruleset="m42", width=144, height=96, rules="inches_per_square=0.5")
    await refused(table, "battle rules set", 'This map is 144x96 squares, too large for `inches_per_square` = 1: '
                  'at 1" a square a map is at most 100 squares a side', key="inches_per_square", value="1")
    await table.slash("unit add", name="Alpha", side="Red", at="A1", owner=table.alice, ld=3, models=1)
    await refused(table, "battle rules set", "`inches_per_square` cannot change once units are placed",
                  key="inches_per_square", value="0.25")


async def test_a_six_by_four_table_at_half_an_inch_is_drawn_to_its_far_corner(table: Table) -> None:
    """A 144 by 96 map renders whole: the far corner square shows its own terrain's colour."""
    await table.slash("battle new", name="Table", ruleset="m42", width=144, height=96, rules="inches_per_square=0.5")
    await table.slash("map paint", terrain="lava", **{"from": "EN96"})
    await table.slash("map paint", terrain="woods", **{"from": "A1"})
    shown = await table.slash("map show")
    image = Image.open(io.BytesIO(last_message(shown).files[0].data)).convert("RGB")
    geometry = Geometry.build(144, 96, title_height=TITLE_HEIGHT_TWO_LINES)
    terrain = get_ruleset("m42").terrain
    for label, key in (("EN96", "lava"), ("EM96", "open"), ("A1", "woods")):
        cell = Cell.parse(label)
        left, top, right, bottom = geometry.cell_box(cell.x, cell.y)
        assert image.width >= right and image.height >= bottom
        corner = image.getpixel((left + 2, top + 2))
        assert corner == terrain[key].color, (label, corner)


async def test_an_opening_across_several_sides_takes_a_model_per_half_inch(table: Table) -> None:
    """004:L104 "For each full half-inch of width, including a door or window's frame, you may place 1 infantry
    model"; 004:L106 outside an unopenable building; A95: a 1.2" door across three sides at 0.5" a square takes
    two models on any of its three squares, and /radius says how many more it takes."""
    await table.slash("battle new", name="Farm", ruleset="m42", width=30, height=20, rules="inches_per_square=0.5")
    await table.slash("map paint", terrain="building", **{"from": "K8"}, to="N14")
    edged = await table.slash("map edge", edges="K10-K12:w", obstacle="wall", height=3.0, opening=1.2, openable=False)
    assert not last_message(edged).ephemeral, text_of(edged)
    await table.slash("unit add", name="Alpha", side="Red", at="L11", owner=table.alice, ld=3, models=4)
    placed = await table.slash("place", user=table.alice, unit="Alpha", models="J10 J12 L10")
    assert not last_message(placed).ephemeral, text_of(placed)
    radius = await table.slash("radius", user=table.alice, unit="Alpha")
    assert 'J10|K10 to J12|K12 (1.2"): takes 2 model(s), 0 more now' in text_of(radius), text_of(radius)
    await refused(table, "place", "the opening J10|K10 to J12|K12 is 1.2\" wide and takes 2 model(s), one per full "
                  "0.5\" of width (004:L104, A95): 2 stand at it already, so it takes no more",
                  user=table.alice, unit="Alpha", models="J10 J11 J12")
    await table.slash("place", user=table.alice, unit="Alpha", models="J11 L10 L12")
    radius = await table.slash("radius", user=table.alice, unit="Alpha")
    assert 'J10|K10 to J12|K12 (1.2"): takes 2 model(s), 1 more now' in text_of(radius), text_of(radius)


async def test_a_battle_on_a_large_fine_map_exports_and_imports(table: Table) -> None:
    """An export of a 144 by 96 battle at 0.5" a square imports back: its log sets the scale before the map fills."""
    await table.slash("battle new", name="Table", ruleset="m42", width=144, height=96, rules="inches_per_square=0.5")
    await table.slash("unit add", name="Alpha", side="Red", at="EN96", owner=table.alice, ld=3, models=2)
    export = last_message(await table.slash("battle export")).files[0].data
    elsewhere = table.discord.add_channel(table.discord.guild, "again")
    rebuilt = await table.discord.slash("battle import", user=table.gm, channel=elsewhere,
                                        options={"file": ("battle.json", export)})
    await table.settle()
    assert not last_message(rebuilt).ephemeral, text_of(rebuilt)
    copy = await table.db.battles.in_channel(table.discord.guild.id, elsewhere.id)
    assert copy is not None
    battle = (await stored_battle(table))
    again = Battle.from_dict(copy.state)
    assert (again.width, again.height, again.const("inches_per_square")) == (144, 96, 0.5)
    assert again.unit("Alpha").models == battle.unit("Alpha").models


async def test_the_reach_map_at_half_an_inch_says_the_half_inch(table: Table) -> None:
    """A89 at 0.5" a square: an Advance of 9" (the GM's) halved in woods is 4.5"; `/map show reach:` draws the key
    line `Advance: up to 4.5"` on the image, never the whole-inch 4"."""
    await table.slash("battle new", name="Woods", ruleset="m42", width=40, height=20, rules="inches_per_square=0.5")
    await table.slash("map paint", terrain="woods", **{"from": "A1"}, to="AN20")
    await table.slash("battle rules set", key="advance_inches", value="9")
    await table.slash("unit add", name="Alpha", side="Red", at="J10", owner=table.alice, ld=3, models=1)
    await table.slash("unit add", name="Ghost", side="Blue", at="AM1", owner=table.bob, ld=3, models=1)
    await table.slash("battle start")
    shown = await table.slash("map show", user=table.alice, reach="Alpha")
    message = last_message(shown)
    assert message.files, text_of(shown)
    image = Image.open(io.BytesIO(message.files[0].data)).convert("RGB")
    assert shows_text(image, 'Advance: up to 4.5"')
    assert not shows_text(image, 'Advance: up to 4"')
