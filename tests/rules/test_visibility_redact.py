"""What an order did, as each viewer may know it: `rules.visibility.redact` is the one step before any rendering.

RULES.md A28: features "are visible only to their owner, except Minefields", and a hidden unit is out of the
other sides' sight until it attacks (A41 lets it hide in Forest). So no part of an outcome the public reads
may name the square of a hidden unit or of a side's hidden trap, while the side and the GM read it whole.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Move, Paint, Roll, Start
from rules.outcome import Outcome
from rules.systems.strategic.actions.features import PlaceFeature, SetFp
from rules.systems.strategic.actions.other import Hide
from rules.turnorders import SetTurnMode
from rules.visibility import GM, PUBLIC, Secrets, Viewer, redact, secrets_for

BLUE = Viewer.of(["Blue"])
RED = Viewer.of(["Red"])


class Faces(random.Random):
    """A random source whose dice show the given faces first (low faces pass a d100 test)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        """Return the next given face, or a seeded one once they run out."""
        return self.faces.pop(0) if self.faces else super().randint(a, b)


def dice(*faces: int) -> Dice:
    """Return dice that show these faces first."""
    return Dice(Faces(faces))


def hidden_alpha() -> Battle:
    """Return a P-Scale battle with Forest on E5:G7 and B2, Blue's Fire Trap on B2, and Alpha of Blue hiding on E5."""
    battle = Battle.new("strategic-p", 14, 12, "Redaction")
    battle.apply(Paint(terrain="forest", frm=Cell.parse("E5"), to=Cell.parse("G7")), dice())
    battle.apply(Paint(terrain="forest", cells=(Cell.parse("B2"),)), dice())
    battle.apply(AddUnit(name="Alpha", side="Blue", at=Cell.parse("E5"), stats={"ag": 40}), dice())
    battle.apply(AddUnit(name="Omega", side="Red", at=Cell.parse("L10"), stats={"ag": 40}), dice())
    battle.apply(SetFp(side="Blue", value=20), dice())
    battle.apply(PlaceFeature(feature="fire_trap", side="Blue", at=Cell.parse("B2")), dice())
    battle.apply(SetTurnMode(mode="free"), dice())
    battle.apply(Start(), dice())
    hid = battle.apply(Hide(unit="Alpha"), dice(5, 5, 5))
    assert "hidden" in battle.unit("Alpha").statuses, hid.to_dict()
    return battle


def text(outcome: Outcome) -> str:
    """Return everything an outcome holds, as stored."""
    return repr(outcome.to_dict())


def test_a_hidden_units_move_keeps_its_terrain_test_from_everyone_but_its_side_and_the_gm() -> None:
    """A38: entering Difficult Terrain makes an Agility test, which names the square the hidden unit entered."""
    battle = hidden_alpha()
    moved = battle.apply(Move(unit="Alpha", to=Cell.parse("F6"), mode="half"), dice(90, 90, 90, 90))
    assert "Difficult Terrain test on F6" in text(moved)
    public = redact(moved, battle, PUBLIC)
    assert "F6" not in text(public) and "E5" not in text(public), text(public)
    assert public.actor == "Alpha" and public.order == "move unit:Alpha", "the channel reads that it moved"
    assert redact(moved, battle, RED) == public, "the other side knows what the public knows"
    assert redact(moved, battle, BLUE) == moved and redact(moved, battle, GM) is moved


def test_a_hidden_trap_square_is_kept_from_the_other_side_and_a_gm_hidden_roll_from_all_but_the_gm() -> None:
    battle = hidden_alpha()
    assert secrets_for(battle, RED).squares == {"B2", "E5"}
    assert secrets_for(battle, BLUE).squares == set() and secrets_for(battle, GM) == Secrets()
    rolled = battle.apply(Roll(dice="1d100", purpose="Trap on B2 checks", hidden=True), dice(42))
    for viewer in (PUBLIC, BLUE, RED):
        shown = redact(rolled, battle, viewer)
        assert (shown.order, shown.rolls, shown.tests) == ("roll", [], []), "a hidden roll shows only that it was made"
    assert redact(rolled, battle, GM) is rolled
    said = battle.apply(Roll(dice="1d6", purpose="Omega looks at B2"), dice(3))
    assert "B2" not in text(redact(said, battle, RED)) and "B2" in text(redact(said, battle, BLUE))
    assert redact(said, battle, RED).rolls == [], "the roll naming the trap's square is taken out whole"


def test_a_square_is_matched_whole() -> None:
    secrets = Secrets(frozenset({"F6"}))
    assert secrets.named_in("test on F6.") and secrets.named_in("**f6**")
    assert not secrets.named_in("F60") and not secrets.named_in("AF6") and not secrets.named_in("")
