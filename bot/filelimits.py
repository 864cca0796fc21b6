"""Bound the files users attach before they are parsed deeply: size, nesting, counts and numbers.

Python's JSON and TOML readers recurse once per level of nesting and build every value in memory,
so a small file of 100,000 brackets or millions of tiny values could exhaust the stack or the
memory of the whole bot. These checks run first, in time linear in the file and in C where possible,
and refuse such a file with a message saying which limit it broke.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from rules.errors import GameError

# Everything that is not a bracket once strings (and TOML comments) are taken out.
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_JSON_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_TOML_STRINGS_AND_COMMENTS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class FileLimitError(GameError):
    """An attached file that breaks one of the limits on size, nesting, counts or numbers."""


@dataclass(frozen=True)
class Limits:
    """How big, how deep and how many a file of one kind may be."""

    what: str  # "an export", "a stat-block file": the words messages use
    max_bytes: int
    max_depth: int
    max_containers: int  # lists and objects (tables), counted over the whole file
    max_values: int  # every value in every list and object
    max_string: int = 20_000
    max_int: int = 2**64  # user ids are the largest whole numbers any file holds
    max_float: float = 1e15


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
    opened = brackets.count("[") + brackets.count("{")
    if opened > limits.max_containers:
        raise FileLimitError(f"The file holds {opened:,} lists or tables; {limits.what} may hold at most "
                             f"{limits.max_containers:,}.")
    deepest = max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)
    if deepest > limits.max_depth:
        raise FileLimitError(f"The file nests lists or tables {deepest:,} levels deep; {limits.what} never goes "
                             f"deeper than {limits.max_depth}. Attach the file as battlepost wrote it.")


def check_toml(text: str, limits: Limits) -> None:
    """Refuse a TOML text over the size, nesting or count limits, before tomllib reads it."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise FileLimitError(f"The file is {size // 1024} KiB; {limits.what} may be at most "
                             f"{limits.max_bytes // 1024} KiB.")
    check_shape(text, limits, _TOML_STRINGS_AND_COMMENTS)


def load_json(raw: bytes, limits: Limits) -> Any:
    """Parse JSON bytes within the limits; raise FileLimitError (or ValueError for bad JSON) otherwise."""
    if len(raw) > limits.max_bytes:
        raise FileLimitError(f"The file is {len(raw) // 1024} KiB; {limits.what} may be at most "
                             f"{limits.max_bytes // 1024 // 1024} MiB.")
    text = raw.decode("utf-8-sig")
    check_shape(text, limits, _JSON_STRINGS)
    try:
        value = json.loads(text, parse_int=lambda s: _whole(s, limits), parse_float=lambda s: _real(s, limits),
                           parse_constant=_no_constant)
    except RecursionError:
        # Only reachable if the bracket count above missed nesting; kept so no file can crash a command.
        raise FileLimitError(f"The file is nested too deeply for {limits.what}.") from None
    _check_strings(value, limits)
    return value


def _whole(text: str, limits: Limits) -> int:
    # Checking the length first keeps int() from ever converting thousands of digits.
    if len(text.lstrip("-")) > len(str(limits.max_int)) or abs(int(text)) > limits.max_int:
        raise FileLimitError(f"The file holds the number `{text[:24]}`, larger than anything {limits.what} holds.")
    return int(text)


def _real(text: str, limits: Limits) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > limits.max_float:
        raise FileLimitError(f"The file holds the number `{text[:24]}`, larger than anything {limits.what} holds.")
    return value


def _no_constant(text: str) -> float:
    raise FileLimitError(f"The file holds `{text}`, which is not a number a battle can use.")


def _check_strings(value: Any, limits: Limits) -> None:
    """Refuse any text longer than the limit, walking the parsed value without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if len(key) > limits.max_string:
                    raise FileLimitError(f"The file holds a name of {len(key):,} characters; {limits.what} "
                                         f"never holds one over {limits.max_string:,}.")
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and len(item) > limits.max_string:
            raise FileLimitError(f"The file holds a text of {len(item):,} characters; {limits.what} never "
                                 f"holds one over {limits.max_string:,}.")
