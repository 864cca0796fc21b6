"""The GM's setup panel: while a battle is set up, its status board says what is still missing before the
start and holds buttons for the steps (add units from a file, paint terrain, start), refreshed with every order."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import defer
from bot.service import BattleRecord
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import outcome_embed, safe
from cogs.common.replies import reply
from rules import orders as o
from rules.battle import Battle
from rules.coords import Cell
from rules.ending import require_two_sides, sides_with_units
from rules.errors import IllegalOrderError

MISSING_FIELD = "Setup: still missing before the start"


def still_missing(battle: Battle) -> list[str]:
    """Say what a battle in setup lacks before /battle start takes it: two sides with units."""
    sides = sides_with_units(battle)
    if not sides:
        return ["Units: no side has units yet. Add them with /unit add, or from a file with /unit import."]
    if len(sides) == 1:
        return [f"A second side: only {safe(sides[0])} has units. Add units of another side (`/unit add ... "
                "side:NAME`)."]
    return []


def setup_lines(battle: Battle) -> list[str]:
    """Return the panel's text: what is missing, or that the battle is ready, and the optional steps left."""
    missing = still_missing(battle)
    lines = [f"\u274c {line}" for line in missing] or ["\u2705 Ready: the GM presses **Start** (or /battle start)."]
    if all(key == battle.ruleset.default_terrain for key in battle.terrain):
        lines.append("\u2022 Optional: the map is all open ground; **Paint terrain** (or /map paint) lays some.")
    unowned = [u.name for u in battle.iter_units() if u.owner is None and u.takes_turns]
    if unowned:
        shown = ", ".join(safe(n) for n in unowned[:5]) + (" ..." if len(unowned) > 5 else "")
        verb = "has" if len(unowned) == 1 else "have"
        lines.append(f"\u2022 Optional: {shown} {verb} no player, so the GM plays {'it' if len(unowned) == 1 else 'them'}"
                     " (/gm assign gives a player).")
    return lines


def add_setup_field(embed: discord.Embed, battle: Battle) -> discord.Embed:
    """Put the setup panel's text on a board embed, while the battle is set up."""
    if battle.status == "setup":
        embed.insert_field_at(0, name=MISSING_FIELD, value="\n".join(setup_lines(battle))[:1024], inline=False)
    return embed


def setup_view(record: BattleRecord, battle: Battle) -> discord.ui.View | None:
    """Return the setup buttons while the battle is set up, None after its start (the board drops them)."""
    if battle.status != "setup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SetupFileButton(record.id))
    if battle.system.has_map:
        view.add_item(SetupPaintButton(record.id))
    view.add_item(SetupStartButton(record.id))
    return view


class SetupFileButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:setup-file:(?P<battle>[0-9]+)"):
    """Tell the GM how to add units from a stat-block file (Discord takes files only through a command)."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Add units from a file", style=discord.ButtonStyle.secondary,
                                           emoji="\U0001f4c4", custom_id=f"bp:setup-file:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SetupFileButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the GM privately with the command that takes the file."""
        await guarded(interaction, self._explain)

    async def _explain(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await service_of(interaction).require_gm(actor, record, "add units")
        await reply(interaction, "Discord hands a bot a file only through a command: type `/unit import`, attach "
                    "your .toml stat-block file (one `[[unit]]` table per unit, see docs/statblocks.md) and send. "
                    "`side:` and `owner:` set every unit's side and player, `at:` moves the whole layout to "
                    "another square. One unit at a time: `/unit add`.", ephemeral=True)


class PaintModal(discord.ui.Modal, title="Paint terrain"):
    """Ask which terrain to lay on which rectangle of squares."""

    terrain: discord.ui.TextInput[PaintModal] = discord.ui.TextInput(label="Terrain (its key or name)", max_length=64,
                                                                     custom_id="terrain")
    frm: discord.ui.TextInput[PaintModal] = discord.ui.TextInput(label="From square, like B2", max_length=8,
                                                                 custom_id="from")
    to: discord.ui.TextInput[PaintModal] = discord.ui.TextInput(label="To square (leave empty: one square)",
                                                                max_length=8, required=False, custom_id="to")

    def __init__(self, battle_id: int, terrain_names: str) -> None:
        super().__init__(custom_id=f"bp:setup-paint-form:{battle_id}")
        self.battle_id = battle_id
        self.terrain.placeholder = terrain_names[:100]

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Paint the rectangle and post the map, as /map paint does."""
        await guarded(interaction, self._paint)

    async def _paint(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        start = Cell.parse(str(self.frm.value))
        end = Cell.parse(str(self.to.value)) if str(self.to.value).strip() else start
        order = o.Paint(terrain=str(self.terrain.value).strip(), frm=start, to=end)
        result = await service.execute(actor, record, order, render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, outcome=result.outcome, battle_id=record.id)
        await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name,
                                                     system=result.battle.system.id), png=png)


class SetupPaintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:setup-paint:(?P<battle>[0-9]+)"):
    """Open a form to paint terrain on a rectangle of squares (GM)."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Paint terrain", style=discord.ButtonStyle.secondary,
                                           emoji="\U0001f58c\ufe0f", custom_id=f"bp:setup-paint:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SetupPaintButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the painting form to the GM."""
        await guarded(interaction, self._open)

    async def _open(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        await service.require_gm(actor, record, "paint terrain")
        battle = await service.load(record)
        names = ", ".join(battle.ruleset.terrain)
        await interaction.response.send_modal(PaintModal(record.id, names))


class SetupStartButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:setup-start:(?P<battle>[0-9]+)"):
    """Start the battle (GM), once two sides have units."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Start", style=discord.ButtonStyle.success, emoji="\u25b6\ufe0f",
                                           custom_id=f"bp:setup-start:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SetupStartButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Start the battle as /battle start does."""
        await guarded(interaction, self._start)

    async def _start(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        await service.require_gm(actor, record, "start the battle")
        battle = await service.load(record)
        if battle.status != "setup":
            raise IllegalOrderError("This battle has already started.")
        require_two_sides(battle)
        result = await service.execute(actor, record, o.Start(), render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, full=True, battle_id=record.id)
        await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name,
                                                     system=result.battle.system.id), png=png)


SETUP_ITEMS = (SetupFileButton, SetupPaintButton, SetupStartButton)
