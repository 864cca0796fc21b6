"""Autocomplete answers from the battle's state: the caller's units first, at most 25."""

from __future__ import annotations

from rules.coords import Cell
from tests.e2e.conftest import Table, text_of


async def test_unit_autocomplete_puts_mine_first(table: Table) -> None:
    await table.setup_battle()
    # An order's unit: only the units the player commands; the GM commands every unit.
    choices = await table.discord.autocomplete("move", "unit", "", user=table.bob, channel=table.channel)
    assert [c["value"] for c in choices] == ["Eva-02"]
    gm = await table.discord.autocomplete("move", "unit", "", user=table.gm, channel=table.channel)
    assert {c["value"] for c in gm} == {"Eva-01", "Eva-02", "Sachiel"}
    # Looking at a unit: every unit, the player's own first.
    seen = await table.discord.autocomplete("unit info", "unit", "", user=table.bob, channel=table.channel)
    assert seen[0]["value"] == "Eva-02" and {c["value"] for c in seen} == {"Eva-01", "Eva-02", "Sachiel"}
    narrowed = await table.discord.autocomplete("unit info", "unit", "sach", user=table.bob, channel=table.channel)
    assert [c["value"] for c in narrowed] == ["Sachiel"]
    assert await table.discord.autocomplete("move", "unit", "sach", user=table.bob, channel=table.channel) == []


async def test_unit_autocomplete_caps_at_25(table: Table) -> None:
    await table.slash("battle new", name="Crowd", ruleset="strategic-e", width=10, height=10)
    for i in range(30):
        await table.slash("unit add", name=f"Trooper {i}", side="Red", at=f"A{i % 10 + 1}")
    choices = await table.discord.autocomplete("unit info", "unit", "troop", user=table.alice, channel=table.channel)
    assert len(choices) == 25


async def test_ruleset_and_terrain_autocomplete(table: Table) -> None:
    rulesets = await table.discord.autocomplete("battle new", "ruleset", "p-s", user=table.gm, channel=table.channel)
    assert [c["value"] for c in rulesets] == ["strategic-p"]
    await table.slash("battle new", name="E", ruleset="strategic-e", width=5, height=5)
    terrains = await table.discord.autocomplete("map paint", "terrain", "", user=table.gm, channel=table.channel)
    assert {c["value"] for c in terrains} == {"plain", "forest", "mountain", "water", "urban"}


async def test_a_square_option_offers_the_squares_the_unit_may_move_to(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start", user=table.gm)
    # Eva-02 (AG 52: AB 5) on C5: a half move reaches 2 squares, a full move 5.
    half = await table.discord.autocomplete("move", "to", "", user=table.bob, channel=table.channel,
                                            options={"unit": "Eva-02", "mode": "half"})
    cells = [c["value"] for c in half]
    assert cells and all(Cell.parse(v).distance(Cell.parse("C5")) <= 2 for v in cells)
    assert all(c["name"].endswith("(move half)") for c in half)
    full = await table.discord.autocomplete("move", "to", "", user=table.bob, channel=table.channel,
                                            options={"unit": "Eva-02", "mode": "full"})
    assert any(Cell.parse(c["value"]).distance(Cell.parse("C5")) == 5 for c in full)
    assert len(full) == 25 and all(len(c["name"]) <= 100 for c in full)
    typed = await table.discord.autocomplete("move", "to", "c7", user=table.bob, channel=table.channel,
                                             options={"unit": "Eva-02", "mode": "full"})
    assert [c["value"] for c in typed] == ["C7"]


async def test_an_attack_square_offers_the_targets_squares_enemies_first(table: Table) -> None:
    await table.setup_battle()
    squares = await table.discord.autocomplete("attack", "at", "", user=table.bob, channel=table.channel,
                                               options={"unit": "Eva-02"})
    assert [c["value"] for c in squares] == ["P10", "C3"]
    assert squares[0]["name"] == "P10 (Sachiel)"


async def test_standing_orders_offer_hold_none_and_the_units_orders(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start", user=table.gm)
    offered = await table.discord.autocomplete("turn standing", "order", "", user=table.bob, channel=table.channel,
                                               options={"unit": "Eva-02"})
    values = [c["value"] for c in offered]
    assert values[:2] == ["hold", "none"] and len(values) == 25
    assert any(v.startswith("move to:") for v in values) and not any("unit:" in v for v in values)
    narrowed = await table.discord.autocomplete("turn standing", "order", "D5", user=table.bob,
                                                channel=table.channel, options={"unit": "Eva-02"})
    assert narrowed and all("D5" in c["value"] for c in narrowed)
    # The standing order the menu offered is one the bot takes.
    taken = await table.slash("turn standing", unit="Eva-02", order=narrowed[0]["value"], user=table.bob)
    assert "move" in text_of(taken).lower() and not taken.message.content.startswith("\u26a0")
    # Someone else's unit: no plans of its are offered.
    theirs = await table.discord.autocomplete("turn standing", "order", "", user=table.bob, channel=table.channel,
                                              options={"unit": "Eva-01"})
    assert [c["value"] for c in theirs] == ["hold", "none"]
