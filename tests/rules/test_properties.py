"""Properties over random legal play: the board stays sound, the log replays to the state, undo restores exactly."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import AddUnit, EditUnit, Order, Paint, RemoveUnit, Roll, SetRule, SkillTest
from rules.replay import Step, replay, same_state
from rules.systems.strategic.actions.battlefield import Freeze, NextRound
from tests.rules.conftest import add, start

RIFLE = {"name": "Rifle", "range": 60, "damage": "1d10+2", "type": "E"}
BLAST = {"name": "Grenade", "range": 40, "damage": "1d10", "type": "X", "blast": 2}
KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}
W, H = 8, 8


def _battle(ruleset: str, terrain_seed: int) -> Battle:
    b = Battle.new(ruleset, W, H)
    keys = sorted(b.ruleset.terrain)
    rng = random.Random(terrain_seed)
    for y in range(H):
        for x in range(W):
            b.set_terrain(Cell(x, y), rng.choice(keys))
    gear = [RIFLE, BLAST, KNIFE]
    add(b, "Ace", "Red", "A1", ag=45, bs=50, ws=50, s=40, t=30, wounds=14, weapons=gear)
    add(b, "Mob", "Red", "B1", kind="horde", magnitude=20, ag=30, bs=30, ws=30, t=30, weapons=gear)
    add(b, "Foe", "Blue", "H8", ag=40, bs=45, ws=45, s=40, t=30, wounds=14, weapons=gear)
    add(b, "Swarm", "Blue", "G8", kind="horde", magnitude=20, ag=30, bs=30, ws=30, t=30, weapons=gear)
    start(b)
    return b


def _check_sound(b: Battle) -> None:
    hordes: set[Cell] = set()
    for unit in b.iter_units():
        assert b.on_map(unit.cell), f"{unit.name} is off the map on {unit.cell}"
        if not hasattr(unit, "magnitude"):
            continue  # a Combat Action model: its state is a table result, checked by its Unit type
        if unit.is_horde:
            assert unit.cell not in hordes, f"two Hordes on {unit.cell}"
            hordes.add(unit.cell)
            assert 0 <= unit.magnitude <= unit.max_magnitude
        else:
            assert 0 <= unit.wounds <= unit.max_wounds


def _bounded_rule(b: Battle, pick: random.Random) -> SetRule:
    """A GM override of a random bounded constant, anywhere in its range (ends included)."""
    key = pick.choice(sorted(k for k, c in b.ruleset.constants.items() if c.min is not None and c.max is not None))
    const = b.ruleset.constants[key]
    return SetRule(key=key, value=str(pick.randint(int(const.min), int(const.max))))  # type: ignore[arg-type]


def _gm_orders(b: Battle, pick: random.Random) -> list[Order]:
    """GM orders of every core kind the system plays, on random squares and units."""
    water = [Cell(i % W, i // W) for i, key in enumerate(b.terrain) if b.ruleset.terrain[key].water]
    cell = Cell(pick.randrange(b.width), pick.randrange(b.height))
    unit = pick.choice([u.name for u in b.iter_units()])
    orders: list[Order] = [
        Paint(terrain=pick.choice(sorted(b.ruleset.terrain)), cells=(cell,)),
        _bounded_rule(b, pick),
        EditUnit(unit=unit, stats={"mv" if b.system.id == "combat_action" else "ag": pick.randint(0, 80)}),
        SkillTest(unit=unit, stat="ag", modifier=pick.randint(-30, 30)),
        Roll(dice="2d6"),
        RemoveUnit(unit=unit),
    ]
    if b.system.plays("next-round"):
        orders.append(NextRound())
    if water and b.system.plays("freeze"):
        orders.append(Freeze(at=pick.choice(water)))
    return [o for o in orders if b.system.plays(o.kind)]


def _play(b: Battle, choices: list[int], dice_seed: int) -> None:
    """Play random legal and GM orders; check soundness, undo and re-application after each, replay at the end."""
    initial = b.to_dict()
    rng = random.Random(dice_seed)
    steps: list[Step] = []
    for n, choice in enumerate(choices):
        pick = random.Random(choice)
        units = [u for u in b.iter_units() if u.alive]
        legal: list[Order] = [o for u in units for o in b.system.legal_orders(b, u)]
        legal += _gm_orders(b, pick) if units else []
        if not legal:
            break
        order = legal[choice % len(legal)]
        assert b.parse_order(str(order)) == order
        before = b.to_dict()
        try:
            outcome = b.apply(order, Dice(random.Random(rng.getrandbits(32))))
        except GameError:
            assert b.to_dict() == before  # a refusal changes nothing
            continue
        after = b.to_dict()
        b.undo()
        assert b.to_dict() == before
        faces = [f for r in outcome.rolls for f in r.faces]
        b.apply(order, Dice(random.Random(0), scripted=list(faces)))
        assert same_state(b.to_dict(), after)
        steps.append(Step(n + 1, str(order), tuple(faces)))
        _check_sound(b)
    assert same_state(replay(initial, steps).to_dict(), b.to_dict())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(["strategic-p", "strategic-e"]), terrain_seed=st.integers(0, 10_000),
       choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=25), dice_seed=st.integers(0, 10_000))
def test_random_legal_play_keeps_the_board_sound_replays_and_undoes(
        ruleset: str, terrain_seed: int, choices: list[int], dice_seed: int) -> None:
    """000:L9 "Hordes may not, however, occupy the same space as another Horde"; wounds and Magnitude never leave
    their bounds; DESIGN 3: undo restores the snapshot taken before the order, and replay needs no re-roll."""
    _play(_battle(ruleset, terrain_seed), choices, dice_seed)


def _combat_action(terrain_seed: int) -> Battle:
    b = Battle.new("combat-action", W, H)
    keys = sorted(b.ruleset.terrain)
    rng = random.Random(terrain_seed)
    for y in range(H):
        for x in range(W):
            b.set_terrain(Cell(x, y), rng.choice(keys))
    gun = [{"name": "Rifle", "class": "rifle", "pen": 2}, {"name": "Frag", "class": "grenades", "pen": 3}]
    for name, side, at, kind in (("A", "Red", "A1", "infantry"), ("T", "Red", "B1", "vehicle"),
                                 ("B", "Blue", "H8", "infantry"), ("R", "Blue", "G8", "robot")):
        b.apply(AddUnit(name, side, Cell.parse(at), 1, {"kind": kind, "ss": 4, "pf": 3, "mv": 15, "weapons": gun}),
                Dice(random.Random(0)))
    start(b)
    return b


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrain_seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=25),
       dice_seed=st.integers(0, 10_000))
def test_random_combat_action_play_keeps_the_board_sound_replays_and_undoes(
        terrain_seed: int, choices: list[int], dice_seed: int) -> None:
    """DESIGN 3: undo restores the snapshot taken before the order, and replay needs no re-roll; every model stays
    on the map, whatever order of its system it is given (A72 activations, fire, movement, GM orders)."""
    _play(_combat_action(terrain_seed), choices, dice_seed)


def _kinds(b: Battle) -> dict[str, Any]:
    return {type(o).__name__: o for u in b.iter_units() for o in b.system.legal_orders(b, u)}


def test_every_generated_order_kind_round_trips_through_its_text() -> None:
    """DESIGN 3: "an Order is a move (a frozen dataclass with a text form that round-trips)"."""
    b = _battle("strategic-p", 1)
    found = _kinds(b) | {"Freeze": Freeze(at=Cell(2, 2)), "NextRound": NextRound()}
    assert {"Move", "Attack", "EndTurn"} <= set(found)
    for order in found.values():
        assert b.parse_order(str(order)) == order
