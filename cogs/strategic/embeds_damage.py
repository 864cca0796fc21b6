"""The lines of an attack's hits: hit location, damage dice with Tearing, armour and cover, Toughness, bridges."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence

from cogs.common.embeds import safe
from cogs.strategic.effects_combat import location_name, loss_text
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import format_dice, parse_dice
from rules.outcome import Outcome
from rules.rolltests import D100Test
from rules.systems.strategic.combat import reverse_roll
from rules.systems.strategic.details import AreaHitNote, AttackDetails, BridgeHit, DamageRoll, HitDamage
from rules.systems.strategic.effects import CoverDecayed, Damage
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.squares import state_at

TEARING_NOTE = "Tearing: one die more, the lowest struck out"
WHY_HIT = {
    "aimed": "aimed at", "random": "drawn at random", "horde_extra": "spare slot: extra hit on the Horde",
    "melee_partner": "in melee with a unit hit (extra)", "line": "in the line's path",
}


def dice_used(roll: DamageRoll) -> str:
    """Return a damage roll as the dice it used: `3d10kh2+5: [~~3~~, 7, 5]` for Tearing (one more die, lowest dropped).

    Tearing (A01) rolls one more die of the weapon's first kind and drops the lowest; the notation says
    which dice were kept, and the dropped face is struck through, so the sum of the faces shown is the damage.
    """
    faces = [str(f) for f in roll.faces]
    notation = roll.notation
    if _torn(roll):
        terms = list(parse_dice(notation))
        first = next((i for i, t in enumerate(terms) if t.faces and t.sign > 0), None)
        if first is not None:
            t = terms[first]
            terms[first] = type(t)(t.sign, t.count, t.faces, keep=t.count - 1)
            notation = format_dice(tuple(terms))
            # The first dice term's faces come first (constant terms add none): strike its lowest.
            at = faces[: t.count].index(str(roll.dropped))
            faces[at] = f"~~{faces[at]}~~"
    return f"`{notation}`: [{', '.join(faces)}]"


def hit_cells(attack: AttackDetails) -> dict[str, str]:
    """Return the square each unit an attack hit stood on."""
    cells = {str(attack.target): attack.at}
    for hit in attack.hits or ():
        cells.setdefault(hit.unit, hit.cell)
    return cells


def feature_ap_at_each_hit(outcome: Outcome, attack: AttackDetails, battle: Battle | None,
                           cells: dict[str, str]) -> list[int | None]:
    """Return the feature's Cover AP each hit met: cover decays between hits of the same attack (A22)."""
    befores: dict[str, deque[int]] = defaultdict(deque)
    for e in outcome.of(CoverDecayed):
        befores[e.cell].append(e.before)
    running: dict[str, int | None] = {}
    out: list[int | None] = []
    for d in attack.damage or ():
        cell = cells.get(d.hit.unit, attack.at)
        if cell not in running:
            now = state_at(battle, Cell.parse(cell)).feature_ap if battle is not None else None
            running[cell] = befores[cell][0] if befores[cell] else now
        out.append(running[cell])
        if d.hit.feature_ap_left is not None:
            running[cell] = d.hit.feature_ap_left
    return out


def _cover_text(d: Damage, battle: Battle | None, cell: str | None, feature_ap: int | None) -> str:
    cover, used, note = d.cover_ap, d.cover_used, d.cover_note
    if cover <= 0:
        return ""
    sources = []
    if battle is not None and cell is not None:
        square = Cell.parse(cell)
        terrain = battle.terrain_at(square)
        if terrain.ap:
            sources.append(f"{safe(terrain.name)} {terrain.ap}")
        ftype = features_of(battle.ruleset).get(state_at(battle, square).feature or "")
        if ftype is not None and ftype.cover_ap:
            sources.append(f"{safe(ftype.name)} {feature_ap if feature_ap is not None else ftype.cover_ap}")
    combined = " and ".join(sources) + (": the higher +1" if len(sources) == 2 else "")
    where = f" ({combined})" if combined else ""
    if used == cover:
        return f" + cover **{used}**{where}"
    return f" + cover {cover}{where}, {note} \u2192 **{used}**"


def _torn(roll: DamageRoll) -> bool:
    return bool(roll.tearing and roll.dropped)


def damage_lines(hit: HitDamage, battle: Battle | None = None, cell: str | None = None,
                 feature_ap: int | None = None, sb: int = 0) -> list[str]:
    """Return one hit's damage: dice with Tearing, armour and cover against Pen, TB, and what it cost the unit."""
    roll, d = hit.roll, hit.hit
    notes = [f"Strength Bonus +{sb} included"] if sb and d.melee else []
    notes += [TEARING_NOTE] if _torn(roll) else []
    said = f" ({'; '.join(notes)})" if notes else ""
    lines = [f"\U0001f3b2 {dice_used(roll)} = **{d.damage}** {d.dtype}{said}"]
    if d.cover_note == "ignores armour":
        lines.append("Armour and cover are ignored")
    else:
        raw = d.personal_ap + d.cover_used - d.pen
        floor = " (never below 0)" if raw < 0 else ""
        lines.append(f"AP {d.personal_ap} ({location_name(d.location)})"
                     f"{_cover_text(d, battle, cell, feature_ap)} \u2212 Pen {d.pen} = armour **{d.armour}**{floor}")
    lines.append(f"{d.damage} \u2212 {d.armour} armour \u2212 {d.tb} TB = **{d.wounds_lost}**")
    lines.append(loss_text(d))
    if hit.destroyed:
        lines.append(f"\U0001f480 **{safe(d.unit)} is destroyed**")
    return lines


def location_line(outcome: Outcome, attack: AttackDetails, d: Damage, why: str, called: str,
                  location_rolls: dict[str, deque[int]]) -> str:
    if called and why == "aimed":
        return f"Called shot: **{location_name(called)}**"
    if why == "aimed" or not attack.hits or attack.form in ("ranged", "melee"):
        roll = outcome.tests_of(D100Test)[0].roll
        source = f"attack roll {roll}"
    else:
        queue = location_rolls.get(d.unit)
        if not queue:
            return f"Location: **{location_name(d.location)}**"
        roll = queue.popleft()
        source = f"location d100 {roll}"
    return f"Location: {source} reversed = {reverse_roll(roll)} \u2192 **{location_name(d.location)}**"


def roster(hits: Sequence[AreaHitNote]) -> list[str]:
    """Number the targets of an area attack, folding repeated hits on one Horde into one line."""
    lines: list[str] = []
    i = 0
    while i < len(hits):
        j = i
        while j + 1 < len(hits) and hits[j + 1] == hits[i]:
            j += 1
        h = hits[i]
        number = f"{i + 1}" if i == j else f"{i + 1}\u2013{j + 1}"
        times = f" (\u00d7{j - i + 1})" if j > i else ""
        lines.append(f"{number}. {safe(h.unit)} on {h.cell}: {WHY_HIT.get(h.why, h.why)}{times}")
        i = j + 1
    return lines


def bridge_lines(hit: BridgeHit) -> list[str]:
    """Return a bridge hit: dice, armour after Pen, TB and the wounds it has taken."""
    roll, b = hit.roll, hit.hit
    kind = "Temporary Bridge" if b.bridge == "temporary" else "Bridge"
    lines = [
        f"\U0001f3b2 {dice_used(roll)} = **{b.damage}**" + (f" ({TEARING_NOTE})" if _torn(roll) else ""),
        f"{kind}: armour after Pen **{b.armour}**, TB **{b.tb}**",
        f"{b.damage} \u2212 {b.armour} \u2212 {b.tb} = **{b.wounds_lost}** {'wound' if b.wounds_lost == 1 else 'wounds'} \u2192 "
        f"{b.total_lost}/{b.wounds} taken",
    ]
    if b.destroyed:
        lines.append("\U0001f4a5 **The bridge falls**")
    return lines
