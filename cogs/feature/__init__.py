"""The /feature group: buy and place artificial features, remove them, set and list feature points."""

from discord.ext import commands

from cogs.feature.cog import FeatureCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(FeatureCog(bot))
