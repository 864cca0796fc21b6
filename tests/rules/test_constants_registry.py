"""Every GM-overridable constant of every registered rule system has a test that changes it and sees the effect.

A test claims a constant with `@pytest.mark.constant("key", ...)`; this module reads those marks from the
test sources (not from the code under test) and the constants from the systems' own TOML files.
"""

from __future__ import annotations

import ast
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from rules.systems import builtin

TESTS = Path(__file__).resolve().parents[1]
# Systems registered elsewhere but not yet merged here: their constants get effect tests on merge.
NOT_MERGED_HERE: frozenset[str] = frozenset()


def _toml_keys(package: str, ruleset: str) -> set[str]:
    text = resources.files(package).joinpath(f"data/{ruleset}.toml").read_text(encoding="utf-8")
    return set(tomllib.loads(text).get("constants", {}))


def _is_constant_mark(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "constant"
            and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "mark")


def claimed_keys() -> dict[str, list[str]]:
    """Return each constant key claimed by a test's `constant` mark, with the tests that claim it."""
    claims: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for deco in node.decorator_list:
                if _is_constant_mark(deco):
                    assert isinstance(deco, ast.Call)
                    for arg in deco.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (path, node.name)
                        claims.setdefault(arg.value, []).append(f"{path.name}::{node.name}")
    return claims


def _systems() -> list[tuple[str, str, tuple[str, ...]]]:
    return [(s.id, s.package, s.ruleset_ids) for s in builtin() if s.id not in NOT_MERGED_HERE]


@pytest.mark.parametrize(("system_id", "package", "rulesets"), _systems(), ids=[s[0] for s in _systems()])
def test_every_constant_of_the_system_has_an_effect_test(system_id: str, package: str,
                                                         rulesets: tuple[str, ...]) -> None:
    """RULES.md 7: "Every ruling should be a named configuration constant so a GM can override it"; each one is
    read where its rule is applied, and a test changes it and sees the outcome change."""
    claimed = claimed_keys()
    keys = set().union(*(_toml_keys(package, r) for r in rulesets))
    missing = sorted(keys - set(claimed))
    assert not missing, f"{system_id}: no test marked @pytest.mark.constant for {missing}"


def test_every_claimed_key_is_a_constant_of_some_system() -> None:
    """A mark naming no constant is a typo that would hide a missing test."""
    known = set().union(*(_toml_keys(p, r) for _, p, rs in _systems() for r in rs))
    assert set(claimed_keys()) - known == set()


def test_the_allow_list_stays_short() -> None:
    """The allow-list is for rule systems being merged, not a place to park untested constants."""
    assert len(NOT_MERGED_HERE) <= 1
    assert {s.id for s in builtin()} - NOT_MERGED_HERE >= {"strategic", "combat_action", "surface", "m42"}
