"""Words players read name commands their battle's system offers, with options those commands take.

DESIGN section 6: "Every word a player reads names a command that exists in that battle's system, never an
internal order kind." Checked against the command tree the bot synced to the loopback Discord.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from cogs.common.systems import refusal
from cogs.common.words import command_name, command_text
from loopback.models import StoredMessage
from rules.orders import Order
from rules.system import System, registered
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import EXAMPLES

Schema = dict[str, set[str]]
# A slash command as written in a reply: `/turn end unit:Eva-01`, after a space, a backtick, a quote or a bracket.
MENTION = re.compile(r"(?:^|(?<=[\s`\"'(*\[]))/([a-z][a-z0-9-]*(?:[ ][^\s`]+)*)")
OPTION = re.compile(r'^([a-z_][a-z0-9_]*):')


def schema_of(table: Table) -> Schema:
    """Return every synced command by its qualified name (`turn end`), with the options it takes."""
    out: Schema = {}

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        name = f"{prefix} {node['name']}".strip()
        options = node.get("options", [])
        subs = [o for o in options if o.get("type") in (1, 2)]
        for sub in subs:
            walk(sub, name)
        if not subs:
            out[name] = {o["name"] for o in options}

    for command in table.discord.world.commands_for(table.discord.guild.id).values():
        walk(command, "")
    return out


def mentions(text: str, schema: Schema) -> list[tuple[str, list[str]]]:
    """Return each command a text names with the options written after it; an unknown one comes back whole."""
    found: list[tuple[str, list[str]]] = []
    groups = {name.split(" ")[0] for name in schema}
    for match in MENTION.finditer(text):
        words = re.sub(r'"[^"]*"', '""', match.group(1)).split(" ")
        path = words[0]
        rest = words[1:]
        while rest and any(n == f"{path} {rest[0]}" or n.startswith(f"{path} {rest[0]} ") for n in schema):
            path, rest = f"{path} {rest[0]}", rest[1:]  # a subcommand (`/battle rules set`)
        if path not in schema and path in groups:
            continue  # a group named alone (`/gm`, `/battle`): the reader picks its subcommand
        options = []
        for word in rest:
            named = OPTION.match(word.strip("[]"))
            if named is None:
                break
            options.append(named.group(1))
        found.append((path, options))
    return found


def wrong_words(text: str, schema: Schema, system: str) -> list[str]:
    """Return what a text names wrongly in a battle of this system: unknown commands or options, another system's."""
    problems = []
    # A refusal of another system's command names it, saying whose it is: that is no offer of it.
    refusing = "battles; this battle plays" in text
    for path, options in mentions(text, schema):
        if path not in schema:
            problems.append(f"/{path} is no command")
            continue
        unknown = [o for o in options if o not in schema[path]]
        if unknown:
            problems.append(f"/{path} takes no {unknown}")
        why = refusal(system, path, options)
        if why is not None and not refusing:
            problems.append(why)
    return problems


def internal_kinds(schema: Schema) -> set[str]:
    """Return the order kinds that are no word of any command (`end-turn`, `gm-place`): players never read them."""
    words = {w for name in schema for w in name.split(" ")}
    return {kind for system in registered() for kind in system.orders if "-" in kind and kind not in words}


def message_texts(message: StoredMessage) -> list[str]:
    """Return everything a player reads in a message: its text, embeds with footers, and button and menu labels."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        texts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return [t for t in texts + labels(message) if t]


def labels(message: StoredMessage) -> list[str]:
    """Return the labels of a message's buttons and menu options."""
    out = []
    for row in message.components:
        for item in row.get("components", []):
            out.append(str(item.get("label", "")))
            out += [str(o.get("label", "")) for o in item.get("options", [])]
    return [label for label in out if label]


def check_channel(table: Table, system: str, since: int = 0) -> int:
    """Check every message the bot posted or answered since a message id; return how many texts were read."""
    schema = schema_of(table)
    hidden = internal_kinds(schema)
    read = 0
    problems: list[str] = []
    for message in list(table.discord.world.messages.values()):
        if message.id <= since:
            continue
        # A button reads words (`Action: impart order`), never a value as the rules store it (`impart_order`).
        problems += [f"button {label!r} reads a stored value" for label in labels(message) if "_" in label]
        for text in message_texts(message):
            read += 1
            problems += [f"{p} in: {text[:200]!r}" for p in wrong_words(text, schema, system)]
            # An option's value is a choice of the command (`posture:flat-down`), not an order kind.
            words = re.sub(r"\b[a-z_]+:\S+", "", text)
            said = sorted(k for k in hidden if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", words))
            if said:
                problems.append(f"internal order kinds {said} in: {text[:200]!r}")
    assert not problems, "\n".join(problems)
    return read


def _sample(cls: type[Order]) -> str:
    """Write an order of this class with a value in every field, as its text form reads."""
    hints = typing.get_type_hints(cls)
    parts = [cls.kind]
    for field in dataclasses.fields(cls):
        if field.name not in hints or not field.init:
            continue
        hint = str(hints[field.name])
        if "Mapping" in hint or "dict" in hint:
            value = json.dumps({"wounds": 3})
        elif "bool" in hint:
            value = "False"
        elif "Cell" in hint:
            value = "C4"
        elif "int" in hint or "float" in hint:
            value = "2"
        else:
            value = "x"
        parts.append(f"{field.name}:{json.dumps(value) if ' ' in value or '{' in value else value}")
    return " ".join(parts)


def kinds_of(system: System) -> Iterable[tuple[str, type[Order]]]:
    """Return every order kind a battle of the system reads, with its class."""
    return sorted(system.orders.items())


async def test_every_order_kind_of_every_system_reads_as_a_command_its_battles_offer(table: Table) -> None:
    schema = schema_of(table)
    problems = []
    checked = 0
    for system in registered():
        for kind, cls in kinds_of(system):
            name = command_name(kind, system.id)
            written = command_text(_sample(cls), system.id)
            if name is None:
                # The bot gives it itself: it reads as words, never as a command or the kind.
                assert not written.startswith("/") and not re.search(rf"\b{re.escape(kind)}:", written), written
                assert written != kind and ("-" not in kind or kind not in written), (system.id, kind, written)
                continue
            checked += 1
            problems += [f"{system.id} {kind}: {p}" for p in wrong_words(written, schema, system.id)]
            assert mentions(written, schema), (system.id, kind, written)
    assert checked > 80
    # A core order a system has no command for (Surface does not move square by square) may only be refused.
    playable = {p for p in problems if "is no command" in p}
    assert not playable, "\n".join(sorted(playable))
    assert not problems, "\n".join(problems)


async def test_a_strategic_battle_names_only_its_commands(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("move", user=table.alice, unit="Eva-01", to="C4")
    await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Fist", target="Sachiel")
    await table.slash("act", user=table.alice, unit="Eva-01", stat="ag")
    await table.slash("turn end", user=table.alice, unit="Eva-01")
    await table.slash("turn status", user=table.bob)
    await table.slash("turn standing", user=table.bob, unit="Eva-02", order="move to:C6")
    await table.slash("gm move", unit="Sachiel", to="P11")
    await table.slash("gm set", unit="Sachiel", field="wounds", value="9")
    await table.slash("turn mode", mode="side")
    await table.slash("battle log", user=table.alice)
    await table.slash("help", user=table.alice)
    await table.slash("ca options", user=table.alice, unit="Eva-01")
    assert check_channel(table, "strategic") > 40


async def test_a_combat_action_battle_names_only_its_commands(table: Table) -> None:
    stats = EXAMPLES / "combat-action"
    await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16)
    await table.slash("unit import", file=("rangers.toml", (stats / "rangers.toml").read_bytes()), owner=table.alice)
    await table.slash("unit import", file=("raiders.toml", (stats / "raiders.toml").read_bytes()), owner=table.bob)
    await table.slash("turn mode", mode="side")
    await table.slash("battle start")
    await table.slash("ca options", user=table.alice, unit="Sgt Vance")
    await table.slash("move", user=table.alice, unit="Sgt Vance", to="C13", mode="walk")
    await table.slash("ca posture", user=table.alice, unit="Sgt Vance", posture="flat-down")
    await table.slash("turn end", user=table.alice, unit="Sgt Vance")
    await table.slash("attack", user=table.alice, unit="Trooper Kell", weapon="Rifle", target="Raider Boss")
    await table.slash("ca action", user=table.alice, unit="Trooper Kell", action="hide")
    await table.slash("turn end", user=table.alice, unit="Trooper Kell")
    await table.slash("turn status", user=table.alice)
    await table.slash("battle log", user=table.alice)
    await table.slash("help", user=table.alice)
    await table.slash("feature list", user=table.alice)
    assert check_channel(table, "combat_action") > 40


async def test_an_m42_battle_names_only_its_commands(table: Table) -> None:
    await table.slash("battle new", name="Farmstead", ruleset="m42", width=34, height=20)
    await table.slash("map edge", edges="L1-L9:e", obstacle="wall", height=2.0)
    await table.slash("map road", **{"from": "A15"}, to="Z15")
    await table.slash("map floors", **{"from": "AA12"}, to="AE17", floors=2)
    await table.slash("unit add", name="Alpha", side="Red", at="B15", owner=table.alice, ld=3, models=4)
    await table.slash("unit add", name="Ghost", side="Blue", at="AF4", owner=table.bob, ld=2, models=3)
    await table.slash("battle start")
    await table.slash("move", user=table.alice, unit="Alpha", to="E15", mode="advance")
    await table.slash("turn end", user=table.alice, unit="Alpha")
    await table.slash("radius", user=table.bob, unit="Ghost")
    await table.slash("turn status", user=table.alice)
    await table.slash("battle log", user=table.alice)
    await table.slash("help", user=table.alice)
    await table.slash("gm move", unit="Ghost", to="AE4")
    assert check_channel(table, "m42") > 20


async def test_a_surface_battle_names_only_its_commands(table: Table) -> None:
    await table.slash("battle new", name="Landing", ruleset="surface")
    await table.slash("surface add", name="Hammer", side="Marines", **{"type": "space-marines"}, owner=table.alice)
    await table.slash("surface add", name="Cell 7", side="Rebels", **{"type": "rebels"}, owner=table.bob)
    await table.slash("battle start")
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=2)
    await table.slash("surface plan", user=table.bob, side="Rebels", intensity=1)
    await table.slash("surface report", user=table.alice)
    await table.slash("surface status", user=table.alice)
    await table.slash("help", user=table.alice)
    await table.slash("attack", user=table.alice, unit="Hammer", weapon="x", target="Cell 7")
    assert check_channel(table, "surface") > 10


async def test_another_systems_command_is_refused_privately_and_not_offered(table: Table) -> None:
    await table.slash("battle new", name="Farmstead", ruleset="m42", width=34, height=20)
    await table.slash("unit add", name="Alpha", side="Red", at="B15", owner=table.alice, ld=3, models=4)
    before = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    refused = await table.slash("feature place", user=table.alice, **{"type": "wall"}, at="C3", side="Red")
    assert last_message(refused).ephemeral
    assert text_of(refused).startswith("/feature place is a command of Strategic Combat Rules battles; this battle "
                                       "plays M42 Movement & Terrain.")
    after = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert before is not None and after is not None and after.version == before.version
    gm_only = await table.slash("gm freeze", at="C3")
    assert "/gm freeze is a command of Strategic Combat Rules battles" in text_of(gm_only)
    option = await table.slash("attack", user=table.alice, unit="Alpha", weapon="x", target="y", called="head")
    assert last_message(option).ephemeral and "/attack is a command of Combat Action or Strategic Combat Rules" \
        in text_of(option)
    # Autocomplete answers nothing for another system's command, and what the battle plays as usual.
    assert await table.discord.autocomplete("feature place", "side", "", user=table.alice,
                                            channel=table.channel) == []
    assert await table.discord.autocomplete("move", "unit", "", user=table.alice, channel=table.channel)
    # /help in this channel leaves out the other systems' parts and their commands.
    helped = text_of(await table.slash("help", user=table.alice))
    assert "/radius" in helped and "/feature" not in helped and "/ca " not in helped and "/surface" not in helped


async def test_an_option_only_another_system_takes_is_refused_naming_it(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    refused = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Fist", target="Sachiel",
                                mode="sniping")
    assert last_message(refused).ephemeral
    assert text_of(refused).startswith("/attack's `mode` option is an option of Combat Action battles; this battle "
                                       "plays Strategic Combat Rules.")
