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
    # No mode reaches T3, so the default Full move says how far it goes.
    await refused(ready, "move", "allows 4 squares", user=ready.alice, unit="Eva-01", to="T3")


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
    ("9" * 2000, "characters long"), ("1d6+" + "9" * 90, "Add or subtract at most 1000 in a roll"),
    ("2d10-1001", "Add or subtract at most 1000"), ("-5", "no dice in it; add one, like `1d10-5`"),
    ("-1d6+3", "starts by taking dice away"),
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


@pytest.mark.parametrize("hours", [1e300, 721.0, 5_000_000.0])
async def test_an_absurd_deadline_is_refused_at_the_command(ready: Table, hours: float) -> None:
    """Discord itself refuses a number outside an option's range; the stand-in does the same, before the bot."""
    from loopback.errors import InteractionError

    with pytest.raises(InteractionError, match="hours"):
        await ready.gm_slash("gm deadline", hours=hours)


async def test_the_longest_deadline_answers_in_one_short_line(ready: Table) -> None:
    await refused(ready, "gm deadline", "A deadline of 720.983 hours is too long", hours=720, minutes=59)
    reply = await ready.gm_slash("gm deadline", hours=720, minutes=59)
    assert len(text_of(reply)) < 200


async def test_every_numeric_option_is_bounded(table: Table) -> None:
    """Every whole-number or decimal option of every command has a smallest and a largest value."""
    unbounded = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            where = f"{path} {option['name']}"
            if option["type"] in (1, 2):
                walk(where, option.get("options", []))
            elif option["type"] in (4, 10) and ("min_value" not in option or "max_value" not in option):
                unbounded.append(where)

    for name, command in table.discord.commands().items():
        walk(f"/{name}", command.get("options", []))
    assert not unbounded, f"options without bounds: {unbounded}"
