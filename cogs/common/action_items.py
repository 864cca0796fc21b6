"""The persistent buttons and menus of the action panel, rebuilt from their custom ids after a restart.

Every id carries the battle, the unit's stable id and, for one action, the key of that action (see
groups.order_key); menus that finish an action also carry the panel message to disable once it is done
(0 when there is none to edit). What a press does is registered by the flow module (`handles`), so
these classes hold no game logic.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.common.components import guarded

LABEL_MAX = 80
OPTION_TEXT_MAX = 100


@dataclass(frozen=True)
class Ref:
    """What a component points at: a battle, a unit by id, an action by key, and the panel it came from."""

    battle: int
    unit: str
    key: str = ""
    panel: int = 0


Handler = Callable[[discord.Interaction, Ref, list[str]], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}


def handles(verb: str) -> Callable[[Handler], Handler]:
    """Register what pressing or choosing in a component of this verb does."""

    def wrap(fn: Handler) -> Handler:
        _HANDLERS[verb] = fn
        return fn

    return wrap


async def _dispatch(verb: str, interaction: discord.Interaction, ref: Ref, values: list[str]) -> None:
    handler = _HANDLERS[verb]
    await guarded(interaction, lambda i: handler(i, ref, values))


def short(text: str, limit: int) -> str:
    """Cut text to a Discord limit, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"bp:do:(?P<battle>[0-9]+):(?P<unit>[^:]+):(?P<key>[0-9a-f]+)"):
    """Take one of a unit's actions, or open its square or target choice."""

    def __init__(self, ref: Ref, label: str = "Act", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=short(label, LABEL_MAX), style=style, disabled=disabled,
                                           custom_id=f"bp:do:{ref.battle}:{ref.unit}:{ref.key}"))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        """Rebuild the button from its custom id."""
        return cls(Ref(int(match["battle"]), match["unit"], match["key"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Act for the unit's commander or the GM; anyone else is refused privately."""
        await _dispatch("do", interaction, self.ref, [])


class _Menu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bp:menu:(?P<battle>[0-9]+)"):
    """Base of the action menus: a select whose custom id names its verb, battle, unit, action and panel."""

    verb = ""

    def __init__(self, ref: Ref, options: list[discord.SelectOption], placeholder: str) -> None:
        custom_id = f"bp:{self.verb}:{ref.battle}:{ref.unit}"
        if self.verb != "more":
            custom_id += f":{ref.key}:{ref.panel}"
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=short(placeholder, 150),
                                           options=options or [discord.SelectOption(label="-")]))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> _Menu:
        """Rebuild the menu from its custom id; the options come back with the message."""
        found = match.groupdict()
        ref = Ref(int(found["battle"]), found["unit"], found.get("key") or "", int(found.get("panel") or 0))
        options = list(item.options) if isinstance(item, discord.ui.Select) else []
        return cls(ref, options, "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the flow registered for this verb."""
        await _dispatch(self.verb, interaction, self.ref, list(self.item.values))


_CHOICE = r"(?P<battle>[0-9]+):(?P<unit>[^:]+):(?P<key>[0-9a-f]+):(?P<panel>[0-9]+)"


class MoreActions(_Menu, template=r"bp:more:(?P<battle>[0-9]+):(?P<unit>[^:]+)"):
    """The actions past the buttons' room, as a menu."""

    verb = "more"


class SquareMenu(_Menu, template=r"bp:sq:" + _CHOICE):
    """Pick the square an action goes to."""

    verb = "sq"


class AreaMenu(_Menu, template=r"bp:ar:" + _CHOICE):
    """Pick the area to choose a square in, when there are more squares than one menu holds."""

    verb = "ar"


class TargetMenu(_Menu, template=r"bp:tg:" + _CHOICE):
    """Pick the unit an action is aimed at."""

    verb = "tg"


DYNAMIC_ITEMS = (ActionButton, MoreActions, SquareMenu, AreaMenu, TargetMenu)
