"""Forces carried over between battles: the survivors' document and reading it back, all or nothing."""

from __future__ import annotations

import json

import pytest

from rules.dice import Dice
from rules.errors import GameError
from rules.orders import Order
from rules.systems.surface.forces import survivors
from rules.systems.surface.orders import ImportForces
from tests.rules.surface.helpers import add, battle, give


def test_survivors_carry_ratings_flags_and_damage_and_read_back() -> None:
    """Issue: "after a battle the surviving units with their damage (or recovery) can be exported and used"."""
    b = battle()
    add(b, "Hammer", "Red", "space-marines", owner=7, flags=["powered_armor"], accuracy=9)
    gone = add(b, "Ghost", "Red")
    add(b, "Rebel", "Blue", "rebels")
    b.unit("Hammer").damage = 2
    gone.state = "destroyed"
    doc = survivors(b)
    assert [u["name"] for u in doc["forces"]["Red"]] == ["Hammer"]
    fresh = battle()
    order = ImportForces(forces=json.dumps(doc))
    assert Order.parse(str(order)) == order
    added = give(fresh, str(order))
    assert [e.unit for e in added.effects] == ["Hammer", "Rebel"]
    hammer = fresh.unit("Hammer")
    assert (hammer.damage, hammer.accuracy, hammer.owner, hammer.flags) == (2, 9, 7, ("space_marine", "powered_armor"))
    assert [u.name for u in fresh.iter_units()] == ["Hammer", "Rebel"]


@pytest.mark.parametrize(("text", "fragment"), [
    ("{", "not valid JSON: line 1"),
    ('{"forces": {}}', '"ruleset": "surface"'),
    ('{"ruleset": "surface", "forces": {}}', "holds no units"),
    ('{"ruleset": "surface", "forces": {"Red": [{"owner": 1}]}}', "`forces.Red[0]`: `name`"),
    ('{"ruleset": "surface", "forces": {"Red": [{"name": "A", "owner": "bob"}]}}', "Discord user id"),
    ('{"ruleset": "surface", "forces": {"Red": [{"name": "A", "stats": {"type": "tanks"}}]}}',
     "Unit `A` of Red: There is no unit type `tanks`"),
    ('{"ruleset": "surface", "forces": {"Red": [{"name": "A"}, {"name": "A"}]}}', "already a unit called A"),
    ('{"ruleset": "surface", "forces": {"Blue": [{"name": "B"}], "Red": [{"name": "Keep"}]}}',
     "Unit `Keep` of Red: There is already a unit called Keep"),
])
def test_a_bad_document_names_what_is_wrong_and_changes_nothing(text: str, fragment: str) -> None:
    """All or none: a unit refused at the end takes back the ones added before it."""
    b = battle()
    add(b, "Keep", "Red")
    before = json.dumps(b.to_dict(), sort_keys=True)
    with pytest.raises(GameError) as err:
        b.apply(ImportForces(forces=text), Dice.seeded(0))
    assert fragment in str(err.value)
    assert json.dumps(b.to_dict(), sort_keys=True) == before
