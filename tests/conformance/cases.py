"""Read the conformance cases: numbered situations, orders, dice and expected results, kept as TOML data.

Each ruleset has a folder `tests/conformance/<ruleset>/` of section files `NN_topic.toml`. A section file
holds `section`, `title`, optional shared `[battle]` settings and `[templates]` of stat blocks, and its
`[[case]]` tables, numbered `n = 1, 2, ...`. A case says what it rests on (the seed line or ruling), the
situation (map size or a map file, rule constants, setup orders, units, orders that need the units, such as
a side's features), and the orders it plays, each with the dice it
forces and what must follow: the numbers of its tests, its effects, the units after, or its refusal.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
# The short name of each ruleset in a case's number (CA-3.2 is Combat Action, section 3, case 2).
PREFIXES = {"combat-action": "CA", "m42": "M42", "strategic-p": "SP", "strategic-e": "SE", "surface": "SU"}
SECTION_KEYS = {"section", "title", "rests_on", "battle", "templates", "case"}
BATTLE_KEYS = {"width", "height", "map", "rules", "turn_mode", "setup", "units", "arrange", "start"}
CASE_KEYS = {"n", "title", "rests_on", "play"} | BATTLE_KEYS
PLAY_KEYS = {"order", "dice", "expect", "refused", "actor"}
EXPECT_KEYS = {"tests", "effects", "no_effects", "rolls", "units", "cells", "turn", "details"}
UNIT_KEYS = {"name", "side", "at", "template", "stats", "owner"}


class CaseError(Exception):
    """A conformance case file that does not say what the suite needs."""


@dataclass(frozen=True, slots=True)
class Play:
    """One order of a case: its text, the dice it forces, and what must follow."""

    order: str
    dice: tuple[int, ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """One numbered case: the situation, the orders played in it, and the rule it rests on."""

    ruleset: str
    section: int
    n: int
    title: str
    rests_on: str
    width: int
    height: int
    map: str
    rules: dict[str, str]
    turn_mode: str
    setup: tuple[str, ...]
    units: tuple[dict[str, Any], ...]
    arrange: tuple[str, ...]
    start: bool
    plays: tuple[Play, ...]
    path: Path

    @property
    def id(self) -> str:
        """Return the case's number, like `CA-3.2`."""
        return f"{PREFIXES[self.ruleset]}-{self.section}.{self.n}"


def _check_keys(where: str, data: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CaseError(f"{where}: unknown key(s) {', '.join(unknown)}; use {', '.join(sorted(allowed))}.")


def _unit(where: str, spec: dict[str, Any], templates: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Return a unit of a case with its template's stats under its own."""
    _check_keys(where, spec, UNIT_KEYS)
    stats: dict[str, Any] = {}
    if "template" in spec:
        if spec["template"] not in templates:
            raise CaseError(f"{where}: no template `{spec['template']}`.")
        stats.update(templates[spec["template"]])
    stats.update(spec.get("stats", {}))
    return {"name": spec["name"], "side": spec["side"], "at": spec["at"], "owner": spec.get("owner", 1),
            "stats": stats}


def _play(where: str, spec: dict[str, Any]) -> Play:
    _check_keys(where, spec, PLAY_KEYS)
    expect = dict(spec.get("expect", {}))
    _check_keys(f"{where}.expect", expect, EXPECT_KEYS)
    if "refused" in spec and expect:
        raise CaseError(f"{where}: a refused order expects nothing else (the battle stays as it was).")
    return Play(order=spec["order"], dice=tuple(spec.get("dice", ())), expect=expect, refused=spec.get("refused"))


def load_section(ruleset: str, path: Path) -> list[Case]:
    """Read one section file into its cases, refusing unknown keys and numbers out of order."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    where = f"{ruleset}/{path.name}"
    _check_keys(where, data, SECTION_KEYS)
    section = int(data["section"])
    if not path.name.startswith(f"{section:02d}_"):
        raise CaseError(f"{where}: section {section} belongs in a file named {section:02d}_<topic>.toml.")
    shared = dict(data.get("battle", {}))
    _check_keys(f"{where} [battle]", shared, BATTLE_KEYS)
    templates = dict(data.get("templates", {}))
    cases: list[Case] = []
    for index, spec in enumerate(data.get("case", []), start=1):
        here = f"{where} case {index}"
        _check_keys(here, spec, CASE_KEYS)
        if spec.get("n") != index:
            raise CaseError(f"{here}: cases are numbered 1, 2, 3 ... in order; this one says n = {spec.get('n')}.")
        merged = {**shared, **spec}
        rules = {**shared.get("rules", {}), **spec.get("rules", {})}
        units = [*shared.get("units", []), *spec.get("units", [])]
        cases.append(Case(
            ruleset=ruleset, section=section, n=index, title=spec["title"],
            rests_on=spec.get("rests_on") or data.get("rests_on", ""),
            width=int(merged.get("width", 20)), height=int(merged.get("height", 20)), map=str(merged.get("map", "")),
            rules={k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.items()},
            turn_mode=str(merged.get("turn_mode", "free")),
            setup=(*shared.get("setup", []), *spec.get("setup", [])),
            units=tuple(_unit(f"{here} unit {i}", u, templates) for i, u in enumerate(units, start=1)),
            arrange=(*shared.get("arrange", []), *spec.get("arrange", [])),
            start=bool(merged.get("start", True)),
            plays=tuple(_play(f"{here} play {i}", p) for i, p in enumerate(spec.get("play", []), start=1)),
            path=path,
        ))
        if not cases[-1].rests_on:
            raise CaseError(f"{here}: say which seed line or ruling the case rests on (`rests_on`).")
    return cases


def sections(ruleset: str) -> list[tuple[int, str, Path]]:
    """Return the section number, title and file of each section of a ruleset, in order."""
    out = []
    for path in sorted((ROOT / ruleset).glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        out.append((int(data["section"]), str(data["title"]), path))
    numbers = [n for n, _t, _p in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise CaseError(f"{ruleset}: sections are numbered 1, 2, 3 ... in order; found {numbers}.")
    return out


def rulesets() -> list[str]:
    """Return the rulesets that have conformance cases, in the order of PREFIXES."""
    return [r for r in PREFIXES if (ROOT / r).is_dir()]


def all_cases() -> list[Case]:
    """Return every case of every ruleset, in number order."""
    return [case for ruleset in rulesets() for _n, _t, path in sections(ruleset)
            for case in load_section(ruleset, path)]
