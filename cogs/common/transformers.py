"""Transformers for domain inputs: a cell in A1 form, and dice notation."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.autocomplete_squares import square_choices
from rules.coords import Cell
from rules.errors import GameError


class CellTransformer(app_commands.Transformer):
    """Turn `E5` (any case) into a Cell, or say what a cell looks like."""

    async def transform(self, interaction: discord.Interaction, value: str) -> Cell:
        """Parse an A1-style cell."""
        try:
            return Cell.parse(value)
        except GameError as exc:
            raise app_commands.TransformerError(value, discord.AppCommandOptionType.string, self) from exc

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str,
    ) -> list[app_commands.Choice[str]]:
        """Offer squares: where the chosen unit may go or aim now, else where units stand."""
        return await square_choices(interaction, value)


CellArg = app_commands.Transform[Cell, CellTransformer]


def cells_from_text(text: str) -> tuple[Cell, ...]:
    """Parse a list of cells separated by spaces or commas (`A1 B2, C3`)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise GameError("List at least one cell, like `A1 B2 C3`.")
    if len(parts) > 200:
        raise GameError("List at most 200 cells at once; use a rectangle (`from` and `to`) for bigger areas.")
    return tuple(Cell.parse(p) for p in parts)
