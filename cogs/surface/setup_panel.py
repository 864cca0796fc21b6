"""The GM's setup panel of a Surface Combat battle: pinned after /battle new, it says what is still missing before
the start (two forces), shows each side's leader and units, and holds buttons to add a unit, set a side's leader
and start. It is refreshed with every setup order; after the start its buttons are gone."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import defer
from bot.service import BattleRecord
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from cogs.common.setup_panel import MISSING_FIELD
from cogs.surface.info import force_fields
from cogs.turn.text import turn_embed
from rules import orders as o
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.systems.surface.orders import SetSide
from rules.systems.surface.state import forces, state
from rules.systems.surface.unittypes import unit_types

EMBED_LIMIT = 6000
MAX_FIELDS = 25
STEPS = {
    "add": ("Add a unit", discord.ButtonStyle.secondary, "\u2795"),
    "file": ("Forces from a file", discord.ButtonStyle.secondary, "\U0001f4c4"),
    "leader": ("Set a leader", discord.ButtonStyle.secondary, "\U0001f396\ufe0f"),
    "start": ("Start", discord.ButtonStyle.success, "\u25b6\ufe0f"),
}


def still_missing(battle: Battle) -> list[str]:
    """Say what a Surface Combat battle in setup lacks before it can start: exactly two forces with units."""
    sides = [name for name, units in forces(battle).items() if units]
    if not sides:
        return ["Forces: no side has units yet. **Add a unit** (or `/surface add`) to each of the two sides."]
    if len(sides) == 1:
        return [f"A second force: only {safe(sides[0])} has units. Add units of the other side (**Add a unit**, "
                "or `/surface add ... side:NAME`)."]
    if len(sides) > 2:
        named = ", ".join(safe(s) for s in sides)
        return [f"Two forces only: {named} have units, and Surface Combat fights exactly two. Take one side's units "
                "out with `/unit remove`."]
    return []


def panel_lines(battle: Battle) -> list[str]:
    """Return the panel's text: what is missing, or that the battle is ready, and the optional steps left."""
    lines = [f"\u274c {line}" for line in still_missing(battle)] or [
        "\u2705 Ready: the GM presses **Start** (or `/battle start`) to open the secret pre-battle plans."]
    now = state(battle)
    fielded = [name for name, units in forces(battle).items() if units]
    leaderless = [s for s in fielded if not now.standing_of(s).leader]
    if leaderless:
        names = " and ".join(safe(s) for s in leaderless)
        lines.append(f"\u2022 Optional: {names} {'has' if len(leaderless) == 1 else 'have'} no leader (Ability 0: no "
                     "shift of the victory levels); **Set a leader** (or `/surface side`) names one.")
    unplayed = [s for s in fielded if not any(u.owner for u in battle.iter_units() if u.side.lower() == s.lower())]
    if unplayed:
        names = " and ".join(safe(s) for s in unplayed)
        lines.append(f"\u2022 Optional: no player commands a unit of {names}, so the GM plans for "
                     f"{'it' if len(unplayed) == 1 else 'them'} (`/surface add ... owner:` gives a player a unit).")
    return lines


def panel_embed(record: BattleRecord, battle: Battle) -> discord.Embed:
    """Build the panel: the setup still missing (while set up), then each side's leader and units."""
    embed = discord.Embed(title=f"\U0001f4cb {safe(battle.name)}"[:256], colour=INFO)
    if battle.status == "setup":
        embed.description = ("Setting up the forces: the GM adds each side's units and its leader, then starts the "
                             "battle; the start opens the secret pre-battle plans.")
        embed.add_field(name=MISSING_FIELD, value="\n".join(panel_lines(battle))[:1024], inline=False)
    else:
        embed.description = "Setup is done: the battle has started. `/surface status` shows where it stands."
    embed.set_footer(text=f"battle #{record.id} \u00b7 updated after every setup order")
    # Discord takes 6,000 characters and 25 fields an embed: the forces get what the rest leaves (a line to spare
    # for the "more units" field).
    for name, value in force_fields(battle, EMBED_LIMIT - len(embed) - 200, MAX_FIELDS - len(embed.fields) - 1):
        embed.add_field(name=name, value=value, inline=False)
    return embed


def step_button(step: str, battle_id: int) -> discord.ui.Button[Any]:
    """Return one of the panel's buttons (`add`, `file`, `leader` or `start`), answered by its custom id."""
    label, style, emoji = STEPS[step]
    return discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"bp:surface-setup-{step}:{battle_id}")


def setup_panel(record: BattleRecord, battle: Battle) -> tuple[discord.Embed, discord.ui.View | None]:
    """Return the panel's embed, and its buttons while the battle is set up (None after the start)."""
    if battle.status != "setup":
        return panel_embed(record, battle), None
    view = discord.ui.View(timeout=None)
    for step in STEPS:
        view.add_item(step_button(step, record.id))
    return panel_embed(record, battle), view


def type_key(typed: str) -> str:
    """Return the unit type's key for its key or its name as typed (anything else as typed, for the rules to refuse)."""
    wanted = typed.strip().lower()
    for key, kind in unit_types().items():
        if wanted in (key, kind.name.lower()):
            return key
    return typed.strip()


class _PanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:surface-setup-x:(?P<battle>[0-9]+)"):
    """A panel button of one battle; subclasses answer it."""

    step = "x"

    def __init__(self, battle_id: int) -> None:
        super().__init__(step_button(self.step, battle_id))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> _PanelButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the press; refusals go back to the presser alone."""
        await guarded(interaction, self.pressed)

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Answer a press of this button."""
        raise NotImplementedError


class AddUnitModal(discord.ui.Modal, title="Add a unit"):
    """Ask for a new unit's name, side and type."""

    name: discord.ui.TextInput[AddUnitModal] = discord.ui.TextInput(label="Unit name", max_length=64,
                                                                    custom_id="name")
    side: discord.ui.TextInput[AddUnitModal] = discord.ui.TextInput(label="Side it fights for", max_length=64,
                                                                    custom_id="side")
    kind: discord.ui.TextInput[AddUnitModal] = discord.ui.TextInput(label="Unit type (its key or name)",
                                                                    max_length=64, custom_id="type")

    def __init__(self, battle_id: int) -> None:
        super().__init__(custom_id=f"bp:surface-setup-add-form:{battle_id}")
        self.battle_id = battle_id
        self.kind.placeholder = ", ".join(unit_types())[:100]

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Add the unit, as /surface add does."""
        await guarded(interaction, self._add)

    async def _add(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        name, side = str(self.name.value).strip(), str(self.side.value).strip()
        order = o.AddUnit(name=name, side=side, at=Cell(0, 0), owner=None,
                          stats={"type": type_key(str(self.kind.value))})
        await service_of(interaction).execute(actor, record, order, render=False)
        await reply(interaction, safe(f"{name} joins {side}."))


class AddUnitButton(_PanelButton, template=r"bp:surface-setup-add:(?P<battle>[0-9]+)"):
    """Open a form to add a unit to a side's force (GM)."""

    step = "add"

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Open the form to the GM."""
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await service_of(interaction).require_gm(actor, record, "add units")
        await interaction.response.send_modal(AddUnitModal(record.id))


class FileButton(_PanelButton, template=r"bp:surface-setup-file:(?P<battle>[0-9]+)"):
    """Tell the GM how to add forces from a file (Discord takes files only through a command)."""

    step = "file"

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Answer the GM privately with the commands that take a file and set a player."""
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await service_of(interaction).require_gm(actor, record, "add units")
        await reply(interaction, "Discord hands a bot a file only through a command: type `/surface import`, attach "
                    "the forces.json that `/surface export` gave at the end of an earlier battle, and send; every "
                    "unit of the file joins, or none if one is wrong. One unit with its player and ratings: "
                    "`/surface add name:... side:... type:... owner:@player`.", ephemeral=True)


class LeaderModal(discord.ui.Modal, title="Set a side's leader"):
    """Ask for a side, its leader's name and the leader's Ability."""

    side: discord.ui.TextInput[LeaderModal] = discord.ui.TextInput(label="Side", max_length=64, custom_id="side")
    leader: discord.ui.TextInput[LeaderModal] = discord.ui.TextInput(label="Leader's name", max_length=64,
                                                                     custom_id="leader")
    ability: discord.ui.TextInput[LeaderModal] = discord.ui.TextInput(label="Leader Ability (a whole number, 0-100)",
                                                                      max_length=3, custom_id="ability")

    def __init__(self, battle_id: int) -> None:
        super().__init__(custom_id=f"bp:surface-setup-leader-form:{battle_id}")
        self.battle_id = battle_id

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Set the leader, as /surface side does, keeping the side's strategic situation."""
        await guarded(interaction, self._set)

    async def _set(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        typed = str(self.ability.value).strip()
        if not typed.isdigit() or int(typed) > 100:
            raise IllegalOrderError(f"Leader Ability is a whole number from 0 to 100, not `{safe(typed[:10])}`. "
                                    "Nothing was changed.")
        service = service_of(interaction)
        side = str(self.side.value).strip()
        # The form sets the leader alone: the blockade and last-ground flags /surface side set stay as they were.
        kept = state(await service.load(record)).standing_of(side)
        leader = str(self.leader.value).strip()
        order = SetSide(side=side, leader=leader, ability=int(typed), blockaded=kept.blockaded,
                        last_ground=kept.last_ground)
        await service.execute(actor, record, order, render=False)
        await reply(interaction, safe(f"{side}: leader {leader}, Ability {int(typed)}."))


class LeaderButton(_PanelButton, template=r"bp:surface-setup-leader:(?P<battle>[0-9]+)"):
    """Open a form to set a side's leader and Ability (GM)."""

    step = "leader"

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Open the form to the GM."""
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await service_of(interaction).require_gm(actor, record, "set a side's leader")
        await interaction.response.send_modal(LeaderModal(record.id))


class StartButton(_PanelButton, template=r"bp:surface-setup-start:(?P<battle>[0-9]+)"):
    """Start the battle (GM) once two forces have units: the secret pre-battle plans open."""

    step = "start"

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Start the battle as /battle start does, or refuse privately naming what is missing."""
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        await service.require_gm(actor, record, "start the battle")
        battle = await service.load(record)
        if battle.status != "setup":
            raise IllegalOrderError("This battle has already started.")
        missing = still_missing(battle)
        if missing:
            raise IllegalOrderError("The battle cannot start yet. Still missing: " + " ".join(missing).replace("**", ""))
        result = await service.execute(actor, record, o.Start(), render=False)
        await defer(interaction)
        assert result.outcome is not None
        await reply(interaction, embed=turn_embed(result.outcome, result.battle,
                                                  actor_name=interaction.user.display_name))


SETUP_ITEMS = (AddUnitButton, FileButton, LeaderButton, StartButton)
