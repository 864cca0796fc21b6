"""Every order kind of every rule system, played beside a secret, leaves the secret out of the battle's channel.

Each system's battle holds secrets: a unit hiding in a forest (its square), a side's hidden trap, a GM's roll
told only to one side, a Surface side's plan before it is revealed. Then every order kind the system declares
(enumerated from the registry, so a kind added later fails here until it has a case) is played through the
console's slash commands against the real bot and the loopback Discord. Everything the bot posts in the
battle's channel (content, embeds with their fields and footers, file names, alt text and descriptions) and
what a member with no units reads in /battle log and /map text is searched for each secret.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console, open_console
from cogs.common.words import command_name
from loopback.models import StoredMessage
from rules.system import System, registered
from rules.systems import install
from tests.e2e.conftest import embed_text
from tests.e2e.test_console import settings_for

install()

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GM_SECRET = "Operation Yashima"  # the purpose of a GM's roll told only to one side
STANDING = "S12"  # where a standing order (its player's secret, never carried out) would take its unit
TRAP = "G5"  # Blue's hidden Fire Trap, inside a forest whose squares no text names one by one


@dataclass
class Script:
    """How one system's battle is played: its setup (with the secrets), a case per order kind, and the secrets."""

    system: str
    setup: list[str]
    cases: dict[str, list[str]]
    secrets: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)  # file name -> text, written beside the script
    copies: dict[str, Path] = field(default_factory=dict)  # file name -> an example file copied beside it
    # Kinds the system declares but its rulesets refuse: the line must be refused in private.
    refused: dict[str, str] = field(default_factory=dict)
    # Kinds no slash command gives (the rules run them themselves): checked to have no command.
    no_command: frozenset[str] = frozenset()
    # Other ways the secrets may be written (an order's text form): searched for, but not told to anyone as such.
    spellings: tuple[str, ...] = ()
    # Texts no post may hold once the script's `# hidden` line has run (a square everyone saw before).
    hidden: tuple[str, ...] = ()

    def kinds(self) -> set[str]:
        """Return every kind the script answers for."""
        return set(self.cases) | set(self.refused) | set(self.no_command)


STRATEGIC_UNITS = """
[[unit]]
name = "Bravo"
side = "Blue"
at = "C4"
owner = "{alice}"
ws = 40
bs = 45
s = 40
t = 35
ag = 40
wounds = 20
ap = 4

[[unit.weapons]]
name = "Rifle"
range = 100
damage = "1d10+3"
type = "I"
pen = 1

[[unit.weapons]]
name = "Knife"
melee = true
damage = "1d10"
type = "R"

[[unit]]
name = "Omega"
side = "Red"
at = "D5"
owner = "{bob}"
ws = 35
bs = 40
s = 35
t = 35
ag = 35
wounds = 30
ap = 4

[[unit.weapons]]
name = "Rifle"
range = 100
damage = "1d10+3"
type = "I"
pen = 1
"""

STRATEGIC_MAP = """# legend: . plain, F forest, ~ water
................
................
................
................
....FFF.........
....FFF.........
....FFF.........
...........~~...
................
................
................
................
"""

STRATEGIC = Script(
    system="strategic",
    files={"units.toml": STRATEGIC_UNITS, "map.txt": STRATEGIC_MAP},
    copies={"homebrew.toml": EXAMPLES / "homebrew" / "volcanic.toml"},
    setup=[
        "as gm", "as alice", "as bob", "as carol", "as gm",
        "/battle new name:Secrets ruleset:strategic-p width:16 height:12",
        "/gm side-threads on:true",
    ],
    cases={
        "import-map": ["/map import file:map.txt"],
        "paint": ["/map paint terrain:forest cells:\"J10 K10\""],
        "import-homebrew": ["/battle rules import file:homebrew.toml"],
        "set-rule": ["/battle rules set key:trap_detect_mod value:0"],
        "add-unit": ["/unit add name:Alpha side:Blue at:E5 owner:@alice ag:40 wounds:20 ap:4",
                     "/unit import file:units.toml", "/unit add name:Spare side:Red at:N11"],
        "remove-unit": ["/unit remove unit:Spare"],
        "side-colour": ["/battle side colour side:Blue colour:teal"],
        "edit-unit": ["/unit edit unit:Omega wounds:28 supreme_commander:true"],
        "set-fp": ["/feature points side:Blue value:20", "/feature points side:Red value:20"],
        "place-feature": ["as alice", f"/feature place type:fire_trap at:{TRAP} side:Blue",
                          "as bob", "/feature place type:fire_trap at:J10 side:Red", "as gm"],
        "remove-feature": ["/feature place type:barrier_walls at:M2 side:Red", "/feature remove at:M2"],
        "test": ["as alice", "/act unit:Alpha stat:ag reason:\"warm up\"", "as gm"],
        "set-turn-mode": ["/turn mode mode:free"],
        "start": ["/gm policy policy:default", "/battle start"],
        "hide": ["as alice", "/hide unit:Alpha", "as gm", "/gm edit unit:Alpha add_status:hidden actions:2"],
        "move": ["as alice", "/move unit:Alpha to:F6 mode:half", "/move unit:Bravo to:C5 mode:half"],
        "act": ["as gm", "/gm edit unit:Alpha actions:1", "as alice", "/act unit:Alpha stat:ag reason:\"keep still\""],
        "roll": ["/roll dice:1d6 purpose:morale", "as gm",
                 f"/gm roll dice:1d100 purpose:\"{GM_SECRET}\" side:Blue"],
        "aim": ["as alice", "/aim unit:Bravo mode:half"],
        "defend": ["as bob", "/defend unit:Omega"],
        "extinguish": ["as gm", "/gm edit unit:Omega add_status:on_fire", "as bob", "/extinguish unit:Omega"],
        "close-round": ["as gm", "/turn close-round"],
        "attack": ["as alice", "/attack unit:Bravo weapon:Rifle target:Omega"],
        "charge": ["as gm", "/gm edit unit:Bravo actions:2", "/gm move unit:Omega to:E3", "as alice", "/charge unit:Bravo target:Omega weapon:Knife"],
        "maneuver": ["as gm", "/turn close-round", "as alice", "/maneuver unit:Bravo target:Omega"],
        "break-free": ["as gm", "/gm edit unit:Omega add_status:bakelite", "as bob", "/break-free unit:Omega"],
        "detect-traps": ["as gm", "/gm edit unit:Omega actions:2", "as bob", "/trap detect unit:Omega"],
        "trigger-trap": ["/trap trigger side:Red at:J10"],
        "gm-place": ["as gm", "/gm move unit:Omega to:K8", "/gm move unit:Alpha to:F7"],
        "gm-set": ["/gm set unit:Omega field:wounds value:25"],
        "freeze": ["/gm freeze at:L8"],
        "hold": ["/turn close-round", "as bob", "/turn hold unit:Omega"],
        "end-turn": ["as alice", "/turn end unit:Bravo"],
        "skip-turn": ["as gm", "/gm skip unit:Alpha"],
        "standing-order": ["/turn close-round", "as bob", "/turn standing unit:Omega order:hold",
                           "as alice", "/turn standing unit:Alpha order:\"move to:G6 mode:half\"",
                           "/turn end unit:Bravo"],
        "standing-turn": ["as gm", "/gm deadline hours:1", "wait 2h"],
        "end": ["as gm", "/battle end", "click End the battle"],
    },
    refused={"set-edge": "/map edge edges:A1-A3:e obstacle:wall height:2",
             "clear-edge": "/map edge edges:A1-A3:e obstacle:none"},
    no_command=frozenset({"next-round"}),
    secrets=("F6", "F7", "G6", TRAP, GM_SECRET),
)

CA_MAP = """# legend: . open, p partial, w woods
....................
....................
....................
..........ww........
..........ww........
....................
....................
....................
..ppp...............
....................
....................
....................
....................
....................
....................
....................
"""

CA_HOMEBREW = """[[terrain]]
key = "scree"
name = "Scree"
char = "s"
color = [150, 140, 130]
notes = "Loose stones."
"""

COMBAT_ACTION = Script(
    system="combat_action",
    files={"map.txt": CA_MAP, "homebrew.toml": CA_HOMEBREW},
    copies={"rangers.toml": EXAMPLES / "combat-action" / "rangers.toml",
            "raiders.toml": EXAMPLES / "combat-action" / "raiders.toml"},
    setup=[
        "as gm", "as vance", "as krag", "as carol", "as gm",
        "/battle new name:Secrets ruleset:combat-action width:20 height:16",
        "/gm side-threads on:true",
    ],
    cases={
        "paint": ["/map paint terrain:woods from:J6 to:K7"],
        "set-rule": ["/battle rules set key:hidden_blocks_fire value:true"],
        "add-unit": ["/unit import file:rangers.toml owner:@vance", "/unit import file:raiders.toml owner:@krag",
                     "/unit add name:Spare side:Raiders at:S15 stats:\"kind=infantry ss=4 pf=0 mv=10\"",
                     "/unit add name:Jammer side:Rangers at:L6 owner:@vance stats:'{\"kind\": \"infantry\", "
                     "\"ss\": 4, \"pf\": 0, \"mv\": 10, \"weapons\": [{\"name\": \"Rifle\", \"class\": "
                     "\"rifle\", \"pen\": 1, \"jammed\": true}, {\"name\": \"Bayonet\", \"class\": "
                     "\"close combat\", \"pen\": 1}]}'"],
        "remove-unit": ["/unit remove unit:Spare"],
        "side-colour": ["/battle side colour side:Rangers colour:teal"],
        "edit-unit": ["/unit edit unit:\"Raider Scout\" stats:\"mv=15\""],
        "set-turn-mode": ["/turn mode mode:free"],
        "start": ["/gm policy policy:default", "/battle start"],
        "action": ["as krag", "/ca action unit:\"Raider Scout\" action:hide", "# hidden"],
        "activate": ["as vance", "/ca activate unit:\"Sgt Vance\""],
        "move": ["/move unit:\"Sgt Vance\" to:C10 mode:walk"],
        "prime": ["/ca prime unit:\"Sgt Vance\" weapon:Frag"],
        "end-turn": ["/turn end unit:\"Sgt Vance\""],
        "aim": ["/ca posture unit:\"Trooper Kell\" posture:aim"],
        "fire": ["/attack unit:\"Trooper Kell\" weapon:Rifle target:\"Raider Boss\""],
        "hatch": ["/ca hatch unit:Mule action:open"],
        "disembark": ["/ca disembark unit:\"Trooper Orr\" to:F12"],
        "flat-down": ["/ca posture unit:\"Trooper Orr\" posture:flat-down"],
        "hold": ["/turn hold unit:Mule"],
        "close-round": ["as gm", "/turn close-round"],
        "get-up": ["as vance", "/ca posture unit:\"Trooper Orr\" posture:get-up"],
        "embark": ["/ca embark unit:\"Trooper Orr\" vehicle:Mule"],
        "reload": ["/ca reload unit:\"Trooper Kell\" weapon:Rifle"],
        "unjam": ["as gm", "/turn close-round", "as vance", "/ca unjam unit:Jammer weapon:Rifle"],
        "close-combat": ["as gm", "/turn close-round", "as vance", "/move unit:Jammer to:L4 mode:charge",
                         "as gm", "/turn close-round", "as vance", "/ca close-combat unit:Jammer target:\"Raider Gunner\""],
        "skip-turn": ["as gm", "/gm skip unit:\"Trooper Kell\""],
        "standing-order": ["/turn close-round", "as vance", "/turn standing unit:\"Trooper Kell\" order:hold"],
        "standing-turn": ["as gm", "/gm deadline hours:1", "wait 2h"],
        "end": ["as gm", "/battle end", "click End the battle"],
    },
    refused={"import-map": "/map import file:map.txt", "import-homebrew": "/battle rules import file:homebrew.toml",
             "set-edge": "/map edge edges:A1-A3:e obstacle:wall height:2",
             "clear-edge": "/map edge edges:A1-A3:e obstacle:none",
             "test": "/act unit:\"Raider Scout\" stat:ss reason:\"look about\"",
             "roll": "/roll dice:1d6 purpose:morale"},
    secrets=(),
    hidden=("I6",),  # the Raider Scout's square, which no post after it hides may name
)

M42_MAP = "\n".join(["." * 24] * 16) + "\n"

M42 = Script(
    system="m42",
    files={"map.txt": M42_MAP},
    copies={"squads.toml": EXAMPLES / "m42" / "squads.toml", "actions.toml": EXAMPLES / "m42" / "actions.toml"},
    setup=[
        "as gm", "as ann", "as bo", "as carol", "as gm",
        "/battle new name:Secrets ruleset:m42 width:24 height:16",
        "/gm side-threads on:true",
    ],
    cases={
        "import-map": ["/map import file:map.txt"],
        "paint": ["/map paint terrain:woods from:H1 to:K9"],
        "set-edge": ["/map edge edges:\"L1-L9:e\" obstacle:wall height:2"],
        "clear-edge": ["/map edge edges:\"L1-L3:e\" obstacle:none"],
        "set-road": ["/map road from:A15 to:X15"],
        "set-floors": ["/map paint terrain:building from:T2 to:W5", "/map floors from:T2 to:W5 floors:2"],
        "import-homebrew": ["/battle rules import file:actions.toml"],
        "set-rule": ["/battle rules set key:inches_per_square value:1"],
        "add-unit": ["/unit import file:squads.toml owner:@ann", "/unit add name:Ghost side:Blue at:V12 owner:@bo ld:2 models:3",
                     "/unit add name:Spare side:Blue at:X1 ld:1 models:1"],
        "remove-unit": ["/unit remove unit:Spare"],
        "side-colour": ["/battle side colour side:Blue colour:teal"],
        "edit-unit": ["/unit edit unit:Ghost stats:\"ld=3\""],
        "set-turn-mode": ["/turn mode mode:free"],
        "start": ["/gm policy policy:default", "/battle start"],
        "move": ["as ann", "/move unit:Alpha to:G5 mode:advance"],
        "end-turn": ["/turn end unit:Alpha"],
        "take-action": ["/action unit:Bravo action:advance to:F15"],
        "place": ["as gm", "/turn close-round", "as ann", "/place unit:Bravo models:\"F14 E15\""],
        "skip-turn": ["as gm", "/gm skip unit:Alpha"],
        "close-round": ["/turn close-round"],
        # Ghost's standing order is its player's secret; Ghost holds, so the order is never carried out.
        "standing-order": ["as bo", f"/turn standing unit:Ghost order:\"move to:{STANDING} mode:advance\"",
                           "as ann", "/turn standing unit:Alpha order:hold"],
        "hold": ["as bo", "/turn hold unit:Ghost"],
        "standing-turn": ["as gm", "/gm deadline hours:1", "wait 2h"],
        "end": ["as gm", "/battle end", "click End the battle"],
    },
    refused={"test": "/act unit:Ghost stat:ld reason:\"nerve\"", "roll": "/roll dice:1d6 purpose:morale"},
    secrets=(STANDING,),
)

SURFACE = Script(
    system="surface",
    setup=[
        "as gm", "as kell", "as mara", "as carol", "as gm",
        "/battle new name:Secrets ruleset:surface",
        "/gm side-threads on:true",
    ],
    cases={
        "add-unit": ["/surface add name:Hammer side:Marines type:space-marines owner:@kell flags:powered_armor",
                     "/surface add name:Titan side:Marines type:battleoids owner:@kell",
                     "/surface add name:\"Cell 7\" side:Rebels type:rebels owner:@mara",
                     "/surface add name:Spare side:Rebels type:rebels"],
        "remove-unit": ["/unit remove unit:Spare"],
        "side-colour": ["/battle side colour side:Marines colour:teal"],
        "edit-unit": ["/unit edit unit:\"Cell 7\" stats:\"morale=8\""],
        "surface-import": ["/surface import file:forces.json"],
        "surface-side": ["/surface side side:Marines leader:Kell ability:2",
                         "/surface side side:Rebels leader:Mara ability:1"],
        "set-rule": ["/battle rules set key:morale_die value:10"],
        "start": ["/gm policy policy:hold", "/battle start"],
        "surface-plan": ["as kell", "/surface plan side:Marines intensity:2 daring:1 dropped:Titan",
                         "as mara", "/surface plan side:Rebels intensity:0 besieged:true"],
        "surface-resolve": [],
        "surface-next-turn": ["as gm", "/surface next-turn",
                              # The Marines' plan for the next turn is theirs alone: the battle ends unfought.
                              "as kell", "/surface plan side:Marines intensity:1 daring:0 dropped:Hammer"],
        "end": ["as gm", "/battle end", "click End the battle"],
    },
    files={"forces.json": json.dumps({"ruleset": "surface", "forces": {"Rebels": [
        {"name": "Old Guard", "owner": None, "stats": {"type": "armor"}}]}})},
    refused={"import-map": "/map import file:forces.json", "paint": "/map paint terrain:open cells:A1",
             "set-edge": "/map edge edges:A1-A3:e obstacle:wall height:2",
             "clear-edge": "/map edge edges:A1-A3:e obstacle:none",
             "import-homebrew": "/battle rules import file:forces.json",
             "move": "/move unit:Hammer to:A1", "test": "/act unit:Hammer stat:morale reason:nerve",
             "roll": "/roll dice:1d6 purpose:morale"},
    secrets=("intensity 1",),
    spellings=("intensity:1", "dropped:Hammer", "dropped Hammer"),
)

SCRIPTS = {s.system: s for s in (STRATEGIC, COMBAT_ACTION, M42, SURFACE)}


def message_text(message: StoredMessage) -> str:
    """Return all a message shows: its text, its embeds' every part, its files' names, alt text and descriptions."""
    parts = [message.content, *(embed_text(e) for e in message.embeds)]
    parts += [json.dumps(e, ensure_ascii=False) for e in message.embeds]
    parts += [f"{f.filename} {f.description or ''}" for f in message.files]
    return "\n".join(parts)


@dataclass
class Played:
    """What playing a script left: what everyone may read, what only some were told, the kinds played."""

    public: list[str] = field(default_factory=list)  # a member with no units' log and map text, the channel's posts
    after_hiding: list[str] = field(default_factory=list)  # the channel's posts once the `# hidden` line ran
    private: list[str] = field(default_factory=list)  # private answers, side threads, DMs, the GM's log
    kinds: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)  # lines that did not do what their case says


async def play(script: Script, folder: Path) -> Played:
    """Play a script through the console against the real bot and the loopback Discord."""
    for name, source in script.copies.items():
        (folder / name).write_bytes(source.read_bytes())
    discord, db, console = await open_console(settings_for(folder / "battles.sqlite3"), folder / "maps", seed=11)
    console.base_dir = folder
    played = Played()
    try:
        for line in script.setup:
            await console.run_line(line)
        made = await console.latest_seq()
        assert made is not None, "the setup makes the battle"
        # The files name their units' players by user id, as a GM writes them.
        ids = {name: str(user.id) for name, user in console.users.items()}
        for name, text in script.files.items():
            for user, user_id in ids.items():
                text = text.replace("{" + user + "}", user_id)
            (folder / name).write_text(text, encoding="utf-8")
        for kind, line in script.refused.items():
            result = await console.run_line(line)
            if result is None or (result.ok and not result.error) or not result.ephemeral:
                played.refused.append(f"{kind}: `{line}` was not refused in private: {result}")
        hid_at: int | None = None
        for line in (line for case in script.cases.values() for line in (*case, "# look")):
            if line == "# look":
                # What a member with no units reads after each case (the map text tells the last action).
                played.public += await _read_as(console, "carol")
                continue
            if line == "# hidden":
                hid_at = len(discord.messages(console.channel))
            try:
                result = await console.run_line(line)
            except Exception as exc:  # a line Discord would not send: the case is wrong, say which
                played.refused.append(f"{line}: {exc}")
                continue
            if result is not None and (not result.ok or result.error):
                played.refused.append(f"{line}: {result.error or result.content}")
            elif result is not None and result.ephemeral:
                played.private.append(result.content + "\n" + "\n".join(embed_text(e) for e in result.embeds))
        commands = _command_names(console)
        # The rules give these themselves: no command gives them, and none a command's name could be is synced.
        played.refused += [f"{kind}: /{command_name(kind, script.system)} gives it" for kind in script.no_command
                           if command_name(kind, script.system) in commands or kind in commands]
        posts = discord.messages(console.channel)
        played.public += [message_text(m) for m in posts]
        played.after_hiding = [message_text(m) for m in posts[hid_at:]] if hid_at is not None else []
        played.private += await _read_as(console, "gm")
        played.private += [message_text(m) for t in console.side_threads() for m in discord.messages(t)]
        played.private += [message_text(m) for u in console.users.values() for m in discord.dm_messages(u)]
        played.kinds = {e.kind for e in await db.events.list(made[0], limit=10_000)}
    finally:
        await discord.close()
        await db.close()
    return played


def _command_names(console: Console) -> set[str]:
    """Return the full name of every slash command the bot synced (`battle rules set`)."""
    synced = console.discord.commands(console.discord.guild) or console.discord.commands()
    nodes = list(synced.values()) if isinstance(synced, dict) else list(synced)
    names: set[str] = set()

    def walk(items: list[dict[str, Any]], prefix: str) -> None:
        for item in items:
            subs = [o for o in item.get("options", []) if o.get("type") in (1, 2)]
            if subs:
                walk(subs, f"{prefix}{item['name']} ")
            else:
                names.add(prefix + item["name"])

    walk(nodes, "")
    return names


async def _read_as(console: Console, user: str) -> list[str]:
    """Return /battle log, /map text and /map show (its alt text and description too) as one user reads them."""
    shown, typing = [], console.current
    for command in ("/battle log", "/map text", "/map show"):
        console.current = console.user(user)
        result = await console.run_line(command)
        assert result is not None
        shown.append(result.content + "\n" + "\n".join(embed_text(e) for e in result.embeds))
    console.current = typing
    return shown


def test_every_order_kind_of_every_system_has_a_case() -> None:
    """A kind a system adds fails here until the secrets test plays it."""
    for system in registered():
        script = SCRIPTS.get(system.id)
        assert script is not None, f"{system.id} has no secrets script"
        assert script.kinds() == set(system.orders), (
            f"{system.id}: no case for {sorted(set(system.orders) - script.kinds())}; "
            f"cases for kinds it lacks: {sorted(script.kinds() - set(system.orders))}")


@pytest.mark.parametrize("system", registered(), ids=[s.id for s in registered()])
async def test_no_secret_reaches_the_channel(system: System, tmp_path: Path) -> None:
    script = SCRIPTS[system.id]
    played = await play(script, tmp_path)
    assert not played.refused, "\n".join(played.refused)
    assert set(script.cases) <= played.kinds, f"not played: {sorted(set(script.cases) - played.kinds)}"
    for secret in script.secrets:
        assert any(secret.lower() in text.lower() for text in played.private), f"{secret!r} was never told to anyone"
    for secret in (*script.secrets, *script.spellings):
        leaks = [text for text in played.public if secret.lower() in text.lower()]
        assert not leaks, f"{secret!r} reached the channel:\n" + "\n---\n".join(leaks)
    for square in script.hidden:
        leaks = [text for text in played.after_hiding if square in text]
        assert not leaks, f"{square} reached the channel after its unit hid:\n" + "\n---\n".join(leaks)
