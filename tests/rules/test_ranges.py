"""Weapon ranges on both scales: conversion, every band edge of the worked examples, and the range preview."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import RulesetError
from rules.orders import SetRule
from rules.ruleset import list_rulesets
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.ranges import (
    band_for,
    bands,
    evaluate,
    max_range,
    strategic_length,
    weapon_range,
)
from rules.systems.strategic.units import Weapon
from tests.rules.conftest import add, dice

Span = tuple[int, int] | None
KEYS = ("pb", "short", "standard", "long", "extreme")


def _battle(ruleset: str) -> Battle:
    return Battle.new(ruleset, 30, 30)


def test_long_mas_is_25_km_on_the_e_scale() -> None:
    """001:L30 "The Long Mas Mk2 has a Range of 250dm ... so the Long Mas has a Strategic Range of 25km." """
    b = _battle("strategic-e")
    assert weapon_range(b, Weapon("Long Mas Mk2", range=250, range_unit="dm")) == 25


def test_long_mas_keeps_its_dm_on_the_p_scale() -> None:
    """A09: "A range listed in dm is used as is (Long Mas 250dm -> 250 squares)"."""
    b = _battle("strategic-p")
    assert weapon_range(b, Weapon("Long Mas Mk2", range=250, range_unit="dm")) == 250


@pytest.mark.parametrize(
    ("ruleset", "value", "unit", "expected"),
    [
        ("strategic-e", 300, "dm", 30),   # 001:L28 the Long Las, 300 dm -> 30 km
        ("strategic-e", 101, "dm", 11),   # A44: round up to the next 10
        ("strategic-e", 100, "dm", 10),   # A44: a multiple of 10 stays
        ("strategic-e", 3, "dm", 1),
        ("strategic-e", 450, "m", 5),     # A44: metres to dm first (45), then up to 50 -> 5
        ("strategic-e", 7, "km", 7),      # already strategic km
        ("strategic-e", 9, "sq", 9),
        ("strategic-p", 100, "m", 10),    # A09: 100 m -> 10 squares
        ("strategic-p", 45, "m", 5),      # A09: 45 m -> 5
        ("strategic-p", 30, "dm", 30),
        ("strategic-p", 12, "km", 12),    # A09: the seed's "km" is read as dm
        ("strategic-p", 4, "sq", 4),
    ],
)
def test_conversion(ruleset: str, value: int, unit: str, expected: int) -> None:
    """A09 (P: dm as listed, metres ceil(m/10)) and A44 (E: R = ceil(range_dm/10))."""
    assert strategic_length(_battle(ruleset), value, unit) == expected


# RULES §1.4 worked examples (P), row by row: R, then each band's whole distances, then the first out of range.
P_ROWS: list[tuple[int, tuple[Span, Span, Span, Span, Span], int]] = [
    (250, ((0, 1), (2, 125), (126, 250), (251, 255), (256, 256)), 257),
    (10, ((0, 1), (2, 5), (6, 10), (11, 15), (16, 16)), 17),
    (30, ((0, 1), (2, 15), (16, 30), (31, 35), (36, 36)), 37),
    (4, ((0, 1), (2, 2), (3, 4), (5, 6), (7, 10)), 11),
    (2, ((0, 1), None, (2, 2), (3, 3), (4, 8)), 9),
    (1, ((0, 1), None, None, None, (2, 7)), 8),
]
# RULES §2.4 worked examples (E), row by row.
E_ROWS: list[tuple[int, tuple[Span, Span, Span, Span, Span], int]] = [
    (25, ((0, 1), (2, 10), (11, 25), (26, 30), (31, 35)), 36),
    (30, ((0, 1), (2, 10), (11, 30), (31, 35), (36, 40)), 41),
    (60, ((0, 1), (2, 10), (11, 60), (61, 65), (66, 70)), 71),
    (11, ((0, 1), (2, 5), (6, 11), (12, 16), (17, 21)), 22),
    (10, ((0, 1), (2, 5), (6, 10), (11, 15), (16, 20)), 21),
    (5, ((0, 1), (2, 2), (3, 5), (6, 7), (8, 10)), 11),
    (2, ((0, 1), None, (2, 2), (3, 3), (4, 4)), 5),
    (1, ((0, 1), None, None, None, (2, 2)), 3),
]


def _check_row(b: Battle, r: int, spans: tuple[Span, ...], out: int) -> None:
    table = {band.key: band for band in bands(b, r)}
    for key, span in zip(KEYS, spans, strict=True):
        got = None if table[key].low is None else (table[key].low, table[key].high)
        assert got == span, f"R={r} band {key}"
        if span is not None:
            for d in span:
                found = band_for(b, r, d)
                assert found is not None and found.key == key, f"R={r} d={d}"
    assert band_for(b, r, out) is None
    assert band_for(b, r, out + 50) is None
    assert max_range(b, r) == out - 1


@pytest.mark.parametrize(("r", "spans", "out"), P_ROWS)
def test_p_band_edges(r: int, spans: tuple[Span, ...], out: int) -> None:
    """A10: Long = (R, min(1.5R, R+5)], Extreme = (.., R+6], nothing beyond; A11: Short has no cap."""
    _check_row(_battle("strategic-p"), r, spans, out)


@pytest.mark.parametrize(("r", "spans", "out"), E_ROWS)
def test_e_band_edges(r: int, spans: tuple[Span, ...], out: int) -> None:
    """001:L32 "Short Range is ... half the weapon's range, or 10km, whichever is shorter" and A45."""
    _check_row(_battle("strategic-e"), r, spans, out)


@pytest.mark.parametrize(("ruleset", "key", "mod"),
                         [(rs, k, m) for rs in ("strategic-e", "strategic-p")
                          for k, m in (("pb", 30), ("short", 10), ("standard", 0), ("long", -10), ("extreme", -30))])
def test_band_modifiers(ruleset: str, key: str, mod: int) -> None:
    """A04: "Point Blank +30, Short +10, Standard +0, Long -10, Extreme -30"."""
    assert {b.key: b.mod for b in bands(_battle(ruleset), 25)}[key] == mod


def test_every_ruleset_band_formula_reads() -> None:
    """DESIGN §3: tables are data, validated; every band formula of every ruleset evaluates for every R."""
    for ruleset in list_rulesets():
        for band in ruleset.bands:
            for r in range(0, 300):
                assert evaluate(band.max, r) >= 0


@pytest.mark.parametrize(("formula", "r", "value"), [
    ("min(1.5*R, R+5)", 4, Fraction(6)), ("min(R/2, 10)", 11, Fraction(11, 2)), ("R+6", 10, Fraction(16)),
    ("max(2*(R-1), 3)", 5, Fraction(8)), ("floor(R/3)", 10, Fraction(3)), ("ceil(R/3)", 10, Fraction(4)), ("-1+R", 2, Fraction(1)),
])
def test_formula_shapes(formula: str, r: int, value: Fraction) -> None:
    """A03: range thresholds are not rounded; they are exact numbers compared with whole distances."""
    assert evaluate(formula, r) == value


@pytest.mark.parametrize("formula", ["__import__('os')", "R**2", "min(R,", "R/0", "R R", "sqrt(R)", ""])
def test_bad_formulas_are_refused_not_evaluated(formula: str) -> None:
    """DESIGN §3: the data is validated; a band formula is read by a small parser, never by eval()."""
    with pytest.raises(RulesetError):
        evaluate(formula, 10)


def test_gm_can_tighten_the_e_short_cap() -> None:
    """001:L32 "or 10km, whichever is shorter", a named constant (`short_band_cap`) a GM may override."""
    b = _battle("strategic-e")
    b.apply(SetRule(key="short_band_cap", value="6"), dice())
    table = {band.key: band for band in bands(b, 25)}
    assert (table["short"].low, table["short"].high) == (2, 6)
    assert (table["standard"].low, table["standard"].high) == (7, 25)


def test_range_preview_lists_distance_band_and_modifiers() -> None:
    """A20 and A04 in /range: distance, R, band, and every modifier that needs no dice."""
    b = _battle("strategic-p")
    b.set_terrain(Cell.parse("C1"), "forest")
    add(b, "Rei", "NERV", "A1", bs=45, weapons=[{"name": "Rifle", "range": 100, "range_unit": "m"}])
    add(b, "Target", "SEELE", "E1")
    rei = b.unit("Rei")
    out = range_preview(b, rei, Cell.parse("E1"), rei.weapons[0])
    assert (out["distance"], out["R"], out["band"]["key"], out["in_range"]) == (4, 10, "short", True)
    assert out["target"] == "Target"
    mods = {m["label"]: m["value"] for m in out["breakdown"]["modifiers"]}
    assert mods == {"Range: Short": 10, "Hit Penalty along the line of fire": -10}
    assert out["breakdown"]["target"] == 45
    far = range_preview(b, Cell.parse("A1"), Cell.parse("T1"), rei.weapons[0])
    assert far["band"] is None and far["in_range"] is False and far["max_range"] == 16


def test_range_preview_of_a_melee_weapon_gives_reach() -> None:
    """000:L16 melee reach is adjacent squares; the preview reports reach, not a band."""
    b = _battle("strategic-p")
    add(b, "Rei", "NERV", "A1", weapons=[{"name": "Knife", "melee": True}])
    knife = b.unit("Rei").weapons[0]
    assert range_preview(b, b.unit("Rei"), Cell.parse("B2"), knife)["in_range"] is True
    assert range_preview(b, b.unit("Rei"), Cell.parse("C2"), knife)["in_range"] is False
