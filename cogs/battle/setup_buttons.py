"""The buttons of the GM's setup panel (on the board of a battle in setup): how to add units from a file, a form
to paint terrain, and Start."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import defer
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import outcome_embed
from cogs.common.replies import reply
from cogs.common.setup_panel import setup_button
from cogs.common.systems import front_end
from cogs.turn.text import turn_embed
from rules import orders as o
from rules.coords import Cell
from rules.ending import require_two_sides
from rules.errors import IllegalOrderError


class SetupFileButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:setup-file:(?P<battle>[0-9]+)"):
    """Tell the GM how to add units from a stat-block file (Discord takes files only through a command)."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(setup_button("file", battle_id))
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
        super().__init__(setup_button("paint", battle_id))
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
        super().__init__(setup_button("start", battle_id))
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
        check_two_sides(battle)
        result = await service.execute(actor, record, o.Start(), render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, full=True, battle_id=record.id)
        # Starting the battle rolls initiative and calls the first turn: the turn words say so, as /battle start's.
        await reply(interaction, embed=turn_embed(result.outcome, result.battle,
                                                  actor_name=interaction.user.display_name), png=png)


SETUP_ITEMS = (SetupFileButton, SetupPaintButton, SetupStartButton)


def check_two_sides(battle: Any) -> None:
    """Refuse to start a battle without two sides that have units, saying how its system's GM adds them."""
    try:
        require_two_sides(battle)
    except IllegalOrderError as exc:
        how = front_end(battle).setup_steps or "Add them with `/unit add ... side:NAME`, or many with `/unit import`."
        raise IllegalOrderError(f"{exc.message} {how}") from None
