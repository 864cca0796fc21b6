"""One readable sentence for every effect the combat and battlefield rules record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules.systems.strategic.effects as strategic
from cogs.common.embeds import effect_line, safe, signed
from rules.battle import Battle
from rules.effects import Effect
from rules.systems.strategic.effects import Damage
from rules.systems.strategic.featuretable import features_of

LOCATION_NAMES = {"head": "Head", "body": "Body", "r_arm": "Right Arm", "l_arm": "Left Arm", "r_leg": "Right Leg",
                  "l_leg": "Left Leg"}
STATUS_WORDS = {
    "bakelite": "held by Bakelite", "immobilised": "frozen in place", "stunned": "stunned", "defending": "on guard",
    "on_fire": "on fire", "hidden": "hidden", "aiming": "aiming", "pinned": "pinned", "prone": "prone",
    "sunk": "sunk", "routing": "routing",
}
SOURCE_WORDS = {"on fire": "its flames", "minefield": "the minefield", "plunge": "the plunge"}
BRIDGE_NAMES = {"temporary": "Temporary Bridge", "bridge": "Bridge"}


def location_name(key: str) -> str:
    """Return a hit location as players say it."""
    return LOCATION_NAMES.get(key, key.replace("_", " ").title())


def status_word(status: str) -> str:
    """Return a status as an adjective ("on guard", "held by Bakelite")."""
    return STATUS_WORDS.get(status, status.replace("_", " "))


def plural(n: int, word: str) -> str:
    """Return `1 round`, `2 rounds`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def loss_text(d: Damage, named: bool = True) -> str:
    """Return what a hit cost: wounds, or Magnitude for a Horde (one per damaging hit, more for Explosive)."""
    return _loss(d.unit, d.wounds_lost, d.wounds_left, d.magnitude_lost, d.magnitude_left, named)


def _loss(name: str, wounds_lost: int, wounds_left: int | None, magnitude_lost: int | None,
          magnitude_left: int | None, named: bool) -> str:
    unit = safe(name) + " " if named else ""
    if magnitude_lost is not None:
        lost = int(magnitude_lost)
        if not lost:
            return f"{unit}loses no Magnitude: nothing gets through ({magnitude_left} left)"
        extra = f" (1 per damaging hit + {lost - 1} Explosive/Devastating)" if lost > 1 else " (1 per damaging hit)"
        return f"{unit}loses **{lost} Magnitude**{extra} \u2192 {magnitude_left} left"
    lost = int(wounds_lost)
    return f"{unit}loses **{plural(lost, 'wound')}** \u2192 {wounds_left} left"


def _terrain(battle: Battle | None, key: str) -> str:
    if battle is not None and key in battle.ruleset.terrain:
        return safe(battle.ruleset.terrain[key].name)
    return safe(key.replace("_", " "))


def _feature(battle: Battle | None, key: object) -> str:
    text = str(key or "")
    if battle is not None and text in features_of(battle.ruleset):
        return safe(features_of(battle.ruleset)[text].name)
    return safe(text.replace("_", " ").title() or "feature")


def _cause(cause: str) -> str:
    if cause == "hit":
        return "set alight by the hit"
    if cause == "premature":
        return "set off early by the fire on its square"
    return safe(cause)


def _damage(e: Any, b: Battle | None) -> str:
    source = SOURCE_WORDS.get(str(e.source), safe(e.source))
    origin = f" from {source}" if source else ""
    how = ", ignoring armour," if e.cover_note == "ignores armour" else ""
    return f"{safe(e.unit)} takes {e.damage} damage{origin}{how} and {loss_text(e, named=False)}"


def _magdam(e: Any, b: Battle | None) -> str:
    source = SOURCE_WORDS.get(str(e.source), safe(e.source))
    origin = f" from {source}" if source else ""
    return f"{safe(e.unit)} loses {e.magnitude_lost} Magnitude{origin} \u2192 {e.magnitude_left} left"


def _fell(e: Any, b: Battle | None) -> str:
    prone = "; it is knocked prone" if e.prone else ""
    return (f"{safe(e.unit)} falls on {e.cell} ({_terrain(b, str(e.terrain))}, failed by "
            f"{plural(int(e.degrees), 'degree')}){prone}")


def _destroyed(e: Any, b: Battle | None) -> str:
    partners = e.engaged_with or []
    melee = f"; its melee with {', '.join(safe(p) for p in partners)} ends" if partners else ""
    return f"\U0001f480 {safe(e.unit)} ({safe(e.side)}) is destroyed on {e.at} and leaves the map{melee}"


def _fire_out(e: Any, b: Battle | None) -> str:
    if e.unit is None:
        return f"\U0001f327 The storm puts out the fire on {e.cell}"
    if e.cause == "test":
        return f"\U0001f4a7 {safe(e.unit)} puts out its flames"
    return f"\U0001f4a7 {safe(e.unit)} puts out its flames at once: water or a storm is at hand"


def _bakelite(e: Any, b: Battle | None) -> str:
    total = int(e.total)
    more = f" ({signed(-total)} in all)" if total != int(e.penalty) else ""
    return (f"{safe(e.unit)} is caught in Bakelite: {signed(-int(e.penalty))} WS and Agility{more} "
            f"until it breaks free with a Strength test")


def _storms(e: Any, b: Battle | None) -> str:
    gone = int(e.dropped)
    off = f"; {plural(gone, 'storm square')} blow off the map" if gone else ""
    return f"\U0001f32a Storms move {plural(int(e.distance), 'square')} {e.direction}{off}"


def _chance(e: Any, b: Battle | None) -> str:
    verdict = "it happens" if e.happened else "it does not"
    what = safe(e.what)
    return f"Chance of {what}: d100 **{e.roll}** against {e.chance}% \u2192 {verdict}"


def _pushed(e: Any, b: Battle | None) -> str:
    partners = e.engagement_ended or []
    ended = f"; its melee with {', '.join(safe(p) for p in partners)} ends" if partners else ""
    return f"\u27a1 {safe(e.unit)} is pushed {e.frm} \u2192 {e.to}{ended}"


def _mine(e: Any, b: Battle | None) -> str:
    return (f"\U0001f4a5 {safe(e.unit)} sets off the {_feature(b, e.feature)} on {e.cell} "
            f"({plural(int(e.triggers_left), 'trigger')} left)")


SENTENCES: dict[type[Effect], Callable[[Any, Battle | None], str]] = {
    strategic.Damage: _damage,
    strategic.MagnitudeDamage: _magdam,
    strategic.Destroyed: _destroyed,
    strategic.CoverDecayed: lambda e, b: (f"The {_feature(b, e.feature)} on {e.cell} is worn down: "
                                   f"Cover AP {e.before} \u2192 {e.after}"),
    strategic.Engaged: lambda e, b: f"\u2694 {' and '.join(safe(u) for u in e.units)} are locked in melee",
    strategic.Aiming: lambda e, b: (f"\U0001f3af {safe(e.unit)} takes aim ({e.mode} action): "
                            f"{signed(int(e.bonus))} on its next attack"),
    strategic.Hidden: lambda e, b: f"{safe(e.unit)} is hidden on {e.cell} until it attacks",
    strategic.Pushed: _pushed,
    strategic.Defending: lambda e, b: (f"\U0001f6e1 {safe(e.unit)} stands on guard until the next round: melee attacks "
                               f"against it take {signed(int(e.penalty))}"),
    strategic.FireOut: _fire_out,
    strategic.TrapSprung: lambda e, b: (f"\U0001f4a5 A {_feature(b, e.feature)} goes off on {e.cell} "
                                 f"({_cause(str(e.cause))})"),
    strategic.Bakelite: _bakelite,
    strategic.StatusEnded: lambda e, b: f"{safe(e.unit)} is no longer {status_word(str(e.status))}",
    strategic.StormsMoved: _storms,
    strategic.BurntOut: lambda e, b: f"The fire on {e.cell} burns out, leaving burnt forest",
    strategic.SmokeCleared: lambda e, b: f"The smoke on {e.cell} clears",
    strategic.Ignited: lambda e, b: (f"\U0001f525 {e.cell} catches fire for {plural(int(e.rounds), 'round')} "
                             f"({_cause(str(e.cause))})"),
    strategic.CaughtFire: lambda e, b: f"\U0001f525 {safe(e.unit)} catches fire on {e.cell}",
    strategic.Chance: _chance,
    strategic.Smoke: lambda e, b: f"\U0001f4a8 Smoke rises on {e.cell} for {plural(int(e.rounds), 'round')}",
    strategic.IceMelted: lambda e, b: f"The ice on {e.cell} melts into {_terrain(b, str(e.terrain))}",
    strategic.Frozen: lambda e, b: f"\u2744 The water on {e.cell} freezes into ice",
    strategic.FrozenIn: lambda e, b: (f"\u2744 {safe(e.unit)} is frozen in on {e.cell} until it breaks free "
                               f"(a Strength test) or the ice melts"),
    strategic.Plunged: lambda e, b: f"\U0001f30a {safe(e.unit)} plunges into the water on {e.cell}",
    strategic.Stunned: lambda e, b: f"{safe(e.unit)} is stunned for {plural(int(e.rounds), 'round')}",
    strategic.Sunk: lambda e, b: f"{safe(e.unit)} sinks on {e.cell}",
    strategic.Fell: _fell,
    strategic.Surfaced: lambda e, b: f"{safe(e.unit)} comes back up on {e.cell}",
    strategic.BridgeDamaged: lambda e, b: (f"The {BRIDGE_NAMES.get(str(e.bridge), 'Bridge')} on {e.cell} takes "
                                    f"{plural(int(e.wounds_lost), 'wound')} ({e.total_lost}/{e.wounds})"),
    strategic.BridgeDestroyed: lambda e, b: (f"\U0001f4a5 The {BRIDGE_NAMES.get(str(e.bridge), 'Bridge')} on {e.cell} "
                                      f"falls; the square is {_terrain(b, str(e.terrain))} again"),
    strategic.TrapRevealed: lambda e, b: f"\U0001f50e {safe(e.side)} discovers a {_feature(b, e.feature)} on {e.cell}",
    strategic.MineTriggered: _mine,
    strategic.FeatureExpended: lambda e, b: f"The {_feature(b, e.feature)} on {e.cell} is spent",
    strategic.Disengaged: lambda e, b: (f"{safe(e.unit)} breaks away from "
                                f"{', '.join(safe(u) for u in e.from_units)}"),
}


def effect_sentence(effect: Effect, battle: Battle | None = None) -> str:
    """Return one effect as a sentence; kinds outside combat (and stored shapes of old) read the general way."""
    words = SENTENCES.get(type(effect))
    return effect_line(effect) if words is None else words(effect, battle)
