"""Rulesets: each rule system's tables and constants, loaded from validated TOML data files."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.errors import RulesetError, shorten

ELEVATIONS = ("low", "middle", "high")
PATTERNS = (
    "none", "dots", "hatch", "crosshatch", "waves", "trees", "bricks",
    "triangles", "grid", "vertical", "horizontal", "stipple",
)


MAX_CONSTANT_INT = 2**53  # a bound for constants declared without one: every stored number stays exact
MAX_CONSTANT_TEXT = 100

@dataclass(frozen=True, slots=True)
class TerrainType:
    """One row of a terrain table."""

    key: str
    name: str
    char: str
    ap: int = 0
    dtv: int = 0
    hit_penalty: int = 0
    hit_bonus: int = 0
    elevation: str = "middle"
    stealth: int | None = None  # None: hiding is not allowed here (A41)
    flammable: bool = False
    water: bool = False
    hover_ignores_dtv: bool = False
    aquatic_ignores: bool = False
    color: tuple[int, int, int] = (200, 200, 200)
    pattern: str = "none"
    notes: str = ""


@dataclass(frozen=True, slots=True)
class Constant:
    """A named rule constant (usually a ruling of RULES.md) a GM may override per battle."""

    key: str
    value: int | bool | str | float
    doc: str
    ruling: str
    min: int | float | None = None
    max: int | float | None = None
    step: float | None = None  # a measure that may be fractional: a positive multiple of this step (`0.25`)

    def coerce(self, text: str) -> int | bool | str | float:
        """Parse and validate a GM's override for this constant."""
        raw = text.strip()
        if self.step is not None:
            return self._measure(raw)
        if isinstance(self.value, bool):
            low = raw.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise RulesetError(f"`{self.key}` is true or false, not `{shorten(raw)}`.")
        if isinstance(self.value, int):
            lo = self.min if self.min is not None else -MAX_CONSTANT_INT
            hi = self.max if self.max is not None else MAX_CONSTANT_INT
            wrong = f"`{self.key}` is a whole number from {lo} to {hi}, not `{shorten(raw)}`."
            # More digits than the widest bound is refused unread, so int() never reads thousands of digits.
            if len(raw.lstrip("+-").lstrip("0")) > max(len(str(lo)), len(str(hi))):
                raise RulesetError(wrong)
            try:
                value = int(raw)
            except ValueError:
                raise RulesetError(wrong) from None
            if not lo <= value <= hi:
                raise RulesetError(f"`{self.key}` must be between {lo} and {hi}; `{value}` is not.")
            return value
        if len(raw) > MAX_CONSTANT_TEXT:
            raise RulesetError(f"`{self.key}` is at most {MAX_CONSTANT_TEXT} characters, like `{self.value}`; "
                               f"`{shorten(raw, 40)}` has {len(raw):,}.")
        return raw

    def _measure(self, raw: str) -> int | float:
        """Parse a fractional measure: a positive multiple of the step within the bounds, kept exact."""
        step = exact(self.step or 1)
        lo, hi = exact(self.min if self.min is not None else step), exact(self.max if self.max is not None else 10**6)
        wrong = (f"`{self.key}` is a multiple of {fraction_text(step)} from {fraction_text(lo)} to "
                 f"{fraction_text(hi)}, like `{self.value}`, not `{shorten(raw)}`")
        try:
            # At most 12 characters, so a fraction is never read from thousands of digits.
            value = Fraction(raw) if len(raw) <= 12 else None
        except (ValueError, ZeroDivisionError):
            value = None
        if value is None or value <= 0 or value % step or not lo <= value <= hi:
            raise RulesetError(wrong + ".")
        # Every step a ruleset declares is a halving (0.5, 0.25), so the value's float is exact.
        return int(value) if value.denominator == 1 else float(value)


def exact(value: int | float | str | Fraction) -> Fraction:
    """Return a stored measure (`0.25`, `5`, `"1/2"`) as an exact fraction, read from its shortest text."""
    if isinstance(value, Fraction):
        return value
    return _fraction(str(value))


@lru_cache(maxsize=256)
def _fraction(text: str) -> Fraction:
    """Read a measure's text once: a placement judges thousands of squares at one scale."""
    return Fraction(text)


def fraction_text(value: Fraction | int | float) -> str:
    """Write a measure as players read it: `0.5`, `0.25`, `12`."""
    value = exact(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}" if (value * 10**6).denominator == 1 else f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True, slots=True)
class RangeBand:
    """A range band: its name, the formula of its upper bound and its to-hit modifier."""

    key: str
    name: str
    max: str
    mod: int


@dataclass(frozen=True)
class Ruleset:
    """A rule system: its terrain table, range bands and named constants, and its system's own sections."""

    id: str
    name: str
    scale: str
    square_unit: str
    default_terrain: str
    unit_kinds: tuple[str, ...]
    move_modes: tuple[str, ...]
    stacking: str
    action_budget: int
    range_conversion: str
    bands: tuple[RangeBand, ...]
    terrain: dict[str, TerrainType]
    constants: dict[str, Constant]
    default_move_mode: str = ""  # the mode a move takes when none is given; one of `move_modes`
    scale_key: str = ""  # the constant saying how much table one square stands for, if the scale may change
    table: tuple[int, int] | None = None  # the largest table played, long side first, in the scale's unit
    # What a rule system adds to a battle's ruleset from its homebrew tables, by table name; each system reads
    # its own through a typed accessor, and a ruleset without one reads its data file's.
    sections: Mapping[str, object] = field(default_factory=dict)
    _by_char: dict[str, TerrainType] = field(default_factory=dict, repr=False)

    def terrain_type(self, key: str) -> TerrainType:
        """Return the terrain with this key or name, or explain which exist."""
        wanted = key.strip().lower()
        for t in self.terrain.values():
            if wanted in (t.key, t.name.lower()):
                return t
        names = ", ".join(f"`{k}`" for k in self.terrain)
        raise RulesetError(f"There is no terrain `{shorten(key)}` in {self.id}. Use one of: {names}.")

    def terrain_by_char(self, char: str) -> TerrainType | None:
        """Return the terrain drawn with this map character, if any."""
        if not self._by_char:
            self._by_char.update({t.char: t for t in self.terrain.values()})
        return self._by_char.get(char)

    def constant(self, key: str) -> Constant:
        """Return the named constant, or explain which exist."""
        try:
            return self.constants[key]
        except KeyError:
            names = ", ".join(f"`{k}`" for k in sorted(self.constants))
            raise RulesetError(f"There is no rule constant `{shorten(key)}` in {self.id}. Known: {names}.") from None


def need_field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """Return a data table's field of the given type, or refuse the table saying which field is missing or wrong."""
    if key not in data:
        raise RulesetError(f"{where}: missing `{key}`")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RulesetError(f"{where}: `{key}` must be {kind.__name__}, got {type(value).__name__}")
    return value


def int_field(data: dict[str, Any], key: str, where: str, default: int = 0) -> int:
    """Return a data table's optional whole-number field, or refuse the table when it is not one."""
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesetError(f"{where}: `{key}` must be a whole number")
    return value


def parse_terrain(data: dict[str, Any], where: str) -> TerrainType:
    """Validate one `[[terrain]]` table (of a ruleset's data file or a battle's homebrew table)."""
    key = need_field(data, "key", str, where)
    where = f"{where} ({key})"
    char = need_field(data, "char", str, where)
    if len(char) != 1:
        raise RulesetError(f"{where}: `char` must be one character")
    elevation = data.get("elevation", "middle")
    if elevation not in ELEVATIONS:
        raise RulesetError(f"{where}: `elevation` must be one of {ELEVATIONS}")
    pattern = data.get("pattern", "none")
    if pattern not in PATTERNS:
        raise RulesetError(f"{where}: `pattern` must be one of {PATTERNS}")
    color = data.get("color", [200, 200, 200])
    if not (isinstance(color, list) and len(color) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in color)):
        raise RulesetError(f"{where}: `color` must be three numbers 0-255")
    stealth = data.get("stealth")
    if stealth is not None and not isinstance(stealth, int):
        raise RulesetError(f"{where}: `stealth` must be a whole number or absent")
    flags = {k: bool(data.get(k, False)) for k in ("flammable", "water", "hover_ignores_dtv", "aquatic_ignores")}
    dtv = int_field(data, "dtv", where)
    if dtv < 0:
        raise RulesetError(f"{where}: `dtv` cannot be negative")
    return TerrainType(
        key=key, name=need_field(data, "name", str, where), char=char,
        ap=int_field(data, "ap", where), dtv=dtv,
        hit_penalty=int_field(data, "hit_penalty", where), hit_bonus=int_field(data, "hit_bonus", where),
        elevation=elevation, stealth=stealth, color=(color[0], color[1], color[2]), pattern=pattern,
        notes=str(data.get("notes", "")), **flags,
    )


def parse_ruleset(data: dict[str, Any], source: str = "<data>") -> Ruleset:
    """Validate a ruleset document and build the Ruleset."""
    rid = need_field(data, "id", str, source)
    where = f"{source} [{rid}]"
    terrain: dict[str, TerrainType] = {}
    for i, row in enumerate(data.get("terrain", [])):
        t = parse_terrain(row, f"{where} terrain #{i + 1}")
        if t.key in terrain:
            raise RulesetError(f"{where}: terrain `{t.key}` defined twice")
        if any(o.char == t.char for o in terrain.values()):
            raise RulesetError(f"{where}: map character `{t.char}` used twice")
        terrain[t.key] = t
    default = need_field(data, "default_terrain", str, where)
    if default not in terrain:
        raise RulesetError(f"{where}: default terrain `{default}` is not in the terrain table")
    constants: dict[str, Constant] = {}
    for key, spec in need_field(data, "constants", dict, where).items():
        if not isinstance(spec, dict) or "value" not in spec:
            raise RulesetError(f"{where}: constant `{key}` needs a value")
        value = spec["value"]
        if not isinstance(value, (int, bool, str, float)):
            raise RulesetError(f"{where}: constant `{key}` must be a number, true/false or text")
        step = spec.get("step")
        if step is not None and (isinstance(step, bool) or not isinstance(step, (int, float)) or step <= 0):
            raise RulesetError(f"{where}: constant `{key}` has a `step` that is not a positive number")
        constants[key] = Constant(
            key=key, value=value, doc=str(spec.get("doc", "")), ruling=str(spec.get("ruling", "")),
            min=spec.get("min"), max=spec.get("max"), step=None if step is None else float(step),
        )
    rng = need_field(data, "range", dict, where)
    bands = tuple(
        RangeBand(key=str(b["key"]), name=str(b["name"]), max=str(b["max"]), mod=int(b["mod"]))
        for b in rng.get("bands", [])
    )
    modes = tuple(str(m) for m in data.get("move_modes", ["full"]))
    if not modes:
        raise RulesetError(f"{where}: `move_modes` needs at least one mode")
    move_default = str(data.get("default_move_mode", "full" if "full" in modes else modes[0]))
    if move_default not in modes:
        raise RulesetError(f"{where}: `default_move_mode` `{move_default}` is not one of `move_modes` ({', '.join(modes)})")
    scale_key = str(data.get("scale_key", ""))
    if scale_key and scale_key not in constants:
        raise RulesetError(f"{where}: `scale_key` `{scale_key}` is not one of its constants")
    table = data.get("table")
    if table is not None and not (isinstance(table, list) and len(table) == 2
                                  and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in table)):
        raise RulesetError(f"{where}: `table` is two whole numbers, its long and short sides")
    return Ruleset(
        id=rid, scale_key=scale_key, table=None if table is None else (max(table), min(table)), name=need_field(data, "name", str, where), scale=need_field(data, "scale", str, where),
        square_unit=need_field(data, "square_unit", str, where), default_terrain=default,
        unit_kinds=tuple(data.get("unit_kinds", ["ic"])), move_modes=modes, default_move_mode=move_default,
        stacking=str(data.get("stacking", "e")),
        action_budget=int_field(data, "action_budget", where, 2),
        range_conversion=str(rng.get("conversion", "e")), bands=bands,
        terrain=terrain, constants=constants,
    )


_CACHE: dict[str, Ruleset] = {}
# Where each ruleset's data document comes from, in the order the rule systems registered them
# (`rules.system.register` adds each system's rulesets).
_SOURCES: dict[str, Callable[[], dict[str, Any]]] = {}


def add_source(ruleset_id: str, read: Callable[[], dict[str, Any]]) -> None:
    """Make a ruleset known by the function that reads its data document (parsed when first asked for)."""
    _SOURCES[ruleset_id] = read
    _CACHE.pop(ruleset_id, None)


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset with this id, loading and validating its system's data file once."""
    rid = ruleset_id.strip().lower()
    if rid not in _CACHE:
        read = _SOURCES.get(rid)
        if read is None:
            known = ", ".join(f"`{r}`" for r in _SOURCES) or "none (no rule system is installed)"
            raise RulesetError(f"There is no ruleset `{ruleset_id}`. Choose one of: {known}.")
        _CACHE[rid] = parse_ruleset(read(), f"{rid}.toml")
    return _CACHE[rid]


def list_rulesets() -> list[Ruleset]:
    """Return every ruleset of every registered rule system."""
    return [get_ruleset(r) for r in _SOURCES]
