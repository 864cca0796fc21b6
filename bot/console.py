"""The local console: slash-command lines run through the real bot against the in-process loopback Discord.

Lines are written the way Discord displays a slash command (`/move unit:Eva-01 to:E5`); `as NAME`
switches the acting user (the first user a script names is the GM of the console's server),
`in NAME` switches channel (making it if the server has none so named), `click LABEL` and `pick OPTION`
press the buttons and menus players get (a menu's unit by its name or its square),
and `wait 25h` moves the console's clock on (deadlines and reminders fall due). There is no second
parser of commands: each line becomes an interaction built from the schema the bot synced, and the
bot's own command tree handles it. A line Discord would not send is refused with a message and the
session goes on.

The console keeps its own database (`console-out/console.sqlite3` unless told), never the bot's, and
the ids of its server, channels and users beside it, so a later session resumes its battles.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.app import StartupError, open_database
from bot.client import BattleBot
from bot.config import Settings
from bot.service import TableService
from bot.webfront import Stopper, start_web
from loopback import LoopbackDiscord
from loopback.errors import HiddenCommandError, InteractionError
from loopback.models import (
    PUBLIC_THREAD,
    LoopbackChannel,
    LoopbackUser,
    MessageBody,
    StoredMessage,
    walk_components,
)
from loopback.replies import Reply
from rules.coords import Cell
from storage import Database

log = logging.getLogger(__name__)

OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER = 3, 4, 5, 6
OPTION_CHANNEL, OPTION_ROLE, OPTION_NUMBER, OPTION_ATTACHMENT = 7, 8, 10, 11
CONSOLE_GUILD = "battlepost console"


class ConsoleError(Exception):
    """A console line that could not be turned into a command."""


@dataclass
class LineResult:
    """What one command line produced, as the JSON output reports it."""

    command: str
    user: str
    ok: bool
    ephemeral: bool
    content: str
    embeds: list[dict[str, Any]]
    files: list[str]
    outcome: dict[str, Any] | None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of this line."""
        return {
            "command": self.command, "user": self.user, "ok": self.ok, "ephemeral": self.ephemeral,
            "content": self.content, "embeds": self.embeds, "files": self.files, "outcome": self.outcome,
            "buttons": self.buttons, "posts": self.posts, **({"error": self.error} if self.error else {}),
        }


def split_command(line: str) -> tuple[list[str], dict[str, str]]:
    """Split `/battle new name:"A B" width:30` into command words and raw option strings."""
    try:
        tokens = shlex.split(line.strip().lstrip("/"))
    except ValueError as exc:
        raise ConsoleError(f"cannot read that line: {exc}") from None
    words: list[str] = []
    options: dict[str, str] = {}
    for tok in tokens:
        key, sep, value = tok.partition(":")
        if sep and key and not options.get(key):
            options[key] = value
        elif not options:
            words.append(tok)
        else:
            raise ConsoleError(f"`{tok}` is not an option; write options as name:value")
    if not words:
        raise ConsoleError("write a command, like /battle info")
    return words, options


def option_schema(commands: dict[str, dict[str, Any]], words: list[str]) -> tuple[str, dict[str, dict[str, Any]]]:
    """Find the synced schema of a command path; return its display name and its options by name."""
    top = commands.get(words[0])
    if top is None:
        raise ConsoleError(f"/{words[0]} is not a command; known: {', '.join('/' + c for c in sorted(commands))}")
    node: dict[str, Any] = top
    path = [words[0]]
    for word in words[1:]:
        subs = {o["name"]: o for o in node.get("options", []) if o["type"] in (1, 2)}
        if word not in subs:
            raise ConsoleError(f"/{' '.join(path)} has no subcommand `{word}`; it has {', '.join(sorted(subs))}")
        node = subs[word]
        path.append(word)
    if any(o["type"] in (1, 2) for o in node.get("options", [])):
        names = sorted(o["name"] for o in node["options"])
        raise ConsoleError(f"/{' '.join(path)} needs a subcommand: {', '.join(names)}")
    return " ".join(path), {o["name"]: o for o in node.get("options", [])}


DURATION_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)", re.IGNORECASE)
UNIT_SECONDS = {"d": 86_400, "h": 3600, "m": 60, "s": 1}
MAX_WAIT = 366 * 86_400


def parse_duration(text: str) -> float:
    """Read `25h`, `1d 2h`, `90m` or `30s` as seconds."""
    cleaned = text.strip().lower()
    wrong = f"wait for how long? Write it like `25h`, `1d 2h`, `90m` or `30s`, not `{text[:40]}`"
    if len(cleaned) > 40:
        raise ConsoleError(wrong)
    # Matched only where the last part ended (never searched from every position), so each character is read once.
    parts: list[tuple[str, str]] = []
    pos = 0
    while pos < len(cleaned):
        if cleaned[pos].isspace():
            pos += 1
            continue
        match = DURATION_RE.match(cleaned, pos)
        if match is None:
            raise ConsoleError(wrong)
        parts.append((match.group(1), match.group(2)))
        pos = match.end()
    if not parts:
        raise ConsoleError(wrong)
    seconds = sum(float(n) * UNIT_SECONDS[u] for n, u in parts)
    if not 0 < seconds <= MAX_WAIT:
        raise ConsoleError("wait between 1 second and a year")
    return seconds


class ConsoleClock:
    """The wall clock, plus however long the console has waited."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


class ConsoleIds:
    """The ids of the console's server, channels and users, kept beside its database to resume it."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, Any] = {"guild": None, "gm": None, "channels": {}, "threads": {}, "users": {},
                                     "answers": {}, "at": "battle"}
        if path is not None and path.is_file():
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                log.warning("could not read %s; the console starts a new server", path)
            else:
                if isinstance(loaded, dict):
                    self.data.update(loaded)

    def save(self) -> None:
        """Write the ids down (nothing to do for a database that is not a file)."""
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.data, indent=1), encoding="utf-8")


def ids_path(database: str) -> Path | None:
    """Return where the console keeps its ids: beside a SQLite file, nowhere for a server database."""
    if "://" in database:
        return None
    return Path(f"{database}.console.json")


def controls(message: StoredMessage) -> list[dict[str, Any]]:
    """Return a message's enabled buttons and menus."""
    return [c for c in walk_components(message.components) if "custom_id" in c and not c.get("disabled")]


def control_names(message: StoredMessage) -> list[str]:
    """Return what a player sees of a message's buttons and menus: `[End turn]`, `[menu: Pick the square]`."""
    names = []
    for c in controls(message):
        if c["type"] == 2:
            names.append(f"[{c.get('label', '')}]")
        else:
            options = ", ".join(o["label"] for o in c.get("options", [])[:25])
            names.append(f"[menu: {c.get('placeholder') or 'choose'}: {options}]")
    return names


def option_names(label: str) -> set[str]:
    """Return what a menu option answers to besides its label: `Cannon -> Eva-01 (G6)` answers to Eva-01 and G6."""
    names = set()
    head, sep, tail = label.rpartition(" (")
    if sep and tail.endswith(")"):
        names.add(tail[:-1].strip())
    else:
        head = label
    names.add(head.rpartition("->")[2].strip())
    return {n for n in names if n}


FILE_NUMBER_RE = re.compile(r"^(\d+)-")
CHANNEL_NAME_RE = re.compile(r"^[a-z0-9_-]{1,100}$")


def last_file_number(out_dir: Path) -> int:
    """Return the highest number of the map files already in the folder, so new ones follow them."""
    if not out_dir.is_dir():
        return 0
    numbers = [int(m.group(1)) for f in out_dir.iterdir() if (m := FILE_NUMBER_RE.match(f.name))]
    return max(numbers, default=0)


def message_words(message: StoredMessage) -> str:
    """Return a posted message's text in one line or a few: its content, then each embed's title."""
    parts = [message.content] + [str(e.get("title", "")) for e in message.embeds]
    return " \u00b7 ".join(p for p in parts if p)


class Console:
    """Drive the real bot through the loopback stand-in, one command line at a time."""

    def __init__(self, discord: LoopbackDiscord, db: Database, out_dir: Path, *, ids: ConsoleIds | None = None,
                 clock: ConsoleClock | None = None) -> None:
        self.discord = discord
        self.db = db
        self.out_dir = out_dir
        self.ids = ids or ConsoleIds(None)
        self.clock = clock
        self.users: dict[str, LoopbackUser] = {}
        self.current: LoopbackUser | None = None
        self.channel: LoopbackChannel = discord.channel("battle")
        self.file_count = last_file_number(out_dir)
        self.base_dir = Path()
        self.notes: list[str] = []  # what the console did besides running a command (a channel made)
        # Each user's last answer, newest message last: `click` and `pick` look there first.
        self.answers: dict[int, list[StoredMessage]] = {}

    def user(self, name: str) -> LoopbackUser:
        """Return the console user of this name; the first one ever named is the server's GM."""
        key = name.lstrip("@").lower()
        if not key or any(c.isspace() for c in key):
            raise ConsoleError(f"a user name is one word, like `as alice`, not `{name}`")
        if key not in self.users:
            if self.ids.data["gm"] is None:
                self.ids.data["gm"] = key
            known = self.ids.data["users"].get(key)
            if key == self.ids.data["gm"]:
                user = self.discord.add_user(key, id=known, manage_guild=True)
            else:
                user = self.discord.add_user(key, id=known)
            self.users[key] = user
            self.ids.data["users"][key] = user.id
            self.ids.save()
        return self.users[key]

    def names(self) -> dict[int, str]:
        """Return the console users' names by id."""
        return {u.id: u.name for u in self.users.values()}

    def acting(self) -> LoopbackUser:
        """Return who is typing (the GM until a script says otherwise)."""
        if self.current is None:
            self.current = self.user("gm")
        return self.current

    def convert(self, name: str, raw: str, spec: dict[str, Any]) -> Any:
        """Convert a typed option value to what its synced type needs."""
        kind = spec["type"]
        if kind == OPTION_INTEGER:
            try:
                return int(raw)
            except ValueError:
                raise ConsoleError(f"{name} must be a whole number, not `{raw}`") from None
        if kind == OPTION_NUMBER:
            try:
                return float(raw)
            except ValueError:
                raise ConsoleError(f"{name} must be a number, not `{raw}`") from None
        if kind == OPTION_BOOLEAN:
            if raw.lower() not in ("true", "false", "yes", "no"):
                raise ConsoleError(f"{name} must be true or false, not `{raw}`")
            return raw.lower() in ("true", "yes")
        if kind == OPTION_USER:
            return self.user(raw)
        if kind == OPTION_ROLE:
            role_name = raw.lstrip("@")
            guild = self.discord.guild
            for role in guild.roles.values():
                # The default role is named `@everyone`, as Discord names it; `@everyone` and `everyone` both mean it.
                if role.name.lstrip("@").lower() == role_name.lower():
                    return role
            return self.discord.add_role(guild, role_name)
        if kind == OPTION_CHANNEL:
            return self.find_channel(raw.lstrip("#"))
        if kind == OPTION_ATTACHMENT:
            path = Path(raw)
            if not path.is_file() and not path.is_absolute():
                # A script's attachments may be written relative to the script, wherever it is run from.
                path = self.base_dir / raw
            if not path.is_file():
                where = "the folder the console runs in" + (
                    f" or beside the script ({self.base_dir})" if self.base_dir != Path() else "")
                raise ConsoleError(f"{name}: no file `{raw}` to attach in {where}; write the path from the folder "
                                   f"you run in, like `file:examples/eva-01.toml`")
            return (path.name, path.read_bytes())
        return raw

    async def latest_seq(self) -> tuple[int, int] | None:
        """Return (battle id, newest event seq) of the current channel's battle, if any."""
        guild_id = self.discord.guild.id
        record = await self.db.battles.in_channel(guild_id, self.channel.id)
        if record is None:
            return None
        events = await self.db.events.list(record.id, limit=1)
        return record.id, events[0].seq if events else 0

    async def run_line(self, line: str) -> LineResult | None:
        """Run one script line; return the result of a command line, None for others."""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        if text.lower().startswith("as "):
            self.current = self.user(text[3:].strip())
            return None
        if text.lower().startswith("in "):
            self.channel = self.enter_channel(text[3:].strip().lstrip("#"))
            return None
        if text.lower().startswith("wait"):
            return await self.wait(text, text[4:])
        try:
            return await self.command(text)
        except HiddenCommandError as exc:
            raise ConsoleError(f"Discord does not show /{exc.command} to {exc.user}: it needs the Manage Server "
                               f"permission (a server can also open it to a role). Act as the GM with `as NAME`: "
                               f"the first user of the session is the server's GM.") from None
        except InteractionError as exc:
            # What Discord itself would not send (a missing option, a number out of range...).
            raise ConsoleError(f"Discord would not send that: {exc}") from None

    def enter_channel(self, name: str) -> LoopbackChannel:
        """Return the channel of this name, making it (as a GM would in Discord) when the server has none."""
        try:
            channel = self.discord.channel(name)
        except (KeyError, LookupError, ValueError):
            if not CHANNEL_NAME_RE.match(name):
                raise ConsoleError(f"a channel name is one word of lower-case letters, digits, - and _, like "
                                   f"`in second-front`, not `{name[:40]}`") from None
            channel = self.discord.add_channel(self.discord.guild, name)
            self.ids.data["channels"][name] = channel.id
            self.notes.append(f"(made channel #{name})")
        self.ids.data["at"] = channel.name
        self.ids.save()
        return channel

    def find_channel(self, name: str) -> LoopbackChannel:
        """Return a channel or thread of the console's server by name, or say which exist."""
        try:
            return self.discord.channel(name)
        except (KeyError, LookupError, ValueError):
            names = ", ".join(sorted(c.name for c in self.discord.guild.channels.values()))
            raise ConsoleError(f"there is no channel `{name}`; channels: {names}") from None

    async def wait(self, text: str, duration: str) -> LineResult:
        """Move the console's clock on and let the deadlines and reminders now due fire."""
        if self.clock is None:
            raise ConsoleError("this console has no clock to move")
        seconds = parse_duration(duration)
        seen, before = self.seen(), await self.latest_seq()
        self.clock.offset += seconds
        service = getattr(self.discord.bot, "service", None)
        fired = await service.scheduler.tick() if isinstance(service, TableService) else []
        result = await self.result(text, "wait", None, before, seen)
        done = ", ".join(f.action for f in fired)
        result.content = f"{len(fired)} timer(s) fell due: {done}." if fired else "Nothing fell due."
        return result

    async def command(self, text: str) -> LineResult | None:
        """Run a slash-command line, a `click` or a `pick`."""
        if text.lower().startswith(("click ", "pick ")):
            verb, _sep, label = text.partition(" ")
            return await self.press(text, verb.lower(), label.strip().strip('"'))
        if not text.startswith("/"):
            raise ConsoleError("lines are slash commands (`/battle info`), `click LABEL`, `pick OPTION`, `as NAME` "
                               f"or `in CHANNEL`, not `{text[:40]}`")
        words, raw = split_command(text)
        schema = self.discord.commands(self.discord.guild) or self.discord.commands()
        path, specs = option_schema(schema, words)
        options = {}
        for key, value in raw.items():
            if key not in specs:
                raise ConsoleError(f"/{path} has no option `{key}`; options: {', '.join(specs) or 'none'}")
            options[key] = self.convert(key, value, specs[key])
        seen = self.seen()
        before = await self.latest_seq()
        threads_before = {t.id for t in self.discord.threads(self.channel)}
        reply = await self.discord.slash(path, user=self.acting(), channel=self.channel, options=options)
        # A command may follow up after its first answer (a plan that completes the pair posts the battle).
        await self.discord.settle()
        result = await self.result(text, "-".join(words), reply, before, seen)
        # A battle made in a new thread moves the console there; a side's private thread does not.
        new_threads = [t for t in self.discord.threads(self.channel)
                       if t.id not in threads_before and not t.is_private_thread]
        if new_threads:
            self.channel = new_threads[-1]
            parent = self.discord.world.channels.get(self.channel.parent_id or 0)
            self.ids.data["threads"][self.channel.name] = [self.channel.id, parent.name if parent else "battle"]
            self.ids.data["at"] = self.channel.name
            self.ids.save()
        return result

    def side_threads(self) -> list[LoopbackChannel]:
        """Return the private threads under the console's channel (each side's, when the GM turned them on)."""
        parent = self.discord.world.channels.get(self.channel.parent_id or 0, self.channel)
        return [t for t in self.discord.threads(parent) if t.is_private_thread]

    def seen(self) -> set[int]:
        """Return the ids of every message the console's users can see now."""
        ids = {m.id for m in self.discord.messages(self.channel)}
        for thread in self.side_threads():
            ids |= {m.id for m in self.discord.messages(thread)}
        for user in self.users.values():
            ids |= {m.id for m in self.discord.dm_messages(user)}
        return ids

    def visible(self, user: LoopbackUser) -> list[StoredMessage]:
        """Return what a user can press, most recent first: their last answer, the channel, their DMs."""
        mine = list(reversed(self.answers.get(user.id, [])))
        return mine + list(reversed(self.discord.messages(self.channel))) + list(
            reversed(self.discord.dm_messages(user)))

    async def press(self, text: str, verb: str, label: str) -> LineResult:
        """Press the newest button whose label starts with `label`, or pick the menu option so named.

        A menu option is named by its label or value, or else by the unit or square in its label
        (`pick Eva-01` or `pick G6` for `Hellbore Cannon -> Eva-01 (G6)`), when only one option of the menu fits.
        """
        user = self.acting()
        wanted = label.lower()
        messages = self.visible(user)
        if verb == "click":
            for message in messages:
                for control in controls(message):
                    if control["type"] == 2 and str(control.get("label", "")).lower().startswith(wanted):
                        seen, before = self.seen(), await self.latest_seq()
                        reply = await self.discord.click(message, control["custom_id"], user=user)
                        return await self.result(text, "click", reply, before, seen)
        else:
            for exact in (True, False):
                for message in messages:
                    for control in controls(message):
                        if control["type"] != 3:
                            continue
                        options = control.get("options", [])
                        if exact:
                            fits = [o for o in options if wanted in (str(o["label"]).lower(), str(o["value"]).lower())]
                        else:
                            fits = [o for o in options
                                    if wanted in {n.lower() for n in option_names(str(o["label"]))}]
                        if len(fits) > 1 and not exact:
                            raise ConsoleError(f"`{label}` fits {len(fits)} options of that menu: "
                                               + ", ".join(str(o["label"]) for o in fits[:10])
                                               + "; pick one by its whole label")
                        if fits:
                            seen, before = self.seen(), await self.latest_seq()
                            reply = await self.discord.select(message, control["custom_id"], [fits[0]["value"]],
                                                              user=user)
                            return await self.result(text, "pick", reply, before, seen)
        what = "button" if verb == "click" else "menu option"
        raise ConsoleError(f"no {what} `{label}` to press for {user.name}; the last answer offers: "
                           + (" ".join(n for m in self.answers.get(user.id, []) for n in control_names(m)) or "nothing"))

    def keep_answer(self, user: LoopbackUser, messages: list[StoredMessage]) -> None:
        """Remember a user's last answer, and write its buttons down so they still work after a restart."""
        self.answers[user.id] = messages
        self.ids.data["answers"][user.name] = [
            {"channel": m.channel_id, "ephemeral": m.ephemeral, "content": m.content, "embeds": m.embeds,
             "components": m.components} for m in messages if controls(m)]
        self.ids.save()

    def restore_answers(self) -> None:
        """Put back each user's last answer with its buttons, as the ids file kept them."""
        for name, kept in self.ids.data.get("answers", {}).items():
            user = self.users.get(name)
            if user is None or not isinstance(kept, list):
                continue
            messages = []
            for item in kept:
                if not isinstance(item, dict) or item.get("channel") not in self.discord.world.channels:
                    continue
                body = MessageBody(json={"content": item.get("content", ""), "embeds": item.get("embeds", []),
                                         "components": item.get("components", [])})
                try:
                    messages.append(self.discord.world.create_message(
                        int(item["channel"]), body, ephemeral=bool(item.get("ephemeral")), allow_empty=True))
                except Exception:  # a message the stand-in will not store again is only a lost answer
                    log.warning("could not put back %s's last answer", name, exc_info=True)
            if messages:
                self.answers[user.id] = messages

    async def result(self, text: str, stem: str, reply: Reply | None, before: tuple[int, int] | None,
                     seen: set[int]) -> LineResult:
        """Report what a command or a press did: the answer, its buttons, the order's outcome and new posts."""
        user = self.acting()
        bot = self.discord.bot
        service = getattr(bot, "service", None)
        if isinstance(service, TableService):
            await service.drain()  # the pings and boards the command called for, so they show with it
        await self.discord.settle()
        failure = None if reply is None else getattr(getattr(bot, "tree", None), "failures", {}).get(
            reply.interaction.id)
        messages = [] if reply is None else reply.messages
        if reply is not None:
            self.keep_answer(user, messages)
        outcome = None
        after = await self.latest_seq()
        if after is not None and before is not None and after[0] == before[0] and after[1] > before[1]:
            # The order's own outcome: what followed it (a turn that ended by itself) comes after.
            event = await self.db.events.get(after[0], before[1] + 1)
            outcome = event.outcome if event is not None else None
        elif after is not None and after != before and after[1] > 0:
            event = await self.db.events.get(after[0], after[1])
            outcome = event.outcome if event is not None else None
        files = []
        for message in messages:
            for f in message.files:
                self.file_count += 1
                dest = self.out_dir / f"{self.file_count:03d}-{stem}-{f.filename}"
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(f.data)
                files.append(str(dest))
        shown = {m.id for m in messages}
        posts = [m for m in self.discord.messages(self.channel) if m.id not in seen and m.id not in shown]
        for thread in self.side_threads():
            posts += [m for m in self.discord.messages(thread) if m.id not in seen and m.id not in shown]
        for other in self.users.values():
            posts += [m for m in self.discord.dm_messages(other) if m.id not in seen and m.id not in shown]
        posts = [m for m in posts if message_words(m)]  # not Discord's own notes ("pinned a message")
        return LineResult(
            command=text, user=user.name, ok=failure is None,
            ephemeral=any(m.ephemeral for m in messages),
            content="\n".join(m.content for m in messages if m.content),
            embeds=[e for m in messages for e in m.embeds], files=files, outcome=outcome, error=failure,
            buttons=[n for m in messages for n in control_names(m)],
            posts=[self.post_line(m) for m in posts],
        )

    def post_line(self, message: StoredMessage) -> str:
        """Say what the bot posted besides the answer (a turn ping, a DM), with its buttons."""
        channel = self.discord.world.channels.get(message.channel_id)
        where = "DM" if message.guild_id is None else (
            f"in #{channel.name}" if channel is not None and channel.is_private_thread else "posted")
        names = " ".join(control_names(message))
        return f"{where}: {message_words(message)}" + (f" {names}" if names else "")


CONSOLE_WORDS = ("as ", "in ", "click ", "pick ", "wait ", "quit")
SQUARE_OPTIONS = frozenset({"to", "at", "from", "cell", "square", "near", "where"})
UNIT_OPTIONS = frozenset({"unit", "target", "leader", "vehicle", "units"})
MAX_SQUARES = 200  # squares offered at once; typing the column narrows them


class Completions:
    """What the console offers at the cursor: commands, options and their values, from the bot's tree and the battle."""

    def __init__(self, console: Console) -> None:
        self.console = console

    async def battle_words(self) -> tuple[list[str], list[str], int, int]:
        """Return the unit names, their squares and the map's size in the current channel's battle."""
        service = getattr(self.console.discord.bot, "service", None)
        record = await self.console.db.battles.in_channel(self.console.discord.guild.id, self.console.channel.id)
        if record is None or not isinstance(service, TableService):
            return [], [], 0, 0
        battle = service.read_only(record)
        units = list(battle.units.values())
        cells = [str(u.cell) for u in units if getattr(u, "cell", None) is not None]
        return [u.name for u in units], cells, int(battle.width), int(battle.height)

    async def complete(self, before: str) -> list[str]:
        """Return the words that may follow the text before the cursor (each a whole word to put in its place)."""
        console = self.console
        if not before.startswith("/"):
            head, sep, rest = before.partition(" ")
            if not sep:
                return [w.strip() for w in CONSOLE_WORDS if w.startswith(head.lower())]
            verb = head.lower()
            if verb == "as":
                return sorted(n for n in console.users if n.startswith(rest.lower()))
            if verb == "in":
                return sorted(c.name for c in console.discord.guild.channels.values() if c.name.startswith(rest))
            if verb in ("click", "pick"):
                return self.press_words(verb, rest)
            return []
        try:
            tokens = shlex.split(before[1:]) if before.rstrip() == before else [*shlex.split(before[1:]), ""]
        except ValueError:
            return []  # inside an open quote: nothing to offer
        if not tokens:
            tokens = [""]
        *done, current = tokens
        schema = console.discord.commands(console.discord.guild) or console.discord.commands()
        node: dict[str, Any] = {"options": [{"name": k, "type": 1, **v} for k, v in schema.items()]}
        for word in done:
            if ":" in word:
                break
            subs = {o["name"]: o for o in node.get("options", []) if o["type"] in (1, 2)}
            if word not in subs:
                return []
            node = subs[word]
        options = node.get("options", [])
        if any(o["type"] in (1, 2) for o in options):
            return sorted(o["name"] for o in options if o["type"] in (1, 2) and o["name"].startswith(current))
        given = {w.partition(":")[0] for w in done if ":" in w}
        key, sep, value = current.partition(":")
        if not sep:
            return sorted(f"{o['name']}:" for o in options if o["name"].startswith(key) and o["name"] not in given)
        spec = next((o for o in options if o["name"] == key), None)
        if spec is None:
            return []
        path = " ".join(w for w in done if ":" not in w)
        others = dict(w.partition(":")[::2] for w in done if ":" in w)
        return [f"{key}:{v}" for v in await self.values(spec, value, path, others)]

    async def asked(self, path: str, spec: dict[str, Any], typed: str, others: dict[str, str]) -> list[str]:
        """Return what the bot's own autocomplete offers for an option, as Discord would show it."""
        console = self.console
        _path, specs = option_schema(console.discord.commands(console.discord.guild) or console.discord.commands(),
                                     path.split())
        given = {}
        for key, raw in others.items():
            if key in specs and key != spec["name"]:
                try:
                    given[key] = console.convert(key, raw, specs[key])
                except ConsoleError:
                    continue  # an option not yet typed right only narrows nothing
        choices = await console.discord.autocomplete(path, spec["name"], typed, user=console.acting(),
                                                     channel=console.channel, options=given)
        return [str(c.get("value", c.get("name", ""))) for c in choices]

    async def values(self, spec: dict[str, Any], typed: str, path: str = "",
                     others: dict[str, str] | None = None) -> list[str]:
        """Return the values an option may take that start with what was typed."""
        kind, name, low = spec["type"], spec["name"], typed.lower()
        if spec.get("autocomplete") and path:
            try:
                words = await self.asked(path, spec, typed, others or {})
            except Exception:  # an offer the bot cannot make is no reason to stop the console
                log.debug("no autocomplete for %s %s", path, name, exc_info=True)
                words = []
            if words:
                return [f'"{w}"' if " " in w else w for w in words if w.lower().startswith(low)] or [
                    f'"{w}"' if " " in w else w for w in words]
        if spec.get("choices"):
            words = [str(c["value"]) for c in spec["choices"]]
        elif kind == OPTION_BOOLEAN:
            words = ["true", "false"]
        elif kind == OPTION_USER:
            words = [f"@{n}" for n in self.console.users]
        elif kind == OPTION_CHANNEL:
            words = [f"#{c.name}" for c in self.console.discord.guild.channels.values()]
        elif kind == OPTION_ATTACHMENT:
            return self.paths(typed)
        else:
            units, cells, width, height = await self.battle_words()
            if name in UNIT_OPTIONS:
                words = units
            elif name in SQUARE_OPTIONS:
                words = cells + self.squares(low, width, height)
            else:
                words = []
        found = sorted({w for w in words if w.lower().startswith(low)}, key=lambda w: (len(w), w))
        return [f'"{w}"' if " " in w else w for w in found]

    @staticmethod
    def squares(typed: str, width: int, height: int) -> list[str]:
        """Return the map's squares that start with what was typed, at most a few hundred."""
        out: list[str] = []
        for x in range(width):
            column = str(Cell(x, 0))[:-1]
            if not (column.lower().startswith(typed) or typed.startswith(column.lower())):
                continue
            for y in range(height):
                square = str(Cell(x, y))
                if square.lower().startswith(typed):
                    out.append(square)
                    if len(out) >= MAX_SQUARES:
                        return out
        return out

    def paths(self, typed: str) -> list[str]:
        """Return the files and folders that start with what was typed, from the folder the console runs in."""
        folder, _sep, stem = typed.rpartition("/")
        where = Path(folder or ".")
        if not where.is_dir():
            return []
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in where.iterdir()
                       if p.name.startswith(stem) and not p.name.startswith("."))
        return [f"{folder}/{n}" if folder else n for n in names[:MAX_SQUARES]]

    def press_words(self, verb: str, typed: str) -> list[str]:
        """Return the labels of the buttons (or menu options, with their units and squares) the user can press."""
        user = self.console.acting()
        words: list[str] = []
        for message in self.console.visible(user)[:20]:
            for control in controls(message):
                if verb == "click" and control["type"] == 2:
                    words.append(str(control.get("label", "")))
                elif verb == "pick" and control["type"] == 3:
                    for o in control.get("options", []):
                        words.append(str(o["label"]))
                        words += sorted(option_names(str(o["label"])) - {str(o["label"])})
        low = typed.lower()
        return list(dict.fromkeys(w for w in words if w and w.lower().startswith(low)))


def format_text(result: LineResult, names: dict[int, str] | None = None) -> str:
    """Render a line's result as readable text, with user mentions shown as @name."""
    text = _format_text(result)
    for user_id, name in (names or {}).items():
        text = text.replace(f"<@{user_id}>", f"@{name}")
    return text


def _format_text(result: LineResult) -> str:
    out = [f"[{result.user}] {result.command}"]
    tag = " (only you can see this)" if result.ephemeral else ""
    if result.content:
        out += [f"  {line}" for line in result.content.splitlines()]
    for embed in result.embeds:
        if embed.get("title"):
            out.append(f"  == {embed['title']} ==")
        if embed.get("description"):
            out += [f"  {line}" for line in str(embed["description"]).splitlines()]
        for fld in embed.get("fields", []):
            out.append(f"  -- {fld['name']}")
            out += [f"     {line}" for line in str(fld["value"]).splitlines()]
        if embed.get("footer", {}).get("text"):
            out.append(f"  ({embed['footer']['text']})")
    for path in result.files:
        out.append(f"  [map written to {path}]")
    if result.buttons:
        out.append("  buttons: " + " ".join(result.buttons) + "  (press with `click LABEL`, menus with `pick OPTION`)")
    for post in result.posts:
        out.append(f"  >> {post}")
    if tag:
        out.append(f"  {tag.strip()}")
    return "\n".join(out)


def refusal(exc: Exception) -> str:
    """Say why a line was not run: the console's own message, or what went wrong, logged in full."""
    if isinstance(exc, ConsoleError):
        return str(exc)
    log.error("a console line failed", exc_info=exc)
    return f"that line could not be run ({type(exc).__name__}: {exc}); the session goes on"


def seeded_rng(seed: int | None) -> Callable[[], random.Random]:
    """Return a factory of dice sources: reproducible from a seed, system randomness otherwise."""
    if seed is None:
        return lambda: random.Random()
    master = random.Random(seed)
    return lambda: random.Random(master.getrandbits(64))


async def open_console(settings: Settings, out_dir: Path, seed: int | None, *, web_url: str = "",
                       ) -> tuple[LoopbackDiscord, Database, Console]:
    """Start the loopback Discord and the real bot over the console's database, resuming its server."""
    logging.getLogger("discord").setLevel(logging.WARNING)
    db = await open_database(settings.database)
    ids = ConsoleIds(ids_path(settings.database))
    discord = LoopbackDiscord(guild_name=CONSOLE_GUILD, guild_id=ids.data.get("guild"))
    await discord.start()
    channel = discord.add_channel(discord.guild, "battle", id=ids.data["channels"].get("battle"))
    ids.data["guild"] = discord.guild.id
    ids.data["channels"]["battle"] = channel.id
    ids.save()
    clock = ConsoleClock()
    service = TableService(db, clock=clock, rng_factory=seeded_rng(seed))
    bot = BattleBot(service, sync_guild_id=discord.guild.id, guild_ready_timeout=0.05, board_spacing=0.0,
                    web_url=web_url)
    await discord.start_bot(bot)
    for name, known in ids.data["channels"].items():
        if name != "battle":
            discord.add_channel(discord.guild, name, id=known)
    for name, (known, parent) in ids.data.get("threads", {}).items():
        if parent in {c.name for c in discord.guild.channels.values()}:
            discord.add_channel(discord.guild, name, type=PUBLIC_THREAD, parent=discord.channel(parent), id=known)
    console = Console(discord, db, out_dir, ids=ids, clock=clock)
    for name in ids.data["users"]:
        console.user(name)  # yesterday's players, with their ids: their units are still theirs
    console.current = None
    try:
        console.channel = discord.channel(str(ids.data.get("at") or "battle"))  # where the last session stopped
    except (KeyError, LookupError, ValueError):
        pass
    await discord.settle()
    console.restore_answers()
    return discord, db, console


def bot_service(discord: LoopbackDiscord) -> TableService:
    """Return the table service of the bot the console runs."""
    bot = discord.bot
    assert isinstance(bot, BattleBot)
    return bot.service


async def serve_web(service: TableService, settings: Settings) -> Stopper | None:
    """Serve the web view beside the console and say where; a busy port only costs the web view."""
    try:
        stop = await start_web(service, settings)
    except StartupError as exc:
        print(f"(no web view: {exc})")
        return None
    if stop is not None:
        print(f"Web view on {settings.web_url}: type /battle web links for the links of the battle you play here.")
    return stop


async def run_script(settings: Settings, file: str, *, as_json: bool, seed: int | None, out_dir: str,
                     stdout: TextIO | None = None) -> int:
    """Run a file of command lines; exit status 1 if a line could not be run at all."""
    out = stdout or sys.stdout
    text = sys.stdin.read() if file == "-" else await asyncio.to_thread(Path(file).read_text, encoding="utf-8")
    discord, db, console = await open_console(settings, Path(out_dir), seed)
    if file != "-":
        console.base_dir = Path(file).parent
    status = 0
    try:
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                result = await console.run_line(line)
            except Exception as exc:  # the script goes on whatever one line did
                status = 1
                message = refusal(exc)
                if as_json:
                    print(json.dumps({"command": line.strip(), "ok": False, "error": message, "line": number}),
                          file=out)
                else:
                    print(f"line {number}: {message}", file=out)
                continue
            if result is None:
                continue
            print(json.dumps(result.to_json(), ensure_ascii=False) if as_json
                  else format_text(result, console.names()), file=out)
            if not as_json:
                print(file=out)
    finally:
        await discord.close()
        await db.close()
    return status


async def run_console(settings: Settings, *, out_dir: str, seed: int | None) -> int:
    """Read command lines interactively until end of input or `quit`, with line editing, history and completion."""
    discord, db, console = await open_console(settings, Path(out_dir), seed,
                                              web_url=settings.web_url if settings.web is not None else "")
    stop_web = await serve_web(bot_service(discord), settings)
    print("battlepost console. Type slash commands like `/help` (Tab completes commands, options, units and "
          "squares; arrows recall earlier lines); `as NAME` switches user, `in CHANNEL` switches channel, "
          "`click LABEL` and `pick OPTION` press buttons and menus, `wait 25h` moves the clock on, `quit` leaves.")
    read = line_reader(console, Path(out_dir) / "history")
    try:
        while True:
            try:
                line = await read(f"{console.acting().name}> ")
            except EOFError:
                break
            except KeyboardInterrupt:
                continue  # Ctrl-C drops the line being typed, as in a shell
            if line.strip().lower() in ("quit", "exit"):
                break
            try:
                result = await console.run_line(line)
            except Exception as exc:  # the session goes on whatever one line did
                print(f"  {refusal(exc)}")
                continue
            finally:
                for note in console.notes:
                    print(f"  {note}")
                console.notes.clear()
            if result is not None:
                print(format_text(result, console.names()))
    finally:
        if stop_web is not None:
            await stop_web()
        await discord.close()
        await db.close()
    return 0


def line_reader(console: Console, history: Path) -> Callable[[str], Any]:
    """Return how to read a line: prompt_toolkit's editor at a terminal, plain input otherwise (a pipe, a file)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import CompleteEvent, Completer, Completion
            from prompt_toolkit.document import Document
            from prompt_toolkit.history import FileHistory
        except ImportError:
            pass
        else:
            completions = Completions(console)

            class Offer(Completer):
                """Offer the console's completions to prompt_toolkit."""

                def get_completions(self, document: Document, complete_event: CompleteEvent) -> Any:
                    return iter(())

                async def get_completions_async(self, document: Document, complete_event: CompleteEvent) -> Any:
                    before = document.text_before_cursor
                    word = before.rsplit(" ", 1)[-1] if before.startswith("/") else before.partition(" ")[2]
                    if not before.startswith("/") and " " not in before:
                        word = before
                    try:
                        offers = await completions.complete(before)
                    except Exception:  # a completion that fails offers nothing; the line can still be typed
                        log.debug("completion failed", exc_info=True)
                        return
                    for offer in offers[:MAX_SQUARES]:
                        yield Completion(offer, start_position=-len(word))

            history.parent.mkdir(parents=True, exist_ok=True)
            session: PromptSession[str] = PromptSession(history=FileHistory(str(history)), completer=Offer(),
                                                        complete_while_typing=False)

            async def prompt(text: str) -> str:
                return await session.prompt_async(text)

            return prompt

    async def plain(text: str) -> str:
        return await asyncio.to_thread(input, text)

    return plain
