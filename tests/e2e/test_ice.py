"""Water turning to ice through /gm freeze, and breaking free through /break-free, on the loopback Discord."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored_battle


async def test_gm_freezes_water_and_the_unit_in_it_breaks_free(table: Table) -> None:
    """000:L74 "If water turns to ice, every unit on it is immobilised until it passes a Strength test (Free Action)
    or the ice melts"; A34: a GM command may freeze it."""
    await table.setup_battle(ruleset="strategic-p")
    await table.slash("map paint", terrain="water", cells="C3")
    await table.slash("battle start")
    reply = await table.gm_slash("gm freeze", at="C3")
    text = text_of(reply)
    assert "The water on C3 freezes into ice" in text and "Eva-01 is frozen in on C3 until it breaks free" in text
    assert not last_message(reply).ephemeral
    battle = await stored_battle(table)
    assert battle.terrain_at(battle.unit("Eva-01").cell).key == "ice"
    assert "immobilised" in battle.unit("Eva-01").statuses
    await refused(table, "move", "immobilised", user=table.alice, unit="Eva-01", to="D4")
    for _ in range(20):  # a Strength test; the bot's dice decide when it passes
        reply = await table.slash("break-free", user=table.alice, unit="Eva-01")
        if "immobilised" not in (await stored_battle(table)).unit("Eva-01").statuses:
            break
    assert "immobilised" not in (await stored_battle(table)).unit("Eva-01").statuses
    assert "no longer" in text_of(reply)


async def test_freezing_a_square_that_is_not_water_is_refused(table: Table) -> None:
    """A34: only Water turns to ice; the refusal is ephemeral and changes nothing."""
    await table.setup_battle(ruleset="strategic-p")
    await table.slash("battle start")
    await refused(table, "gm freeze", "only Water freezes", at="C3")
