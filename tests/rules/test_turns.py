"""Turns: initiative, side and free modes, action budgets, end/hold/skip, standing orders, undo."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import (
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    NotFoundError,
    NotYourTurnError,
    RulesetError,
)
from rules.orders import AddUnit, EditUnit, Move, Order, RemoveUnit, Roll, SkillTest, Start
from rules.outcome import Outcome
from rules.systems.strategic import SYSTEM as STRATEGIC
from rules.systems.strategic.effects import StormsMoved
from rules.turnorders import (
    CloseRound,
    EndTurn,
    Hold,
    SetTurnMode,
    SkipTurn,
    StandingOrder,
    StandingTurn,
    apply_standing_order,
)
from tests.rules.conftest import add, dice


def begin(battle: Battle, *faces: int, mode: str = "initiative") -> Outcome:
    """Start a battle in a turn mode with scripted initiative dice and return the start outcome."""
    if battle.turn.mode != mode:
        battle.apply(SetTurnMode(mode=mode), dice())
    d = dice(*faces)
    out = battle.apply(Start(), d)
    # Until the start order sets up round 1 itself, set it up here with the same dice.
    if not turns.engaged(battle):
        turns.begin_battle(battle, d, out)
    return out


def types(out: Outcome) -> list[str]:
    """Return the effect types of an outcome in order."""
    return [e.kind for e in out.effects]


def effect(out: Outcome, kind: str) -> Any:
    """Return the first effect of a kind (typed: its fields are attributes)."""
    return next(e for e in out.effects if e.kind == kind)


@pytest.fixture
def three(battle_e: Battle) -> Battle:
    """Return a battle in setup: Asuka (AB 6) and Eva-01 (AB 4) for NERV, MP-Eva (AB 3) for SEELE."""
    add(battle_e, "Asuka", "NERV", "A1", ag=62)
    add(battle_e, "Eva-01", "NERV", "A5", ag=45)
    add(battle_e, "MP-Eva", "SEELE", "T15", ag=30)
    return battle_e


@pytest.fixture
def initiative(three: Battle) -> Battle:
    """Return the three-unit battle in round 1: Asuka 14, MP-Eva 12, Eva-01 9."""
    begin(three, 8, 5, 9)
    return three


# --- initiative mode ----------------------------------------------------------


def test_initiative_is_d10_plus_ab_highest_first_with_every_roll_recorded(three: Battle) -> None:
    out = begin(three, 8, 5, 9)
    records = three.turn.initiative
    assert [(r.unit, r.total, r.faces, r.bonus) for r in records] == [
        ("Asuka", 14, [8], 6), ("MP-Eva", 12, [9], 3), ("Eva-01", 9, [5], 4),
    ]
    assert [r.to_dict() for r in out.turn.initiative] == [r.to_dict() for r in records]
    assert effect(out, "round_started").to_dict() == {
        "type": "round_started", "round": 1, "mode": "initiative", "order": ["Asuka", "MP-Eva", "Eva-01"],
    }
    assert effect(out, "turn_passed").to == "Asuka"
    assert out.turn.next_due == ["Asuka"]
    status = turns.turn_status(three)
    assert status["current"] == "Asuka" and status["round"] == 1 and status["mode"] == "initiative"
    assert status["still_due"] == ["Asuka", "MP-Eva", "Eva-01"]
    assert [(u["unit"], u["state"], u["actions_left"], u["initiative"]) for u in status["units"]] == [
        ("Asuka", "acting", 2, 14), ("MP-Eva", "waiting", 2, 12), ("Eva-01", "waiting", 2, 9),
    ]


def test_initiative_ties_go_to_agility_then_a_roll_off(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A5", ag=45)
    add(battle_e, "Asuka", "NERV", "A1", ag=62)
    add(battle_e, "Rei", "NERV", "A9", ag=45)
    add(battle_e, "Mari", "NERV", "A12", ag=45)
    # Totals all 10. Asuka wins on Agility; Eva-01, Rei and Mari roll off: Mari 9 first, then
    # Eva-01 and Rei tie again on 5 and roll off once more: Rei 7 beats Eva-01 2.
    begin(battle_e, 6, 4, 6, 6, 5, 5, 9, 2, 7)
    records = battle_e.turn.initiative
    assert [r.unit for r in records] == ["Asuka", "Mari", "Rei", "Eva-01"]
    assert {r.unit: r.rolloff for r in records} == {"Asuka": [], "Mari": [9], "Rei": [5, 7], "Eva-01": [5, 2]}
    assert all(r.total == 10 for r in records)


def test_acting_out_of_turn_is_refused_and_changes_nothing(initiative: Battle) -> None:
    before = initiative.to_dict()
    with pytest.raises(
        NotYourTurnError,
        match=r"^It is Asuka's turn \(initiative 14\); Eva-01 acts after Asuka and MP-Eva, at initiative 9\.$",
    ):
        initiative.apply(Move(unit="Eva-01", to=Cell.parse("A6"), mode="half"), dice())
    with pytest.raises(NotYourTurnError, match=r"MP-Eva acts next, at initiative 12"):
        initiative.apply(SkillTest(unit="mp-eva", stat="ag"), dice(10))
    assert initiative.to_dict() == before
    assert not initiative.is_legal(Move(unit="Eva-01", to=Cell.parse("A6"), mode="half"))
    assert initiative.is_legal(Move(unit="Asuka", to=Cell.parse("A2"), mode="half"))


def test_orders_without_a_unit_and_setup_orders_are_never_blocked(initiative: Battle) -> None:
    out = initiative.apply(Roll(dice="1d6"), dice(4))
    assert out.details.total == 4
    initiative.apply(EditUnit(unit="Eva-01", stats={"wounds": 12}), dice())
    assert initiative.unit("Eva-01").wounds == 12


def test_nothing_is_blocked_in_setup(three: Battle) -> None:
    for _ in range(3):
        three.apply(SkillTest(unit="Eva-01", stat="ag"), dice(10))
    assert turns.actions_left(three, "Eva-01") == 2
    assert turns.names_of(three, turns.next_due(three)) == []
    assert turns.turn_status(three)["units"][0]["state"] == "setup"


def test_half_and_full_actions_spend_the_budget_and_an_empty_budget_refuses(initiative: Battle) -> None:
    out = initiative.apply(Move(unit="Asuka", to=Cell.parse("A3"), mode="half"), dice())
    assert out.turn.actions_left == 1 and out.turn.action_cost == 1 and out.turn.action == "half"
    assert turns.actions_left(initiative, "asuka") == 1
    before = initiative.to_dict()
    with pytest.raises(NotYourTurnError, match=r"Asuka has 1 action left this turn, but `move` here is a Full action \(2\)"):
        initiative.apply(Move(unit="Asuka", to=Cell.parse("A6"), mode="full"), dice())
    assert initiative.to_dict() == before
    out = initiative.apply(SkillTest(unit="Asuka", stat="ag"), dice(10))
    assert out.turn.actions_left == 0
    with pytest.raises(NotYourTurnError, match=r"^Asuka has no actions left this turn; end its turn with /turn end\.$"):
        initiative.apply(Move(unit="Asuka", to=Cell.parse("A4"), mode="half"), dice())


def test_a_full_action_takes_the_whole_budget(initiative: Battle) -> None:
    out = initiative.apply(Move(unit="Asuka", to=Cell.parse("A7"), mode="full"), dice())
    assert out.turn.action_cost == 2 and out.turn.actions_left == 0


def test_a_failed_order_spends_nothing(initiative: Battle) -> None:
    with pytest.raises(IllegalOrderError, match="off the map"):
        initiative.apply(Move(unit="Asuka", to=Cell.parse("A99"), mode="half"), dice())
    assert turns.actions_left(initiative, "Asuka") == 2


def test_end_turn_passes_to_the_next_and_the_round_ends_after_the_last(initiative: Battle) -> None:
    out = initiative.apply(EndTurn(), dice())
    assert effect(out, "turn_ended").to_dict() == {"type": "turn_ended", "unit": "Asuka", "unused": 2}
    assert effect(out, "turn_passed").to_dict() == {
        "type": "turn_passed", "to": "MP-Eva", "initiative": 12, "round": 1, "frm": "Asuka",
    }
    assert out.turn.next_due == ["MP-Eva"]
    with pytest.raises(NotYourTurnError, match=r"^Asuka has ended its turn this round; it acts again in round 2\.$"):
        initiative.apply(Move(unit="Asuka", to=Cell.parse("A2"), mode="half"), dice())
    with pytest.raises(NotYourTurnError, match="It is MP-Eva's turn"):
        initiative.apply(EndTurn(unit="Eva-01"), dice())
    initiative.apply(EndTurn(unit="MP-Eva"), dice())
    # Eva-01 ends the round; round 2's initiative: Asuka 1+6=7, Eva-01 10+4=14, MP-Eva 2+3=5.
    out = initiative.apply(EndTurn(unit="Eva-01"), dice(1, 10, 2))
    assert types(out) == ["turn_ended", "round_started", "turn_passed"]
    assert initiative.round == 2
    assert [r.unit for r in initiative.turn.initiative] == ["Eva-01", "Asuka", "MP-Eva"]
    assert [r.purpose for r in out.rolls] == ["Initiative: Asuka", "Initiative: Eva-01", "Initiative: MP-Eva"]
    assert out.turn.next_due == ["Eva-01"] and out.turn.round == 2
    assert turns.actions_left(initiative, "Asuka") == 2
    # Round 3 after everyone holds or ends.
    initiative.apply(Hold(unit="Eva-01"), dice())
    initiative.apply(EndTurn(), dice())
    out = initiative.apply(EndTurn(), dice(3, 3, 3))
    assert initiative.round == 3 and effect(out, "round_started").round == 3
    assert turns.name_of(initiative, turns.current_unit(initiative) or "") == "Asuka"


def test_hold_spends_the_turn_and_is_recorded(initiative: Battle) -> None:
    initiative.apply(Move(unit="Asuka", to=Cell.parse("A2"), mode="half"), dice())
    out = initiative.apply(Hold(unit="Asuka"), dice())
    assert effect(out, "held").to_dict() == {"type": "held", "unit": "Asuka", "unused": 1}
    assert {turns.name_of(initiative, k): v for k, v in initiative.turn.done.items()} == {"Asuka": "held"}
    with pytest.raises(NotYourTurnError, match="Asuka is holding this round"):
        initiative.apply(SkillTest(unit="Asuka", stat="ag"), dice(5))


def test_end_turn_of_an_unknown_unit(initiative: Battle) -> None:
    with pytest.raises(NotFoundError, match="no unit `Eva-09`"):
        initiative.apply(EndTurn(unit="Eva-09"), dice())


# --- side mode ------------------------------------------------------------------


@pytest.fixture
def sides(three: Battle) -> Battle:
    """Return the three-unit battle in side mode, round 1."""
    begin(three, mode="side")
    return three


def test_side_phases_alternate_in_the_order_sides_were_created(sides: Battle) -> None:
    assert turns.current_side(sides) == "NERV"
    assert turns.names_of(sides, turns.next_due(sides)) == ["Asuka", "Eva-01"]
    before = sides.to_dict()
    with pytest.raises(NotYourTurnError, match=r"^It is the NERV phase; SEELE units act next phase\.$"):
        sides.apply(Move(unit="MP-Eva", to=Cell.parse("T14"), mode="half"), dice())
    assert sides.to_dict() == before
    # Within the phase, units act in any order.
    sides.apply(Move(unit="Eva-01", to=Cell.parse("A6"), mode="half"), dice())
    sides.apply(Move(unit="Asuka", to=Cell.parse("A2"), mode="half"), dice())
    with pytest.raises(InvalidOrderError, match="Say which unit should end its turn: Asuka, Eva-01"):
        sides.apply(EndTurn(), dice())
    out = sides.apply(EndTurn(unit="Asuka"), dice())
    assert out.turn.next_due == ["Eva-01"] and "phase_changed" not in types(out)
    out = sides.apply(EndTurn(unit="Eva-01"), dice())
    assert effect(out, "phase_changed").to_dict() == {"type": "phase_changed", "side": "SEELE", "round": 1, "frm": "NERV"}
    assert out.turn.next_due == ["MP-Eva"]
    with pytest.raises(NotYourTurnError, match="Asuka has ended its turn this round; it acts again in round 2"):
        sides.apply(Move(unit="Asuka", to=Cell.parse("A3"), mode="half"), dice())
    out = sides.apply(EndTurn(), dice())
    assert sides.round == 2 and types(out) == ["turn_ended", "round_started", "phase_changed"]
    assert effect(out, "phase_changed").side == "NERV" and out.turn.next_due == ["Asuka", "Eva-01"]
    assert out.rolls == [] and sides.turn.initiative == []


def test_units_out_of_the_fight_are_not_due_and_their_phase_passes(sides: Battle) -> None:
    sides.unit("Asuka").wounds = 0
    assert turns.names_of(sides, turns.next_due(sides)) == ["Eva-01"]
    assert sorted(turns.names_of(sides, turns.still_due(sides))) == ["Eva-01", "MP-Eva"]
    assert turns.actions_left(sides, "Asuka") == 0
    sides.unit("Eva-01").wounds = 0
    assert turns.current_side(sides) == "SEELE"
    assert turns.names_of(sides, turns.next_due(sides)) == ["MP-Eva"]
    assert turns.names_of(sides, turns.participants(sides)) == ["MP-Eva"]
    assert turns.actions_left(sides, "Eva-01") == 0 and turns.actions_left(sides, "MP-Eva") > 0


def test_a_later_phase_is_named(sides: Battle) -> None:
    add(sides, "Lilin-1", "Lilin", "J8")
    sides.apply(CloseRound(), dice())
    with pytest.raises(NotYourTurnError, match=r"It is the NERV phase; Lilin units act in a later phase, after SEELE\."):
        sides.apply(SkillTest(unit="Lilin-1", stat="ag"), dice(5))


def test_gm_skip_ends_the_whole_phase(sides: Battle) -> None:
    out = sides.apply(SkipTurn(), dice())
    assert effect(out, "turn_skipped").to_dict() == {"type": "turn_skipped", "units": ["Asuka", "Eva-01"], "side": "NERV"}
    assert turns.current_side(sides) == "SEELE"
    assert {turns.name_of(sides, k): v for k, v in sides.turn.done.items()} == {"Asuka": "skipped", "Eva-01": "skipped"}


# --- free mode ---------------------------------------------------------------------


def test_free_mode_lets_anyone_act_until_the_gm_closes_the_round(three: Battle) -> None:
    out = begin(three, mode="free")
    assert out.turn.next_due == ["Asuka", "Eva-01", "MP-Eva"]
    three.apply(Move(unit="MP-Eva", to=Cell.parse("T14"), mode="half"), dice())
    three.apply(Move(unit="Eva-01", to=Cell.parse("A6"), mode="full"), dice())
    with pytest.raises(NotYourTurnError, match="Eva-01 has no actions left"):
        three.apply(SkillTest(unit="Eva-01", stat="ag"), dice(5))
    three.apply(EndTurn(unit="Eva-01"), dice())
    out = three.apply(CloseRound(), dice())
    assert effect(out, "round_closed").to_dict() == {"type": "round_closed", "round": 1, "skipped": ["Asuka", "MP-Eva"]}
    assert three.round == 2 and out.turn.next_due == ["Asuka", "Eva-01", "MP-Eva"]
    assert turns.actions_left(three, "Eva-01") == 2
    # When every unit has ended its turn, the round ends at once.
    three.apply(EndTurn(unit="Asuka"), dice())
    three.apply(Hold(unit="MP-Eva"), dice())
    out = three.apply(EndTurn(), dice())
    assert three.round == 3 and "round_started" in types(out)


# --- the GM ------------------------------------------------------------------------


def test_gm_skips_the_current_unit_or_a_named_one(initiative: Battle) -> None:
    out = initiative.apply(SkipTurn(), dice())
    assert list(effect(out, "turn_skipped").units) == ["Asuka"] and out.turn.next_due == ["MP-Eva"]
    initiative.apply(SkipTurn(unit="Eva-01"), dice())
    assert turns.names_of(initiative, turns.next_due(initiative)) == ["MP-Eva"]
    with pytest.raises(IllegalOrderError, match="Eva-01 had its turn skipped this round"):
        initiative.apply(SkipTurn(unit="Eva-01"), dice())
    out = initiative.apply(EndTurn(), dice(1, 1, 1))
    assert initiative.round == 2


def test_close_round_works_in_any_mode(initiative: Battle) -> None:
    out = initiative.apply(CloseRound(), dice(2, 2, 2))
    assert initiative.round == 2 and list(effect(out, "round_closed").skipped) == ["Asuka", "MP-Eva", "Eva-01"]
    # Initiative ties: 2+6=8, 2+4=6, 2+3=5; no roll-off is needed.
    assert turns.name_of(initiative, turns.current_unit(initiative) or "") == "Asuka"


def test_switching_mode_mid_round_keeps_what_units_did(initiative: Battle) -> None:
    initiative.apply(EndTurn(), dice())
    out = initiative.apply(SetTurnMode(mode="side"), dice())
    assert effect(out, "turn_mode_set").to_dict() == {"type": "turn_mode_set", "mode": "side", "frm": "initiative"}
    assert effect(out, "phase_changed").side == "NERV" and out.turn.next_due == ["Eva-01"]
    out = initiative.apply(SetTurnMode(mode="initiative"), dice(1, 2, 1))
    # Rolled again for everyone; Asuka has still had her turn.
    assert [r.unit for r in initiative.turn.initiative] == ["Asuka", "Eva-01", "MP-Eva"]
    assert out.turn.next_due == ["Eva-01"]
    with pytest.raises(IllegalOrderError, match="already initiative"):
        initiative.apply(SetTurnMode(mode="initiative"), dice())
    with pytest.raises(InvalidOrderError, match="use initiative, side or free"):
        initiative.apply(SetTurnMode(mode="chaos"), dice())


def test_turn_orders_need_a_running_battle(three: Battle) -> None:
    with pytest.raises(IllegalOrderError, match="not started yet"):
        three.apply(EndTurn(unit="Asuka"), dice())
    with pytest.raises(IllegalOrderError, match="not started yet"):
        three.apply(CloseRound(), dice())


# --- units that leave or join ----------------------------------------------------------


def test_removed_and_destroyed_units_drop_out(initiative: Battle) -> None:
    out = initiative.apply(RemoveUnit(unit="Asuka"), dice())
    assert effect(out, "turn_passed").to == "MP-Eva" and out.turn.next_due == ["MP-Eva"]
    initiative.apply(EditUnit(unit="MP-Eva", stats={"wounds": 0}), dice())
    assert turns.names_of(initiative, turns.next_due(initiative)) == ["Eva-01"]
    with pytest.raises(NotYourTurnError, match="MP-Eva is out of the fight"):
        initiative.apply(SkillTest(unit="MP-Eva", stat="ag"), dice(5))
    out = initiative.apply(EndTurn(), dice(4))
    assert initiative.round == 2 and turns.names_of(initiative, turns.participants(initiative)) == ["Eva-01"]
    assert turns.turn_status(initiative)["units"][-1]["state"] == "out"


def test_a_unit_added_mid_battle_joins_at_the_next_round(initiative: Battle) -> None:
    add(initiative, "Rei", "NERV", "C3", ag=45)
    with pytest.raises(NotYourTurnError, match=r"^Rei joined the battle during round 1; its first turn is in round 2\.$"):
        initiative.apply(SkillTest(unit="Rei", stat="ag"), dice(5))
    assert turns.turn_status(initiative)["units"][-1]["state"] == "next_round"
    initiative.apply(CloseRound(), dice(1, 1, 1, 9))
    assert turns.name_of(initiative, turns.current_unit(initiative) or "") == "Rei"


def test_round_start_effects_run_after_the_round_is_set_up(initiative: Battle, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, list[str]]] = []

    def storm(battle: Battle, d: Dice, out: Outcome) -> None:
        seen.append((battle.round, list(battle.turn.units)))
        battle.unit("Asuka").wounds = 0  # a fire or storm can take a unit out before it acts
        out.add(StormsMoved(direction="north", distance=1, before=[], after=[]))

    monkeypatch.setattr(initiative.system, "round_start", [storm])
    out = initiative.apply(CloseRound(), dice(9, 1, 1))
    assert [(r, turns.names_of(initiative, ids)) for r, ids in seen] == [(2, ["Asuka", "Eva-01", "MP-Eva"])]
    assert types(out) == ["round_closed", "round_started", "storms_moved", "turn_passed"]
    assert out.turn.next_due == ["Eva-01"]


def test_a_round_moved_on_by_another_order_gets_its_turns_set_up(initiative: Battle) -> None:
    initiative.apply(EndTurn(), dice())
    initiative.round += 1  # as a GM order that advances the round itself would
    out = Outcome(order="next-round", kind="next-round")
    turns.settle(initiative, dice(1, 1, 1), out)
    assert types(out) == ["round_started", "turn_passed"] and out.turn.round == 2
    assert {turns.name_of(initiative, k): v for k, v in initiative.turn.done.items()} == {} and initiative.turn.round == 2
    assert turns.actions_left(initiative, "Asuka") == 2


def test_a_stunned_unit_loses_its_turn(initiative: Battle) -> None:
    initiative.apply(EditUnit(unit="MP-Eva", stats={"statuses": ["stunned"]}), dice())
    out = initiative.apply(EndTurn(), dice())
    assert effect(out, "turn_lost").to_dict() == {"type": "turn_lost", "unit": "MP-Eva", "reason": "stunned"}
    assert out.turn.next_due == ["Eva-01"]
    assert turns.actions_left(initiative, "MP-Eva") == 0


# --- standing orders ---------------------------------------------------------------


def test_a_refused_standing_order_lists_only_what_a_player_may_give(initiative: Battle) -> None:
    # A standing order is one of the unit's own orders (`owner` authority), never a GM, side or turn order.
    with pytest.raises(InvalidOrderError) as refused:
        initiative.apply(StandingOrder(unit="Eva-01", text="fly to:A8"), dice())
    listed = refused.value.message.split("can give on its turn: ")[1].split(" (like")[0].split(", ")
    assert "move" in listed
    assert not {"add-unit", "gm-place", "set-fp", "trigger-trap", "end-turn", "standing-turn", "roll"} & set(listed)
    assert all(initiative.system.orders[kind].authority == "owner" for kind in listed)


def test_standing_orders_are_checked_when_given(initiative: Battle) -> None:
    out = initiative.apply(StandingOrder(unit="Eva-01", text="move to:A8 mode:half"), dice())
    assert turns.standing_order_of(initiative, "eva-01") == "move unit:Eva-01 to:A8 mode:half"
    assert out.turn.standing_order == "move unit:Eva-01 to:A8 mode:half"
    initiative.apply(StandingOrder(unit="Eva-01", text="HOLD"), dice())
    assert turns.standing_order_of(initiative, "Eva-01") == "hold"
    for text, fragment in [
        ("fly to:A8", "not an order"),
        ("move unit:Asuka to:A2", "one of its own orders"),
        ("roll dice:1d6", "cannot be a standing order"),
        ("move to:A8 speed:2", "not an option of `move`"),
        ("end-turn", "cannot be a standing order"),
        ("move to:A8 'mode:half", "Cannot read"),
    ]:
        with pytest.raises(InvalidOrderError, match=fragment):
            initiative.apply(StandingOrder(unit="Eva-01", text=text), dice())
    initiative.apply(StandingOrder(unit="Eva-01", text="none"), dice())
    assert turns.standing_order_of(initiative, "Eva-01") is None


def test_standing_order_is_followed_when_the_deadline_passes(initiative: Battle) -> None:
    initiative.apply(StandingOrder(unit="Asuka", text="test stat:ag reason:'keep watch'"), dice())
    before = initiative.to_dict()
    out = apply_standing_order(initiative, "Asuka", dice(20))
    assert out.tests[0].roll == 20 and [r.faces for r in out.rolls] == [(20,)]
    assert out.turn.fallback is None
    assert types(out)[-2:] == ["standing_order_followed", "turn_passed"]
    assert {turns.name_of(initiative, k): v for k, v in initiative.turn.done.items()} == {"Asuka": "standing"} and out.turn.next_due == ["MP-Eva"]
    # One undo takes back the order and the end of the turn together.
    initiative.undo()
    assert initiative.to_dict() == before


def test_an_illegal_standing_order_falls_back_to_hold_and_says_why(initiative: Battle) -> None:
    initiative.apply(StandingOrder(unit="Asuka", text="move to:T1 mode:half"), dice())
    out = apply_standing_order(initiative, "Asuka", dice())
    assert "squares from Asuka" in out.turn.fallback
    assert effect(out, "held").reason == "fallback"
    assert initiative.unit("Asuka").cell == Cell.parse("A1")
    assert {turns.name_of(initiative, k): v for k, v in initiative.turn.done.items()} == {"Asuka": "held"}


def test_no_standing_order_means_hold(initiative: Battle) -> None:
    out = apply_standing_order(initiative, "Asuka", dice())
    assert effect(out, "held").reason == "no_standing_order" and out.turn.fallback is None
    with pytest.raises(NotYourTurnError, match="It is MP-Eva's turn"):
        apply_standing_order(initiative, "Eva-01", dice())


# --- undo and text forms ------------------------------------------------------------


def test_undo_of_a_round_change_restores_the_exact_state(initiative: Battle) -> None:
    initiative.apply(EndTurn(), dice())
    initiative.apply(EndTurn(), dice())
    before = initiative.to_dict()
    initiative.apply(EndTurn(), dice(3, 4, 5))
    assert initiative.round == 2
    initiative.undo()
    assert initiative.to_dict() == before and initiative.round == 1


@pytest.mark.parametrize(
    "order",
    [EndTurn(), EndTurn(unit="Eva 01"), Hold(unit="Asuka"), SkipTurn(), SkipTurn(unit="MP-Eva"), CloseRound(),
     SetTurnMode(mode="side"), StandingTurn(unit="Eva-01"),
     StandingOrder(unit="Eva-01", text="attack weapon:'Pallet Rifle' target:\"it's G7\"")],
)
def test_turn_orders_round_trip(order: Order) -> None:
    assert Order.parse(str(order)) == order


# --- the ruleset's [turns] table -------------------------------------------------------


@dataclass(frozen=True)
class _Aim(Order):
    """An aim order as a test stand-in (not registered, so the real one is untouched)."""

    kind: ClassVar[str] = "aim"
    unit: str
    mode: str = ""


@dataclass(frozen=True)
class _Dance(Order):
    """An order kind the ruleset does not list."""

    kind: ClassVar[str] = "dance"
    unit: str


def test_costs_come_from_the_ruleset() -> None:
    rules = turns.turn_rules("strategic-p")
    assert rules.budget == 2 and rules.mode in turns.MODES and rules.initiative == "1d10+AB"
    assert rules.cost(Move(unit="x", to=Cell(0, 0), mode="half")).points == 1
    assert rules.cost(Move(unit="x", to=Cell(0, 0), mode="run")).points == 2
    assert rules.cost(Move(unit="x", to=Cell(0, 0))).action == "full"
    assert rules.cost(_Aim(unit="x")).points == 1 and rules.cost(_Aim(unit="x", mode="full")).points == 2
    assert rules.cost(Roll(dice="1d6")).points == 0
    assert rules.cost(SkillTest(unit="x", stat="ag")).points == 1
    assert rules.cost(_Dance(unit="x")) == turns.Cost("half", 1)
    assert "trigger-trap" in rules.reactions


@pytest.mark.parametrize(
    ("table", "fragment"),
    [({"turn_mode": "chaos"}, "turn_mode"), ({"initiative": "1d10+XB"}, "not a characteristic bonus"),
     ({"initiative": "banana"}, "not dice notation"), ({"budget": 0}, "budget"),
     ({"action_costs": {"move": "quarter"}}, "action types"), ({"action_costs": {"aim": {"mode": "half"}}}, "`by`"),
     ({"actions": {"half": -1}}, "0 or more"), ({"reactions": "trigger-trap"}, "list")],
)
def test_bad_turn_tables_are_refused(table: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RulesetError, match=fragment):
        turns.parse_turn_rules({"turns": table}, "test.toml", STRATEGIC.initiative_tokens)


def test_initiative_formula_may_use_other_bonuses(battle_e: Battle) -> None:
    add(battle_e, "Toji", "NERV", "A1", ag=45, per=38)
    assert turns.initiative_notation("1d10+AB+PerB", battle_e.unit("Toji")) == "1d10+4+3"


# --- properties ----------------------------------------------------------------------------


_ACTIONS = st.one_of(
    st.tuples(st.just("end"), st.sampled_from(["", "A", "B", "C", "D", "Gone"])),
    st.tuples(st.just("hold"), st.sampled_from(["A", "B", "C", "D"])),
    st.tuples(st.just("skip"), st.sampled_from(["", "A", "C", "D"])),
    st.tuples(st.just("close"), st.just("")),
    st.tuples(st.just("mode"), st.sampled_from(list(turns.MODES))),
    st.tuples(st.just("remove"), st.sampled_from(["A", "B", "C", "D"])),
    st.tuples(st.just("destroy"), st.sampled_from(["A", "B", "C", "D"])),
    st.tuples(st.just("add"), st.sampled_from(["A", "B", "C", "D"])),
)


def _order_for(action: str, arg: str) -> Order:
    if action == "end":
        return EndTurn(unit=arg)
    if action == "hold":
        return Hold(unit=arg)
    if action == "skip":
        return SkipTurn(unit=arg)
    if action == "close":
        return CloseRound()
    if action == "mode":
        return SetTurnMode(mode=arg)
    if action == "remove":
        return RemoveUnit(unit=arg)
    if action == "destroy":
        return EditUnit(unit=arg, stats={"wounds": 0})
    return AddUnit(name=arg, side="red" if arg in "AC" else "blue", at=Cell("ABCD".index(arg), 0))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(turns.MODES)), st.lists(_ACTIONS, max_size=30), st.integers(0, 2**16))
def test_turn_sequences_never_leave_a_missing_unit_due_or_go_back_a_round(
    mode: str, actions: list[tuple[str, str]], seed: int
) -> None:
    b = Battle.new("strategic-e", 10, 10)
    for name, side, at in (("A", "red", "A1"), ("B", "blue", "B1"), ("C", "red", "C1")):
        add(b, name, side, at, ag=30 + 5 * len(b.units))
    begin(b, mode=mode)
    last_round = b.round
    for step, (action, arg) in enumerate(actions):
        before = b.to_dict()
        try:
            b.apply(_order_for(action, arg), Dice.seeded(seed + step))
        except GameError:
            assert b.to_dict() == before
        due = turns.names_of(b, turns.still_due(b))
        assert all(b.find_unit(n) is not None and b.unit(n).alive for n in due)
        assert set(turns.names_of(b, turns.next_due(b))) <= set(due)
        assert b.round >= last_round
        last_round = b.round
        status = turns.turn_status(b)
        assert all(u["actions_left"] == turns.actions_left(b, u["unit"]) for u in status["units"])
        # Play never stalls: while any unit is in the fight, someone is due.
        if any(u.alive for u in b.iter_units()):
            assert turns.names_of(b, turns.next_due(b))
