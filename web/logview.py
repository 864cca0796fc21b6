"""The battle's log as a viewer may read it: every order with its dice and each test's modifier breakdown.

`visible_entries` is the one door every log entry of the web view passes through (the page, its JSON and a
replay step). Each entry's outcome goes through `rules.visibility.redact` for the viewer, and is worded from
what that leaves, in the sentences the Discord replies use (each system's own, through its front end:
`bot.webfront.saying`), with every roll and each test's modifiers.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.webfront import saying
from rules.battle import Battle
from rules.errors import GameError
from rules.outcome import Highlight, Outcome
from rules.visibility import Viewer, redact, unseen_names

SYSTEM_USER_ID = 0


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


def visible_entries(events: Sequence[Any], battle: Battle, viewer: Viewer,
                    names: Callable[[int], str | None]) -> list[Entry]:
    """Return the log entries (oldest first) as this viewer may read them; `battle` is the battle now.

    This is the one place the web view decides what of the log a viewer may read.
    """
    unseen = unseen_names(battle, viewer)
    return [visible_entry(e, battle, viewer, names, unseen) for e in events]


def shown_outcome(event: Any, battle: Battle, viewer: Viewer, side: str) -> Outcome:
    """Return an entry's outcome as this viewer may know it: `rules.visibility.redact`, the one redaction step.

    A hidden order of the viewer's own side (its secret plan, the trap it laid) is theirs: it goes through
    `redact` as an order made in their sight, so what it says of anything else hidden from them still goes.
    """
    system = battle.system
    outcome = Outcome.from_dict({"order": event.order_text, "kind": event.kind, **(event.outcome or {}),
                                 "hidden": event.hidden}, system.effect_kinds, system.test_kinds, system.detail_kinds)
    if outcome.hidden and not viewer.gm and side and viewer.is_of(side):
        outcome = replace(outcome, hidden=False)
    return redact(outcome, battle, viewer)


def outcome_names(outcome: Outcome, battle: Battle) -> set[str]:
    """Return the lower-case names of every unit a (redacted) outcome speaks of: its order's unit, target or new
    unit, its actor, and each unit its effects name."""
    names: set[str] = set()
    try:
        order: Any = battle.parse_order(outcome.order)
    except GameError:
        order = None
    for attr in ("unit", "target", "name"):
        value = getattr(order, attr, None)
        if isinstance(value, str) and value:
            names.add(value.lower())
    if outcome.actor:
        names.add(outcome.actor.lower())
    for effect in outcome.effects:
        fields = effect.to_dict()
        for key in ("unit", "target", "attacker"):
            if isinstance(fields.get(key), str):
                names.add(fields[key].lower())
    return names


def visible_entry(event: Any, battle: Battle, viewer: Viewer, names: Callable[[int], str | None],
                  unseen: set[str]) -> Entry:
    """Return one log entry as this viewer may read it (see `visible_entries`), in the Discord replies' words.

    What the entry says is its outcome as `rules.visibility.redact` leaves it for the viewer (`shown_outcome`).
    Of that, a viewer reads only that something happened when it is a hidden order of another side or the
    GM's, when it still names a unit hidden from them now (its name stays out, and its squares from before it
    hid, until it shows itself), or when it is another side's standing order.
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
    shown = shown_outcome(event, battle, viewer, side)
    if shown.hidden and not viewer.gm:
        return Entry(text="a hidden roll or secret order (the GM may reveal it)", secret=True, **base)
    if unseen and outcome_names(shown, battle) & unseen:
        return Entry(text="a unit out of your sight acted", secret=True, **base)
    if event.kind == "standing-order" and not own:
        return Entry(text="set a standing order (kept secret)", secret=True, **base)
    said = saying()(shown, battle)
    return Entry(
        text=("(hidden) " if event.hidden else "") + plain(said.command, names),
        rolls=tuple(plain(r, names) for r in said.rolls),
        tests=tuple(plain(f"{purpose}: " + "; ".join(lines), names) for purpose, lines in said.tests),
        effects=tuple(plain(line, names) for line in said.lines),
        highlight=shown.highlight,
        **base,
    )


# Discord's markdown in the replies' words: a backslash-escaped character, bold, strike-through, code.
_MARKUP = re.compile(r"\\([^\w\s])|\*\*|__|~~|`")
_MENTION = re.compile(r"<@!?([0-9]+)>")


# A struck die of a roll (`~~1~~`: dropped or rolled again) stays struck: each character with a combining stroke.
_STRUCK = re.compile(r"~~([^~]+)~~")


def plain(words: str, names: Callable[[int], str | None]) -> str:
    """Return a line of a Discord reply as plain words: no markdown, each mention as the player's name."""
    words = _MENTION.sub(lambda m: names(int(m[1])) or "a player", words)
    words = _STRUCK.sub(lambda m: "".join(c + "\u0336" for c in m[1]), words)
    return _MARKUP.sub(lambda m: m[1] or "", words).replace("@\u200b", "@")
