"""Write docs/conformance.md from the conformance cases: one line per case, so the list and the data agree.

Run `.venv/bin/python -m tests.conformance.listing --write` after adding or changing a case; the suite
fails while the page and the data differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.conformance.cases import PREFIXES, load_section, rulesets, sections

DOC = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"
NAMES = {"combat-action": "Combat Action", "m42": "M42", "strategic-p": "Strategic, P-Scale",
         "strategic-e": "Strategic, E-Scale", "surface": "Surface Combat"}
HEAD = """\
# Conformance cases

Numbered cases that any reading of the rules can be checked against, in the spirit of the Diplomacy
Adjudicator Test Cases: each is a situation, the orders played in it with the dice they roll, and the numbers
or the refusal that must follow, with the seed line or RULES.md ruling it rests on. They are data, one TOML
file per section under `tests/conformance/<ruleset>/`, and the test suite plays every one of them through the
rules library (`tests/conformance/test_conformance.py`). This page is generated from the same files
(`python -m tests.conformance.listing --write`), and the suite fails if the two differ.

A case file reads:

```toml
section = 1
title = "Range categories"

[templates]
rifleman = { kind = "infantry", ss = 4, pf = 0, mv = 10, weapons = [{ name = "Rifle", class = "rifle", pen = 2 }] }

[[case]]
n = 1
title = "10 cm is still Point Blank"
rests_on = "003:L48 \\"Point Blank (PB) | Up to 10 cm\\"; A75"
units = [{ name = "A", side = "Red", at = "A1", template = "rifleman" },
         { name = "B", side = "Blue", at = "A3", template = "rifleman" }]
[[case.play]]
order = "fire unit:A weapon:Rifle target:B"
dice = [1]
expect = { tests = [{ band = "PB", cm = 10 }] }
```

Besides `units`, a case may give `width` and `height` or a `map` file, `rules` (constants), `setup` orders
played before the units are added and `arrange` orders played after (a side's features), and `turn_mode`
(`free` unless told; `none` for a system without turns);
shared values go under `[battle]` and shared stat blocks under `[templates]`.

`expect` may name the outcome's `tests` (each field of each roll test, in order), its `rolls` (the purposes,
in order), `effects` it must contain and `no_effects` kinds it must not, the `units` and `cells` after the
order, its `turn` notes and its `details` (a table of numbered keys checks those items of a list alone, so
`{ "0" = { aiv = 15 } }` looks at the first); `refused` instead names words of the refusal, and the battle must not change.
"""


def _cell(text: str) -> str:
    """Return text fit for one cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def listing() -> str:
    """Return the page: per ruleset and section, one table row per case with its number and what it rests on."""
    parts = [HEAD]
    for ruleset in rulesets():
        parts.append(f"## {NAMES[ruleset]} (`{ruleset}`, cases {PREFIXES[ruleset]}-…)")
        for number, title, path in sections(ruleset):
            parts.append(f"\n### {PREFIXES[ruleset]}-{number}. {title}\n\n| Case | What | Rests on |\n|---|---|---|")
            for case in load_section(ruleset, path):
                parts.append(f"| {case.id} | {_cell(case.title)} | {_cell(case.rests_on)} |")
        parts.append("")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    """Print the page, or write it to docs/conformance.md with `--write`."""
    text = listing()
    if "--write" in argv:
        DOC.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
