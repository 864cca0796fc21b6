"""The rules core names no rule system: what one system alone needs is that system's typed state.

DESIGN §3: "What one system alone needs (feature points, Hordes, mines and bridges, Agility, leaders and
floors, Surface's plans and rounds) is that system's typed state, in the slot its `System` declares for
units, squares, sides and turns; the core never names it."
"""

from __future__ import annotations

import re
from pathlib import Path

import rules

# The words of one system's rules, as `grep -n -i -E` reads them.
SYSTEM_WORDS = re.compile(r"feature.?points|horde|\bmines?\b|agility|leader|floors?|plans?\b", re.IGNORECASE)
CORE = Path(rules.__file__).parent
# Strategic's artificial features table: its rows, its parser and whether a ruleset builds them are strategic's
# (`rules.systems.strategic.featuretable`), read through `features_of` and `allows_features`.
FEATURE_TABLE = re.compile(r"FeatureType|features_allowed|parse_feature|FEATURE_FIELDS")


def test_no_core_module_names_a_systems_words() -> None:
    modules = sorted(CORE.glob("*.py"))
    assert len(modules) > 20  # the core modules themselves, not `rules/systems/`
    hits = [f"{path.name}:{number}: {line.strip()}"
            for path in modules
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if SYSTEM_WORDS.search(line)]
    assert hits == []


def test_the_search_finds_the_words_it_looks_for() -> None:
    found = [w for w in ("Feature Points", "feature_points", "a Horde", "mines", "Agility", "leader", "floor",
                         "plans") if SYSTEM_WORDS.search(w)]
    assert len(found) == 8
    assert not any(SYSTEM_WORDS.search(w) for w in ("determines", "minesweeper", "planar", "explanation"))


def test_no_core_module_holds_the_features_table() -> None:
    """DESIGN §3: a table one system alone plays (strategic's artificial features) is that system's."""
    hits = [f"{path.name}:{number}: {line.strip()}"
            for path in sorted(CORE.glob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if FEATURE_TABLE.search(line)]
    assert hits == []
    # The search itself finds what it looks for, so an empty result means the core is clean.
    assert all(FEATURE_TABLE.search(w) for w in ("class FeatureType:", "ruleset.features_allowed"))
