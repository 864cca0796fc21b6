"""Every command the bot syncs fits Discord's limits: 25 options, 25 subcommands, 25 choices, 100-char texts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.e2e.conftest import Table

MAX_OPTIONS = 25  # options of a command, subcommands of a group, commands of a group, fixed choices
MAX_TEXT = 100  # a description or a choice's name
MAX_NAME = 32  # a command's or an option's name
SUBCOMMAND, GROUP = 1, 2


def leaves(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every command a user types (a subcommand inside groups, or the command itself), by its full name."""
    options = schema.get("options") or []
    nested = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
    if not nested:
        yield path, schema
        return
    assert len(nested) <= MAX_OPTIONS, f"/{path} has {len(nested)} subcommands"
    for sub in nested:
        yield from leaves(sub, f"{path} {sub['name']}")


async def test_every_command_fits_discords_limits(table: Table) -> None:
    synced = table.discord.commands()
    assert len(synced) <= 100, "Discord takes at most 100 top-level commands"
    counts: dict[str, int] = {}
    for name, schema in synced.items():
        for path, command in leaves(schema, name):
            options = command.get("options") or []
            counts[path] = len(options)
            assert len(options) <= MAX_OPTIONS, f"/{path} has {len(options)} options"
            assert 1 <= len(command["description"]) <= MAX_TEXT, f"/{path}: description {command['description']!r}"
            assert len(command["name"]) <= MAX_NAME
            for option in options:
                where = f"/{path} {option['name']}"
                assert len(option["name"]) <= MAX_NAME, where
                assert 1 <= len(option["description"]) <= MAX_TEXT, f"{where}: {option['description']!r}"
                choices = option.get("choices") or []
                assert len(choices) <= MAX_OPTIONS, f"{where} has {len(choices)} choices"
                assert all(len(c["name"]) <= MAX_TEXT for c in choices), where
                assert not (choices and option.get("autocomplete")), f"{where}: choices and autocomplete both"
    assert len(counts) > 60, "every subcommand was walked"
    # /unit edit is the widest command; it keeps a place free under Discord's 25.
    assert counts["unit edit"] == max(counts.values()) and counts["unit edit"] < MAX_OPTIONS


async def test_the_edit_and_end_commands_say_how_they_differ(table: Table) -> None:
    synced = table.discord.commands()

    def described(path: str) -> str:
        name = path.split()[0]
        found = dict(leaves(synced[name], name))
        return str(found[path]["description"])

    assert "stat block" in described("unit edit")
    assert "mid-battle" in described("gm edit") and "wounds" in described("gm edit")
    assert "by its path" in described("gm set")
    assert described("gm end").startswith("The same as /battle end")
    descriptions = [described(p) for p in ("unit edit", "gm edit", "gm set")]
    assert len(set(descriptions)) == 3
