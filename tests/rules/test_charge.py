"""A charge moves up to AB*1.5 and strikes in melee, in one order and one outcome, for one Full action."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.outcome import Outcome
from rules.systems.strategic.actions.charge import Charge
from rules.systems.strategic.details import ChargeDetails
from rules.turns import actions_left
from tests.rules.conftest import add, dice, start

KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}
RIFLE = {"name": "Rifle", "range": 100, "damage": "1d10", "type": "I"}


def _battle(ruleset: str, at: str = "A1", target_at: str = "F1", mode: str = "free") -> Battle:
    b = Battle.new(ruleset, 20, 15, "Charge")
    # AG 40: AB 4, so a Charge moves floor(4 * 1.5) = 6 squares.
    add(b, "Runner", "Red", at, ag=40, ws=50, wounds=12, weapons=[RIFLE, KNIFE])
    add(b, "Target", "Blue", target_at, ag=30, t=30, wounds=12)
    start(b, mode)
    return b


def test_e_charge_moves_onto_the_target_square_and_strikes_in_one_outcome() -> None:
    b = _battle("strategic-e")
    # 30 on the WS test (50) hits the body; 7 damage.
    out = b.apply(Charge(unit="Runner", target="Target"), dice(30, 7))
    runner = b.unit("Runner")
    assert runner.cell == Cell.parse("F1")  # E-Scale melee is on the same square
    assert out.kind == "charge"
    charge = out.details_as(ChargeDetails)
    assert charge is not None and charge.struck and charge.attack is not None
    assert charge.move.path[0] == "A1" and charge.move.path[-1] == "F1"
    assert charge.attack.weapon == "Knife"
    # Stored as its move and its attack, and read back the same.
    stored = out.to_dict()["data"]
    assert stored["move"]["path"][0] == "A1" and stored["attack"]["weapon"] == "Knife" and stored["struck"] is True
    back = Outcome.from_dict(out.to_dict(), b.system.effect_kinds, b.system.test_kinds, b.system.detail_kinds)
    assert back.details == charge
    assert len(out.tests) == 1 and out.tests[0].success
    assert [e.kind for e in out.effects][:2] == ["moved", "engaged"]
    assert b.unit("Target").wounds < 12


def test_p_charge_stops_next_to_an_enemy_character() -> None:
    b = _battle("strategic-p", "A1", "F1")
    b.apply(Charge(unit="Runner", target="Target", weapon="knife"), dice(90))
    assert b.unit("Runner").cell == Cell.parse("E1")  # enemy ICs block their square; melee reaches 1


def test_a_charge_is_one_full_action() -> None:
    b = _battle("strategic-e", mode="side")
    runner = b.unit("Runner")
    assert actions_left(b, runner.id) == 2
    b.apply(Charge(unit="Runner", target="Target"), dice(90))
    assert actions_left(b, runner.id) == 0


@pytest.mark.parametrize(("order", "why"), [
    (Charge(unit="Runner", target="Target", weapon="Rifle"), "Rifle is a ranged weapon"),
    (Charge(unit="Runner", target="Far"), "a Charge moves it at most 6"),
    (Charge(unit="Runner", target="Target", to=Cell.parse("B1")), "From B1, Target on F1 is out of reach"),
    (Charge(unit="Runner", target="Runner"), "cannot charge itself"),
])
def test_bad_charges_are_refused_and_change_nothing(order: object, why: str) -> None:
    b = _battle("strategic-e")
    add(b, "Far", "Blue", "T15", ag=30, wounds=12)
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match=why):
        b.apply(order, dice(30, 7))  # type: ignore[arg-type]
    assert b.to_dict() == before


def test_a_unit_without_a_melee_weapon_is_told_to_move_and_attack() -> None:
    b = Battle.new("strategic-e", 20, 15, "Unarmed")
    add(b, "Gunner", "Red", "A1", ag=40, weapons=[RIFLE])
    add(b, "Target", "Blue", "C1", ag=30)
    start(b)
    with pytest.raises(IllegalOrderError, match="no melee weapon"):
        b.apply(Charge(unit="Gunner", target="Target"), dice())


def test_charges_are_legal_orders_and_charge_moves_are_not() -> None:
    b = _battle("strategic-e")
    orders = list(b.legal_orders(b.unit("Runner")))
    charges = [o for o in orders if isinstance(o, Charge)]
    assert [(o.target, o.weapon) for o in charges] == [("Target", "Knife")]
    assert not [o for o in orders if isinstance(o, Move) and o.mode == "charge"]


def test_a_charge_move_from_an_older_log_still_replays_as_a_move() -> None:
    """Logs written before a charge carried its attack hold `move ... mode:charge`: it replays as the move it was."""
    b = _battle("strategic-e")
    out = b.apply(Move(unit="Runner", to=Cell.parse("C1"), mode="charge"), dice(30, 7))
    assert b.unit("Runner").cell == Cell.parse("C1") and out.kind == "move"
    assert not [o for o in b.legal_orders(b.unit("Runner")) if isinstance(o, Move) and o.mode == "charge"]
