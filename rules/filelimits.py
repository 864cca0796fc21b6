"""Read what users send within bounds: size, nesting, counts, numbers and text, for JSON, TOML and XML alike.

Python's JSON and TOML readers recurse once per level of nesting and build every value in memory,
so a small file of 100,000 brackets or millions of tiny values could exhaust the stack or the
memory of the whole bot. These checks run first, in time linear in the file and in C where possible,
and refuse such a file with a message saying which limit it broke and where in the file.
After parsing, one walk (without recursion) checks every number and text against the limits and
names the place of the first that breaks one, like `forces.NERV[3].owner`.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any, cast

from rules.errors import InvalidOrderError, shorten

# The largest whole number anything stores: Discord ids stay under it, and the stored JSON holds 64 bits.
MAX_WHOLE = 2**63 - 1

# Everything that is not a bracket once strings (and TOML comments) are taken out.
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# A string that is never closed runs to the end of the text (JSON) or of its line (TOML) rather than failing:
# a failed match would be tried again at every quote inside it, and a line of escaped quotes (`"\"\"\"...`)
# would then take time growing with the square of its length.
_JSON_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_TOML_STRINGS_AND_COMMENTS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]++|\\.)*+(?:"|\\?(?=\n|\Z))|\'[^\'\n]*\'|#[^\n]*'
)
# A run of digits longer than any number a file may hold; found before tomllib converts it.
_LONG_NUMBER = re.compile(r"[0-9_]{" + str(len(str(MAX_WHOLE)) + 6) + ",}")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_XML_CHUNK = 64 * 1024


class FileLimitError(InvalidOrderError):
    """An attached file that breaks one of the limits on size, nesting, counts or numbers."""


@dataclass(frozen=True)
class Limits:
    """How big, how deep and how many a file of one kind may be."""

    what: str  # "an export", "a stat-block file": the words messages use
    max_bytes: int
    max_depth: int
    max_containers: int  # lists and objects (tables, elements), counted over the whole file
    max_values: int  # every value in every list and object
    max_string: int = 20_000
    max_int: int = MAX_WHOLE  # user ids are the largest whole numbers any file holds
    max_float: float = 1e15


# Small JSON typed into a command option (`stats:{"weapons": [...]}`, `value:[...]`).
# Discord lets an option hold 6,000 characters, of up to 4 bytes each.
TYPED_JSON = Limits("a value typed in a command", max_bytes=24_000, max_depth=6, max_containers=2_000,
                    max_values=6_000, max_string=6_000)
# A table inside an order's text (a unit's whole stat block, as replayed from the log or an export).
ORDER_JSON = Limits("an order", max_bytes=2 * 1024 * 1024, max_depth=12, max_containers=100_000,
                    max_values=1_000_000)


def _bytes(size: int) -> str:
    """Say a size in the unit that shows it best: 6,013 bytes, 300 KiB, 8 MiB."""
    if size >= 4 * 1024 * 1024:
        return f"{size // 1024 // 1024:,} MiB"
    return f"{size // 1024:,} KiB" if size >= 64 * 1024 else f"{size:,} bytes"


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _too_deep_at(text: str, skip: re.Pattern[str], max_depth: int) -> int:
    """Return the line where nesting first passes the limit, reading strings and brackets once."""
    depth = 0
    for match in re.finditer(skip.pattern + r"|[\[\]{}]", text, skip.flags):
        step = _DEPTH_STEP.get(match.group())
        if step is None:
            continue
        depth += step
        if depth > max_depth:
            return _line(text, match.start())
    return 1


def check_shape(text: str, limits: Limits, skip: re.Pattern[str]) -> None:
    """Refuse a text holding more values, more lists and tables, or deeper nesting than the limits allow.

    Strings (and comments) are cut out first so brackets and commas inside them do not count; the
    counts are done before the nesting walk so a huge file is refused in C time.
    """
    bare = skip.sub("", text)
    values = bare.count(",") + 1
    if values > limits.max_values:
        raise FileLimitError(f"The file holds about {values:,} values; {limits.what} may hold at most "
                             f"{limits.max_values:,}.")
    brackets = _NOT_BRACKET.sub("", bare)
    deepest = max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)
    if deepest > limits.max_depth:
        line = _too_deep_at(text, skip, limits.max_depth)
        raise FileLimitError(f"Line {line}: the file nests lists or tables {deepest:,} levels deep; {limits.what} "
                             f"never goes deeper than {limits.max_depth}.")
    opened = brackets.count("[") + brackets.count("{")
    if opened > limits.max_containers:
        raise FileLimitError(f"The file holds {opened:,} lists or tables; {limits.what} may hold at most "
                             f"{limits.max_containers:,}.")


def check_toml(text: str, limits: Limits) -> None:
    """Refuse a TOML text over the size, nesting or count limits, before tomllib reads it."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise FileLimitError(f"The file is {size // 1024:,} KiB; {limits.what} may be at most "
                             f"{limits.max_bytes // 1024:,} KiB.")
    check_shape(text, limits, _TOML_STRINGS_AND_COMMENTS)
    # tomllib converts every number it reads, and int() of thousands of digits is slow or refused outright.
    long_number = _LONG_NUMBER.search(_TOML_STRINGS_AND_COMMENTS.sub("", text))
    if long_number is not None:
        digits = long_number.group()
        raise FileLimitError(f"Line {_line(text, max(0, text.find(digits)))}: the file holds the number "
                             f"`{digits[:24]}`, {len(digits):,} digits long; {limits.what} holds none over "
                             f"{limits.max_int:,}.")


def load_toml(text: str, limits: Limits) -> dict[str, Any]:
    """Parse TOML within the limits; FileLimitError names the limit and place, tomllib.TOMLDecodeError bad TOML."""
    check_toml(text, limits)
    data = tomllib.loads(text)
    check_values(data, limits, text)
    return data


class _Unread:
    """A number no battle uses (too long, infinite, NaN), kept as written until its place in the file is known."""

    def __init__(self, text: str) -> None:
        self.text = text


def _whole(text: str) -> int | _Unread:
    # Checking the length first keeps int() from ever converting thousands of digits.
    return int(text) if len(text.lstrip("-")) <= len(str(MAX_WHOLE)) else _Unread(text)


def _real(text: str) -> float | _Unread:
    value = float(text)
    return value if math.isfinite(value) else _Unread(text)


def load_json(raw: bytes | str, limits: Limits) -> Any:
    """Parse JSON within the limits; raise FileLimitError (or ValueError for bad JSON) otherwise."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise FileLimitError(f"That is {_bytes(size)}; {limits.what} may be at most {_bytes(limits.max_bytes)}.")
    text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    check_shape(text, limits, _JSON_STRINGS)
    try:
        value = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_Unread)
    except RecursionError:
        # Only reachable if the bracket count above missed nesting; kept so no file can crash a command.
        raise FileLimitError(f"The file is nested too deeply for {limits.what}.") from None
    check_values(value, limits, text)
    return value


def _at(path: tuple[str | int, ...], lower: bool = False) -> str:
    """Name a place in a parsed file the way its text reads: At `forces.NERV[3].owner`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{shorten(part, 40)}" if out else shorten(part, 40))
    said = f"At `{shorten(out, 120)}`" if out else "At the top level"
    return said[0].lower() + said[1:] if lower else said


def _where(source: str | None, written: str, path: tuple[str | int, ...]) -> str:
    """Name where a text is: `Line 12, at `units[3].name`` when the source shows it, else by its place alone."""
    found = source.find(written[:40]) if source is not None and written else -1
    if source is None or found < 0:
        return _at(path)
    return f"Line {_line(source, found)}, {_at(path, lower=True)}"


def check_values(value: Any, limits: Limits, source: str | None = None) -> None:
    """Refuse any number or text past the limits, or nesting past the depth, naming its place (no recursion).

    Given the file's text, a refusal of a long text also names the line it starts on.
    """
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if len(path) > limits.max_depth:
            raise FileLimitError(f"{_at(path[: limits.max_depth + 1])}: the file nests tables "
                                 f"{len(path):,} levels deep; {limits.what} never goes deeper than {limits.max_depth}.")
        if isinstance(item, dict):
            for key, inner in item.items():
                if len(key) > limits.max_string:
                    raise FileLimitError(f"{_where(source, key, path)}: the file holds a name of {len(key):,} characters; "
                                         f"{limits.what} never holds one over {limits.max_string:,}.")
                stack.append(((*path, key), inner))
        elif isinstance(item, list):
            stack.extend(((*path, i), inner) for i, inner in enumerate(item))
        elif isinstance(item, str):
            if len(item) > limits.max_string:
                raise FileLimitError(f"{_where(source, item, path)}: the file holds a text of {len(item):,} characters; "
                                     f"{limits.what} never holds one over {limits.max_string:,}.")
        elif isinstance(item, _Unread) and item.text in ("NaN", "Infinity", "-Infinity"):
            raise FileLimitError(f"{_at(path)}: the file holds `{item.text}`, which is not a number "
                                 f"{limits.what} can use.")
        elif isinstance(item, _Unread) or (isinstance(item, int) and not isinstance(item, bool)
                                           and abs(item) > limits.max_int):
            written = item.text if isinstance(item, _Unread) else str(item)
            raise FileLimitError(f"{_at(path)}: the file holds the number `{written[:24]}`, larger "
                                 f"than anything {limits.what} holds (at most {limits.max_int:,}).")
        elif isinstance(item, float) and (not math.isfinite(item) or abs(item) > limits.max_float):
            raise FileLimitError(f"{_at(path)}: the file holds the number `{item:g}`, larger than anything "
                                 f"{limits.what} holds (at most {limits.max_float:g}).")


def load_xml(data: bytes, limits: Limits) -> ET.Element:
    """Parse XML within the limits, refusing document types (entity bombs), deep nesting and too many elements.

    The parser is fed in pieces and its events counted as they come, so a bomb is refused after reading
    no more than the limits allow; the message names the element path where the limit broke.
    """
    if len(data) > limits.max_bytes:
        raise FileLimitError(f"The file is {len(data) // 1024:,} KiB; {limits.what} may be at most "
                             f"{limits.max_bytes // 1024:,} KiB.")
    upper = data.upper()
    if b"<!DOCTYPE" in upper or b"<!ENTITY" in upper:
        raise FileLimitError(f"The file declares a document type or entities, which {limits.what} never needs.")
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    path: list[str] = []
    count = 0
    root: ET.Element | None = None
    stream = io.BytesIO(data)
    while chunk := stream.read(_XML_CHUNK):
        parser.feed(chunk)
        for found in parser.read_events():
            event, element = cast(tuple[str, ET.Element], found)
            if event == "end":
                path.pop()
                continue
            root = element if root is None else root
            path.append(str(element.tag))
            count += 1
            where = "/".join(path[:6]) + ("/…" if len(path) > 6 else "")
            if len(path) > limits.max_depth:
                raise FileLimitError(f"At <{where}>: the file nests elements more than {limits.max_depth} deep; "
                                     f"{limits.what} never goes deeper.")
            if count > limits.max_containers:
                raise FileLimitError(f"At <{where}>: the file holds over {limits.max_containers:,} elements; "
                                     f"{limits.what} may hold at most that many.")
            for key, attr in element.attrib.items():
                if len(attr) > limits.max_string:
                    raise FileLimitError(f"At <{where}>: `{key}` holds {len(attr):,} characters; {limits.what} "
                                         f"never holds one over {limits.max_string:,}.")
    parser.close()
    if root is None:
        raise FileLimitError(f"The file holds no XML elements; {limits.what} starts with one.")
    return root


def whole(text: str | int, what: str, lo: int = -MAX_WHOLE, hi: int = MAX_WHOLE) -> int:
    """Read a whole number a user typed or a file held, refusing one outside lo..hi without converting huge text."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = str(text).strip()
        body = raw[1:] if raw[:1] in ("+", "-") else raw
        wrong = f"`{what}` must be a whole number from {lo:,} to {hi:,}, not `{shorten(raw, 24)}`."
        if not body.isascii() or not body.isdigit():
            raise FileLimitError(wrong)
        # More digits than either bound has is refused unread: int() of thousands of digits is slow.
        if len(body.lstrip("0")) > max(len(str(abs(lo))), len(str(abs(hi)))):
            raise FileLimitError(wrong)
        value = int(raw)
    if not lo <= value <= hi:
        raise FileLimitError(f"`{what}` must be a whole number from {lo:,} to {hi:,}, not `{shorten(str(value), 24)}`.")
    return value
