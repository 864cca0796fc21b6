"""Combat Action outcomes in words: one sentence per effect, and every term and die of every roll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules.systems.combat_action.effects as ca
import rules.systems.combat_action.rolltests as rt
from cogs.common.embeds import safe, signed
from cogs.turn.text import effect_sentence as turn_sentence
from rules.effects import Effect
from rules.errors import GameError
from rules.outcome import Outcome
from rules.rolltests import RollTest
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import compass

RESULT_WORDS = {"wounded": "Wounded", "ooa": "Out of Action", "killed": "Killed",
                "section_pierced": "Section Pierced", "partial_collapse": "Partial Collapse",
                "section_destroyed": "Section Destroyed"}
LOCATION_EFFECTS = {
    "comms_down": "comm-link, communicator and robot controller dead for the battle",
    "hatch_jammed": "the hold's hatches jam: break them in close combat to get in or out",
    "weapon_faulty": "one weapon turns faulty: a d6 before each shot, 4-6 it fails for good",
    "mv_halved": "MV halved for the battle",
    "move_or_fire": "from now on it may move or fire in a turn, not both",
    "one_more_shot": "each weapon may fire once more this battle",
    "engine_out": "the engine dies: a ground machine halts, a flyer makes an emergency landing",
    "out_of_control": "the machine is out of control for the battle",
    "pilot_or_core": "pilot compartment (vehicle) or control core (robot) destroyed",
    "power_plant": "the power plant explodes: every location destroyed",
}
OOC_WORDS = {"halt": "grinds to a halt this turn", "repeat": "repeats its last action",
             "shoot_nearest_enemy": "shoots at the nearest enemy", "move_half_random": "moves half its MV at random",
             "shoot_nearest_any": "shoots at the nearest model, friend or foe",
             "drift": "keeps going the way it went last turn"}
FIRE_MODES = {"standard": "standard fire", "sniping": "aimed sniping fire", "automatic": "automatic fire",
              "heavy": "heavy weapon fire", "grenade": "a grenade throw", "close": "close combat"}
HIT, MISS = "\u2705", "\u274c"


def band_name(key: str) -> str:
    """Return a range category's name from its key (PB -> Point Blank)."""
    try:
        return tables().band(key).name
    except GameError:
        return key


def location_name(key: str) -> str:
    """Return a machine location's name from the damage table."""
    try:
        return tables().location(key).name
    except GameError:
        return key.replace("_", " ")


def _moved(e: Any) -> str:
    how = e.mode
    verb = {"walk": "walks", "charge": "charges", "jump": "jumps an obstacle", "climb": "climbs an obstacle"}.get(
        how, f"moves ({safe(how)})")
    return f"{safe(e.unit)} {verb} {e.frm} \u2192 {e.to}: **{e.cm} cm**"


def _deviated(e: Any) -> str:
    sector = (int(e.face) - 1) * 60
    where = f"off the table past {e.to}" if not e.on_map else f"on **{e.to}**"
    return (f"\u21aa {safe(e.weapon)} deviates: miss {e.miss} \u2192 **{e.cm} cm**, direction d6 "
            f"**{e.face}** ({sector}\u00b0 clockwise from the line of fire), landing {where} (aimed at {e.frm})")


def _ooc(e: Any) -> str:
    face = f" (d6 **{e.face}**)" if e.face else ""
    return f"\u26a0 {safe(e.unit)} is out of control{face}: it {OOC_WORDS.get(e.action, e.action)}."


def _location(e: Any) -> str:
    return (f"\U0001f4a5 {safe(e.unit)}: **{location_name(e.location)}** hit \u2014 "
            f"{LOCATION_EFFECTS.get(e.effect, e.effect)}")


def _hatch(e: Any) -> str:
    whose = "its" if e.by == e.unit else f"{safe(e.unit)}'s"
    return f"{safe(e.by)} {'opens' if e.hatch == 'open' else 'closes'} {whose} hatches."


SENTENCES: dict[type[Effect], Callable[[Any], str]] = {
    ca.Activation: lambda e: f"{safe(e.unit)}'s activation opens (round {e.round}).",
    ca.Unpinned: lambda e: f"{safe(e.unit)} passes its Discipline test: no longer pinned.",
    ca.EmergencyLanding: lambda e: (f"{safe(e.unit)} lands and halts." if e.landed
                                    else f"{safe(e.unit)} descends to {e.altitude} altitude (emergency landing)."),
    ca.OutOfControl: _ooc,
    ca.Drifted: lambda e: f"{safe(e.unit)} drifts {e.cm} cm to {e.to} (direction d6 {e.face}).",
    ca.NoTarget: lambda e: f"{safe(e.unit)} finds nothing to shoot at.",
    ca.NothingToRepeat: lambda e: f"{safe(e.unit)} has nothing to repeat and stands still.",
    ca.Halted: lambda e: f"{safe(e.unit)} grinds to a halt for good.",
    ca.OrderNotObeyed: lambda e: f"{safe(e.unit)} obeys no order: its activation is over.",
    ca.Moved: _moved,
    ca.LeftTheTable: lambda e: f"{safe(e.unit)} routs off the table and is removed from play.",
    ca.WentFlatDown: lambda e: f"{safe(e.unit)} goes flat down (+1 PF).",
    ca.GotUp: lambda e: f"{safe(e.unit)} gets up.",
    ca.Aimed: lambda e: f"{safe(e.unit)} aims: its next shot adds the aim bonus.",
    ca.TurnEnded: lambda e: f"End Phase: {safe(e.unit)}'s activation is over.",
    ca.Missed: lambda e: f"{safe(e.unit)} misses {safe(e.target)}.",
    ca.Deviated: _deviated,
    ca.ModelHit: lambda e: f"\U0001fa78 {safe(e.unit)}: **{RESULT_WORDS.get(e.result, e.result)}**",
    ca.BuildingHit: lambda e: f"\U0001f9f1 {safe(e.unit)}: **{RESULT_WORDS.get(e.result, e.result)}**",
    ca.LocationDamaged: _location,
    ca.WeaponFaulty: lambda e: f"{safe(e.unit)}'s {safe(e.weapon)} is now faulty.",
    ca.WeaponMalfunctioned: lambda e: f"{safe(e.unit)}'s {safe(e.weapon)} malfunctions for good; the shot is lost.",
    ca.WeaponJammed: lambda e: f"{safe(e.unit)}'s {safe(e.weapon)} jams (to-hit die {e.die}): unjam it (2 AP).",
    ca.CrewHit: lambda e: (f"{safe(e.unit)}'s crew takes automatic Pen {e.pen} hits: {e.lost} lost, "
                           f"{e.crew} left."),
    ca.Crashed: lambda e: f"\U0001f525 {safe(e.unit)} crashes on {e.at} and is destroyed.",
    ca.TransportedHit: lambda e: (f"Everyone aboard {safe(e.unit)} takes an automatic Pen {e.pen} hit: "
                                  f"{', '.join(safe(m) for m in e.models)}."),
    ca.ShutDown: lambda e: f"{safe(e.unit)} shuts down{' and crashes' if e.crashed else ''}.",
    ca.Altitude: lambda e: f"{safe(e.unit)} is now at {e.altitude} altitude.",
    ca.HatchChanged: _hatch,
    ca.HatchBroken: lambda e: f"{safe(e.by)} breaks {safe(e.unit)}'s jammed hatches open.",
    ca.Embarked: lambda e: f"{safe(e.unit)} climbs into {safe(e.vehicle)} on {e.at}.",
    ca.Disembarked: lambda e: f"{safe(e.unit)} leaves {safe(e.vehicle)} to {e.to}.",
    ca.Reloaded: lambda e: f"{safe(e.unit)} reloads its {safe(e.weapon)} ({e.shots} shots).",
    ca.Unjammed: lambda e: f"{safe(e.unit)} clears its {safe(e.weapon)}.",
    ca.Primed: lambda e: f"{safe(e.unit)} primes a {safe(e.weapon)}: throw it next (1 AP).",
    ca.GeneralAction: lambda e: (f"{safe(e.unit)}: {safe(e.name)}"
                         + (f" \u2192 {safe(e.target)}" if e.target else "")
                         + (f" at {e.at}" if e.at else "") + "."),
}


def sentence(effect: Effect, outcome: Outcome | None = None) -> str:
    """Return one effect as a sentence (setup and turn effects as the shared turn formatter words them)."""
    make = SENTENCES.get(type(effect))
    return make(effect) if make else turn_sentence(effect, outcome)


def to_hit_lines(test: rt.ToHitTest) -> list[str]:
    """Return a to-hit roll: distance and band, the d6, every modifier with its rule, the total against SS."""
    mode = FIRE_MODES.get(test.mode or "standard", test.mode or "")
    lines = [f"{safe(test.unit)} \u2192 {safe(test.target)} with {safe(test.weapon)}, {mode}",
             f"Range {test.cm} cm: **{band_name(test.band)}** ({test.band})",
             f"d6 **{test.die}**"]
    for m in test.modifiers:
        lines.append(f"{signed(m.value)} {safe(m.label)} *({m.source})*")
    verdict = f"{HIT} **hit**" if test.hit else f"{MISS} **miss** by {test.miss}"
    lines.append(f"Total **{test.total}** vs SS **{test.ss}** \u2192 {verdict}")
    return lines


def _pf(test: rt.DamageTest | rt.MachineDamageTest | rt.BuildingDamageTest) -> str:
    cover = getattr(test, "cover", None) or 0
    return f"PF {test.pf}" + (f" ({test.pf - cover} + {cover} cover)" if cover else "")


def damage_lines(test: rt.DamageTest | rt.MachineDamageTest | rt.BuildingDamageTest) -> list[str]:
    """Return a damage roll: the d6, PF and Pen, the looked-up value and the result (A79, A88, A82)."""
    if isinstance(test, rt.MachineDamageTest):
        row = location_name(test.location)
        looked = tables().locations[max(0, min(len(tables().locations) - 1,
                                                test.value - tables().locations[0].result))]
        moved = "" if looked.key == test.location else f" ({looked.name} missing or already hit: next result down)"
        return [f"d6 **{test.die}** + Pen {test.pen} \u2212 {_pf(test)} = **{test.value}** \u2192 "
                f"**{row}**{moved}"]
    if isinstance(test, rt.DamageTest) and test.large_scale:
        return ["Large scale game: every hit on a living creature is **Out of Action**, with no table roll"]
    result = RESULT_WORDS.get(test.result, test.result)
    lines = [f"d6 **{test.die}** + {_pf(test)} \u2212 Pen {test.pen} = {test.value} (clamped 1-6) "
             f"\u2192 **{result}**"]
    if isinstance(test, rt.DamageTest) and test.final:
        lines.append(f"Already wounded: **{RESULT_WORDS.get(test.final, test.final)}**")
    return lines


def other_test_lines(test: RollTest) -> tuple[str, list[str]]:
    """Return the name and lines of a Discipline, malfunction, splash or hatch roll."""
    if isinstance(test, rt.DisciplineTest):
        ok = HIT if test.passed else MISS
        return (f"Discipline Phase: {safe(test.unit)}",
                [f"d6 **{test.die}** {signed(test.mod)} = {test.total} vs Discipline {test.need} "
                 f"\u2192 {ok} {'passed: no longer pinned' if test.passed else 'still pinned'}"])
    if isinstance(test, rt.MalfunctionTest):
        ok = MISS if test.malfunctioned else HIT
        return (f"Faulty {safe(test.weapon)}",
                [f"d6 **{test.die}** (fails on {test.need}+) \u2192 {ok} "
                 f"{'malfunctions for good' if test.malfunctioned else 'fires normally'}"])
    if isinstance(test, rt.SplashTest):
        return (f"Blast near {safe(test.target)}",
                [f"d6 **{test.die}** (hit on {test.need}+) \u2192 {'hit' if test.hit else 'spared'}"])
    if isinstance(test, rt.HatchTest):
        side = "from inside (PF \u2212 2)" if test.inside else "from outside"
        return (f"{safe(test.unit)} strikes {safe(test.target)}'s hatch",
                ["Close combat on a jammed hatch hits automatically",
                 f"d6 **{test.die}** + Pen {test.pen} \u2212 hatch PF {test.pf} {side} = **{test.value}** "
                 f"vs {test.need} \u2192 {'broken open' if test.broken else 'holds'}"])
    return (test.kind.replace("_", " ").title(), [safe(str(test.to_dict()))[:200]])


def heading_word(degrees: int) -> str:
    """Return a heading as a compass point and degrees."""
    return f"{compass(degrees)} ({degrees}\u00b0)"
