"""A ranged weapon's target on the attacker's own square (after a charge) is offered like any target in range."""

from __future__ import annotations

from rules.battle import Battle
from rules.coords import Cell
from rules.systems.strategic.actions.combat import Attack
from tests.rules.conftest import add, dice, start

KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}
RIFLE = {"name": "Rifle", "range": 100, "damage": "1d10", "type": "I"}


def test_an_enemy_on_the_attackers_square_is_a_legal_ranged_target() -> None:
    """"Point Blank is considered to be 0-1km range, so either same square or adjacent square." (001:L32)

    The legal orders (the Attack buttons) offer what the attack rules accept: the attacker's square is in range.
    """
    b = Battle.new("strategic-e", 20, 15, "Point blank")
    add(b, "Runner", "Red", "F1", ag=40, ws=50, bs=50, wounds=12, weapons=[RIFLE, KNIFE])
    add(b, "Target", "Blue", "F1", ag=30, t=30, wounds=40)
    add(b, "Far", "Blue", "F9", ag=30, t=30, wounds=40)
    start(b, "free")
    assert b.unit("Runner").cell == b.unit("Target").cell == Cell.parse("F1")
    offered = {(o.weapon, o.target) for o in b.legal_orders(b.unit("Runner")) if isinstance(o, Attack)}
    assert {("Rifle", "Target"), ("Rifle", "Far"), ("Knife", "Target")} <= offered
    shot = b.apply(Attack(unit="Runner", weapon="Rifle", target="Target"), dice(10, 5, 5, 5))
    assert shot.kind == "attack"
