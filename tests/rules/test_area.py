"""Area attacks: target counts per scale, who is hit on the square, Horde extra hits, melee partners, lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell, line_cells
from rules.errors import IllegalOrderError
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.area import (
    choose_targets,
    line_squares,
    line_targets,
    melee_partners,
    target_count,
)
from rules.systems.strategic.details import AttackDetails
from rules.systems.strategic.statblock import parse_weapon
from tests.rules.conftest import add, dice, start

N2 = {"name": "N2", "range": 100, "blast": 2, "damage": "1d10", "type": "I"}
BEAM = {"name": "Beam", "range": 100, "line": 50, "damage": "1d10", "type": "I"}


def _count(ruleset: str, weapon: dict[str, Any]) -> int:
    return target_count(Battle.new(ruleset, 5, 5), parse_weapon(weapon))


@pytest.mark.parametrize(("ruleset", "weapon", "expected", "why"), [
    ("strategic-p", {"name": "G", "range": 10, "blast": 3}, 4, "000:L25 Blast Size+1"),
    ("strategic-e", {"name": "G", "range": 10, "blast": 3}, 3, "001:L36 / A46 Blast size, no +1"),
    ("strategic-p", {"name": "F", "range": 3, "cone": True}, 4, "000:L26 range in dm, +1"),
    ("strategic-p", {"name": "F", "range": 30, "range_unit": "m", "cone": True}, 4, "A16 ceil(m/10)+1"),
    ("strategic-e", {"name": "F", "range": 30, "cone": True}, 3, "001:L36 1 per 10 dm of range"),
    ("strategic-e", {"name": "F", "range": 3, "cone": True}, 1, "A47 max(1, ceil(dm/10))"),
    ("strategic-e", {"name": "F", "range": 250, "cone": True}, 25, "A47 = the strategic range R"),
    ("strategic-p", {"name": "Cross", "range": 20, "ats": 5}, 2, "A18 floor(ATS/2)"),
    ("strategic-e", {"name": "Cross", "range": 20, "ats": 7}, 3, "A48 floor(ATS/2)"),
    ("strategic-e", {"name": "Cross", "range": 20, "ats": 1}, 1, "A48 at least 1"),
    ("strategic-p", {"name": "Flamer", "range": 3, "line": 3}, 1, "000:L27 one target per square"),
    ("strategic-e", {"name": "Beam", "range": 30, "line": 30}, 1, "A49 one target per square"),
])
def test_target_counts(ruleset: str, weapon: dict[str, Any], expected: int, why: str) -> None:
    """000:L25-L28 and 001:L36, with rulings A16, A18, A46-A49."""
    assert _count(ruleset, weapon) == expected, why


def _crowd() -> Battle:
    b = Battle.new("strategic-e", 20, 20)
    add(b, "Eva", "NERV", "A1", bs=50, weapons=[N2, BEAM])
    for name, side in (("Angel", "SEELE"), ("Ally", "NERV"), ("Mob", "SEELE")):
        add(b, name, side, "A5", **({"kind": "horde", "magnitude": 20} if name == "Mob" else {}))
    start(b)
    return b


def test_the_aimed_unit_is_always_hit_and_the_rest_at_random_allies_included() -> None:
    """A15: "The aimed-at unit is always one of the N targets ... the remaining N-1 are drawn at random ... including allies"."""
    b = _crowd()
    hits = choose_targets(b, dice(1), Cell.parse("A5"), 2, b.unit("Angel"))
    assert [(h.unit.name, h.why) for h in hits] == [("Angel", "aimed"), ("Ally", "random")]
    hits = choose_targets(b, dice(2), Cell.parse("A5"), 2, b.unit("Angel"))
    assert [(h.unit.name, h.why) for h in hits] == [("Angel", "aimed"), ("Mob", "random")]


def test_spare_slots_go_to_the_horde() -> None:
    """A15.3: "slots left unfilled after all individual units go to the Horde as additional hits"."""
    b = _crowd()
    hits = choose_targets(b, dice(1), Cell.parse("A5"), 6, b.unit("Angel"))
    assert [h.why for h in hits] == ["aimed", "random", "random", "horde_extra", "horde_extra", "horde_extra"]
    assert [h.unit.name for h in hits[3:]] == ["Mob"] * 3


def test_no_horde_means_spare_slots_are_lost() -> None:
    """001:L36 "you hit a number of targets equal to the Blast size": no more units, no more hits."""
    b = Battle.new("strategic-e", 10, 10)
    add(b, "Angel", "SEELE", "A5")
    hits = choose_targets(b, dice(), Cell.parse("A5"), 4, b.unit("Angel"))
    assert [h.unit.name for h in hits] == ["Angel"]


def test_melee_partners_of_a_direct_hit_are_extra_targets() -> None:
    """000:L25 "Anyone who is in melee with someone directly hit by a Blast Attack is also affected." (A15.4: extra)."""
    b = Battle.new("strategic-p", 10, 10)
    add(b, "Angel", "SEELE", "C3")
    add(b, "Rei", "NERV", "C4")
    add(b, "Asuka", "NERV", "D3")
    b.unit("Angel").engaged[:] = [b.unit("Rei").id, b.unit("Asuka").id]
    b.unit("Rei").engaged[:] = [b.unit("Angel").id]
    b.unit("Asuka").engaged[:] = [b.unit("Angel").id]
    hits = choose_targets(b, dice(), Cell.parse("C3"), 4, b.unit("Angel"))
    extra = melee_partners(b, hits)
    assert [(h.unit.name, h.why, str(h.cell)) for h in extra] == [("Rei", "melee_partner", "C4"),
                                                                   ("Asuka", "melee_partner", "D3")]


def test_a_blast_attack_hits_its_count_and_shows_who() -> None:
    """001:L36 "when hitting a square, you hit a number of targets equal to the Blast size"."""
    b = _crowd()
    # d100 hit; d3 picks Mob from [Ally, Mob]; Angel damage; Mob location then damage.
    out = b.apply(Attack(unit="Eva", weapon="N2", target="Angel"), dice(5, 2, 1, 50, 1))
    assert out.highlight.hit is True
    assert [h.to_dict() for h in out.details.hits] == [{"unit": "Angel", "why": "aimed", "cell": "A5"},
                                {"unit": "Mob", "why": "random", "cell": "A5"}]
    assert all(d.hit.area for d in out.details.damage)
    assert b.unit("Ally").wounds == 10


def test_an_area_weapon_can_be_aimed_at_a_square() -> None:
    """A15: with no unit named, every slot is drawn at random from the square."""
    b = _crowd()
    out = b.apply(Attack(unit="Eva", weapon="N2", at=Cell.parse("A5")), dice(5, 3, 1, 50, 1, 50, 1))
    assert [h.why for h in out.details.hits] == ["random", "random"]


def test_a_missed_area_attack_hits_nobody() -> None:
    """001:L36 the targets are hit "when hitting a square"; a miss hits no square (no scatter on this scale)."""
    b = _crowd()
    out = b.apply(Attack(unit="Eva", weapon="N2", target="Angel"), dice(100))
    assert out.highlight.hit is False and out.details.hits is None


def test_line_squares_run_the_weapons_length_through_the_aimed_square() -> None:
    """A17: "the line's length in squares = the weapon's line length ... along a Bresenham line from the attacker"."""
    b = Battle.new("strategic-e", 20, 20)
    assert [str(c) for c in line_squares(b, Cell.parse("A1"), Cell.parse("B2"), 4)] == ["B2", "C3", "D4", "E5"]
    slanted = line_squares(b, Cell.parse("A1"), Cell.parse("C2"), 4)
    assert slanted == line_cells(Cell.parse("A1"), Cell.parse("E3"))[1:] and Cell.parse("C2") in slanted
    squares = line_squares(b, Cell.parse("A1"), Cell.parse("E3"), 3)
    assert len(squares) == 3
    assert [str(c) for c in line_squares(b, Cell.parse("R1"), Cell.parse("S1"), 5)] == ["S1", "T1"]  # map edge


def test_a_line_hits_one_target_per_square() -> None:
    """000:L27 "Line attacks hit multiple squares as normal, but only hit one target per Square." (A49 for E)."""
    b = Battle.new("strategic-e", 20, 20)
    add(b, "Eva", "NERV", "A1", bs=50, weapons=[BEAM])
    add(b, "Near", "SEELE", "A2")
    add(b, "Angel", "SEELE", "A3")
    add(b, "Other", "SEELE", "A3")
    add(b, "X", "SEELE", "A5")
    add(b, "Y", "SEELE", "A5")
    start(b)
    hits = line_targets(b, dice(2), line_squares(b, Cell.parse("A1"), Cell.parse("A3"), 5), b.unit("Angel"))
    assert [(h.unit.name, h.why, str(h.cell)) for h in hits] == [
        ("Near", "line", "A2"), ("Angel", "aimed", "A3"), ("Y", "line", "A5")]


def test_a_line_attack_runs_its_full_length() -> None:
    """A49: "Line attacks, however, do progress over multiple squares" (Beam 50 dm -> 5 km)."""
    b = Battle.new("strategic-e", 20, 20)
    add(b, "Eva", "NERV", "A1", bs=50, weapons=[BEAM])
    add(b, "Angel", "SEELE", "A3")
    add(b, "Far", "SEELE", "A6")
    add(b, "Beyond", "SEELE", "A7")
    start(b)
    out = b.apply(Attack(unit="Eva", weapon="Beam", target="Angel"), dice(5, 1, 50, 1))
    assert [h.unit for h in out.details.hits] == ["Angel", "Far"]
    assert out.highlight.cells == ["A2", "A3", "A4", "A5", "A6"]
    assert out.highlight.line == ["A1", "A6"]


def test_a_line_cannot_reach_past_its_length() -> None:
    """A17: the line is only as long as the weapon's line length; nothing changes when refused."""
    b = Battle.new("strategic-e", 20, 20)
    add(b, "Eva", "NERV", "A1", bs=50, weapons=[{**BEAM, "line": 20}])
    add(b, "Angel", "SEELE", "A5")
    start(b)
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="reaches 2 squares in a line"):
        b.apply(Attack(unit="Eva", weapon="Beam", target="Angel"), dice(5))
    assert b.to_dict() == before


def test_a_horde_hit_by_a_blast_loses_magnitude_per_hit() -> None:
    """A15.3 and A01: each extra slot is a hit on the Horde, and each damaging hit removes Magnitude."""
    b = Battle.new("strategic-e", 10, 10)
    add(b, "Eva", "NERV", "A1", bs=50, weapons=[{**N2, "blast": 3, "damage": "1d10+10"}])
    add(b, "Mob", "SEELE", "A5", kind="horde", magnitude=20, t=20)
    start(b)
    out = b.apply(Attack(unit="Eva", weapon="N2", target="Mob"), dice(5, 1, 50, 1, 50, 1))
    assert [h.why for h in out.details.hits] == ["aimed", "horde_extra", "horde_extra"]
    assert b.unit("Mob").magnitude == 17


def test_a_blast_attack_reports_the_same_details_once_logged_and_read_back() -> None:
    """What the log keeps of an attack reads back as the details the attack reported, hits and damage alike."""
    b = _crowd()
    out = b.apply(Attack(unit="Eva", weapon="N2", target="Angel"), dice(5, 2, 1, 50, 1))
    system = b.system
    again = Outcome.from_dict(json.loads(json.dumps(out.to_dict())), system.effect_kinds, system.test_kinds,
                              system.detail_kinds)
    assert again.details == out.details and again.turn == out.turn
    assert again.details_as(AttackDetails) is not None and again.to_dict() == out.to_dict()
