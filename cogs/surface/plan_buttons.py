"""Surface Combat by buttons: a side's plan picked from menus, fighting when both are in, the next game turn.

Every control is persistent: its custom id carries the battle, the side (its place in the battle's list)
and the plan chosen so far, so a menu picked tomorrow, after a restart, still knows the rest of the plan.
Only a player commanding units of the side (or the GM) opens and commits a side's plan; only the GM forces
a fight or opens the next game turn. Each press goes through the table service like the commands do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.service import Actor, BattleRecord, TableService
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import defer, edit_pressed, reply
from cogs.surface.fight import NextTurnButton, fight_and_report, game_turn
from rules.battle import Battle
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.systems.surface.details import PlanDetails
from rules.systems.surface.orders import Resolve, SubmitPlan
from rules.systems.surface.resolve import plan_rounds
from rules.systems.surface.state import Plan, state
from rules.units import Unit

MAX_DROPPED = 25  # a select menu's options
MAX_PLAN_BUTTONS = 20  # of a message's 25 components: one per side owing a plan
_STATE = (r"(?P<battle>[0-9]+):(?P<turn>[0-9]+):(?P<side>[0-9]+):(?P<i>[0-9]+):(?P<d>[0-9]+):(?P<b>[01]):"
          r"(?P<mask>[0-9a-f]+)")


@dataclass(frozen=True)
class Draft:
    """A plan being picked: the battle, its game turn, the side's place in its list, and the choices so far."""

    battle: int
    turn: int
    side: int
    intensity: int
    daring: int
    besieged: bool = False
    mask: int = 0  # the side's units (in the battle's order) dropped from transports, one bit each

    def custom_id(self, field: str) -> str:
        """Return the custom id of the control that changes `field` of this draft."""
        return (f"bp:spp:{self.battle}:{self.turn}:{self.side}:{self.intensity}:{self.daring}:{int(self.besieged)}:"
                f"{self.mask:x}:{field}")

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Draft:
        """Read a draft back from a control's custom id."""
        return cls(int(match["battle"]), int(match["turn"]), int(match["side"]), int(match["i"]), int(match["d"]),
                   match["b"] == "1", int(match["mask"], 16))


def _side_name(battle: Battle, index: int) -> str:
    if not 0 <= index < len(battle.sides):
        raise InvalidOrderError("That side is no longer in this battle; `/surface status` lists the sides.")
    return battle.sides[index].name


def _side_units(battle: Battle, side: str) -> list[Unit]:
    return [u for u in battle.iter_units() if u.side.lower() == side.lower()][:MAX_DROPPED]


def _planning(battle: Battle, turn: int | None = None) -> None:
    """Refuse the plan's controls unless this Surface battle is waiting for plans (of this game turn)."""
    if battle.ruleset_id != "surface":
        raise IllegalOrderError("This is not a Surface Combat battle.")
    if battle.status != "active":
        raise IllegalOrderError(f"The battle is {battle.status}: plans are committed only while it runs.")
    if state(battle).resolved:
        raise IllegalOrderError("This game turn's engagement has been fought; the GM opens the next one with "
                                "the Next game turn button or `/surface next-turn`.")
    if turn is not None and turn != game_turn(battle):
        raise IllegalOrderError(f"This plan is of game turn {turn}, which is over; the Plan button of the latest "
                                "ping opens this turn's plan.")


def _top(battle: Battle, key: str) -> int:
    return int(battle.const(key))


def new_draft(battle: Battle, battle_id: int, side: int) -> Draft:
    """Return the plan a side starts from: the default intensity, no daring, nothing dropped, not besieged."""
    intensity = min(int(battle.const("default_intensity")), _top(battle, "intensity_max"))
    return Draft(battle_id, game_turn(battle), side, intensity, 0)


def dropped_names(battle: Battle, draft: Draft) -> tuple[str, ...]:
    """Return the names of the units the draft drops from transports."""
    units = _side_units(battle, _side_name(battle, draft.side))
    return tuple(u.name for i, u in enumerate(units) if draft.mask >> i & 1)


def draft_embed(battle: Battle, draft: Draft) -> discord.Embed:
    """Describe the plan picked so far, and that nobody else sees it."""
    side = _side_name(battle, draft.side)
    rounds = plan_rounds(battle, Plan(draft.intensity, draft.daring))
    dropped = dropped_names(battle, draft)
    embed = discord.Embed(title=f"Pre-battle plan of {safe(side)}, game turn {draft.turn}"[:256], colour=INFO)
    embed.description = "\n".join([
        f"Intensity **{draft.intensity}** \u00b7 Daring **{draft.daring}** (about {rounds} rounds)",
        "Dropped from transports: " + (", ".join(safe(n) for n in dropped) or "none"),
        f"Besieged: **{'yes' if draft.besieged else 'no'}**",
        "Pick from the menus, then **Commit plan**. Only you see this; you may replace the plan until the "
        "battle is fought.",
    ])
    return embed


def draft_view(battle: Battle, draft: Draft) -> discord.ui.View:
    """Return the plan's menus (intensity, daring, units dropped) and its Besieged and Commit buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlanMenu(draft, "i", [discord.SelectOption(label=f"Intensity {n}", value=str(n),
                                                             default=n == draft.intensity)
                                        for n in range(_top(battle, "intensity_max") + 1)][:25]))
    view.add_item(PlanMenu(draft, "d", [discord.SelectOption(label=f"Daring {n}", value=str(n), default=n == draft.daring)
                                        for n in range(_top(battle, "daring_max") + 1)][:25]))
    units = _side_units(battle, _side_name(battle, draft.side))
    if units:
        view.add_item(PlanMenu(draft, "x", [discord.SelectOption(label=u.name[:100], value=str(i),
                                                                 default=bool(draft.mask >> i & 1))
                                            for i, u in enumerate(units)], placeholder="Units dropped from transports"))
    view.add_item(PlanButton(draft, "b", f"Besieged: {'yes' if draft.besieged else 'no'}"))
    view.add_item(PlanButton(draft, "c", "Commit plan"))
    return view


async def _may_plan(service: TableService, actor: Actor, record: BattleRecord, battle: Battle, side: str) -> None:
    """Refuse anyone but the side's players and the GM, before they pick anything."""
    await service.authorise(actor, record, battle, SubmitPlan(side=side))


class OpenPlanButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"bp:splan:(?P<battle>[0-9]+):(?P<side>[0-9]+)"):
    """Open a side's plan, privately, to a player of that side or the GM."""

    def __init__(self, battle_id: int, side: int, name: str = "") -> None:
        super().__init__(discord.ui.Button(label=f"Plan for {name}"[:80] if name else "Plan",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"bp:splan:{battle_id}:{side}"))
        self.battle_id = battle_id
        self.side = side

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OpenPlanButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["side"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the presser the plan's menus, seen by nobody else."""
        await guarded(interaction, self._open)

    async def _open(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        battle = await service.load(record)
        _planning(battle)
        side = _side_name(battle, self.side)
        await _may_plan(service, actor, record, battle, side)
        draft = new_draft(battle, record.id, self.side)
        await reply(interaction, embed=draft_embed(battle, draft), view=draft_view(battle, draft), ephemeral=True)


async def _redraw(interaction: discord.Interaction, draft: Draft) -> None:
    """Show the draft with its new choice, after checking the presser may still plan for the side."""
    record, actor = await battle_and_actor(interaction, draft.battle)
    service = service_of(interaction)
    battle = await service.load(record)
    _planning(battle, draft.turn)
    await _may_plan(service, actor, record, battle, _side_name(battle, draft.side))
    await edit_pressed(interaction, embed=draft_embed(battle, draft), view=draft_view(battle, draft))


class PlanMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bp:spp:" + _STATE + r":(?P<field>[idx])"):
    """Pick the plan's intensity, its daring, or the units dropped from transports."""

    def __init__(self, draft: Draft, field: str, options: list[discord.SelectOption], placeholder: str = "") -> None:
        many = field == "x"
        super().__init__(discord.ui.Select(custom_id=draft.custom_id(field), placeholder=placeholder or None,
                                           options=options or [discord.SelectOption(label="-")],
                                           min_values=0 if many else 1,
                                           max_values=max(1, len(options)) if many else 1))
        self.draft = draft
        self.field = field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PlanMenu:
        """Rebuild the menu from its custom id; the options come back with the message."""
        options = list(item.options) if isinstance(item, discord.ui.Select) else []
        return cls(Draft.from_match(match), match["field"], options)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take the choice into the plan and show it."""
        await guarded(interaction, self._pick)

    async def _pick(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in self.item.values if v.isdigit()]
        if self.field == "x":
            mask = sum(1 << v for v in values if v < MAX_DROPPED)
            await _redraw(interaction, replace(self.draft, mask=mask))
            return
        if not values:
            raise InvalidOrderError("Pick a number from the menu.")
        changed = replace(self.draft, intensity=values[0]) if self.field == "i" else replace(self.draft, daring=values[0])
        await _redraw(interaction, changed)


class PlanButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:spp:" + _STATE + r":(?P<field>[bc])"):
    """Switch Besieged, or commit the plan as picked."""

    def __init__(self, draft: Draft, field: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if field == "c" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or ("Commit plan" if field == "c" else "Besieged"), style=style,
                                           custom_id=draft.custom_id(field)))
        self.draft = draft
        self.field = field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PlanButton:
        """Rebuild the button from its custom id."""
        return cls(Draft.from_match(match), match["field"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Switch Besieged, or commit the plan (fighting the battle if it is the last one in)."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        if self.field == "b":
            await _redraw(interaction, replace(self.draft, besieged=not self.draft.besieged))
            return
        record, actor = await battle_and_actor(interaction, self.draft.battle)
        service = service_of(interaction)
        battle = await service.load(record)
        _planning(battle, self.draft.turn)
        draft = self.draft
        order = SubmitPlan(side=_side_name(battle, draft.side), intensity=draft.intensity, daring=draft.daring,
                           dropped=dropped_names(battle, draft), besieged=draft.besieged)
        await defer(interaction, ephemeral=True, thinking=False)
        result = await service.execute(actor, record, order, render=False)
        plan = result.outcome.details_as(PlanDetails) if result.outcome else None
        word = "replaced" if plan is not None and plan.replaced else "committed"
        await edit_pressed(interaction, content=f"Plan for {safe(order.side)} {word}: intensity {draft.intensity}, "
                           f"daring {draft.daring}, {len(order.dropped)} dropped, "
                           f"{'besieged' if draft.besieged else 'not besieged'}. Only you see this.",
                           embed=None, view=None)
        if plan is not None and plan.ready:
            await fight_and_report(interaction, record, actor, Resolve())


class FightNowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:sfight:(?P<battle>[0-9]+)"):
    """Fight now (GM): a side without a plan takes the default plan."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Fight now (GM)", style=discord.ButtonStyle.danger,
                                           custom_id=f"bp:sfight:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> FightNowButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Force the fight as the GM and post the report."""
        await guarded(interaction, self._fight)

    async def _fight(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        await service.require_gm(actor, record, "fight the battle before every plan is in")
        _planning(await service.load(record))
        await defer(interaction, ephemeral=True, thinking=False)
        await fight_and_report(interaction, record, actor, Resolve(force=True))


def plans_view(battle_id: int, battle: Battle, sides: list[str], *, fight: bool = False) -> discord.ui.View | None:
    """Return a Plan button for each side named (and, with `fight`, the GM's Fight now), or nothing."""
    view = discord.ui.View(timeout=None)
    wanted = {s.lower() for s in sides}
    for index, side in enumerate(battle.sides):
        if side.name.lower() in wanted and len(view.children) < MAX_PLAN_BUTTONS:
            view.add_item(OpenPlanButton(battle_id, index, side.name))
    if fight:
        view.add_item(FightNowButton(battle_id))
    return view if view.children else None


DYNAMIC_ITEMS = (OpenPlanButton, PlanMenu, PlanButton, FightNowButton, NextTurnButton)
