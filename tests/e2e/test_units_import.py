"""/unit import and the stat-block options of /unit edit and /unit traits, end to end."""

from __future__ import annotations

from typing import Any

import pytest

from rules.coords import Cell
from rules.errors import ConflictError
from rules.orders import AddUnit
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import EXAMPLES, refused, stored, stored_battle

TWO_UNITS = """\
[[unit]]
name = "Kaworu"
side = "SEELE"
at = "B2"
owner = "{owner}"
ws = 60
wounds = 30

[[unit]]
name = "Mass Eva {n}"
side = "SEELE"
at = "C2"
kind = "horde"
magnitude = 20
"""


@pytest.fixture
async def p_battle(table: Table) -> Table:
    """Return the table with an empty P-Scale battle, 20 by 15."""
    await table.slash("battle new", name="Import Test", ruleset="strategic-p", width=20, height=15)
    return table


def unit_file(body: str) -> tuple[str, bytes]:
    """Return a stat-block attachment."""
    return ("units.toml", body.encode())


async def test_every_example_file_imports(p_battle: Table) -> None:
    table = p_battle
    for path in sorted(EXAMPLES.glob("*.toml")):
        # The example leaves its pilot out; the owner option names one.
        owner: dict[str, Any] = {"owner": table.alice} if path.name == "eva-01.toml" else {}
        reply = await table.slash("unit import", file=(path.name, path.read_bytes()), **owner)
        message = last_message(reply)
        assert not message.ephemeral, text_of(reply)
        assert f"imported from {path.name}" in text_of(reply)
        assert message.files and message.files[0].filename == "map.png"
    battle = await stored_battle(table)
    units = {u.name: u for u in battle.iter_units()}
    assert set(units) == {"7th Tank Squadron", "Eva-01", "3rd Rifle Company", "Iron Bastion"}
    eva = units["Eva-01"]
    assert (str(eva.cell), eva.owner, eva.side, eva.unit_class) == ("E5", table.alice.id, "NERV", "eva")
    assert [w.name for w in eva.weapons] == ["Pallet Rifle", "Progressive Knife", "AT Field Wave"]
    assert eva.skills["athletics"] == 55 and eva.unnatural == {"s": 2, "t": 2}
    assert units["7th Tank Squadron"].is_horde and units["7th Tank Squadron"].movement_points == 6


async def test_import_lists_every_unit_with_its_owner_id(p_battle: Table) -> None:
    table = p_battle
    body = TWO_UNITS.format(owner=table.bob.id, n=1)
    reply = await table.slash("unit import", file=unit_file(body))
    text = text_of(reply)
    assert "2 units imported from units.toml" in text
    assert f"Kaworu (SEELE) placed on B2 for <@{table.bob.id}>" in text and "Mass Eva 1 (SEELE) placed on C2" in text
    assert not last_message(reply).pings.users, "an import pings nobody"
    ack, posted = reply.messages
    assert ack.ephemeral and ack.content == "Imported 2 units from `units.toml`; the list and the map are posted for everyone."
    assert not posted.ephemeral and posted.files
    battle = await stored_battle(table)
    assert battle.unit("Kaworu").owner == table.bob.id and battle.unit("Mass Eva 1").magnitude == 20


async def test_side_and_owner_options_apply_to_every_unit(p_battle: Table) -> None:
    table = p_battle
    body = TWO_UNITS.format(owner=f"<@{table.bob.id}>", n=2)
    await table.slash("unit import", file=unit_file(body), side="Angels", owner=table.carol)
    battle = await stored_battle(table)
    assert {(u.side, u.owner) for u in battle.iter_units()} == {("Angels", table.carol.id)}


async def test_a_user_name_as_owner_is_refused_with_its_line(p_battle: Table) -> None:
    eva = (EXAMPLES / "eva-01.toml").read_bytes().replace(b'# owner = "123456789012345678"', b'owner = "shinji"')
    await refused(p_battle, "unit import", "Line 8 (unit Eva-01), field `owner`: `shinji` is a user name",
                  file=("eva-01.toml", eva))


async def test_a_missing_field_names_line_and_field(p_battle: Table) -> None:
    body = '[[unit]]\nname = "Lost"\nside = "NERV"\nws = 40\n'
    await refused(p_battle, "unit import", "Line 1 (unit Lost), field `at`: every unit needs `at`", file=unit_file(body))


async def test_an_impossible_value_names_line_and_field(p_battle: Table) -> None:
    body = '[[unit]]\nname = "Giant"\nside = "NERV"\nat = "A1"\n\nws = 500\n'
    reply = await refused(p_battle, "unit import", "Line 6 (unit Giant), field `ws`", file=unit_file(body))
    assert "500 is impossible" in text_of(reply) and "Nothing was imported." in text_of(reply)


async def test_a_bad_weapon_field_names_its_line(p_battle: Table) -> None:
    body = (EXAMPLES / "eva-01.toml").read_text().replace("pen = 12", "pen = 140")
    await refused(p_battle, "unit import", "field `weapons[2].pen`", file=("eva.toml", body.encode()),
                  owner=p_battle.alice)


async def test_a_file_that_is_not_toml(p_battle: Table) -> None:
    await refused(p_battle, "unit import", "this is not valid TOML", file=unit_file("[[unit]]\nname = Eva\n"))


async def test_a_file_too_big(p_battle: Table) -> None:
    big = b"# padding\n" * 30_000
    await refused(p_battle, "unit import", "may be at most 256 KiB", file=("huge.toml", big))


async def test_a_file_with_the_wrong_extension(p_battle: Table) -> None:
    await refused(p_battle, "unit import", "attach a `.toml` file", file=("eva.txt", b"[[unit]]\n"))


async def test_a_file_that_is_not_utf8(p_battle: Table) -> None:
    body = '[[unit]]\nname = "Ev\u00e9"\nside = "NERV"\nat = "A1"\n'.encode("latin-1")
    await refused(p_battle, "unit import", "is not UTF-8 text", file=("latin.toml", body))


async def test_a_name_already_in_the_battle_imports_nothing(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Kaworu", side="NERV", at="J9")
    body = TWO_UNITS.format(owner=table.bob.id, n=3)
    await refused(table, "unit import", "Line 2 (unit Kaworu), field `name`: there is already a unit called Kaworu",
                  file=unit_file(body))


async def test_a_cell_off_the_map_imports_nothing(p_battle: Table) -> None:
    body = TWO_UNITS.format(owner=p_battle.bob.id, n=4).replace('at = "C2"', 'at = "Z40"')
    reply = await refused(p_battle, "unit import", "1 of the file's 2 units would fall off this map (A1 to T15) "
                          "where the file puts them: Mass Eva 4 (line 12, at Z40).",
                          file=unit_file(body))
    assert "spread over 25x39 squares, more than this 20x15 map holds" in text_of(reply)
    assert not list((await stored_battle(p_battle)).iter_units()), "the first unit was not placed either"


async def test_a_horde_on_an_enemy_horde_imports_nothing(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Angel Swarm", side="Angels", at="C2", kind="horde", magnitude=30)
    body = TWO_UNITS.format(owner=table.bob.id, n=5)
    await refused(table, "unit import", "field `at`: Mass Eva 5 cannot be placed there: C2 holds the enemy Horde",
                  file=unit_file(body))


async def test_only_a_gm_imports(p_battle: Table) -> None:
    body = TWO_UNITS.format(owner=p_battle.bob.id, n=6)
    await refused(p_battle, "unit import", "Only a GM can import units", user=p_battle.alice, file=unit_file(body))


async def test_a_failure_half_way_takes_back_the_placed_units(p_battle: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table = p_battle
    before = await stored(table)
    real = table.service.execute
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise ConflictError("The battle changed while your order was being resolved; send it again.")
        return await real(*args, **kwargs)

    monkeypatch.setattr(table.service, "execute", flaky)
    reply = await table.slash("unit import", file=unit_file(TWO_UNITS.format(owner=table.bob.id, n=7)))
    assert "send it again. Nothing was imported." in text_of(reply)
    assert last_message(reply).ephemeral and len(reply.messages) == 1
    after = await stored(table)
    assert after.state["units"] == before.state["units"] == []


async def test_edit_sets_the_rest_of_the_stat_block(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5", owner=table.alice)
    reply = await table.slash("unit edit", unit="Eva-01", ws=48, bs=42, s=55, t=50, ag=45, per=40, wp=38,
                              max_wounds=45, wounds=40, supreme_commander=True, stats="fel=28",
                              **{"int": 41, "class": "eva"})
    assert not last_message(reply).ephemeral
    assert "Eva-01: changed" in text_of(reply) and "supreme commander" in text_of(reply)
    eva = (await stored_battle(table)).unit("Eva-01")
    assert eva.chars == {"ws": 48, "bs": 42, "s": 55, "t": 50, "ag": 45, "int": 41, "per": 40, "wp": 38, "fel": 28}
    assert (eva.wounds, eva.max_wounds, eva.unit_class, eva.supreme_commander) == (40, 45, "eva", True)


async def test_edit_turns_a_unit_into_a_horde(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Troopers", side="JSSDF", at="B7")
    await table.slash("unit edit", unit="Troopers", kind="horde", magnitude=25, max_magnitude=40, squads=4)
    troopers = (await stored_battle(table)).unit("Troopers")
    assert (troopers.is_horde, troopers.magnitude, troopers.max_magnitude, troopers.squads) == (True, 25, 40, 4)


async def test_traits_set_flyer_altitude_and_water(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="VTOL", side="JSSDF", at="B7")
    await table.slash("unit traits", unit="VTOL", flyer=8, altitude=3, hoverer=2, aquatic=True, amphibious=True,
                      anti_fog=True)
    vtol = (await stored_battle(table)).unit("VTOL")
    assert (vtol.flyer, vtol.altitude, vtol.hoverer, vtol.aquatic, vtol.amphibious, vtol.anti_fog) == (
        8, 3, 2, True, True, True)
    info = await table.slash("unit info", unit="VTOL", user=table.carol)
    assert "Flyer(8), altitude 3" in text_of(info)


async def test_altitude_without_flyer_is_refused(p_battle: Table) -> None:
    await p_battle.slash("unit add", name="Tank", side="JSSDF", at="B7")
    await refused(p_battle, "unit traits", "Only a unit with the Flyer trait", unit="Tank", altitude=2)


async def test_edit_file_replaces_weapons_and_skills(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5", owner=table.alice)
    eva_file = ("eva-01.toml", (EXAMPLES / "eva-01.toml").read_bytes())
    reply = await table.slash("unit edit", unit="Eva-01", file=eva_file, ag=45)
    text = text_of(reply)
    assert "From eva-01.toml: weapons Pallet Rifle, Progressive Knife, AT Field Wave; 4 skills." in text
    eva = (await stored_battle(table)).unit("Eva-01")
    assert [w.name for w in eva.weapons] == ["Pallet Rifle", "Progressive Knife", "AT Field Wave"]
    assert eva.skills == {"athletics": 55, "dodge": 50, "acrobatics": 40, "awareness": 45}
    assert eva.chars["ag"] == 45 and eva.chars["ws"] == 30, "only weapons and skills come from the file"
    assert str(eva.cell) == "E5" and eva.owner == table.alice.id


async def test_edit_file_with_two_units_is_refused(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5")
    body = TWO_UNITS.format(owner=table.bob.id, n=8)
    await refused(table, "unit edit", "This file holds 2 units", unit="Eva-01", file=unit_file(body))


async def test_edit_file_without_weapons_or_skills_is_refused(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5")
    body = '[[unit]]\nname = "Eva-01"\nside = "NERV"\nat = "E5"\nws = 50\n'
    await refused(table, "unit edit", "gives no `weapons` or `skills`", unit="Eva-01", file=unit_file(body))


async def test_edit_needs_something_to_change(p_battle: Table) -> None:
    await p_battle.slash("unit add", name="Eva-01", side="NERV", at="E5")
    await refused(p_battle, "unit edit", "Say what to change", unit="Eva-01")
    await refused(p_battle, "unit traits", "Say which trait to change", unit="Eva-01")


async def test_edit_file_is_for_the_gm(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5", owner=table.alice)
    eva_file = ("eva-01.toml", (EXAMPLES / "eva-01.toml").read_bytes())
    await refused(table, "unit edit", "Only a GM can edit units", user=table.alice, unit="Eva-01", file=eva_file)


async def test_an_owner_id_written_as_a_number(p_battle: Table) -> None:
    table = p_battle
    body = f'[[unit]]\nname = "Rei"\nside = "NERV"\nat = "D4"\nowner = {table.alice.id}\n'
    await table.slash("unit import", file=unit_file(body))
    assert (await stored_battle(table)).unit("Rei").owner == table.alice.id


async def test_import_side_autocomplete_offers_a_new_side_last(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Sachiel", side="Angels", at="J9")
    choices = await table.discord.autocomplete("unit import", "side", "ang", user=table.gm, channel=table.channel)
    assert [c["value"] for c in choices] == ["Angels", "ang"] and choices[1]["name"] == "ang (new side)"


async def test_an_order_slipping_in_is_kept_when_an_import_is_taken_back(
        p_battle: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table = p_battle
    real = table.service.execute
    calls = {"n": 0}

    async def interleaved(actor: Any, record: Any, order: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            # Another GM's order lands between the import's first and second unit, then the second one fails.
            await real(actor, record, AddUnit(name="Shamshel", side="Angels", at=Cell.parse("J9")), render=False)
            raise ConflictError("The battle changed while your order was being resolved; send it again.")
        return await real(actor, record, order, **kwargs)

    monkeypatch.setattr(table.service, "execute", interleaved)
    reply = await table.slash("unit import", file=unit_file(TWO_UNITS.format(owner=table.bob.id, n=9)))
    assert last_message(reply).ephemeral and "Nothing was imported." in text_of(reply)
    names = {u.name for u in (await stored_battle(table)).iter_units()}
    assert names == {"Shamshel"}, "the import's unit is gone, the other order's unit stays"
