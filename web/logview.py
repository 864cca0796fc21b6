"""The battle's log as a viewer may read it: every order with its dice and each test's modifier breakdown.

`visible_entries` is the one door every log entry of the web view passes through (the page, its JSON and a
replay step); what a viewer may not know (a hidden roll, another side's standing order or secret plan, anything
of a unit hidden from them) is cut there, following `rules.visibility`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.battle import Battle
from rules.errors import GameError
from rules.outcome import Highlight
from rules.visibility import Viewer, unseen_names

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


# Orders read from the log, by rule system and text: reading one takes a while, and an order never changes.
_READ: OrderedDict[tuple[str, str], Any] = OrderedDict()
READ_KEPT = 20_000
_UNREADABLE = object()


def read_order(event: Any, battle: Battle) -> Any:
    """Return the order of a log entry as the battle's system reads it, or None when it no longer reads."""
    key = (battle.ruleset_id, event.order_text)
    found = _READ.get(key)
    if found is None:
        try:
            found = battle.parse_order(event.order_text)
        except GameError:
            found = _UNREADABLE
        _READ[key] = found
        while len(_READ) > READ_KEPT:
            _READ.popitem(last=False)
    return None if found is _UNREADABLE else found


def acting(event: Any, battle: Battle) -> tuple[str, str]:
    """Return the lower-case unit and side an event's order was given for ('' where it names none)."""
    order = read_order(event, battle)
    if order is None:
        actor = (event.outcome or {}).get("actor")
        return (str(actor).lower() if actor else "", "")
    unit = str(getattr(order, "unit", "") or "").lower()
    side = str(getattr(order, "side", "") or "")
    if unit and not side:
        found = battle.find_unit(unit)
        side = found.side if found is not None else ""
    return unit, side.lower()


def named_units(event: Any, battle: Battle) -> set[str]:
    """Return the lower-case names of every unit an entry speaks of: its order's unit, target or new unit, its
    outcome's actor, and each unit its effects name."""
    names: set[str] = set()
    order = read_order(event, battle)
    for attr in ("unit", "target", "name"):
        value = getattr(order, attr, None)
        if isinstance(value, str) and value:
            names.add(value.lower())
    outcome = event.outcome or {}
    if outcome.get("actor"):
        names.add(str(outcome["actor"]).lower())
    for effect in outcome.get("effects", []) or []:
        for key in ("unit", "target", "attacker"):
            if isinstance(effect, Mapping) and isinstance(effect.get(key), str):
                names.add(effect[key].lower())
    return names


def visible_entries(events: Sequence[Any], battle: Battle, viewer: Viewer,
                    names: Callable[[int], str | None]) -> list[Entry]:
    """Return the log entries (oldest first) as this viewer may read them; `battle` is the battle now.

    This is the one place the web view decides what of the log a viewer may read.
    """
    unseen = unseen_names(battle, viewer)
    return [visible_entry(e, battle, viewer, names, unseen) for e in events]


def visible_entry(event: Any, battle: Battle, viewer: Viewer, names: Callable[[int], str | None],
                  unseen: set[str]) -> Entry:
    """Return one log entry as this viewer may read it (see `visible_entries`).

    An entry is cut to a line saying only that something happened when it is hidden (a GM's secret roll, a
    trap laid, a secret plan) and the viewer is not of the side it was given for, when it is a standing order
    of another side, or when it speaks of a unit hidden from the viewer now (its name and its squares, even
    from before it hid, stay out until it shows itself).
    """
    who = "deadline" if event.actor_id == SYSTEM_USER_ID else (names(event.actor_id) or "a player")
    base = {"seq": event.seq, "at": event.created_at, "who": who, "kind": event.kind, "undone": event.undone}
    outcome = event.outcome or {}
    if event.kind == "create":
        return Entry(text="created the battle", **base)
    if event.kind == "undo":
        undone = ", ".join(f"#{s}" for s in outcome.get("undone", []))
        return Entry(text=f"undid {undone}", **base)
    _unit, side = acting(event, battle)
    own = viewer.gm or (bool(side) and viewer.is_of(side))
    if event.hidden and not own:
        return Entry(text="a hidden roll or secret order (the GM may reveal it)", secret=True, **base)
    if unseen and not own and named_units(event, battle) & unseen:
        return Entry(text="a unit out of your sight acted", secret=True, **base)
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
    """Return a roll as `1d100 [31] = 31: Eva-01 fires Pallet Rifle`, or each die in place (`4d6kh3 (2, 5, ~~1~~, 6)`)."""
    head = f"{roll.get('notation', '?')} [" + ", ".join(str(f) for f in roll.get("faces", [])) + "]"
    if roll.get("shown"):
        head = str(roll["shown"])  # struck (~~1~~) dice were dropped or rerolled, as the Discord answer shows
    purpose = roll.get("purpose") or ""
    typed = " (typed in)" if roll.get("manual") else ""
    return f"{head} = {roll.get('total', '?')}{typed}" + (f": {purpose}" if purpose else "")


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
