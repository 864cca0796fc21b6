"""Every option that can be wrong: an ephemeral, specific message, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from loopback.models import LoopbackUser
from tests.e2e.conftest import Table, last_message, text_of


async def version(table: Table) -> int:
    """Return the stored version of the channel's battle."""
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    return record.version


async def refused(table: Table, command: str, fragment: str, user: LoopbackUser | None = None, **options: Any) -> None:
    """Run a command that must be refused: ephemeral, the fragment in the message, the battle unchanged."""
    before = await version(table)
    reply = await table.slash(command, user=user, **options)
    message = last_message(reply)
    assert message.ephemeral, f"refusal of /{command} was public: {text_of(reply)}"
    assert fragment in text_of(reply), text_of(reply)
    assert await version(table) == before


@pytest.fixture
async def ready(table: Table) -> Table:
    """Return the table with a started battle."""
    await table.setup_battle()
    await table.slash("battle start")
    return table


async def test_command_in_a_channel_without_battle(table: Table) -> None:
    reply = await table.slash("battle info", user=table.alice)
    assert last_message(reply).ephemeral
    assert "There is no battle in this channel" in text_of(reply)


async def test_unknown_unit(ready: Table) -> None:
    await refused(ready, "move", "There is no unit `Eva-09`", user=ready.alice, unit="Eva-09", to="D3")


async def test_someone_elses_unit(ready: Table) -> None:
    await refused(ready, "move", "Eva-02 is not yours", user=ready.alice, unit="Eva-02", to="D5")


async def test_cell_off_the_map(ready: Table) -> None:
    await refused(ready, "move", "Z9 is off the map; this map runs from A1 to T15", user=ready.alice, unit="Eva-01", to="Z9")


@pytest.mark.parametrize("cell", ["Z0", "A-1", "🙂", "33"])
async def test_malformed_cells(ready: Table, cell: str) -> None:
    await refused(ready, "move", "like `A1`", user=ready.alice, unit="Eva-01", to=cell)


async def test_move_too_far(ready: Table) -> None:
    await refused(ready, "move", "allows 4 squares", user=ready.alice, unit="Eva-01", to="J3")


async def test_unknown_terrain(ready: Table) -> None:
    await refused(ready, "map paint", "There is no terrain `lava`", terrain="lava", **{"from": "A1"})


async def test_paint_needs_a_place(ready: Table) -> None:
    await refused(ready, "map paint", "Say where to paint", terrain="forest")


async def test_unknown_ruleset(table: Table) -> None:
    reply = await table.slash("battle new", name="X", ruleset="warhammer", width=10, height=10)
    assert last_message(reply).ephemeral and "There is no ruleset `warhammer`" in text_of(reply)
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None


async def test_second_battle_in_a_channel(ready: Table) -> None:
    await refused(ready, "battle new", "already runs **Test Battle**", name="Again", ruleset="strategic-e",
                  width=10, height=10)


@pytest.mark.parametrize(("command", "options"), [
    ("map paint", {"terrain": "forest", "from": "A1"}),
    ("unit add", {"name": "Rogue", "side": "NERV", "at": "A1"}),
    ("unit remove", {"unit": "Sachiel"}),
    ("battle end", {}),
])
async def test_non_gm_running_gm_commands(ready: Table, command: str, options: dict[str, Any]) -> None:
    await refused(ready, command, "Only a GM", user=ready.alice, **options)


@pytest.mark.parametrize(("dice", "fragment"), [
    ("1d0", "between 2 and 1000 faces"), ("999d999999", "between 1 and 100 dice"), ("d", "not dice notation"),
    ("9" * 2000, "characters long"),
])
async def test_malformed_dice(ready: Table, dice: str, fragment: str) -> None:
    await refused(ready, "roll", fragment, user=ready.alice, dice=dice)


async def test_bad_unit_names(ready: Table) -> None:
    await refused(ready, "unit add", "keep it to 64", name="x" * 65, side="NERV", at="A1")
    await refused(ready, "unit add", "already a unit called Eva-01", name="eva-01", side="NERV", at="A1")


async def test_nothing_is_half_applied_when_a_list_has_one_bad_cell(ready: Table) -> None:
    await refused(ready, "map paint", "off the map", terrain="forest", cells="A1 B2 Z99")


async def test_unexpected_error_gets_an_apology_with_an_id(ready: Table, logged_errors: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ready.service, "battle_here", broken)
    reply = await ready.slash("battle info", user=ready.alice)
    assert last_message(reply).ephemeral
    assert "Sorry, something went wrong on our side (error `" in text_of(reply)
    assert "disk on fire" not in text_of(reply)
    records = logged_errors.take()
    assert any("/battle info" in r.getMessage() for r in records)
