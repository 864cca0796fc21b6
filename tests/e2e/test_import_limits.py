"""Hostile or broken files a member may attach: each is refused with a message, fast, and creates nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused

FIFTY_MB = 50 * 1024 * 1024


async def small_export(table: Table) -> dict[str, Any]:
    """Play a short battle (setup, start, a roll) and return its export document."""
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("roll", user=table.alice, dice="2d10")
    reply = await table.slash("battle export")
    document: dict[str, Any] = json.loads(last_message(reply).files[0].data)
    return document


async def import_refused(table: Table, raw: bytes, fragment: str, filename: str = "war.json") -> str:
    """Import a file into a fresh channel as the GM: privately refused with the fragment, nothing created."""
    channel = table.discord.add_channel(table.discord.guild, f"archive-{len(table.discord.world.channels)}")
    before = await table.db.battles.count()
    reply = await table.discord.slash("battle import", user=table.gm, channel=channel,
                                      options={"file": (filename, raw)})
    await table.settle()
    text = text_of(reply)
    assert last_message(reply).ephemeral, f"a refused import was shown to everyone: {text}"
    assert fragment in text, text
    assert "Sorry, something went wrong" not in text
    assert await table.db.battles.count() == before, "a refused import created a battle"
    assert await table.db.battles.in_channel(table.discord.guild.id, channel.id) is None
    return text


def encoded(document: dict[str, Any]) -> bytes:
    """Return a document as an export file's bytes."""
    return json.dumps(document).encode()


async def test_a_huge_map_is_refused_before_anything_is_built(table: Table) -> None:
    document = await small_export(table)
    for key in ("initial_state", "final_state"):
        document[key].update(width=1900, height=1900, terrain=["." * 1900] * 1900)
    await import_refused(table, encoded(document), "The map width must be 1 to 100 squares, not 1900.")


async def test_forty_thousand_orders_are_refused(table: Table) -> None:
    document = await small_export(table)
    document["orders"] += [{"seq": 100 + n, "kind": "roll", "order": "roll dice:1d6"} for n in range(40_000)]
    raw = json.dumps(document, separators=(",", ":")).encode()
    assert len(raw) < 8 * 1024 * 1024, "small enough to be read, so the order count is what refuses it"
    total = len(document["orders"])
    assert total > 40_000
    await import_refused(table, raw, f"The file holds {total:,} orders; an import takes at most 10,000.")


async def test_deep_nesting_is_refused_without_a_crash(table: Table) -> None:
    raw = b'{"format": "battlepost-battle", "version": 1, "orders": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    await import_refused(table, raw, "nests lists or tables 100,001 levels deep")


async def test_numbers_no_battle_uses_are_refused(table: Table) -> None:
    document = await small_export(table)
    raw = encoded(document).replace(b'"width": 20', b'"width": 1e400', 1)
    await import_refused(table, raw, "holds the number `1e400`")
    big = encoded(document).replace(b'"width": 20', b'"width": ' + b"9" * 5000, 1)
    await import_refused(table, big, "holds the number `999999999999999999999999`")
    nan = encoded(document).replace(b'"width": 20', b'"width": NaN', 1)
    await import_refused(table, nan, "holds `NaN`")


async def test_a_fifty_megabyte_file_of_any_kind_is_refused_before_download(table: Table) -> None:
    await table.setup_battle()
    blob = b"[" * FIFTY_MB
    await import_refused(table, blob, "That file is 51200 KiB; an export can be at most 8 MiB.")
    await refused(table, "unit import", "may be at most 256 KiB", file=("units.toml", blob))
    await refused(table, "map import", "a map file may be at most 4 MiB", file=("map.txt", blob))


async def test_deeply_nested_stat_blocks_are_refused(table: Table) -> None:
    await table.setup_battle()
    arrays = '[[unit]]\nname = "Deep"\nside = "NERV"\nat = "B2"\nweapons = ' + "[" * 5_000 + "]" * 5_000 + "\n"
    await refused(table, "unit import", "nests lists or tables 5,000 levels deep", file=("units.toml", arrays.encode()))
    tables = "x = " + "{a = " * 3_000 + "1" + "}" * 3_000 + "\n"
    await refused(table, "unit edit", "nests lists or tables 3,000 levels deep", unit="Eva-01",
                  file=("eva.toml", tables.encode()))


async def test_an_initial_state_other_than_a_fresh_battle_is_refused(table: Table) -> None:
    """Units, terrain and owners only come through orders the rules check, never through the starting state."""
    document = await small_export(table)
    unit = dict(document["final_state"]["units"][0], name="Stowaway", wounds=99_999, x=3, y=3)
    document["initial_state"]["units"] = [unit]
    await import_refused(table, encoded(document), "`initial_state` is not the empty battle /battle new creates "
                                                   "(it differs at `units (length 0 against 1)`)")


async def test_a_recorded_result_the_rules_do_not_give_is_refused(table: Table) -> None:
    """An answer never lies: the log shown after an import is the one the rules produce with the file's dice."""
    document = await small_export(table)
    roll = next(o for o in document["orders"] if o["kind"] == "roll")
    roll["outcome"]["rolls"][0]["total"] += 5
    await import_refused(table, encoded(document), f"Order #{roll['seq']} in the file records a result the rules "
                                                   "do not give with its dice (it differs at `rolls[0].total`)")
    roll["outcome"]["rolls"][0]["total"] -= 5
    roll["outcome"]["rolls"][0]["faces"][0] = 11
    await import_refused(table, encoded(document), f"Order #{roll['seq']} `roll dice:2d10` is refused on replay: "
                                                   "A d10 cannot show 11")
    roll["outcome"]["rolls"][0]["faces"][0] = 10**12
    await import_refused(table, encoded(document), f"Order #{roll['seq']} in the file records a die face that no "
                                                   "die shows")
    roll["outcome"]["rolls"][0]["faces"] = [[3], "4"]
    await import_refused(table, encoded(document), "records a die face that no die shows")


async def test_a_long_import_replays_while_other_servers_are_answered(table: Table) -> None:
    """The replay of a long log runs off the event loop: another server's command is answered meanwhile."""
    await table.slash("battle new", name="Long Night", ruleset="strategic-e", width=30, height=30)
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    from rules import orders as o

    gm = table.service.system_actor(table.discord.guild.id)
    for n in range(2_500):
        record = (await table.service.execute(gm, record, o.Roll(dice="3d10", purpose=f"salvo {n}"),
                                              render=False, publish=False)).record
    reply = await table.slash("battle export")
    data = last_message(reply).files[0].data
    other = table.discord.add_guild("Other Server")
    stranger = table.discord.add_user("stranger", guild=other, manage_guild=True)
    elsewhere = table.discord.channel("general", other)
    archive = table.discord.add_channel(table.discord.guild, "archive")
    importing = asyncio.create_task(table.discord.slash(
        "battle import", user=table.gm, channel=archive, options={"file": ("war.json", data)}, within=300))
    for _ in range(30_000):  # until the import says it is working on it, or is done
        if importing.done() or any(m.loading for m in table.discord.messages(archive, include_ephemeral=True)):
            break
        await asyncio.sleep(0.01)
    answered = await table.discord.slash("battle list", user=stranger, channel=elsewhere)
    assert "No battles on this server yet" in text_of(answered)
    assert not importing.done(), "another server's command waited for the whole import"
    imported = await importing
    await table.settle()
    assert "Imported: Long Night" in text_of(imported) and "2500 orders replayed" in text_of(imported)
