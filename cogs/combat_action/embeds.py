"""Combat Action replies: an order's outcome with every term and die, and a unit's stat block."""

from __future__ import annotations

import discord

import rules.systems.combat_action.effects as ca
import rules.systems.combat_action.rolltests as rt
from cogs.combat_action.text import damage_lines, heading_word, other_test_lines, sentence, to_hit_lines
from cogs.common.embeds import FAIL, INFO, OK, roll_line, safe
from cogs.common.fields import EmbedFields
from cogs.common.words import footer_text
from rules.core_effects import TURN_EFFECTS
from rules.outcome import Outcome
from rules.rolltests import RollTest
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

TITLES = {
    "activate": "Activation", "move": "Move", "fire": "Fire", "close-combat": "Close combat", "hatch": "Hatches",
    "embark": "Embark", "disembark": "Disembark", "reload": "Reload", "unjam": "Unjam", "prime": "Prime a grenade",
    "action": "Action", "flat-down": "Flat down", "get-up": "Get up", "aim": "Aim", "end-turn": "End of activation",
}
DAMAGE_TESTS = (rt.DamageTest, rt.MachineDamageTest, rt.BuildingDamageTest)
MAX_DICE = 20
# Effects of the turn system, in their own field (an activation's end is Combat Action's own kind).
TURN = (*TURN_EFFECTS, ca.TurnEnded)
FOOTER_MAX = 180


def _ap_line(outcome: Outcome) -> str | None:
    turn = outcome.turn
    if turn.action_cost is None or not outcome.actor:
        return None
    left = turn.actions_left or 0
    return f"{safe(outcome.actor)}: **{turn.action_cost} AP** spent \u00b7 **{left} AP** left this activation"


def _colour(outcome: Outcome) -> discord.Colour:
    shots = [t for t in outcome.tests_of(rt.ToHitTest) if not t.strike_back]
    if not shots:
        return INFO
    return OK if shots[0].hit else FAIL


def _test_fields(tests: list[RollTest]) -> list[tuple[str, list[str]]]:
    """Return one field per roll: each to-hit with the damage rolls that followed it."""
    out: list[tuple[str, list[str]]] = []
    for test in tests:
        if isinstance(test, rt.ToHitTest):
            who = "Strike back" if test.strike_back else "To hit"
            out.append((f"{who}: {safe(test.unit)} \u2192 {safe(test.target)}", to_hit_lines(test)))
        elif isinstance(test, DAMAGE_TESTS):
            out.append((f"Damage to {safe(test.target)} ({safe(test.source)})", damage_lines(test)))
        else:
            out.append(other_test_lines(test))
    return out


def outcome_embed(outcome: Outcome, *, battle_name: str, actor_name: str = "") -> discord.Embed:
    """Build the reply to a Combat Action order: what happened, every roll's terms, the dice, the AP left."""
    title = TITLES.get(outcome.kind, outcome.kind.replace("-", " ").title())
    if outcome.actor:
        title = f"{title}: {safe(outcome.actor)}"
    embed = discord.Embed(title=title[:256], colour=_colour(outcome))
    ap = _ap_line(outcome)
    embed.description = ap
    fields = EmbedFields(embed)
    happened = [sentence(e, outcome) for e in outcome.effects if not isinstance(e, TURN)]
    if happened:
        fields.add("What happened", happened)
    for name, lines in _test_fields(outcome.tests):
        fields.add(name, lines)
    turn = [sentence(e, outcome) for e in outcome.effects if isinstance(e, TURN)]
    if turn:
        fields.add("Turn", turn)
    if outcome.rolls:
        dice = [roll_line(r.to_dict()) for r in outcome.rolls[:MAX_DICE]]
        if len(outcome.rolls) > MAX_DICE:
            dice.append(f"\u2026 and {len(outcome.rolls) - MAX_DICE} more rolls")
        fields.add("Dice", dice)
    if fields.dropped or fields.cut:
        note = "*Some details did not fit here; /battle log keeps every roll.*"
        embed.description = "\n".join(p for p in (embed.description, note) if p)[:4096]
    embed.set_footer(text=footer_text(battle_name, outcome.order, actor_name, "combat_action")[:FOOTER_MAX])
    return embed


def weapon_line(unit: Unit, index: int) -> str:
    """Return one weapon: class, Pen, area, maximum band, load and what damage left of it."""
    w = unit.weapons[index]
    wclass = tables().weapon_classes[w.wclass]
    band = tables().band(w.max_band or wclass.max_band)
    parts = [f"**{safe(w.name)}** \u00b7 {wclass.name} \u00b7 Pen {w.pen} \u00b7 to {band.name}"]
    if w.area:
        parts.append("grenade" if w.area == "grenade" else "area")
    if w.ammo:
        parts.append(f"{w.ammo - w.spent}/{w.ammo} shots")
    state = [s for s, on in (("jammed", w.jammed), ("primed", w.primed), ("faulty", w.faulty),
                             ("malfunctioned", w.disabled)) if on]
    if w.shots_left >= 0:
        state.append(f"{w.shots_left} shot{'s' if w.shots_left != 1 else ''} left (ammunition feed hit)")
    return " \u00b7 ".join(parts + state)


def unit_embed(unit: Unit, ap_left: int | None = None, carried: tuple[str, ...] = ()) -> discord.Embed:
    """Describe a Combat Action unit: its profile, state, weapons, locations and hold."""
    embed = discord.Embed(title=f"{safe(unit.name)} ({safe(unit.side)})"[:256], colour=INFO)
    owner = f"<@{unit.owner}>" if unit.owner else "the GM"
    kind = unit.kind if not unit.machine else f"{unit.kind} ({unit.control})" if unit.control else unit.kind
    where = "inside a vehicle" if unit.inside else f"on **{unit.cell}**"
    lines = [f"{kind.title()} \u00b7 {where} \u00b7 commanded by {owner}",
             f"SS **{unit.ss}** \u00b7 PF **{unit.pf}** \u00b7 MV **{unit.mv_now()}** cm \u00b7 size {unit.size.replace('_', ' ')}"
             f" \u00b7 Discipline {unit.discipline}"]
    if unit.machine:
        lines.append(f"Facing {heading_word(unit.facing)}")
    words = [*filter(None, [unit.health_text()]), *unit.status_words()]
    if words:
        lines.append(", ".join(safe(w) for w in words))
    if ap_left is not None:
        lines.append(f"**{ap_left} AP** left this activation")
    embed.description = "\n".join(lines)
    fields = EmbedFields(embed)
    if unit.weapons:
        fields.add("Weapons", [weapon_line(unit, i) for i in range(len(unit.weapons))])
    if unit.machine:
        rows = [f"{'~~' if key in unit.damaged else ''}{tables().location(key).name}{'~~' if key in unit.damaged else ''}"
                for key in unit.locations]
        fields.add("Locations (struck through: damaged)", [", ".join(rows)])
    if "hold" in unit.locations:
        aboard = ", ".join(safe(n) for n in carried) or "nobody"
        fields.add("Hold", [f"Hatches {unit.hatch} \u00b7 carries up to {unit.capacity} \u00b7 crew {unit.crew}",
                            f"Aboard: {aboard}"])
    return embed
