"""The map in words: what happened, every unit with its square and surroundings, terrain areas by name."""

from __future__ import annotations

from dataclasses import replace

from render import AreaOfEffect, CellEffect, FeatureMark, LineOfFire, MissLanding, MovePath, UnitToken
from render.describe import ALT_LIMIT, alt_text, describe, direction
from tests.render.render_samples import sample_view, small_view

EVA = UnitToken("eva", "E01", "NERV", 2, 2, health=0.5, name="Eva-01", owner="shinji",
                health_text="Wounds 20/40", statuses=("Pinned",))
SAC = UnitToken("sac", "Sac", "Angels", 8, 2, name="Sachiel", health_text="Wounds 60/60")
SWARM = UnitToken("sw", "AS", "Angels", 2, 2, name="Angel Swarm", is_horde=True)


def test_directions_follow_the_compass_with_rows_growing_south() -> None:
    assert direction((2, 2), (8, 2)) == "east"
    assert direction((2, 2), (2, 0)) == "north"
    assert direction((5, 5), (8, 8)) == "south-east"
    assert direction((5, 5), (1, 3)) == "north-west"
    assert direction((5, 5), (12, 6)) == "east", "mostly east reads as east"


def test_units_are_read_by_side_then_north_to_south() -> None:
    far = UnitToken("z", "Z", "NERV", 1, 9, name="Zeta")
    view = small_view(units=(far, SAC, EVA, SWARM))
    text = describe(view)
    names = [line.split(" (")[0] for line in text.units]
    assert names == ["Eva-01", "Zeta", "Angel Swarm", "Sachiel"]


def test_a_unit_line_says_square_terrain_health_status_company_and_nearest_enemy() -> None:
    view = small_view(units=(EVA, SAC, SWARM))
    line = describe(view).units[0]
    assert line.startswith("Eva-01 (E01), NERV, commanded by shinji: on C3, Forest; Wounds 20/40; Pinned")
    assert "shares the square with Angel Swarm (AS) (enemy)" in line
    assert "nearest enemy Sachiel (Sac) 6 squares east on I3" in line


def test_features_and_effects_are_listed_with_their_squares() -> None:
    view = small_view(features=(FeatureMark(5, 5, "TR", (1, 2, 3), name="Trench"),),
                      effects=(CellEffect(6, 6, "fire"), CellEffect(7, 6, "fire")))
    assert describe(view).marks == ("Trench: F6.", "Fire: G7, H7.")


def test_terrain_is_named_by_areas_largest_first() -> None:
    text = describe(sample_view())
    assert text.terrain[0].startswith("Mostly Plain (")
    assert "Forest: a block of 30 squares from B2 to G6." in text.terrain
    assert any(line.startswith("Water: an area of ") for line in text.terrain)
    sizes = [int(line.split(" of ")[1].split()[0]) for line in text.terrain[1:] if " of " in line]
    assert sizes == sorted(sizes, reverse=True)


def test_what_happened_comes_from_the_overlays() -> None:
    view = small_view(units=(replace(EVA, x=5, y=2), SAC))
    overlays = (
        MovePath(((2, 2), (3, 2), (4, 2), (5, 2))),
        LineOfFire((5, 2), (8, 2), hit=False),
        MissLanding((8, 2), (9, 4)),
        AreaOfEffect("blast", ((8, 2),), src=(5, 2), label="Blast: 2 hits"),
    )
    happened = describe(view, overlays).happened
    assert happened[0] == "Eva-01 (E01) moved from C3 to F3 by D3, E3 (3 steps)."
    assert happened[1] == "Eva-01 (E01) attacked Sachiel (Sac) on I3, 3 squares east: missed."
    assert happened[2] == "The missed shot aimed at I3 came down on J5, 2 squares south-east of it."
    assert happened[3] == "A blast covered I3 (Blast: 2 hits)."


def test_a_crop_describes_only_what_it_shows() -> None:
    view = small_view(units=(EVA, SAC))
    text = describe(view, crop=(0, 0, 4, 4))
    assert [u.split(" (")[0] for u in text.units] == ["Eva-01"]
    assert text.outside == 1
    assert "Shown: squares A1 to E5 of a 14 by 14 map." in text.heading


def test_alt_text_fits_discords_limit_and_points_to_the_whole_text() -> None:
    units = tuple(UnitToken(f"u{i}", f"U{i}", "NERV" if i % 2 else "Angels", i % 14, i // 14,
                            name=f"A unit with a rather long name, number {i}") for i in range(120))
    view = small_view(units=units)
    alt = alt_text(describe(view))
    assert len(alt) <= ALT_LIMIT
    assert alt.startswith("Map of Probe.") and alt.endswith("/map text reads the whole map.")
    short = alt_text(describe(small_view(units=(EVA,))))
    assert "Eva-01" in short and "/map text" not in short, "a short description is whole"
