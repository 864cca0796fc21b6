"""The turn system: turn modes, initiative, action budgets and the advance of rounds.

A battle's turn state lives in `battle.turn`, a `rules.turnstate.TurnState` saved with the battle:

    mode        "initiative", "side" or "free" (set by the GM; the ruleset gives the default)
    round       the round these turns belong to
    units       the ids of the units taking part this round, in acting order
    initiative  this round's initiative records, best first (initiative mode only)
    left        actions left this turn, per unit id
    done        ids of units whose turn is over this round, and how ("ended", "held", "skipped", ...)
    at          the unit id or side play was last announced to stand at
    standing    standing orders per unit id, as order text

Units are recorded by their stable id, so renaming a unit mid-round changes nothing here. Functions
that return units (`next_due`, `still_due`...) return ids; `battle.unit(id).name` is what players read.

Who is due is always derived from these (the first unit not done in initiative order; the first
side, in the order sides were created, that still has a unit not done), so a unit that is
destroyed or removed simply drops out, and the state cannot point at a unit that is gone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.core_effects import PhaseChanged, RoundStarted, TurnLost, TurnPassed
from rules.dice import Dice, parse_dice
from rules.errors import GameError, IllegalOrderError, InvalidOrderError, NotYourTurnError, RulesetError
from rules.orders import Move, Order
from rules.outcome import Outcome
from rules.system import system_of
from rules.turnstate import InitiativeRecord
from rules.units import Unit

if TYPE_CHECKING:
    from rules.board import Board
    from rules.coords import Cell

MODES = ("initiative", "side", "free")

# The turn system's own orders check their own rules in their handlers.
TURN_KINDS = frozenset({
    "end-turn", "hold", "skip-turn", "close-round", "set-turn-mode", "standing-order", "standing-turn",
})
TURN_ENDING = frozenset({"end-turn", "hold"})  # the orders that give up the rest of a unit's turn

# How a unit's turn ended, as said in a refusal: "Eva-01 has ended its turn this round".
DONE_PHRASES = {
    "ended": "has ended its turn",
    "held": "is holding",
    "skipped": "had its turn skipped",
    "stunned": "is stunned and lost its turn",
    "standing": "followed its standing order",
}

_BONUS_RE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]+B)(?![A-Za-z0-9])", re.IGNORECASE)

# Dice can tie forever only in theory; after this many roll-offs the order units were added decides.
MAX_ROLL_OFFS = 20

# Map-wide effects (weather, spreading hazards) resolve once at the start of every round, before any unit
# acts (A06): each rule system lists its own in `System.round_start`.


# --- the ruleset's [turns] table ------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """What an order costs: an action type and its points against the budget."""

    action: str
    points: int

    @property
    def label(self) -> str:
        """Return the action type as players say it ("a Full action")."""
        return f"a {self.action.title()} action"


@dataclass(frozen=True, slots=True)
class CostRule:
    """How one order kind is costed: a fixed action type, or one picked by a field of the order."""

    action: str
    by: str = ""
    choices: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TurnRules:
    """A ruleset's turn rules: default mode, initiative formula, budget and action costs."""

    mode: str = "initiative"
    initiative: str = "1d10+AB"
    budget: int = 2
    default_action: str = "half"
    actions: Mapping[str, int] = field(default_factory=lambda: {"half": 1, "full": 2, "free": 0})
    costs: Mapping[str, CostRule] = field(default_factory=dict)
    reactions: frozenset[str] = frozenset()
    not_counted: frozenset[str] = frozenset()

    def cost(self, order: Order) -> Cost:
        """Return what an order costs under these rules."""
        rule = self.costs.get(order.kind)
        action = self.default_action if rule is None else rule.action
        if rule is not None and rule.by:
            value = getattr(order, rule.by, None)
            if value is not None:
                action = rule.choices.get(str(value).strip().lower(), action)
        return Cost(action, self.actions[action])


def _names(value: Any, key: str, where: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesetError(f"{where}: `{key}` must be a list of order kinds")
    return frozenset(value)


def check_initiative_formula(formula: str, tokens: frozenset[str], where: str = "initiative") -> str:
    """Validate an initiative formula: dice notation with the unit's bonuses (such as AB) as tokens."""
    for token in _BONUS_RE.findall(formula):
        if token.upper() not in tokens:
            known = ", ".join(sorted(tokens)) or "none in this rule system"
            raise RulesetError(f"{where}: `{token}` is not a characteristic bonus; use one of {known}")
    try:
        parse_dice(_BONUS_RE.sub("0", formula))
    except GameError as exc:
        raise RulesetError(f"{where}: {exc.message}") from None
    return formula


def parse_turn_rules(data: Mapping[str, Any], where: str = "<data>", tokens: frozenset[str] = frozenset()) -> TurnRules:
    """Validate the `[turns]` table of a ruleset document and build its TurnRules."""
    table = data.get("turns", {})
    if not isinstance(table, dict):
        raise RulesetError(f"{where}: `turns` must be a table")
    where = f"{where} [turns]"
    mode = table.get("turn_mode", "initiative")
    if mode not in MODES:
        raise RulesetError(f"{where}: `turn_mode` must be one of {', '.join(MODES)}")
    formula = check_initiative_formula(str(table.get("initiative", "1d10+AB")), tokens, f"{where} initiative")
    budget = table.get("budget", 2)
    if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget <= 20:
        raise RulesetError(f"{where}: `budget` must be a whole number from 1 to 20")
    actions = table.get("actions", {"half": 1, "full": 2, "free": 0})
    if not isinstance(actions, dict) or not actions:
        raise RulesetError(f"{where}: `actions` must be a table of action types and their points")
    for name, points in actions.items():
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise RulesetError(f"{where}: action `{name}` must cost a whole number of points, 0 or more")

    def action(value: Any, what: str) -> str:
        if not isinstance(value, str) or value not in actions:
            raise RulesetError(f"{where}: {what} must be one of the action types {', '.join(actions)}")
        return value

    default_action = action(table.get("default_action", "half"), "`default_action`")
    costs: dict[str, CostRule] = {}
    raw_costs = table.get("action_costs", {})
    if not isinstance(raw_costs, dict):
        raise RulesetError(f"{where}: `action_costs` must be a table of order kinds")
    for kind, spec in raw_costs.items():
        if isinstance(spec, str):
            costs[kind] = CostRule(action(spec, f"the cost of `{kind}`"))
            continue
        if not isinstance(spec, dict) or not isinstance(spec.get("by"), str):
            raise RulesetError(f"{where}: the cost of `{kind}` is an action type or a table with `by`")
        choices = {
            str(k).lower(): action(v, f"`{kind}.{k}`") for k, v in spec.items() if k not in ("by", "default")
        }
        fallback = action(spec.get("default", default_action), f"`{kind}.default`")
        costs[kind] = CostRule(fallback, spec["by"], choices)
    return TurnRules(
        mode=mode, initiative=formula, budget=budget, default_action=default_action, actions=dict(actions),
        costs=costs, reactions=_names(table.get("reactions", []), "reactions", where),
        not_counted=_names(table.get("not_counted", []), "not_counted", where),
    )


_CACHE: dict[str, TurnRules] = {}


def turn_rules(ruleset_id: str) -> TurnRules:
    """Return the turn rules of a ruleset, read from its data file once."""
    rid = ruleset_id.strip().lower()
    if rid not in _CACHE:
        system = system_of(rid)
        _CACHE[rid] = parse_turn_rules(system.document(rid), f"{rid}.toml", system.initiative_tokens)
    return _CACHE[rid]


def order_cost(battle: Board, order: Order) -> Cost:
    """Return what an order costs in this battle's ruleset."""
    return turn_rules(battle.ruleset_id).cost(order)


def cheapest_move(battle: Board, unit_name: str, to: Cell) -> Move | None:
    """Return the legal move to a square that costs least, or None when no mode reaches it now.

    Between modes of equal cost the one the ruleset lists first wins: rulesets list their modes from the most
    modest (a Full move before a Run). A mode that is an order of its own (a charge) is not a move. Each mode is
    asked of the move's check phase, so nothing is generated or tried.
    """
    found = battle.find_unit(unit_name)
    if found is None:
        return None
    system = system_of(battle.ruleset_id)
    moves = [Move(unit=found.name, to=to, mode=m) for m in battle.ruleset.move_modes if not system.plays(m)]
    legal = [m for m in moves if battle.is_legal(m)]
    return min(legal, key=lambda m: order_cost(battle, m).points, default=None)


def next_orders(battle: Board, unit_ref: str) -> list[Order] | None:
    """Return what a unit may do after an order, as its legal orders; None when there is nothing to offer it
    (a battle not running, a system without a map, a unit gone or out of the fight)."""
    if battle.status != "active" or not system_of(battle.ruleset_id).has_map:
        return None
    unit = battle.find_unit(unit_ref)
    if unit is None or not unit.alive:
        return None
    return battle.legal_orders(unit)


def idle_end(battle: Board, orders: list[Order]) -> Order | None:
    """Return the order that ends a unit's turn when its legal orders hold nothing but ending it, else None.

    A system whose units give orders `legal_orders` does not generate (`System.ends_idle_turns` False) never
    ends a turn this way.
    """
    if not system_of(battle.ruleset_id).ends_idle_turns:
        return None
    ender = next((o for o in orders if o.kind == "end-turn"), None)
    if ender is None or any(o.kind not in TURN_ENDING for o in orders):
        return None
    return ender


# --- reading the state ------------------------------------------------------


def engaged(battle: Board) -> bool:
    """Return whether turns are running: the battle is active and a round has been set up."""
    return battle.status == "active" and battle.turn.set_up


def mode_of(battle: Board) -> str:
    """Return the battle's turn mode (the GM's choice, else the ruleset's default)."""
    return battle.turn.mode or turn_rules(battle.ruleset_id).mode


def _done(battle: Board) -> dict[str, str]:
    return battle.turn.done


def _live(battle: Board, uid: str) -> Unit | None:
    unit = battle.units.get(uid)
    return unit if unit is not None and unit.alive else None


def participants(battle: Board) -> list[str]:
    """Return the ids of the units taking part in this round still in the fight, in acting order."""
    units = battle.units
    return [n for n in battle.turn.units or () if (u := units.get(n)) is not None and u.alive]


def _entry(battle: Board, ref: str) -> str | None:
    """Return a unit's id if it takes part in the round (`ref` is its id or its name)."""
    unit = battle.find_unit(ref)
    if unit is None or not unit.alive:
        return None
    # Units are keyed by their id, so the unit found is the one the round's list names.
    return unit.id if unit.id in (battle.turn.units or ()) else None


def has_turn_left(battle: Board, ref: str) -> bool:
    """Return whether a unit takes part in this round and has not finished its turn."""
    entry = _entry(battle, ref)
    return entry is not None and entry not in _done(battle)


def name_of(battle: Board, uid: str) -> str:
    """Return the name players read for a unit id (the id itself if the unit is gone)."""
    unit = battle.units.get(uid)
    return unit.name if unit is not None else uid


def names_of(battle: Board, ids: list[str]) -> list[str]:
    """Return the names players read for a list of unit ids."""
    return [name_of(battle, i) for i in ids]


def still_due(battle: Board) -> list[str]:
    """Return the units that have not finished their turn this round, in acting order."""
    if not engaged(battle):
        return []
    done = _done(battle)
    units = battle.units
    # One pass over the round, the cheap test first: this runs several times per order.
    return [n for n in battle.turn.units or () if n not in done and (u := units.get(n)) is not None and u.alive]


def _side_of(battle: Board, name: str) -> str:
    unit = _live(battle, name)
    return unit.side if unit is not None else ""


def _sides_due(battle: Board, due: list[str] | None = None) -> list[str]:
    """Return the sides that still have a unit due, in the order the sides were created.

    `due` is still_due(battle) when the caller has it already.
    """
    due_sides = {_side_of(battle, n) for n in (still_due(battle) if due is None else due)}
    lowered = {s.lower() for s in due_sides}
    ordered = [s.name for s in battle.sides if s.name.lower() in lowered]
    known = {s.lower() for s in ordered}
    # A unit whose side is not listed (a hand-edited document) still gets a phase, last.
    return ordered + sorted(s for s in due_sides if s.lower() not in known)


def current_side(battle: Board) -> str | None:
    """Return the side whose phase it is (side mode), if any unit is still due."""
    if not engaged(battle) or mode_of(battle) != "side":
        return None
    sides = _sides_due(battle)
    return sides[0] if sides else None


def current_unit(battle: Board) -> str | None:
    """Return the unit whose turn it is (initiative mode), if any unit is still due."""
    if not engaged(battle) or mode_of(battle) != "initiative":
        return None
    due = still_due(battle)
    return due[0] if due else None


def next_due(battle: Board) -> list[str]:
    """Return the units that may act now: the current unit, the phase's units due, or all units due."""
    due = still_due(battle)
    mode = mode_of(battle)
    if mode == "initiative":
        return due[:1]
    if mode == "side":
        # The phase's side, from the list already in hand (what current_side would find).
        sides = _sides_due(battle, due) if engaged(battle) else []
        if not sides:
            return []
        side = sides[0].lower()
        return [n for n in due if _side_of(battle, n).lower() == side]
    return due


def initiative_of(battle: Board, ref: str) -> int | None:
    """Return a unit's initiative this round, if initiative was rolled."""
    unit = battle.find_unit(ref)
    for record in battle.turn.initiative:
        if unit is not None and record.id == unit.id:
            return record.total
    return None


def _maybe_name(battle: Board, uid: str | None) -> str | None:
    return None if uid is None else name_of(battle, uid)


def actions_left(battle: Board, unit_name: str) -> int:
    """Return how many action points a unit has left this turn."""
    unit = battle.unit(unit_name)
    rules = turn_rules(battle.ruleset_id)
    if not engaged(battle):
        return rules.budget if battle.status == "setup" else 0
    entry = _entry(battle, unit.id)
    if entry is None or entry in _done(battle) or "stunned" in unit.statuses:
        return 0
    return battle.turn.left.get(entry, 0)


def standing_order_of(battle: Board, unit_name: str) -> str | None:
    """Return a unit's standing order text, if it has one."""
    unit = battle.find_unit(unit_name)
    return battle.turn.standing.get(unit.id) if unit is not None else None


def _join(names: list[str], limit: int = 4) -> str:
    shown = names[:limit]
    if len(names) > limit:
        return f"{', '.join(shown)} and {len(names) - limit} more"
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def turn_status(battle: Board) -> dict[str, Any]:
    """Return the turn state for a status board: round, mode, whose turn, who is due, budgets."""
    rules = turn_rules(battle.ruleset_id)
    running = engaged(battle)
    done = _done(battle) if running else {}
    now = set(next_due(battle))
    taking_part = participants(battle) if running else []
    recorded = set(taking_part)
    # Built once so the board stays linear in the number of units.
    initiative = {r.id: r.total for r in battle.turn.initiative}
    standing = battle.turn.standing
    left = battle.turn.left
    rank = {uid: i for i, uid in enumerate(taking_part)}
    units: list[dict[str, Any]] = []
    for unit in sorted(battle.iter_units(), key=lambda u: rank.get(u.id, len(rank))):
        key = unit.id
        entry = key if key in recorded else None
        actions = 0
        if not running:
            state = battle.status
            actions = rules.budget if battle.status == "setup" else 0
        elif not unit.alive:
            state = "out"
        elif entry is None:
            state = "next_round"
        elif entry in done:
            state = done[entry]
        else:
            state = "acting" if entry in now else "waiting"
            actions = 0 if "stunned" in unit.statuses else left.get(entry, 0)
        units.append({
            "unit": unit.name, "id": unit.id, "side": unit.side, "owner": unit.owner, "state": state, "actions_left": actions,
            "initiative": initiative.get(key) if running else None, "standing_order": standing.get(key),
        })
    return {
        "round": battle.round, "status": battle.status, "mode": mode_of(battle), "running": running,
        "budget": rules.budget, "current": _maybe_name(battle, current_unit(battle)), "phase": current_side(battle),
        "next_due": names_of(battle, next_due(battle)), "still_due": names_of(battle, still_due(battle)),
        "initiative": [r.to_dict() for r in battle.turn.initiative] if running else [],
        "units": units,
    }


# --- may this unit act now? -------------------------------------------------


def _actor(battle: Board, order: Order) -> str | None:
    """Return the unit that plays an order, when the turn system governs that order."""
    if order.kind in TURN_KINDS or order.kind in turn_rules(battle.ruleset_id).not_counted:
        return None
    name = getattr(order, "unit", None)
    if not isinstance(name, str) or not name.strip():
        return None
    unit = battle.find_unit(name)
    return unit.id if unit is not None else None


def why_not_now(battle: Board, unit_name: str) -> str | None:
    """Return why a unit may not act at this moment of the round, or None if it may."""
    unit = battle.unit(unit_name)
    following = battle.round + 1
    if not unit.alive:
        return f"{unit.name} is out of the fight and takes no more turns."
    if not unit.takes_turns:
        return f"{unit.name} stands on the map but takes no turns (it gives no orders)."
    entry = _entry(battle, unit.id)
    if entry is None:
        return f"{unit.name} joined the battle during round {battle.round}; its first turn is in round {following}."
    how = _done(battle).get(entry)
    if how is not None:
        phrase = DONE_PHRASES.get(how, "has finished its turn")
        return f"{unit.name} {phrase} this round; it acts again in round {following}."
    mode = mode_of(battle)
    if mode == "initiative":
        due = still_due(battle)
        current = due[0]
        if current != entry:
            ahead = names_of(battle, due[: due.index(entry)])
            when = "next" if len(ahead) == 1 else f"after {_join(ahead)}"
            return (
                f"It is {name_of(battle, current)}'s turn (initiative {initiative_of(battle, current)}); "
                f"{unit.name} acts {when}, at initiative {initiative_of(battle, entry)}."
            )
    elif mode == "side":
        sides = _sides_due(battle)
        own = unit.side
        if sides and sides[0].lower() != own.lower():
            position = [s.lower() for s in sides].index(own.lower())
            when = "next phase" if position == 1 else f"in a later phase, after {_join(sides[1:position])}"
            return f"It is the {sides[0]} phase; {own} units act {when}."
    return None


def due_entry(battle: Board, unit_name: str) -> str:
    """Return the id of a unit due this round, or explain why its turn is already over."""
    unit = battle.unit(unit_name)
    entry = _entry(battle, unit.id)
    if entry is not None and entry not in _done(battle):
        return entry
    raise IllegalOrderError(why_not_now(battle, unit.name) or f"{unit.name} has no turn left this round.")


def check_may_act(battle: Board, order: Order) -> None:
    """Refuse an order whose unit may not act now: not its turn or phase, or no actions left."""
    if not engaged(battle):
        return
    name = _actor(battle, order)
    rules = turn_rules(battle.ruleset_id)
    if name is None or order.kind in rules.reactions:
        return
    why = why_not_now(battle, name)
    if why is not None:
        raise NotYourTurnError(why)
    cost = rules.cost(order)
    left = actions_left(battle, name)
    name = name_of(battle, name)
    if cost.points == 0 or cost.points <= left:
        return
    if left == 0:
        raise NotYourTurnError(f"{name} has no actions left this turn; end its turn with /turn end.")
    plural = "action" if left == 1 else "actions"
    raise NotYourTurnError(
        f"{name} has {left} {plural} left this turn, but `{order.kind}` here is {cost.label} "
        f"({cost.points}); pick a cheaper action or end its turn with /turn end."
    )


# --- changing the state -----------------------------------------------------


def spend(battle: Board, order: Order, outcome: Outcome, dice: Dice) -> None:
    """Deduct what an order cost from its unit's budget, then pass the turn if nobody is due."""
    if not engaged(battle):
        return
    name = _actor(battle, order)
    if name is not None:
        rules = turn_rules(battle.ruleset_id)
        cost = rules.cost(order)
        entry = _entry(battle, name)
        left = battle.turn.left
        # Reactions happen outside the unit's turn, so they never draw on its budget.
        if entry is not None and order.kind not in rules.reactions and entry in left:
            left[entry] = max(0, left[entry] - cost.points)
        outcome.turn.action = cost.action
        outcome.turn.action_cost = 0 if order.kind in rules.reactions else cost.points
        outcome.turn.actions_left = actions_left(battle, name)
    settle(battle, dice, outcome)


def finish_turn(battle: Board, name: str, how: str) -> bool:
    """Mark a unit's turn over for this round; return False if it was not due."""
    entry = _entry(battle, name)
    done = battle.turn.done
    if entry is None or entry in done:
        return False
    done[entry] = how
    return True


def _lose_stunned_turns(battle: Board, outcome: Outcome) -> bool:
    """End the turns of stunned units as they come due: a Stunned unit loses its actions (A01)."""
    changed = False
    while True:
        stunned = [n for n in next_due(battle) if "stunned" in battle.units[n].statuses]
        if not stunned:
            return changed
        for uid in stunned:
            finish_turn(battle, uid, "stunned")
            outcome.add(TurnLost(unit=name_of(battle, uid), reason="stunned"))
        changed = True


def _announce(battle: Board, outcome: Outcome) -> bool:
    """Record an effect when play has moved to another unit or side; return whether it moved."""
    mode = mode_of(battle)
    at = current_unit(battle) if mode == "initiative" else current_side(battle) if mode == "side" else None
    before = battle.turn.at
    if at == before:
        return False
    battle.turn.at = at
    if at is None:
        return True
    details: dict[str, Any] = {"round": battle.round}
    if before is not None:
        details["frm"] = name_of(battle, before) if mode == "initiative" else before
    if mode == "initiative":
        outcome.add(TurnPassed(to=name_of(battle, at), initiative=initiative_of(battle, at), **details))
    else:
        outcome.add(PhaseChanged(side=at, **details))
    return True


def settle(battle: Board, dice: Dice, outcome: Outcome) -> None:
    """Pass the turn, change the phase or start the next round when nobody is due where play stands."""
    if not engaged(battle):
        return
    if battle.turn.round != battle.round:
        # Another order moved the round on (and resolved its effects); set up that round's turns.
        _start_round(battle, dice, outcome, effects=False)
        return
    changed = _lose_stunned_turns(battle, outcome)
    if not still_due(battle) and any(u.alive for u in battle.iter_units()):
        advance_round(battle, dice, outcome)
        return
    if _announce(battle, outcome) or changed:
        outcome.turn.next_due = names_of(battle, next_due(battle))


def initiative_notation(formula: str, unit: Unit) -> str:
    """Return an initiative formula with the unit's bonuses written in (`1d10+AB` -> `1d10+4`)."""

    def value(match: re.Match[str]) -> str:
        return str(unit.stat_bonus(match.group(1)) or 0)

    return _BONUS_RE.sub(value, formula)


def roll_initiative(battle: Board, dice: Dice) -> list[InitiativeRecord]:
    """Roll initiative for this round's units, order them and record every roll."""
    formula = turn_rules(battle.ruleset_id).initiative
    records: list[InitiativeRecord] = []
    # Roll in the order units were added, so a round's dice read the same whatever last round's order was.
    taking_part = set(participants(battle))
    for unit in battle.iter_units():
        if unit.id not in taking_part:
            continue
        roll = dice.roll(initiative_notation(formula, unit), f"Initiative: {unit.name}")
        records.append(InitiativeRecord(
            id=unit.id, unit=unit.name, total=roll.total, faces=list(roll.faces),
            bonus=roll.total - sum(roll.faces), tiebreak=unit.initiative_tiebreak(),
        ))
    # Highest total first; ties go to the higher tie-breaker of the unit, then to a roll-off among those still tied.
    ranked = sorted(records, key=lambda r: (-r.total, -r.tiebreak))
    ordered: list[InitiativeRecord] = []
    for _key, group in itertools.groupby(ranked, key=lambda r: (r.total, r.tiebreak)):
        ordered.extend(_roll_off(list(group), dice, 0))
    battle.turn.initiative = ordered
    battle.turn.units = [r.id for r in ordered]
    return ordered


def _roll_off(group: list[InitiativeRecord], dice: Dice, depth: int) -> list[InitiativeRecord]:
    if len(group) == 1 or depth >= MAX_ROLL_OFFS:
        return group
    for record in group:
        record.rolloff.append(dice.d(10, f"Initiative roll-off: {record.unit}"))
    ranked = sorted(group, key=lambda r: -r.rolloff[-1])
    ordered: list[InitiativeRecord] = []
    for _face, tied in itertools.groupby(ranked, key=lambda r: r.rolloff[-1]):
        ordered.extend(_roll_off(list(tied), dice, depth + 1))
    return ordered


def _start_round(battle: Board, dice: Dice, outcome: Outcome, effects: bool = True) -> None:
    """Set up the current round: who takes part, fresh budgets, initiative, start-of-round effects."""
    rules = turn_rules(battle.ruleset_id)
    mode = mode_of(battle)
    turn = battle.turn
    turn.mode = mode
    turn.round = battle.round
    # Units added during the last round join here; destroyed ones are left out.
    turn.units = [u.id for u in battle.iter_units() if u.alive and u.takes_turns]
    turn.left = dict.fromkeys(turn.units, rules.budget)
    turn.done = {}
    turn.initiative = []
    turn.at = None
    if mode == "initiative":
        roll_initiative(battle, dice)
        outcome.turn.initiative = deepcopy(turn.initiative)
    outcome.add(RoundStarted(round=battle.round, mode=mode, order=names_of(battle, turn.units)))
    for effect in system_of(battle.ruleset_id).round_start if effects else ():
        effect(battle, dice, outcome)
    _lose_stunned_turns(battle, outcome)
    _announce(battle, outcome)
    outcome.turn.round = battle.round
    outcome.turn.next_due = names_of(battle, next_due(battle))


def advance_round(battle: Board, dice: Dice, outcome: Outcome) -> None:
    """End the round and start the next: budgets, initiative, first unit or phase, then round effects."""
    require_active(battle)
    battle.round += 1
    _start_round(battle, dice, outcome)


def begin_battle(battle: Board, dice: Dice, outcome: Outcome) -> None:
    """Set up round 1 as a new round is set up (the `start` order calls this).

    Start-of-round effects do not run here: the map the GM set up is the state at the start of round 1,
    so an effect placed in setup has not already moved on or worn off when the first unit acts.
    """
    battle.round = 1
    _start_round(battle, dice, outcome, effects=False)


def require_active(battle: Board) -> None:
    """Refuse an order outside an active battle, saying whether it has not started or has ended."""
    if battle.status == "setup":
        raise IllegalOrderError("The battle has not started yet; the GM starts it with /battle start.")
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


def require_running(battle: Board) -> None:
    """Refuse turn orders unless the battle is active with its turns set up."""
    require_active(battle)
    if not engaged(battle):
        raise IllegalOrderError("This battle has no turn order yet; the GM can start a round with /turn close-round.")


def set_mode(battle: Board, mode: str, dice: Dice, outcome: Outcome) -> None:
    """Switch the turn mode; in a running round, units keep what they have done and spent."""
    battle.turn.mode = mode
    if not engaged(battle):
        return
    if mode == "initiative":
        roll_initiative(battle, dice)
        outcome.turn.initiative = deepcopy(battle.turn.initiative)
    else:
        battle.turn.initiative = []
    # Forget where play stood so the new mode's first unit or side is announced.
    battle.turn.at = None
    settle(battle, dice, outcome)
    outcome.turn.next_due = names_of(battle, next_due(battle))


def check_mode(mode: str) -> str:
    """Return a turn mode's name, or explain which modes exist."""
    clean = mode.strip().lower()
    if clean not in MODES:
        raise InvalidOrderError(f"`{mode}` is not a turn mode; use initiative, side or free.")
    return clean

