"""Format attacks, damage, area targets and battlefield actions as embeds a player can check line by line."""

from __future__ import annotations

import re
from collections import defaultdict, deque

import discord

from cogs.common.embeds import FAIL, INFO, OK, effect_line, roll_line, safe, signed
from cogs.common.fields import EmbedFields as _Fields
from cogs.common.words import footer_text, plural
from cogs.strategic.effects_combat import effect_sentence, location_name, loss_text
from cogs.strategic.embeds_damage import (
    bridge_lines,
    damage_lines,
    dice_used,
    feature_ap_at_each_hit,
    hit_cells,
    location_line,
    roster,
)
from rules.battle import Battle
from rules.coords import Cell
from rules.core_effects import TURN_EFFECTS
from rules.effects import Effect
from rules.errors import GameError
from rules.orders import Order
from rules.outcome import Outcome
from rules.rolltests import D100Test, Tally
from rules.systems.strategic.area import area_kind, target_count
from rules.systems.strategic.details import (
    AttackDetails,
    ChargeDetails,
    FireNotes,
    ManeuverDetails,
    TrapSearch,
)
from rules.systems.strategic.effects import BridgeDamaged, Damage, Destroyed

COMBAT_KINDS = frozenset({
    "attack", "charge", "aim", "hide", "maneuver", "defend", "act", "extinguish", "trigger-trap", "detect-traps", "break-free",
})
ACTION_TITLES = {
    "aim": "Aim", "hide": "Hide", "maneuver": "Maneuver", "defend": "Defend", "act": "Test",
    "extinguish": "Extinguish", "trigger-trap": "Trap sprung", "detect-traps": "Search for traps",
    "break-free": "Break free", "charge": "Charge cut short",
}
AREA_NAMES = {"blast": "Blast", "cone": "Cone", "line": "Line", "at_field": "AT-Field"}
_RULE_REF = re.compile(r"^(A\d+|\d{3}:L\d+)$")
MAX_DETAILED_HITS = 6
MAX_DICE_LINES = 15


# --- tests ---------------------------------------------------------------------------------------


def breakdown_lines(bd: Tally) -> list[str]:
    """Return a test's base, every modifier with its rule, the cap and the target number."""
    lines = [f"{safe(bd.base_label)} **{bd.base}**"]
    for m in bd.modifiers:
        source = m.source
        ref = f" *({source})*" if _RULE_REF.match(source) else ""
        lines.append(f"{signed(m.value)} {safe(m.label)}{ref}")
    if bd.raw_total != bd.total_modifier:
        lines.append(f"Modifiers {signed(bd.raw_total)}, capped at **{signed(bd.total_modifier)}** "
                     f"(limit \u00b1{bd.cap})")
    elif len(bd.modifiers) > 1:
        lines.append(f"Modifiers {signed(bd.total_modifier)} in all")
    return lines


def verdict_line(test: D100Test, words: tuple[str, str] = ("success", "failure")) -> str:
    """Return the target number, the d100 and the result with its degrees."""
    ok = test.success
    n = test.degrees
    kind = "success" if ok else "failure"
    mark = "\u2705" if ok else "\u274c"
    return (f"Target **{test.target}** \u00b7 d100 **{test.roll}** \u2192 {mark} **{words[0 if ok else 1]}**, "
            f"{n} degree{'s' if n != 1 else ''} of {kind}")


def test_field_lines(test: D100Test, words: tuple[str, str] = ("success", "failure")) -> list[str]:
    """Return the whole of a test: breakdown and verdict."""
    return [*breakdown_lines(test.breakdown), verdict_line(test, words)]


def _attack_of(outcome: Outcome) -> AttackDetails | None:
    """Return an attack's details, a charge's strike included (None for other orders)."""
    charge = outcome.details_as(ChargeDetails)
    return charge.attack if charge is not None else outcome.details_as(AttackDetails)


def _dice_lines(outcome: Outcome) -> list[str]:
    # A Tearing damage roll reads as the dice it kept, and its total is the damage (not every face summed).
    attack = _attack_of(outcome)
    rolled = [h.roll for h in (attack.damage or ())] + ([attack.bridge.roll] if attack.bridge else []) \
        if attack is not None else []
    tearing = {(r.notation, tuple(r.faces)): r for r in rolled if r.tearing and r.dropped}
    lines = []
    for r in outcome.rolls[:MAX_DICE_LINES]:
        torn = tearing.get((r.notation, tuple(r.faces)))
        why = f" ({safe(r.purpose)})" if r.purpose else ""
        lines.append(f"\U0001f3b2 {dice_used(torn)} = **{torn.total}**{why}" if torn else roll_line(r.to_dict()))
    if len(outcome.rolls) > MAX_DICE_LINES:
        lines.append(f"\u2026 and {len(outcome.rolls) - MAX_DICE_LINES} more rolls")
    return lines


def _action_line(outcome: Outcome) -> str | None:
    turn = outcome.turn
    if turn.action is None or not outcome.actor:
        return None
    cost = "a reaction, free" if turn.action_cost == 0 and turn.action != "free" else f"{turn.action} action"
    left = turn.actions_left or 0
    return f"{safe(outcome.actor)}: {cost} \u00b7 {left} action{'s' if left != 1 else ''} left this turn"


def _sentences(effects: list[Effect], battle: Battle | None) -> list[str]:
    """Return the effects as sentences; many units destroyed at once make one line, not one each."""
    destroyed = [e for e in effects if isinstance(e, Destroyed)]
    grouped = len(destroyed) > 3
    out = [effect_sentence(e, battle) for e in effects
           if not isinstance(e, TURN_EFFECTS) and not (grouped and isinstance(e, Destroyed))]
    if grouped:
        names = ", ".join(safe(e.unit) for e in destroyed)
        out.insert(0, f"\U0001f480 {len(destroyed)} units are destroyed and leave the map: {names}")
    return out


def _finish(embed: discord.Embed, fields: _Fields, outcome: Outcome, effects: list[Effect],
            tests: list[D100Test], battle: Battle | None, battle_name: str, actor_name: str,
            extra: tuple[tuple[str, list[str]], ...] = ()) -> discord.Embed:
    """Add the effects, the tests they called for, any extra fields, the turn news, the dice and the footer."""
    sentences = _sentences(effects, battle)
    if sentences:
        fields.add("What happened", sentences)
    for test in tests:
        fields.add(safe(test.purpose), test_field_lines(test))
    for name, lines in extra:
        if lines:
            fields.add(name, lines)
    turn = [effect_line(e) for e in effects if isinstance(e, TURN_EFFECTS)]
    if turn:
        fields.add("Turn", turn)
    if outcome.rolls:
        fields.add("Dice", _dice_lines(outcome))
    if fields.dropped or fields.cut:
        embed.description = ((embed.description or "") + "\n*Some details did not fit here; the battle's event log keeps every roll.*")[:4096]
    embed.set_footer(text=footer_text(battle_name, outcome.order, actor_name, "strategic")[:180])
    return embed


# --- attacks -------------------------------------------------------------------------------------


def _weapon_line(battle: Battle | None, unit: str, weapon_name: str) -> str | None:
    attacker = battle.find_unit(unit) if battle is not None else None
    weapon = attacker.weapon(weapon_name) if attacker is not None else None
    if weapon is None:
        return None
    qualities = ", ".join(weapon.quality_words())
    extra = f" \u00b7 {safe(qualities)}" if qualities else ""
    return f"**{safe(weapon.name)}** \u00b7 {weapon.damage} {weapon.dtype} \u00b7 Pen {weapon.pen}{extra}"


def _order_of(outcome: Outcome, battle: Battle | None) -> Order | None:
    """Read the outcome's order as its battle's rule system does (a kind may mean another order elsewhere)."""
    try:
        return battle.parse_order(outcome.order) if battle is not None else Order.parse(outcome.order)
    except GameError:
        return None  # an order stored by an older version; the embed does without its options


def _geometry_line(outcome: Outcome, attack: AttackDetails, battle: Battle | None) -> str:
    src, dst, d = outcome.highlight.actor or "?", attack.at, attack.distance
    squares = f"**{d}** square{'s' if d != 1 else ''}"
    if attack.form == "melee":
        reach = attack.reach or 0
        reach_text = "the same square" if reach == 0 else f"{reach} square{'s' if reach != 1 else ''}"
        return f"Melee from {src} to {dst}: {squares} apart, reach {reach_text}"
    band = attack.band
    span = f"{band.low}\u2013{band.high} squares" if band is not None and band.low is not None else ""
    unit = f" {battle.ruleset.square_unit}" if battle is not None else ""
    name, mod = (band.name, band.mod) if band is not None else ("?", 0)
    return (f"{src} \u2192 {dst}: {squares} \u00b7 R {attack.R}{unit} \u00b7 **{safe(name)}** range"
            f" ({span}, {signed(mod)})")


def line_of_fire_line(fire: FireNotes | AttackDetails, battle: Battle | None) -> str | None:
    """Describe the squares along the line of fire that cost something, and what altitude saw over."""
    los = fire.line_of_fire
    if not los:
        return None
    if los.indirect:
        return "Line of fire: indirect, so terrain and smoke on the way do not count"
    parts = []
    for sq in los.penalised:
        bits = []
        if sq.terrain:
            name = battle.terrain_at(Cell.parse(sq.cell)).name if battle is not None else "terrain"
            bits.append(f"{safe(name)} {signed(sq.terrain)}")
        if sq.smoke:
            bits.append(f"smoke {signed(sq.smoke)}")
        ignored = " (seen over)" if sq.cell in los.ignored else ""
        parts.append(f"{sq.cell} {' + '.join(bits)}{ignored}")
    text = "Line of fire: " + ("; ".join(parts) if parts else "clear")
    if los.altitude:
        text += f" \u00b7 altitude sees over up to {plural(los.altitude, 'square')}"
    if fire.storm:
        text += " \u00b7 storm on the line" + (" (anti-fog: no penalty)" if fire.storm_negated else "")
    return text


def _area_line(outcome: Outcome, attack: AttackDetails, battle: Battle | None) -> str | None:
    kind = attack.form
    if kind not in AREA_NAMES:
        return None
    if kind == "line":
        cells = outcome.highlight.cells or []
        return f"Line: crosses {plural(len(cells), 'square')}, {cells[0]} \u2192 {cells[-1]}" if cells else "Line attack"
    attacker = battle.find_unit(attack.unit) if battle is not None else None
    weapon = attacker.weapon(attack.weapon) if attacker is not None else None
    if battle is not None and weapon is not None and area_kind(weapon) == kind:
        return f"{AREA_NAMES[kind]} on {attack.at}: up to **{target_count(battle, weapon)}** target(s)"
    return f"{AREA_NAMES[kind]} on {attack.at}"


def attack_embed(outcome: Outcome, battle: Battle | None, *, battle_name: str, actor_name: str = "") -> discord.Embed:
    """Build the embed of an attack: geometry, the to-hit breakdown, each hit's damage and what it set off."""
    charge = outcome.details_as(ChargeDetails)
    data = charge.attack if charge is not None else outcome.details_as(AttackDetails)
    if data is None:  # an attack stored by an older version in another shape
        return action_embed(outcome, battle, battle_name=battle_name, actor_name=actor_name)
    called = str(getattr(_order_of(outcome, battle), "called", "") or "")
    hit = bool(outcome.highlight.hit)
    what = (f"the bridge on {data.at}" if data.form == "bridge" else safe(data.target) if data.target else data.at)
    verb = "charges" if charge is not None else "strikes" if data.form == "melee" else "fires at"
    title = f"{safe(data.unit)} {verb} {what}: {'hit' if hit else 'miss'}"
    embed = discord.Embed(title=title[:256], colour=OK if hit else FAIL)
    lines = [x for x in (_charge_line(charge), _weapon_line(battle, data.unit, data.weapon), _geometry_line(outcome, data, battle),
                         line_of_fire_line(data, battle), _area_line(outcome, data, battle), _action_line(outcome)) if x]
    embed.description = "\n".join(lines)[:4096]
    fields = _Fields(embed)
    # A charge's strike follows any test the squares it crossed called for.
    strike = charge.strike_test if charge is not None else 0
    tests = outcome.tests_of(D100Test)
    test = tests[strike]
    fields.add(safe(test.purpose), test_field_lines(test, ("hit", "miss")))
    cells = hit_cells(data)
    hits = data.hits or ()
    if len(hits) > 1 or data.form in AREA_NAMES:
        fields.add("Targets", roster(hits) or ["Nobody stood where it landed."])
    pending = deque(hits)
    location_rolls: dict[str, deque[int]] = defaultdict(deque)
    for r in outcome.rolls:
        if r.purpose.startswith("hit location for "):
            location_rolls[r.purpose.removeprefix("hit location for ")].append(r.total)
    attacker = battle.find_unit(data.unit) if battle is not None else None
    sb = attacker.bonus("s") if attacker is not None and battle is not None and battle.const("melee_strength_bonus") else 0
    damage = data.damage or ()
    feature_aps = feature_ap_at_each_hit(outcome, data, battle, cells)
    compact: list[str] = []
    for i, struck in enumerate(damage):
        d = struck.hit
        # A hit on a unit an earlier hit destroyed rolls no damage; skip it to pair hits with damage.
        while pending and pending[0].unit != d.unit:
            pending.popleft()
        why = pending.popleft().why if pending else "aimed"
        where = location_line(outcome, data, d, why, called, location_rolls)
        if i < MAX_DETAILED_HITS:
            body = [where, *damage_lines(struck, battle, cells.get(d.unit), feature_aps[i], sb)]
            fields.add(f"Damage to {safe(d.unit)}", body)
        else:
            compact.append(f"{safe(d.unit)} ({location_name(d.location)}): {d.damage} \u2212 {d.armour} "
                           f"armour \u2212 {d.tb} TB \u2192 {loss_text(d, named=False)}")
    bridge = data.bridge
    if bridge:
        fields.add(f"Bridge on {bridge.hit.cell}", bridge_lines(bridge))
    rest = _other_effects(outcome, len(damage), bool(bridge))
    others = tests[:strike] + tests[strike + 1:]
    return _finish(embed, fields, outcome, rest, others, battle, battle_name, actor_name,
                   extra=(("More hits", compact),))


def _charge_line(charge: ChargeDetails | None) -> str | None:
    """Return the move of a charge: its path, and what it cost of the Charge allowance."""
    if charge is None or not charge.move.path:
        return None
    move = charge.move
    path = " \u2192 ".join(move.path)
    return f"Charge: {path} \u00b7 {move.cost} of {move.allowance} {move.spent_unit} ({move.base_label})"


def _other_effects(outcome: Outcome, damage_shown: int, bridge_shown: bool) -> list[Effect]:
    """Return the effects not already shown in a damage or bridge field."""
    rest = []
    skipped_damage = 0
    charge = outcome.details_as(ChargeDetails)
    first = charge.strike_effects if charge is not None else 0  # a charge's move reads before its strike
    for i, e in enumerate(outcome.effects):
        if isinstance(e, Damage) and skipped_damage < damage_shown and i >= first:
            skipped_damage += 1  # the attack's own hits come first and have their own fields
            continue
        if isinstance(e, BridgeDamaged) and bridge_shown:
            bridge_shown = False  # shown in the bridge's own field
            continue
        rest.append(e)
    return rest


# --- other combat actions ----------------------------------------------------------------------


def _summary(outcome: Outcome, battle: Battle | None) -> list[str]:
    """Return the sentence that says what an action came to when no effect says it."""
    kind, actor = outcome.kind, safe(outcome.actor or "")
    tests = outcome.tests_of(D100Test)
    test = tests[0] if tests else None
    failed = test is not None and not test.success
    order = _order_of(outcome, battle)
    if kind == "maneuver" and len(tests) == 2:
        mine, theirs = tests
        target = safe(getattr(order, "target", ""))
        score = " \u00b7 ".join(
            f"{who}: {'success' if t.success else 'failure'}, {t.degrees} degree{'s' if t.degrees != 1 else ''}"
            for who, t in ((actor, mine), (target, theirs)))
        maneuver = outcome.details_as(ManeuverDetails)
        if maneuver is not None and maneuver.won:
            return [f"{actor} wins the opposed test and pushes {target} back.", score]
        return [f"{target} holds its ground: {actor} needs a success with more degrees than {target}.", score]
    told = safe(outcome.told or "")
    if kind == "hide" and failed:
        return [f"{actor} fails to find cover and stays in plain sight."]
    if kind == "hide" and told:
        return [f"{actor} hides until it attacks; where, only {told} is told, in private."]
    if kind == "extinguish" and failed:
        return [f"\U0001f525 {actor} is still on fire."]
    if kind == "break-free" and failed:
        return [f"{actor} strains but is still held."]
    if kind == "detect-traps":
        if failed:
            return [f"{actor}'s search turns up nothing."]
        if told:
            return [f"What {actor}'s search found is told to {told} alone, in private."]
        search = outcome.details_as(TrapSearch)
        if search is None or not search.revealed:
            return [f"{actor} finds no hidden enemy traps on or next to {outcome.highlight.actor or 'its square'}."]
    if kind == "act" and test is not None:
        reason = str(getattr(order, "reason", "") or "")
        why = f" for {safe(reason)}" if reason else ""
        return [f"{actor} tests {safe(test.breakdown.base_label)}{why}."]
    return []


def action_embed(outcome: Outcome, battle: Battle | None, *, battle_name: str, actor_name: str = "") -> discord.Embed:
    """Build the embed of an aim, hide, maneuver, defend, test, extinguish, trap or break-free order."""
    title = ACTION_TITLES.get(outcome.kind, outcome.kind.replace("-", " ").title())
    if outcome.kind == "trigger-trap":
        title = f"{title} on {outcome.highlight.target or '?'}"
    elif outcome.actor:
        title = f"{title}: {safe(outcome.actor)}"
    # The action's own tests come first; tests its effects called for (a Dodge, catching fire) follow them.
    own = {"maneuver": 2, "trigger-trap": 0, "charge": 0}.get(outcome.kind, 1)
    colour = INFO
    tests = outcome.tests_of(D100Test)
    if tests[:own]:
        maneuver = outcome.details_as(ManeuverDetails)
        won = (maneuver is not None and maneuver.won) if outcome.kind == "maneuver" else tests[0].success
        colour = OK if won else FAIL
    embed = discord.Embed(title=title[:256], colour=colour)
    lines = _summary(outcome, battle)
    action = _action_line(outcome)
    embed.description = "\n".join([*lines, *([action] if action else [])])[:4096] or None
    fields = _Fields(embed)
    for test in tests[:own]:
        fields.add(safe(test.purpose), test_field_lines(test))
    return _finish(embed, fields, outcome, outcome.effects, tests[own:], battle, battle_name, actor_name)


def combat_embed(outcome: Outcome, battle: Battle | None = None, *, battle_name: str,
                 actor_name: str = "") -> discord.Embed:
    """Build the embed of any combat or battlefield order."""
    charge = outcome.details_as(ChargeDetails)
    if outcome.kind == "attack" or (charge is not None and charge.struck):
        return attack_embed(outcome, battle, battle_name=battle_name, actor_name=actor_name)
    return action_embed(outcome, battle, battle_name=battle_name, actor_name=actor_name)


__all__ = [
    "COMBAT_KINDS", "action_embed", "attack_embed", "breakdown_lines", "combat_embed",
    "line_of_fire_line", "test_field_lines", "verdict_line",
]
