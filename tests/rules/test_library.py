"""The library example of docs/library.md runs as written, and the legal-order API keeps its promises."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from rules import Battle, Cell, Dice
from rules.errors import GameError
from rules.orders import AddUnit, Move, Start
from rules.systems.strategic.actions.combat import Attack

DOC = Path(__file__).resolve().parents[2] / "docs" / "library.md"


def test_the_library_example_runs_and_prints_what_it_says() -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOC), "exec"), {})
    lines = out.getvalue().splitlines()
    assert re.match(r"^\d+ legal moves; for example move unit:Eva-01 to:\w+\d+", lines[0])
    assert lines[1] == "Moved(unit='Eva-01', frm='B2', to='C3', cost=1)"
    assert "Sachiel" in lines[2]


def _battle() -> Battle:
    battle = Battle.new("strategic-e", 12, 8, "Legal")
    rifle = {"name": "Rifle", "range": 2, "range_unit": "km", "damage": "1d10"}
    battle.apply(AddUnit(name="Eva", side="NERV", at=Cell.parse("B2"), stats={"ag": 40, "weapons": [rifle]}),
                 Dice.seeded(1))
    battle.apply(AddUnit(name="Angel", side="Angels", at=Cell.parse("E2")), Dice.seeded(1))
    battle.apply(AddUnit(name="Far", side="Angels", at=Cell.parse("L8")), Dice.seeded(1))
    battle.apply(Start(), Dice.seeded(1))
    return battle


def test_every_generated_order_is_legal_and_applies() -> None:
    battle = _battle()
    orders = battle.legal_orders("Eva")
    assert orders, "a unit on its turn with actions left has legal orders"
    for order in orders:
        assert battle.is_legal(order), str(order)
        trial = Battle.from_dict(battle.to_dict())
        trial.apply(order, Dice.seeded(5))


def test_generated_moves_are_exactly_the_squares_a_move_reaches() -> None:
    """A legal move exists for a square if and only if applying that move succeeds.

    A mode that is an order of its own (the charge, which ends in an attack) is given as that order; a move in
    it is read only so that logs written before replay, and is never generated.
    """
    battle = _battle()
    generated = {(str(o.to), o.mode) for o in battle.legal_orders("Eva") if isinstance(o, Move)}
    assert not [mode for _to, mode in generated if battle.system.plays(mode)]
    for mode in [m for m in battle.ruleset.move_modes if not battle.system.plays(m)]:
        for y in range(battle.height):
            for x in range(battle.width):
                order = Move(unit="Eva", to=Cell(x, y), mode=mode)
                trial = Battle.from_dict(battle.to_dict())
                try:
                    trial.apply(order, Dice.seeded(1))
                    applied = True
                except GameError:
                    applied = False
                assert applied == ((str(Cell(x, y)), mode) in generated), str(order)
                assert battle.is_legal(order) == applied, str(order)


def test_attacks_are_generated_only_for_targets_in_range() -> None:
    battle = _battle()
    targets = {o.target for o in battle.legal_orders("Eva") if isinstance(o, Attack)}
    assert targets == {"Angel"}
    assert not battle.is_legal(Attack(unit="Eva", weapon="Rifle", target="Far"))


def test_a_unit_whose_turn_it_is_not_has_no_legal_orders() -> None:
    battle = _battle()
    assert battle.legal_orders("Angel") == []
    assert not battle.is_legal(Move(unit="Angel", to=Cell.parse("E3")))
