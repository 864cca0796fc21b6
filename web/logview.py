"""The battle's log as a viewer may read it: every order with its dice and each test's modifier breakdown.

`visible_entries` is the one door every log entry of the web view passes through (the page, its JSON and a
replay step); what a viewer may not know (a hidden roll, another side's standing order or secret plan, what a
unit hidden from them did since it hid) is cut there, following `rules.visibility`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.battle import Battle
from rules.effects import load_effects
from rules.errors import GameError
from rules.outcome import Highlight
from rules.visibility import HIDDEN, Viewer, unseen_names

SYSTEM_USER_ID = 0
MAX_FIELDS = 8  # of an effect's fields, the ones shown


@dataclass(frozen=True)
class Entry:
    """One log entry as a viewer sees it: words only, already cut to what they may know."""

    seq: int
    at: float
    who: str
    text: str
    kind: str
    rolls: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    undone: bool = False
    secret: bool = False  # the viewer sees only that something happened
    highlight: Highlight | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """Return the entry for the page's JSON."""
        return {"seq": self.seq, "at": self.at, "who": self.who, "text": self.text, "kind": self.kind,
                "rolls": list(self.rolls), "tests": list(self.tests), "effects": list(self.effects),
                "undone": self.undone, "secret": self.secret}


def acting(event: Any, battle: Battle) -> tuple[str, str]:
    """Return the lower-case unit and side an event's order was given for ('' where it names none)."""
    try:
        order = battle.parse_order(event.order_text)
    except GameError:
        actor = (event.outcome or {}).get("actor")
        return (str(actor).lower() if actor else "", "")
    unit = str(getattr(order, "unit", "") or "").lower()
    side = str(getattr(order, "side", "") or "")
    if unit and not side:
        found = battle.find_unit(unit)
        side = found.side if found is not None else ""
    return unit, side.lower()


def hiding_since(events: Sequence[Any], battle: Battle, unseen: set[str]) -> dict[str, int]:
    """Return, for each unit hidden from the viewer now, the entry where its hiding began."""
    since: dict[str, int] = {}
    for event in events:
        if event.undone or not event.outcome:
            continue
        name, _side = acting(event, battle)
        if name not in unseen:
            continue
        effects = load_effects(event.outcome.get("effects", []), battle.system.effect_kinds)
        if any(e.kind == HIDDEN for e in effects):
            since[name] = event.seq
    return since


def visible_entries(events: Sequence[Any], battle: Battle, viewer: Viewer,
                    names: Callable[[int], str | None]) -> list[Entry]:
    """Return the log entries (oldest first) as this viewer may read them; `battle` is the battle now."""
    unseen = unseen_names(battle, viewer)
    hiding = hiding_since(events, battle, unseen) if unseen else {}
    return [visible_entry(e, battle, viewer, names, hiding) for e in events]


def visible_entry(event: Any, battle: Battle, viewer: Viewer, names: Callable[[int], str | None],
                  hiding: Mapping[str, int]) -> Entry:
    """Return one log entry as this viewer may read it (see `visible_entries`)."""
    who = "deadline" if event.actor_id == SYSTEM_USER_ID else (names(event.actor_id) or "a player")
    base = {"seq": event.seq, "at": event.created_at, "who": who, "kind": event.kind, "undone": event.undone}
    outcome = event.outcome or {}
    if event.kind == "create":
        return Entry(text="created the battle", **base)
    if event.kind == "undo":
        undone = ", ".join(f"#{s}" for s in outcome.get("undone", []))
        return Entry(text=f"undid {undone}", **base)
    unit, side = acting(event, battle)
    own = viewer.gm or (bool(side) and viewer.is_of(side))
    if event.hidden and not own:
        return Entry(text="hidden roll or secret order (the GM may reveal it)", secret=True, **base)
    start = hiding.get(unit)
    if start is not None and event.seq >= start and not own:
        shown = battle.find_unit(unit)
        name = shown.name if shown is not None else unit
        text = f"{name} hides; where, only its side knows" if event.seq == start else f"{name} acts out of sight"
        return Entry(text=text, secret=True, **base)
    if event.kind == "standing-order" and not own:
        return Entry(text="set a standing order (kept secret)", secret=True, **base)
    return Entry(
        text=("(hidden) " if event.hidden else "") + "/" + event.order_text,
        rolls=tuple(roll_text(r) for r in outcome.get("rolls", [])),
        tests=tuple(test_text(t) for t in outcome.get("tests", [])),
        effects=tuple(effect_text(e) for e in outcome.get("effects", [])),
        highlight=Highlight.from_dict(outcome.get("highlight") or {}),
        **base,
    )


def roll_text(roll: Mapping[str, Any]) -> str:
    """Return a roll as `1d100 [31] = 31: Eva-01 fires Pallet Rifle`."""
    faces = ", ".join(str(f) for f in roll.get("faces", []))
    purpose = roll.get("purpose") or ""
    typed = " (typed in)" if roll.get("manual") else ""
    return f"{roll.get('notation', '?')} [{faces}] = {roll.get('total', '?')}{typed}" + (f": {purpose}" if purpose else "")


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) else str(value)


def test_text(test: Mapping[str, Any]) -> str:
    """Return a test with every term: base, each modifier and its source, the cap, the target and the roll."""
    tally = test.get("breakdown")
    parts: list[str] = []
    if isinstance(tally, Mapping):
        parts.append(f"{tally.get('base_label', 'base')} {tally.get('base')}")
        for mod in tally.get("modifiers", []) or []:
            source = f" ({mod['source']})" if mod.get("source") else ""
            parts.append(f"{mod.get('label', '?')} {_signed(mod.get('value'))}{source}")
        if tally.get("cap") is not None:
            parts.append(f"modifiers capped at \u00b1{tally['cap']}")
    else:
        parts += [f"{k.replace('_', ' ')} {v}" for k, v in test.items()
                  if k not in ("purpose", "roll", "target", "success", "test") and isinstance(v, int | str)][:MAX_FIELDS]
    head = str(test.get("purpose") or test.get("test") or "test")
    result = ""
    if "roll" in test and "target" in test:
        verdict = "success" if test.get("success") else "failure"
        degrees = f", {test['degrees']} degrees" if test.get("degrees") else ""
        result = f" \u2192 target {test['target']}, rolled {test['roll']}: {verdict}{degrees}"
    return f"{head}: " + ", ".join(parts) + result


def effect_text(effect: Mapping[str, Any]) -> str:
    """Return what an effect changed: its kind and its fields."""
    kind = str(effect.get("type", "effect")).replace("_", " ")
    fields = [f"{k.replace('_', ' ')} {v}" for k, v in effect.items()
              if k != "type" and v not in (None, "", False, 0) and isinstance(v, int | float | str)]
    return f"{kind}: " + ", ".join(fields[:MAX_FIELDS]) if fields else kind
