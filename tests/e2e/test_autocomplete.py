"""Autocomplete answers from the battle's state: the caller's units first, at most 25."""

from __future__ import annotations

from tests.e2e.conftest import Table


async def test_unit_autocomplete_puts_mine_first(table: Table) -> None:
    await table.setup_battle()
    choices = await table.discord.autocomplete("move", "unit", "", user=table.bob, channel=table.channel)
    assert choices[0]["value"] == "Eva-02"
    assert {c["value"] for c in choices} == {"Eva-01", "Eva-02", "Sachiel"}
    narrowed = await table.discord.autocomplete("move", "unit", "sach", user=table.bob, channel=table.channel)
    assert [c["value"] for c in narrowed] == ["Sachiel"]


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
