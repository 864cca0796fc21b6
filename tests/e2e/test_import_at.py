"""`/unit import at:` places a file's units from another square, their layout kept, and a file that would
fall off the map is refused naming every unit that would, with the `at:` that fits."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored_battle

LAYOUT = """\
[[unit]]
name = "Kaworu"
side = "SEELE"
at = "P10"
ws = 60

[[unit]]
name = "Mass Eva"
side = "SEELE"
at = "R12"
kind = "horde"
magnitude = 20

[[unit]]
name = "Lilith"
side = "SEELE"
at = "Q14"
"""


def unit_file(body: str) -> tuple[str, bytes]:
    """Return a stat-block attachment."""
    return ("seele.toml", body.encode())


async def test_import_at_moves_the_layout(table: Table) -> None:
    await table.slash("battle new", name="Layout", ruleset="strategic-p", width=20, height=15)
    placed = await table.slash("unit import", file=unit_file(LAYOUT), at="B2")
    assert not last_message(placed).ephemeral, text_of(placed)
    assert "top-left corner is on B2" in text_of(placed)
    squares = {u.name: str(u.cell) for u in (await stored_battle(table)).iter_units()}
    # The layout's top-left corner (P10) goes to B2: every unit keeps its place relative to it.
    assert squares == {"Kaworu": "B2", "Mass Eva": "D4", "Lilith": "C6"}


async def test_units_that_would_fall_off_are_named_with_an_at_that_fits(table: Table) -> None:
    await table.slash("battle new", name="Small", ruleset="strategic-p", width=12, height=12)
    reply = await refused(table, "unit import", "3 of the file's 3 units would fall off this map (A1 to L12) where the "
                          "file puts them: Kaworu (line 4, at P10), Mass Eva (line 10, at R12), Lilith (line 17, at Q14)",
                          file=unit_file(LAYOUT))
    said = text_of(reply)
    assert "spread over 3x5 squares from P10: give `at:` a square from A1 to J8" in said and "`at:J8`" in said
    # Following the advice imports the file.
    await table.slash("unit import", file=unit_file(LAYOUT), at="J8")
    squares = {u.name: str(u.cell) for u in (await stored_battle(table)).iter_units()}
    assert squares == {"Kaworu": "J8", "Mass Eva": "L10", "Lilith": "K12"}


async def test_an_at_that_pushes_units_off_is_refused(table: Table) -> None:
    await table.slash("battle new", name="Edge", ruleset="strategic-p", width=20, height=15)
    reply = await refused(table, "unit import", "1 of the file's 3 units would fall off this map (A1 to T15) placed "
                          "from S2: Mass Eva (line 10, at R12).",
                          file=unit_file(LAYOUT), at="S2")
    assert "`at:R2`" in text_of(reply) and text_of(reply).endswith("Nothing was imported.")
    await refused(table, "unit import", "Z99 is off the map", file=unit_file(LAYOUT), at="Z99")
    assert not list((await stored_battle(table)).iter_units())
