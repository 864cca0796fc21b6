"""The import contracts see every import, annotation imports included, and excuse none.

DESIGN §2: "no import cycles in any package, `TYPE_CHECKING` imports included. A wrong arrow fails the build."
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).parent.parent


def _config() -> dict[str, object]:
    return dict(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"])


def test_annotation_imports_count_and_no_contract_ignores_an_import() -> None:
    config = _config()
    assert config["exclude_type_checking_imports"] is False
    contracts = config["contracts"]
    assert isinstance(contracts, list) and contracts
    assert [c["name"] for c in contracts if "ignore_imports" in c] == []
    cycles = [c for c in contracts if c["type"] == "acyclic_siblings"]
    assert len(cycles) == 1 and "rules" in cycles[0]["ancestors"] and "depth" not in cycles[0]


def test_the_battle_is_built_on_modules_that_never_import_it_back() -> None:
    graph = grimp.build_graph("rules", include_external_packages=False, exclude_type_checking_imports=False)
    below = graph.find_upstream_modules("rules.battle")
    assert {"rules.system", "rules.turns", "rules.ruleset", "rules.scale", "rules.homebrew"} <= below
    assert below & graph.find_downstream_modules("rules.battle") == set()
