"""The adapter from a battle to the renderer's view: the unit key's facts, the title's turn line, overlays."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.clock import whose_turn
from bot.mapview import (
    build_view,
    last_action,
    overlays_for,
    range_overlay,
    short_labels,
    status_line,
)
from render import AreaOfEffect, Geometry, LineOfFire, MissLanding, MovePath, TargetSquare, render_map
from render.layers.units import TokenSize
from rules import turns
from rules.battle import Battle
from rules.colours import PALETTE, side_colours
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Move, RemoveUnit, SetSideColour, Start
from rules.outcome import Highlight
from rules.systems.strategic.details import AreaHitNote, AttackDetails
from rules.systems.strategic.ranges import bands, weapon_range
from rules.systems.strategic.units import Weapon
from rules.turnorders import SetTurnMode
from rules.visibility import GM, HIDDEN, Viewer


def dice() -> Dice:
    """Return seeded dice."""
    return Dice(random.Random(0))


def battle_with_units(mode: str = "side") -> Battle:
    """Return an E-Scale battle with two NERV units (one owned by user 11) and an Angel Horde."""
    battle = Battle.new("strategic-e", 20, 15, "Test")
    battle.apply(AddUnit(name="Eva-01", side="NERV", at=Cell.parse("C3"), owner=11, stats={"ag": 45, "wounds": 30}),
                 dice())
    battle.apply(AddUnit(name="Eva-02", side="NERV", at=Cell.parse("C5"), stats={"ag": 45}), dice())
    battle.apply(AddUnit(name="Angel Swarm", side="Angels", at=Cell.parse("P10"),
                         stats={"kind": "horde", "magnitude": 30}), dice())
    battle.apply(SetTurnMode(mode=mode), dice())
    return battle


def test_the_key_gets_names_owners_health_and_statuses() -> None:
    battle = battle_with_units()
    battle.unit("Eva-01").statuses.append("pinned")
    battle.unit("Eva-01").status_rounds["pinned"] = 2
    view = build_view(battle, owner_names={11: "shinji"}.get)
    eva, other, swarm = view.units
    assert (eva.name, eva.owner, eva.health_text, eva.statuses) == ("Eva-01", "shinji", "Wounds 30/30",
                                                                      ("Pinned (2 rounds)",))
    assert eva.marks == ("P",)
    assert other.owner == "" and swarm.health_text == "Magnitude 30/30" and swarm.is_horde


def test_the_key_says_each_word_of_a_unit_once() -> None:
    """A flat-down model and a crewed vehicle: health and statuses appear once each in the unit key."""
    battle = Battle.new("combat-action", 12, 10, "Ford")
    battle.apply(AddUnit(name="Orr", side="Rangers", at=Cell.parse("B2"),
                         stats={"kind": "infantry", "squad": "Alpha", "statuses": ["flat_down"]}), dice())
    battle.apply(AddUnit(name="Mule", side="Rangers", at=Cell.parse("D4"), stats={"kind": "vehicle", "crew": 2}),
                 dice())
    orr, mule = build_view(battle).units
    orr_words = [orr.health_text, *orr.statuses]
    assert [w.lower() for w in orr_words].count("flat down") == 1 and "Alpha squad" in orr_words
    mule_words = [mule.health_text, *mule.statuses]
    assert sum(w.count("crew 2") for w in mule_words) == 1, mule_words


def test_the_title_line_says_the_phase_and_who_acts() -> None:
    battle = battle_with_units("side")
    assert status_line(battle) == "Setting up"
    battle.apply(Start(), dice())
    assert status_line(battle) == "Round 1, NERV phase \u00b7 to act: Eva-01, Eva-02"
    assert build_view(battle).status == status_line(battle)
    assert build_view(battle).title == "Test \u00b7 Strategic Combat (E-Scale, 1 square = 1 km)"


def test_the_title_line_in_initiative_mode_names_the_unit_whose_turn_it_is() -> None:
    battle = battle_with_units("initiative")
    battle.apply(Start(), dice())
    line = status_line(battle)
    assert line.startswith("Round 1, ") and "'s turn \u00b7 to act: " in line
    who = line.rsplit("to act: ", 1)[1]
    assert line == f"Round 1, {who}'s turn \u00b7 to act: {who}"


def test_a_hidden_unit_due_is_not_named_in_the_public_title() -> None:
    """RULES.md's hidden units: only their side and the GM see them, so the map's title does not name one."""
    battle = battle_with_units("side")
    battle.apply(Start(), dice())
    battle.unit("Eva-02").statuses.append(HIDDEN)
    assert status_line(battle) == "Round 1, NERV phase \u00b7 to act: Eva-01 and 1 out of sight"
    assert "Eva-02" not in build_view(battle).status
    assert status_line(battle, Viewer.of(["NERV"])) == "Round 1, NERV phase \u00b7 to act: Eva-01, Eva-02"
    assert status_line(battle, GM).endswith("to act: Eva-01, Eva-02")


def test_a_hidden_unit_whose_initiative_turn_it_is_is_not_named() -> None:
    battle = battle_with_units("initiative")
    battle.apply(Start(), dice())
    current = battle.units[turns.current_unit(battle)]
    current.statuses.append(HIDDEN)
    assert current.name not in whose_turn(battle)
    assert whose_turn(battle) == "Round 1, a unit out of sight acts"
    assert current.name in whose_turn(battle, Viewer.of([current.side]))


def test_many_units_due_are_counted_not_listed() -> None:
    battle = Battle.new("strategic-e", 20, 15, "Crowd")
    for i in range(7):
        battle.apply(AddUnit(name=f"Unit {i}", side="NERV", at=Cell(i, 0)), dice())
    battle.apply(SetTurnMode(mode="free"), dice())
    battle.apply(Start(), dice())
    assert status_line(battle).endswith("to act: Unit 0, Unit 1, Unit 2, Unit 3 and 3 more")


def _attack(form: str, hits: tuple[AreaHitNote, ...] | None = None) -> AttackDetails:
    return AttackDetails(unit="Gun", weapon="Mortar", target=None, at="H3", distance=5, form=form, hits=hits)


def test_an_area_attack_is_drawn_as_its_shape_with_its_hits() -> None:
    highlight = Highlight(actor="C3", target="H3", line=["C3", "H3"], hit=True)
    hits = (AreaHitNote(unit="A", why="aimed", cell="H3"), AreaHitNote(unit="B", why="random", cell="H3"))
    marks = overlays_for(highlight, _attack("blast", hits=hits))
    area = next(o for o in marks if isinstance(o, AreaOfEffect))
    assert (area.kind, area.cells, area.src, area.label) == ("blast", ((7, 2),), (2, 2), "Blast: 2 hits")
    assert any(isinstance(o, LineOfFire) for o in marks)
    assert not any(isinstance(o, TargetSquare) for o in marks), "the area marks the square itself"
    line = overlays_for(Highlight(line=["C3", "F3"], cells=["D3", "E3", "F3"], hit=False), _attack("line"))
    area = next(o for o in line if isinstance(o, AreaOfEffect))
    assert area.cells == ((3, 2), (4, 2), (5, 2)) and area.label == "Line: missed"
    plain = overlays_for(Highlight(target="H3", line=["C3", "H3"], hit=True), _attack("ranged"))
    assert any(isinstance(o, TargetSquare) for o in plain) and not any(isinstance(o, AreaOfEffect) for o in plain)


def test_a_landed_miss_is_drawn_where_it_came_down() -> None:
    marks = overlays_for(Highlight(target="H3", landed="J5", line=["C3", "H3"], hit=False))
    assert MissLanding(aim=(7, 2), landed=(9, 4)) in marks


def test_range_bands_follow_the_rules_bands() -> None:
    battle = battle_with_units()
    unit = battle.unit("Eva-01")
    rifle = Weapon(name="Rifle", range=4, range_unit="km")
    overlay = range_overlay(battle, unit, rifle)
    expected = [(b.name, b.low, b.high) for b in bands(battle, weapon_range(battle, rifle))
                if b.low is not None and b.high is not None]
    assert [(b.name, b.low, b.high) for b in overlay.bands] == expected
    assert overlay.src == (unit.x, unit.y) and expected, "a 4 km rifle has bands on a 1 km map"


def test_the_last_move_is_what_map_show_draws() -> None:
    battle = battle_with_units("free")
    battle.apply(Start(), dice())
    battle.apply(Move(unit="Eva-01", to=Cell.parse("F3"), mode="full"), dice())
    last = last_action(battle)
    assert last.path[0] == "C3" and last.path[-1] == "F3"
    assert next(o for o in overlays_for(last) if isinstance(o, MovePath)).cells[-1] == (5, 2)


def test_many_units_with_the_same_initials_get_distinct_short_labels() -> None:
    """Labels are at most four characters: past nine units sharing initials the number takes more room."""
    names = [f"Tank of Rome {chr(65 + i % 26)}{chr(97 + i // 26)}" for i in range(400)]
    labels = short_labels(names)
    assert len(set(labels.values())) == 400 and all(len(label) <= 4 for label in labels.values())
    assert labels[names[0]] == "TOR" and labels[names[9]] == "TO10"


def test_a_unit_added_since_the_last_map_gets_a_label_of_its_own() -> None:
    """The labels of a roster are kept between maps; a unit added with the same initials is told apart at once."""
    battle = Battle.new("strategic-e", 8, 8, "Labels")
    battle.apply(AddUnit(name="Tank of Rome", side="A", at=Cell.parse("A1")), dice())
    first = {u.key: u.label for u in build_view(battle).units}
    assert first == {"Tank of Rome": "TOR"}
    assert {u.key: u.label for u in build_view(battle).units} == first
    battle.apply(AddUnit(name="Tower of Rust", side="B", at=Cell.parse("C3")), dice())
    assert {u.key: u.label for u in build_view(battle).units} == {"Tank of Rome": "TOR", "Tower of Rust": "TOR2"}


def _token_colour(battle: Battle, cell: str, palette: str) -> tuple[int, int, int]:
    """Return the colour inside a unit's token, below its label, on the rendered map."""
    view = build_view(battle)
    image = Image.open(io.BytesIO(render_map(view, cell_px=32, palette=palette))).convert("RGB")
    square = Cell.parse(cell)
    cx, cy = Geometry.for_view(view, cell_px=32).cell_centre(square.x, square.y)
    radius = TokenSize.for_cell(32).radius
    pixel = image.getpixel((cx, cy + int(radius * 0.65)))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_a_side_keeps_its_colour_when_another_side_leaves() -> None:
    b = Battle.new("strategic-e", 8, 4, "Three sides")
    for name, side, at in (("Alpha One", "Alpha", "B2"), ("Beta One", "Beta", "D2"), ("Gamma One", "Gamma", "F2")):
        b.apply(AddUnit(name=name, side=side, at=Cell.parse(at)), dice())
    before = {p: _token_colour(b, "F2", p) for p in ("colour", "grey")}
    alpha = {p: _token_colour(b, "B2", p) for p in ("colour", "grey")}
    assert before["colour"] == PALETTE[2] and before["colour"] != alpha["colour"]
    b.apply(RemoveUnit(unit="Beta One"), dice())  # Beta leaves the field
    assert [s.name for s in build_view(b).sides] == ["Alpha", "Gamma"], "a side with no unit left is not in the legend"
    after = {p: _token_colour(b, "F2", p) for p in ("colour", "grey")}
    assert after == before, "Gamma keeps its colour (and its grey) though it is now the second side listed"
    assert {p: _token_colour(b, "B2", p) for p in ("colour", "grey")} == alpha
    b.apply(AddUnit(name="Delta One", side="Delta", at=Cell.parse("D3")), dice())
    assert _token_colour(b, "D3", "colour") == PALETTE[3], "a new side takes a new colour, not Beta's place"


def _reddish(c: tuple[int, int, int]) -> bool:
    return c[0] > 150 and c[0] > 2 * c[1] and c[0] > 2 * c[2]


def _bluish(c: tuple[int, int, int]) -> bool:
    return c[2] > 150 and c[2] > 1.5 * c[0] and c[2] > c[1]


def test_a_side_named_red_is_drawn_red_and_blue_blue_whatever_their_order() -> None:
    """A player told "you are Red" finds red tokens: the name's colour, not the order of appearance."""
    b = Battle.new("strategic-e", 8, 4, "Colours")
    for name, side, at in (("R1", "Red", "B2"), ("B1", "Blue Army", "F2"), ("X1", "Rebels", "D3")):
        b.apply(AddUnit(name=name, side=side, at=Cell.parse(at)), dice())
    assert _reddish(_token_colour(b, "B2", "colour")), _token_colour(b, "B2", "colour")
    assert _bluish(_token_colour(b, "F2", "colour")), _token_colour(b, "F2", "colour")
    other = _token_colour(b, "D3", "colour")
    assert not _reddish(other) and not _bluish(other), "a side of no colour's name never wears a named side's"
    legend = {s.name: s.color for s in build_view(b).sides}
    assert legend == side_colours(b), "the legend and the tokens take their colours from one place"
    b.apply(SetSideColour(side="rebels", colour="#00ff00"), dice())
    assert _token_colour(b, "D3", "colour") == (0, 255, 0)
