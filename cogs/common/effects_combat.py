"""One readable sentence for every effect the combat and battlefield rules record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.common.embeds import effect_line, safe, signed
from rules.battle import Battle

# Effects of the turn system; the turn formatter words them, and attack embeds group them apart.
TURN_EFFECTS = frozenset({
    "round_started", "phase_changed", "turn_passed", "turn_lost", "turn_ended", "held", "turn_skipped",
    "round_closed", "turn_mode_set", "standing_order_set", "standing_order_cleared", "standing_order_followed",
})
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


def loss_text(d: dict[str, Any], named: bool = True) -> str:
    """Return what a hit cost: wounds, or Magnitude for a Horde (one per damaging hit, more for Explosive)."""
    unit = safe(d["unit"]) + " " if named else ""
    if "magnitude_lost" in d:
        lost = int(d["magnitude_lost"])
        if not lost:
            return f"{unit}loses no Magnitude: nothing gets through ({d['magnitude_left']} left)"
        extra = f" (1 per damaging hit + {lost - 1} Explosive/Devastating)" if lost > 1 else " (1 per damaging hit)"
        return f"{unit}loses **{lost} Magnitude**{extra} \u2192 {d['magnitude_left']} left"
    lost = int(d["wounds_lost"])
    return f"{unit}loses **{plural(lost, 'wound')}** \u2192 {d['wounds_left']} left"


def _terrain(battle: Battle | None, key: str) -> str:
    if battle is not None and key in battle.ruleset.terrain:
        return safe(battle.ruleset.terrain[key].name)
    return safe(key.replace("_", " "))


def _feature(battle: Battle | None, key: object) -> str:
    text = str(key or "")
    if battle is not None and text in battle.ruleset.features:
        return safe(battle.ruleset.features[text].name)
    return safe(text.replace("_", " ").title() or "feature")


def _cause(cause: str) -> str:
    if cause == "hit":
        return "set alight by the hit"
    if cause == "premature":
        return "set off early by the fire on its square"
    return safe(cause)


def _damage(e: dict[str, Any], b: Battle | None) -> str:
    source = SOURCE_WORDS.get(str(e.get("source", "")), safe(e.get("source", "")))
    origin = f" from {source}" if source else ""
    how = ", ignoring armour," if e.get("cover_note") == "ignores armour" else ""
    return f"{safe(e['unit'])} takes {e['damage']} damage{origin}{how} and {loss_text(e, named=False)}"


def _magdam(e: dict[str, Any], b: Battle | None) -> str:
    source = SOURCE_WORDS.get(str(e.get("source", "")), safe(e.get("source", "")))
    origin = f" from {source}" if source else ""
    return f"{safe(e['unit'])} loses {e['magnitude_lost']} Magnitude{origin} \u2192 {e['magnitude_left']} left"


def _fell(e: dict[str, Any], b: Battle | None) -> str:
    prone = "; it is knocked prone" if e.get("prone") else ""
    return (f"{safe(e['unit'])} falls on {e['cell']} ({_terrain(b, str(e['terrain']))}, failed by "
            f"{plural(int(e['degrees']), 'degree')}){prone}")


def _destroyed(e: dict[str, Any], b: Battle | None) -> str:
    partners = e.get("engaged_with") or []
    melee = f"; its melee with {', '.join(safe(p) for p in partners)} ends" if partners else ""
    return f"\U0001f480 {safe(e['unit'])} ({safe(e['side'])}) is destroyed on {e['at']} and leaves the map{melee}"


def _fire_out(e: dict[str, Any], b: Battle | None) -> str:
    if "unit" not in e:
        return f"\U0001f327 The storm puts out the fire on {e['cell']}"
    if e.get("cause") == "test":
        return f"\U0001f4a7 {safe(e['unit'])} puts out its flames"
    return f"\U0001f4a7 {safe(e['unit'])} puts out its flames at once: water or a storm is at hand"


def _bakelite(e: dict[str, Any], b: Battle | None) -> str:
    total = int(e["total"])
    more = f" ({signed(-total)} in all)" if total != int(e["penalty"]) else ""
    return (f"{safe(e['unit'])} is caught in Bakelite: {signed(-int(e['penalty']))} WS and Agility{more} "
            f"until it breaks free with a Strength test")


def _storms(e: dict[str, Any], b: Battle | None) -> str:
    gone = int(e.get("dropped", 0))
    off = f"; {plural(gone, 'storm square')} blow off the map" if gone else ""
    return f"\U0001f32a Storms move {plural(int(e['distance']), 'square')} {e['direction']}{off}"


def _chance(e: dict[str, Any], b: Battle | None) -> str:
    verdict = "it happens" if e.get("happened") else "it does not"
    what = safe(e["what"])
    return f"Chance of {what}: d100 **{e['roll']}** against {e['chance']}% \u2192 {verdict}"


def _pushed(e: dict[str, Any], b: Battle | None) -> str:
    partners = e.get("engagement_ended") or []
    ended = f"; its melee with {', '.join(safe(p) for p in partners)} ends" if partners else ""
    return f"\u27a1 {safe(e['unit'])} is pushed {e['frm']} \u2192 {e['to']}{ended}"


def _mine(e: dict[str, Any], b: Battle | None) -> str:
    return (f"\U0001f4a5 {safe(e['unit'])} sets off the {_feature(b, e.get('feature'))} on {e['cell']} "
            f"({plural(int(e.get('triggers_left', 0)), 'trigger')} left)")


SENTENCES: dict[str, Callable[[dict[str, Any], Battle | None], str]] = {
    "damage": _damage,
    "magnitude_damage": _magdam,
    "destroyed": _destroyed,
    "cover_decayed": lambda e, b: (f"The {_feature(b, e.get('feature'))} on {e['cell']} is worn down: "
                                   f"Cover AP {e['before']} \u2192 {e['after']}"),
    "engaged": lambda e, b: f"\u2694 {' and '.join(safe(u) for u in e['units'])} are locked in melee",
    "aiming": lambda e, b: (f"\U0001f3af {safe(e['unit'])} takes aim ({e['mode']} action): "
                            f"{signed(int(e['bonus']))} on its next attack"),
    "hidden": lambda e, b: f"{safe(e['unit'])} is hidden on {e['cell']} until it attacks",
    "pushed": _pushed,
    "defending": lambda e, b: (f"\U0001f6e1 {safe(e['unit'])} stands on guard until the next round: melee attacks "
                               f"against it take {signed(int(e['penalty']))}"),
    "fire_out": _fire_out,
    "trap_sprung": lambda e, b: (f"\U0001f4a5 A {_feature(b, e.get('feature'))} goes off on {e['cell']} "
                                 f"({_cause(str(e.get('cause', '')))})"),
    "bakelite": _bakelite,
    "status_ended": lambda e, b: f"{safe(e['unit'])} is no longer {status_word(str(e['status']))}",
    "storms_moved": _storms,
    "burnt_out": lambda e, b: f"The fire on {e['cell']} burns out, leaving burnt forest",
    "smoke_cleared": lambda e, b: f"The smoke on {e['cell']} clears",
    "ignited": lambda e, b: (f"\U0001f525 {e['cell']} catches fire for {plural(int(e['rounds']), 'round')} "
                             f"({_cause(str(e.get('cause', '')))})"),
    "caught_fire": lambda e, b: f"\U0001f525 {safe(e['unit'])} catches fire on {e['cell']}",
    "chance": _chance,
    "smoke": lambda e, b: f"\U0001f4a8 Smoke rises on {e['cell']} for {plural(int(e['rounds']), 'round')}",
    "ice_melted": lambda e, b: f"The ice on {e['cell']} melts into {_terrain(b, str(e['terrain']))}",
    "frozen": lambda e, b: f"\u2744 The water on {e['cell']} freezes into ice",
    "frozen_in": lambda e, b: (f"\u2744 {safe(e['unit'])} is frozen in on {e['cell']} until it breaks free "
                               f"(a Strength test) or the ice melts"),
    "plunged": lambda e, b: f"\U0001f30a {safe(e['unit'])} plunges into the water on {e['cell']}",
    "stunned": lambda e, b: f"{safe(e['unit'])} is stunned for {plural(int(e['rounds']), 'round')}",
    "sunk": lambda e, b: f"{safe(e['unit'])} sinks on {e['cell']}",
    "fell": _fell,
    "surfaced": lambda e, b: f"{safe(e['unit'])} comes back up on {e['cell']}",
    "bridge_damaged": lambda e, b: (f"The {BRIDGE_NAMES.get(str(e['bridge']), 'Bridge')} on {e['cell']} takes "
                                    f"{plural(int(e['wounds_lost']), 'wound')} ({e['total_lost']}/{e['wounds']})"),
    "bridge_destroyed": lambda e, b: (f"\U0001f4a5 The {BRIDGE_NAMES.get(str(e['bridge']), 'Bridge')} on {e['cell']} "
                                      f"falls; the square is {_terrain(b, str(e['terrain']))} again"),
    "trap_revealed": lambda e, b: f"\U0001f50e {safe(e['side'])} discovers a {_feature(b, e.get('feature'))} on {e['cell']}",
    "mine_triggered": _mine,
    "feature_expended": lambda e, b: f"The {_feature(b, e.get('feature'))} on {e['cell']} is spent",
    "disengaged": lambda e, b: (f"{safe(e['unit'])} breaks away from "
                                f"{', '.join(safe(u) for u in e.get('from_units', []))}"),
}


def effect_sentence(effect: dict[str, Any], battle: Battle | None = None) -> str:
    """Return one effect as a sentence; kinds outside combat fall back to the general wording."""
    words = SENTENCES.get(str(effect.get("type", "")))
    if words is None:
        return effect_line(effect)
    try:
        return words(effect, battle)
    except (KeyError, TypeError, ValueError):
        # An effect stored by an older version may lack a field; the general wording still shows it.
        return effect_line(effect)
