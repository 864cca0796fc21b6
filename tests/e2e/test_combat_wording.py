"""The combat embeds word every effect the rules record, from outcomes the real rules produce."""

from __future__ import annotations

import re
from pathlib import Path

import discord

import rules.systems.strategic.effects as strategic
from cogs.common.embeds import effect_line
from cogs.strategic.effects_combat import SENTENCES, effect_sentence
from cogs.strategic.embeds_combat import combat_embed
from rules.battle import Battle
from rules.coords import Cell
from rules.core_effects import TURN_EFFECTS
from rules.effects import Effect, load_effect
from rules.systems.strategic.actions.combat import Attack
from tests.rules.conftest import add, dice, start

RULES = Path(__file__).resolve().parents[2] / "rules" / "systems" / "strategic"
# The modules whose effects can land in the outcome of a combat or battlefield order.
COMBAT_MODULES = ("actions/combat.py", "actions/other.py", "actions/battlefield.py", "battlefield.py", "damage.py",
                  "hazards.py", "../../turns.py")
CANNON = {"name": "Cannon", "range": 30, "damage": "1d10+20", "type": "I"}
LASER = {"name": "Laser", "range": 30, "damage": "1d10", "type": "E"}


def embed_text(embed: discord.Embed) -> str:
    """Return every visible text of an embed."""
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def test_every_effect_the_combat_rules_record_has_its_own_sentence() -> None:
    names: set[str] = set()
    for name in COMBAT_MODULES:
        names |= set(re.findall(r"outcome\.add\(\s*(\w+)\(", (RULES / name).read_text(encoding="utf-8")))
    assert names, "no effects found: the rules changed how they record them"
    classes = {cls.__name__: cls for cls in [*strategic.EFFECTS.values(), *TURN_EFFECTS]}
    assert names <= set(classes), f"effects recorded but not declared: {sorted(names - set(classes))}"
    missing = sorted(n for n in names if classes[n] not in SENTENCES and classes[n] not in TURN_EFFECTS)
    assert not missing, f"effects without a sentence: {missing}"


def test_sentences_read_as_sentences() -> None:
    samples: list[Effect] = [
        strategic.Aiming(unit="Eva-01", mode="full", bonus=20),
        strategic.Ignited(cell="C3", rounds=1, cause="spread from C4"),
        strategic.StormsMoved(direction="NE", distance=3, before=["A1"], after=[], dropped=1),
        strategic.StatusEnded(unit="Pilot", status="bakelite"),
        strategic.FireOut(cell="D4", cause="storm"),
        strategic.Bakelite(unit="Pilot", penalty=6, total=21),
        strategic.Damage(unit="Eva-01", location="body", damage=7, dtype="I", personal_ap=0, cover_ap=0, cover_used=0,
                         cover_note="ignores armour", pen=0, armour=0, tb=0, wounds_lost=7, area=False, melee=False,
                         source="on fire", wounds_left=3),
    ]
    expected = [
        "🎯 Eva-01 takes aim (full action): +20 on its next attack",
        "🔥 C3 catches fire for 1 round (spread from C4)",
        "🌪 Storms move 3 squares NE; 1 storm square blow off the map",
        "Pilot is no longer held by Bakelite",
        "🌧 The storm puts out the fire on D4",
        "Pilot is caught in Bakelite: −6 WS and Agility (−21 in all) until it breaks free with a Strength test",
        "Eva-01 takes 7 damage from its flames, ignoring armour, and loses **7 wounds** → 3 left",
    ]
    assert [effect_sentence(e) for e in samples] == expected
    for e in samples:
        assert effect_sentence(e) != effect_line(e)


def test_a_stored_effect_missing_a_field_still_shows() -> None:
    old = load_effect({"type": "ignited", "cell": "C3"}, strategic.EFFECTS)  # saved before `rounds` was recorded
    assert effect_sentence(old) == effect_line(old) == "Ignited on C3"


def _p_battle() -> Battle:
    return Battle.new("strategic-p", 10, 10, "Wording")


def test_a_falling_bridge_plunges_the_horde_on_it() -> None:
    b = _p_battle()
    b.set_terrain(Cell.parse("C3"), "bridge")
    b.square(Cell.parse("C3")).update(underlying="shallows", bridge_wounds=15)
    add(b, "Gunner", "Red", "C1", bs=60, weapons=[CANNON])
    add(b, "Mob", "Blue", "C3", kind="horde", magnitude=10, t=30)
    start(b)
    out = b.apply(Attack(unit="Gunner", weapon="Cannon", target="bridge", at=Cell.parse("C3")), dice(5, 10, 2, 90))
    text = embed_text(combat_embed(out, b, battle_name="Wording"))
    for line in (
        "Gunner fires at the bridge on C3: hit",
        "🎲 `1d10+20`: [10] = **30**",
        "30 − 10 − 4 = **16** wounds → 31/20 taken",
        "💥 **The bridge falls**",
        "💥 The Bridge on C3 falls; the square is Shallows again",
        "🌊 Mob plunges into the water on C3",
        "Mob loses 2 Magnitude from the plunge → 8 left",
        "Mob is stunned for 1 round",
        "Mob resists the plunge",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"


def test_cover_from_a_feature_wears_down_between_hits() -> None:
    b = _p_battle()
    add(b, "Gunner", "Red", "A1", bs=60, weapons=[CANNON])
    add(b, "Target", "Blue", "A5", wounds=50)
    b.square(Cell.parse("A5")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    b.set_terrain(Cell.parse("A5"), "forest")
    start(b)
    out = b.apply(Attack(unit="Gunner", weapon="Cannon", target="Target"), dice(5, 10))
    text = embed_text(combat_embed(out, b, battle_name="Wording"))
    assert "+ cover **17** (Forest 2 and Barrier Walls 16: the higher +1)" in text
    assert "The Barrier Walls on A5 is worn down: Cover AP 16 → 15" in text


def test_ice_melts_under_an_energy_hit() -> None:
    b = _p_battle()
    b.set_terrain(Cell.parse("C5"), "ice")
    add(b, "Rei", "Red", "C1", bs=60, weapons=[LASER])
    add(b, "Angel", "Blue", "C5", wounds=20)
    start(b)
    out = b.apply(Attack(unit="Rei", weapon="Laser", target="Angel"), dice(5, 3, 40))
    text = embed_text(combat_embed(out, b, battle_name="Wording"))
    assert "Chance of ice melting on C5: d100 **40** against 50% → it happens" in text
    assert "The ice on C5 melts into Water" in text and "🌊 Angel plunges into the water on C5" in text
