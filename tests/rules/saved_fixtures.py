"""The recipes of the saved-battle fixtures in tests/fixtures/saved/: one small battle per rule system.

Each recipe is a ruleset, a map size and the text form of the orders that set the battle up and play a few
turns, plus square marks no order lays on its own (smoke drifting in, a fire already burning). The fixtures
were written once from these recipes by the version of battlepost that saved them:

    .venv/bin/python -c "from tests.rules.saved_fixtures import write; write()"

and are never written again: they stand for battles saved by that version, which every later one must load.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules.systems
from rules.battle import Battle
from rules.dice import Dice
from rules.orders import ImportMap

FOLDER = Path(__file__).parent.parent / "fixtures" / "saved"

STRATEGIC_MAP = """# ruleset: {ruleset}
..F~~...
..F~~...
........
..UU....
........
........
[storm]
........
.....x..
........
........
........
........
[deep]
....x...
...xx...
........
........
........
........
"""


@dataclass(frozen=True)
class Recipe:
    """How one fixture battle is made: its ruleset and size, its orders' text, and marks laid by hand."""

    ruleset: str
    width: int
    height: int
    orders: tuple[str, ...]
    marks: dict[str, dict[str, Any]] = field(default_factory=dict)  # square -> saved fields, added at the end


def _strategic(ruleset: str, more: tuple[str, ...]) -> Recipe:
    setup = (
        str(ImportMap(text=STRATEGIC_MAP.format(ruleset=ruleset))),
        "add-unit name:Commander side:Red at:A1 owner:1 stats:'{\"int\":45,\"supreme_commander\":true}'",
        "add-unit name:Grunt side:Red at:B2 owner:1",
        "add-unit name:Raider side:Blue at:H6 owner:2",
        "add-unit name:Scout side:Blue at:G5 owner:2",
    )
    return Recipe(ruleset, 8, 6, setup + more, marks={"F1": {"smoke": 2}, "C2": {"fire": 1}})


RECIPES: dict[str, Recipe] = {
    "strategic-e": _strategic("strategic-e", (
        "set-turn-mode mode:free", "start", "move unit:Grunt to:B3 mode:half", "end-turn unit:Grunt",
    )),
    "strategic-p": _strategic("strategic-p", (
        "set-fp side:Blue adjust:3", "place-feature feature:trench side:Red at:B4",
        "place-feature feature:minefield side:Red at:E4",
        "set-turn-mode mode:free", "start", "move unit:Grunt to:B3 mode:half", "end-turn unit:Grunt",
    )),
    "combat-action": Recipe("combat-action", 40, 40, (
        "add-unit name:Rifleman side:Red at:C3 owner:1 stats:'" + json.dumps({
            "kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
            "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2}, {"name": "Frag", "class": "grenades", "pen": 3}],
        }) + "'",
        "add-unit name:Gunner side:Blue at:C20 owner:2 stats:'" + json.dumps({
            "kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
            "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2}],
        }) + "'",
        "paint terrain:woods from:E5 to:G7", "set-turn-mode mode:free", "start", "flat-down unit:Gunner",
    )),
    "m42": Recipe("m42", 30, 20, (
        "paint terrain:building from:K8 to:N12",
        "set-floors from:K8 to:N12 floors:3",
        "set-road from:A5 to:Z5",
        "add-unit name:Squad side:Red at:B5 owner:1 stats:'{\"ld\":3,\"models\":2,\"traits\":[]}'",
        "add-unit name:Team side:Blue at:P10 owner:2 stats:'{\"ld\":2,\"models\":1,\"traits\":[]}'",
        "start", "move unit:Squad to:F5 mode:advance",
    )),
}


def build(name: str) -> dict[str, Any]:
    """Play a recipe from an empty battle and return the document the battle saves."""
    rules.systems.install()
    recipe = RECIPES[name]
    battle = Battle.new(recipe.ruleset, recipe.width, recipe.height, f"Saved {name}")
    dice = Dice(random.Random(42))
    for text in recipe.orders:
        battle.apply(battle.parse_order(text), dice)
    doc = battle.to_dict()
    for square, marks in recipe.marks.items():
        doc["cells"].setdefault(square, {}).update(marks)
    return Battle.from_dict(doc).to_dict()


def write() -> None:
    """Write every fixture (done once, by the version whose saved battles they stand for)."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in RECIPES:
        (FOLDER / f"{name}.json").write_text(json.dumps(build(name), indent=1, sort_keys=True) + "\n", encoding="utf-8")
