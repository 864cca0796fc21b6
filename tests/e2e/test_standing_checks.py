"""Standing orders are checked when they are set: their squares, their names, and the kinds the unit may give."""

from __future__ import annotations

from tests.e2e.conftest import Table, text_of


async def standing_of(table: Table, unit: str) -> str | None:
    """Return the standing order the stored battle keeps for a unit."""
    found = await table.service.peek(table.discord.guild.id, table.channel.id)
    assert found is not None
    battle = found[1]
    return battle.turn.standing.get(battle.unit(unit).id)


async def test_a_standing_move_off_the_map_is_refused_when_set(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:E3 mode:half")
    refused = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:ZZ1")
    said = text_of(refused)
    assert refused.ephemeral
    assert "ZZ1 is off the map" in said and "A1 to T15" in said and "Nothing was set" in said
    assert await standing_of(table, "Eva-01") == "move unit:Eva-01 to:E3 mode:half", "the earlier order stays"


async def test_a_standing_order_set_before_the_start_is_checked_too(table: Table) -> None:
    await table.setup_battle()
    refused = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:ZZ1")
    assert "ZZ1 is off the map" in text_of(refused)
    wrong_mode = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:E3 mode:sideways")
    assert "sideways" in text_of(wrong_mode) and "Nothing was set" in text_of(wrong_mode)
    stranger = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="aim target:Nobody")
    assert "`target:Nobody` is not an option of `aim`" in text_of(stranger)
    assert await standing_of(table, "Eva-01") is None
    # A square the unit cannot reach now may be reachable at the deadline: it is kept.
    kept = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:T15 mode:half")
    assert "standing order" in text_of(kept).lower()
    assert await standing_of(table, "Eva-01") == "move unit:Eva-01 to:T15 mode:half"


async def test_a_refused_kind_lists_only_the_units_own_orders(table: Table) -> None:
    await table.setup_battle()
    refused = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="dance")
    said = text_of(refused)
    assert "`dance` is not an order" in said
    assert "can give on its turn: aim, defend, move" in said, said
    # Eva-01 has no weapon and is no vehicle: the system's other orders are not offered to it.
    assert "attack" not in said and "break-free" not in said and "detect-traps" not in said


async def test_standing_autocomplete_offers_the_units_orders_before_the_battle_starts(table: Table) -> None:
    await table.setup_battle()
    offered = await table.discord.autocomplete("turn standing", "order", "", user=table.alice,
                                               channel=table.channel, options={"unit": "Eva-01"})
    values = [c["value"] for c in offered]
    assert values[:2] == ["hold", "none"] and len(values) == 25
    kinds = {v.split(" ", 1)[0] for v in values[2:]}
    assert {"move", "aim", "defend"} <= kinds, values
    taken = await table.slash("turn standing", user=table.alice, unit="Eva-01",
                              order=next(v for v in values if v.startswith("move ")))
    assert "standing order" in text_of(taken).lower() and await standing_of(table, "Eva-01") is not None
