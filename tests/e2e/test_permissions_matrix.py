"""Who may use each command and button of the turn system: the GM, the unit's owner, another player,
someone not in the battle, and someone on another server. Every refusal is private and changes nothing.

Commands that ask first (ending a turn with points left, ending the battle) are confirmed by whoever was
asked; anyone refused is never asked. Each case runs on a fresh started battle of its own channel (alice commands Eva-01, bob Eva-02, the GM
Sachiel; it is the NERV phase). /gm is hidden by Discord from members without Manage Server; here it is
called as if a server admin had opened it to everyone, to show the run-time check holds on its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.service import Actor
from loopback.models import LoopbackChannel, LoopbackUser
from loopback.replies import Reply
from rules.coords import Cell
from rules.orders import AddUnit, Roll, Start
from rules.turnorders import StandingOrder
from storage import BattleRecord
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import confirmed, posted, prompts

ROLES = ("gm", "owner", "other", "outsider", "elsewhere")
NO_BATTLE = "There is no battle in this channel"


@dataclass
class Spot:
    """Where a case runs: its channel, battle and the options it needs."""

    channel: LoopbackChannel
    record: BattleRecord
    extra: dict[str, Any] = field(default_factory=dict)


Prep = Callable[[Table, Spot], Awaitable[None]]


async def no_prep(table: Table, spot: Spot) -> None:
    """Need nothing more than the started battle."""


async def hidden_roll(table: Table, spot: Spot) -> None:
    """Give the battle a hidden GM roll to reveal."""
    result = await table.service.execute(gm_actor(table), spot.record, Roll(dice="1d6", hidden=True), render=False)
    spot.extra["seq"] = result.seq


async def paused(table: Table, spot: Spot) -> None:
    """Pause the battle's clock."""
    await table.service.pause_clock(gm_actor(table), spot.record)


async def standing(table: Table, spot: Spot) -> None:
    """Give Eva-01 a standing order."""
    await table.service.execute(gm_actor(table), spot.record, StandingOrder(unit="Eva-01", text="hold"), render=False)


@dataclass(frozen=True)
class Case:
    """One command or button, who may use it, and what the others are told."""

    name: str
    command: str
    options: Callable[[Table, Spot], dict[str, Any]]
    allowed: frozenset[str]
    success: str
    refusal: str
    prep: Prep = no_prep
    button: bool = False

    def __repr__(self) -> str:
        return self.name


EVERYONE = frozenset({"gm", "owner", "other", "outsider"})
COMMANDERS = frozenset({"gm", "owner"})
GM = frozenset({"gm"})


def none(table: Table, spot: Spot) -> dict[str, Any]:
    """Pass no options."""
    return {}


def fixed(**options: Any) -> Callable[[Table, Spot], dict[str, Any]]:
    """Pass these options."""
    return lambda table, spot: options


CASES = [
    Case("turn status", "turn status", none, EVERYONE, "Turn status", ""),
    Case("turn end", "turn end", fixed(unit="Eva-01"), COMMANDERS, "Eva-01 ends its turn", "Eva-01 is not yours to command"),
    Case("turn hold", "turn hold", fixed(unit="Eva-01"), COMMANDERS, "Eva-01 holds", "Eva-01 is not yours to command"),
    Case("turn standing", "turn standing", fixed(unit="Eva-01", order="hold"), COMMANDERS, "standing order",
         "Eva-01 is not yours to command"),
    Case("turn mode", "turn mode", fixed(mode="free"), GM, "Turn mode", "Only a GM can use `set-turn-mode`"),
    Case("turn close-round", "turn close-round", none, GM, "Round 1 closed", "Only a GM can use `close-round`"),
    Case("gm undo", "gm undo", none, GM, "Undone: 1 order", "Only a GM can undo orders", standing),
    Case("gm move", "gm move", fixed(unit="Sachiel", to="A1"), GM, "The GM put Sachiel on A1",
         "Only a GM can put units on the map"),
    Case("gm edit", "gm edit", fixed(unit="Eva-01", wounds=5), GM, "The GM set Eva-01", "Only a GM can edit units"),
    Case("gm set", "gm set", fixed(unit="Eva-01", field="ag", value="50"), GM, "The GM set Eva-01",
         "Only a GM can set unit fields"),
    Case("gm assign", "gm assign", lambda t, s: {"unit": "Eva-01", "player": t.carol}, GM, "owner",
         "Only a GM can assign units"),
    Case("gm skip", "gm skip", none, GM, "The GM skipped", "Only a GM can skip turns"),
    Case("gm roll", "gm roll", fixed(dice="1d6"), GM, "Hidden roll", "Only a GM can roll in secret"),
    Case("gm reveal", "gm reveal", lambda t, s: {"seq": s.extra["seq"]}, GM, "reveals hidden roll",
         "Only a GM can reveal hidden rolls", hidden_roll),
    Case("gm end", "gm end", none, GM, "Battle over", "Only a GM can end the battle"),
    Case("gm deadline", "gm deadline", fixed(hours=2.0), GM, "Each turn now lasts **2 h**", "Only a GM can set the deadline"),
    Case("gm policy", "gm policy", fixed(policy="hold"), GM, "the units due hold", "Only a GM can choose the deadline policy"),
    Case("gm pause", "gm pause", none, GM, "Clock paused", "Only a GM can pause the clock"),
    Case("gm resume", "gm resume", none, GM, "Clock running", "Only a GM can resume the clock", paused),
    Case("gm reminders", "gm reminders", fixed(times="1h"), GM, "1 h before", "Only a GM can set reminders"),
    Case("battle log", "battle log", none, EVERYONE, "Log: Matrix", ""),
    Case("battle export", "battle export", none, GM, "orders with their dice", "Only a GM can export the battle"),
    Case("settings notify", "settings notify", fixed(mode="dm"), EVERYONE | {"elsewhere"}, "direct message", ""),
    Case("End turn button", "bp:end:{id}:Eva-01", none, COMMANDERS, "Eva-01 ends its turn",
         "Eva-01 is not yours to command", button=True),
    Case("My options button", "bp:opts:{id}:Eva-01", none, COMMANDERS, "What Eva-01 can do",
         "only its player or the GM can see its options", button=True),
    Case("Show map button", "bp:map:{id}", none, EVERYONE, "Matrix: map", "", button=True),
]


def gm_actor(table: Table) -> Actor:
    """Return the GM as the table service sees them."""
    return Actor(user_id=table.gm.id, guild_id=table.discord.guild.id, name="gm", manage_guild=True)


async def fresh_battle(table: Table, channel: LoopbackChannel) -> Spot:
    """Start the standard battle in a channel, straight through the table service."""
    gm = gm_actor(table)
    created = await table.service.create_battle(gm, channel_id=channel.id, thread_id=None, name="Matrix",
                                                ruleset="strategic-e", width=20, height=15)
    record = created.record
    for order in (
        AddUnit(name="Eva-01", side="NERV", at=Cell.parse("C3"), owner=table.alice.id, stats={"ag": 45}),
        AddUnit(name="Eva-02", side="NERV", at=Cell.parse("C5"), owner=table.bob.id, stats={"ag": 52}),
        AddUnit(name="Sachiel", side="Angels", at=Cell.parse("P10"), stats={"ag": 38}),
        Start(),
    ):
        record = (await table.service.execute(gm, record, order, render=False)).record
    return Spot(channel, record)


def acting(table: Table, role: str) -> tuple[LoopbackUser, LoopbackChannel | None]:
    """Return the user of a role, and the channel they act in when it is not the battle's."""
    if role == "elsewhere":
        other = table.discord.add_guild("Other Server")
        stranger = table.discord.add_user("stranger", guild=other, manage_guild=True)
        return stranger, table.discord.channel("general", other)
    users = {"gm": table.gm, "owner": table.alice, "other": table.bob, "outsider": table.carol}
    return users[role], None


async def run_case(table: Table, case: Case, spot: Spot, user: LoopbackUser,
                   elsewhere: LoopbackChannel | None) -> Reply:
    """Use the command or press the button as the user."""
    if case.button:
        [prompt] = prompts(posted(table, spot.channel))
        pressed = await table.click(prompt, case.command.format(id=spot.record.id), user=user)
        return await confirmed(table, pressed, user)
    channel = elsewhere or spot.channel
    reply = await table.discord.slash(case.command, user=user, channel=channel, options=case.options(table, spot),
                                      bypass_permissions=case.command.startswith("gm "))
    await table.settle()
    # Ending a turn with points left, or the battle, asks first: whoever may do it confirms.
    return await confirmed(table, reply, user)


@pytest.mark.parametrize("role", ROLES)
async def test_permission_matrix(table: Table, role: str) -> None:
    user, elsewhere = acting(table, role)
    # A member of another server never sees this battle's messages to press their buttons.
    cases = [c for c in CASES if not (c.button and role == "elsewhere")]
    channels = [table.discord.add_channel(table.discord.guild, f"case-{n}") for n in range(len(cases))]
    await table.discord.settle()
    spots = [await fresh_battle(table, channel) for channel in channels]
    await table.settle()
    problems: list[str] = []
    for case, spot in zip(cases, spots, strict=True):
        if case.prep is not no_prep:
            await case.prep(table, spot)
            await table.settle()
        before = await table.db.battles.get(spot.record.id)
        clock_before = await table.db.clocks.get(spot.record.id)
        reply = await run_case(table, case, spot, user, elsewhere)
        text = text_of(reply)
        if role in case.allowed:
            if case.success not in text:
                problems.append(f"{case.name}: {role} should succeed with {case.success!r}, got {text[:200]!r}")
            continue
        expected = NO_BATTLE if role == "elsewhere" else case.refusal
        after = await table.db.battles.get(spot.record.id)
        if expected not in text or not last_message(reply).ephemeral:
            problems.append(f"{case.name}: {role} should be refused privately with {expected!r}, got {text[:200]!r}")
        if before is None or after is None or after.version != before.version:
            problems.append(f"{case.name}: refusing {role} changed the battle")
        if await table.db.clocks.get(spot.record.id) != clock_before:
            problems.append(f"{case.name}: refusing {role} changed the clock")
    assert not problems, "\n".join(problems)


async def test_import_follows_the_gm_role_like_battle_new(table: Table) -> None:
    role = table.discord.add_role(table.discord.guild, "GM")
    await table.slash("settings gm-role", role=role)
    refused = await table.slash("battle import", user=table.alice, file=("war.json", b"{}"))
    assert last_message(refused).ephemeral and "only members with the GM role" in text_of(refused)
    assert await table.db.battles.count() == 0
