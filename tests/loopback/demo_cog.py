"""Slash commands of the demo bot: one of each shape the stand-in has to carry."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

if TYPE_CHECKING:
    from .demo_bot import DemoBot

UNITS = ["Angel", "Eva-00", "Eva-01", "Eva-02"]


def red_square_png() -> bytes:
    """Return an 8x8 red PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (255, 0, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:counter:(?P<count>[0-9]+)"
):
    """Count clicks; the count lives in the custom id, so the button survives a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"demo:counter:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Replace the message with the next count and a button carrying it."""
        following = self.count + 1
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(following))
        await interaction.response.edit_message(content=f"Count: {following}", view=view)


class ConfirmView(discord.ui.View):
    """Offer a plain (non-persistent) confirm button and a vote menu; both die with the bot."""

    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.button(label="Confirm", custom_id="demo:confirm")
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmView]) -> None:
        """Acknowledge silently, then edit the message through the original response."""
        await interaction.response.defer()
        await interaction.edit_original_response(content="Confirmed", view=None)

    @discord.ui.select(
        custom_id="demo:vote",
        options=[
            discord.SelectOption(label="Attack", value="attack"),
            discord.SelectOption(label="Hold", value="hold"),
        ],
    )
    async def vote(self, interaction: discord.Interaction, select: discord.ui.Select[ConfirmView]) -> None:
        """Thank the voter privately."""
        await interaction.response.send_message(f"You voted {select.values[0]}", ephemeral=True)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    """Ask for one line of feedback."""

    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Your feedback", custom_id="text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user, quoting what they wrote."""
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


class DemoCog(commands.GroupCog, group_name="demo"):
    """Hold /demo subcommands, including a nested admin group."""

    admin = app_commands.Group(name="admin", description="Admin tools")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Answer pong")
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer pong."""
        await interaction.response.send_message("pong")

    @app_commands.command(description="Repeat text without pinging anyone")
    @app_commands.describe(text="What to say")
    async def echo(self, interaction: discord.Interaction, text: str) -> None:
        """Repeat the text; the bot-wide allowed_mentions keeps @everyone silent."""
        await interaction.response.send_message(text)

    @admin.command(description="Reset everything")
    async def reset(self, interaction: discord.Interaction) -> None:
        """Confirm a reset."""
        await interaction.response.send_message("reset done", ephemeral=True)


class PlayerCommands(commands.Cog):
    """Hold the top-level demo commands."""

    # Discord applies default permissions to top-level commands only, so the GM tools are their own group.
    gm = app_commands.Group(
        name="gm", description="Game master tools", default_permissions=discord.Permissions(manage_guild=True)
    )

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @gm.command(description="Undo the last order")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Confirm the undo (only members with Manage Server see /gm)."""
        await interaction.response.send_message("undone", ephemeral=True)

    @app_commands.command(description="Roll a die for someone")
    @app_commands.describe(sides="Faces on the die", who="Who rolls")
    async def roll(
        self, interaction: discord.Interaction, sides: app_commands.Range[int, 2, 100], who: discord.Member
    ) -> None:
        """Reply with a fixed roll, pinging only the roller."""
        await interaction.response.send_message(
            f"{who.mention} rolled {sides} on a d{sides} (asked by {interaction.user.display_name})",
            allowed_mentions=discord.AllowedMentions(users=[who]),
        )

    @app_commands.command(description="Pick a unit")
    @app_commands.describe(unit="Unit name", note="Optional note")
    async def pick(self, interaction: discord.Interaction, unit: str, note: str | None = None) -> None:
        """Confirm the picked unit."""
        await interaction.response.send_message(f"picked {unit}" + (f" ({note})" if note else ""))

    @pick.autocomplete("unit")
    async def pick_unit(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer units whose name starts with what was typed."""
        return [app_commands.Choice(name=u, value=u) for u in UNITS if u.lower().startswith(current.lower())]

    @app_commands.command(name="map", description="Show the map")
    async def show_map(self, interaction: discord.Interaction) -> None:
        """Defer, then send a small PNG as the follow-up."""
        await interaction.response.defer(thinking=True)
        picture = discord.File(io.BytesIO(red_square_png()), filename="map.png")
        await interaction.followup.send("Here is the map.", file=picture, embed=discord.Embed(title="Map"))

    @app_commands.command(name="files", description="Send two files with awkward names")
    async def awkward_files(self, interaction: discord.Interaction) -> None:
        """Send a text file whose name holds quotes, a backslash and accents, and whose bytes look like a boundary,
        then a PNG named in Cyrillic, under a caption in two scripts."""
        lines = discord.File(io.BytesIO(b"\r\n--not-a-boundary\r\n" * 3), filename='plan "B" \\ \u00e9t\u00e9.txt')
        picture = discord.File(io.BytesIO(red_square_png()), filename="\u043a\u0430\u0440\u0442\u0430.png")
        await interaction.response.send_message("Deux fichiers \u2014 \u0434\u0432\u0430 \u0444\u0430\u0439\u043b\u0430",
                                                files=[lines, picture])

    @app_commands.command(description="Always fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        """Raise, to prove errors are caught."""
        raise RuntimeError("kaboom")

    @app_commands.command(description="Repeat a letter")
    async def shout(self, interaction: discord.Interaction, length: int) -> None:
        """Send a long line; Discord refuses more than 2000 characters."""
        await interaction.response.send_message("A" * length)

    @app_commands.command(description="Never answers")
    async def silent(self, interaction: discord.Interaction) -> None:
        """Do nothing, so Discord would say the interaction failed."""

    @app_commands.command(description="Start a counter")
    async def counter(self, interaction: discord.Interaction, start: int = 0) -> None:
        """Post a message with a persistent counting button."""
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(start))
        await interaction.response.send_message(f"Count: {start}", view=view)

    @app_commands.command(description="Ask for confirmation")
    async def confirm(self, interaction: discord.Interaction) -> None:
        """Post a message with a confirm button and a vote menu."""
        await interaction.response.send_message("Proceed?", view=ConfirmView())

    @app_commands.command(description="Read an uploaded file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Report the file's name, size and first line."""
        data = await file.read()
        first = data.decode().splitlines()[0]
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes, starts {first!r}")

    @app_commands.command(description="Describe typed options")
    @app_commands.choices(
        colour=[app_commands.Choice(name="Red", value="red"), app_commands.Choice(name="Blue", value="blue")]
    )
    async def describe(
        self,
        interaction: discord.Interaction,
        colour: app_commands.Choice[str],
        where: discord.TextChannel,
        role: discord.Role,
        weight: float,
        loud: bool = False,
    ) -> None:
        """Echo each option back so the test can check the conversions."""
        await interaction.response.send_message(
            f"{colour.name}|{where.name}|{role.name}|{weight:.2f}|{loud}", ephemeral=not loud
        )

    @app_commands.command(description="Open a battle thread")
    async def battle(self, interaction: discord.Interaction, name: str) -> None:
        """Post a pinned opener in the channel, start a thread on it and post there."""
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        opener = await interaction.channel.send(f"Battle {name} begins")
        await opener.pin()
        thread = await opener.create_thread(name=name)
        await thread.send("Turn 1")
        await interaction.followup.send(f"Opened {thread.mention}", ephemeral=True)

    @app_commands.command(description="Send yourself a DM")
    async def remind(self, interaction: discord.Interaction, text: str) -> None:
        """DM the caller, then edit the original reply."""
        await interaction.response.send_message("sending...", ephemeral=True)
        await interaction.user.send(f"Reminder: {text}")
        await interaction.edit_original_response(content="sent")

    @app_commands.command(description="Give feedback")
    async def feedback(self, interaction: discord.Interaction) -> None:
        """Open the feedback modal."""
        await interaction.response.send_modal(FeedbackModal())

    @app_commands.command(description="Post, edit and delete a message")
    async def scratch(self, interaction: discord.Interaction) -> None:
        """Exercise the channel message routes and fetch history."""
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.defer()
        keep = await interaction.channel.send("draft")
        await keep.edit(content="final")
        gone = await interaction.channel.send("temporary")
        await gone.delete()
        history = [m.content async for m in interaction.channel.history(limit=10)]
        await interaction.followup.send(" / ".join(history))
