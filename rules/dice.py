"""Dice over an injected random source; every roll is recorded for the log, undo and audit.

Notation is read as Avrae's players write it: sums and products of dice and numbers in parentheses
(`(1d6+2)*3`, `2d8/2`), and after a die the operations keep (`k`), drop (`p`), reroll (`rr` until the die no
longer matches, `ro` once, `ra` once and add), explode (`e`), minimum (`mi`) and maximum (`ma`), each on a
selection: a face (`rr1`), the highest or lowest few (`kh3`, `pl1`), or the faces above or below a number
(`e>5`, `ro<3`); a note in brackets tags a term (`1d8[slashing]`). Every die is rolled by `Dice`, so each is
recorded.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.errors import InvalidOrderError

MAX_DICE_PER_TERM = 100
MAX_FACES = 1000
MAX_CONSTANT = 1000  # no table or modifier of the seeds comes near it
MAX_TERMS = 10
MAX_NOTATION_LENGTH = 100
MAX_DICE_ROLLED = 1000  # rerolls and explosions included: what one roll may ask of the dice in all
MAX_SHOWN = 1000  # characters of a roll's breakdown: a message has room for it and the rest of the answer

_DIGITS = frozenset("0123456789")
_NOT_DICE = ("`{raw}` is not dice notation. Use terms like `2d6`, `d100`, `d%`, `4d6kh3` (keep the 3 highest), "
             "`2d20kl1` (the lowest), `1d6rr1` (reroll 1s), `1d6e6` (explode) or `+3`, joined by + - * / "
             "and parentheses.")
ADVANTAGE = {"adv": "kh", "advantage": "kh", "dis": "kl", "disadvantage": "kl"}
# The operations a die may carry, longest first so `rr` is never read as two things.
_OPERATIONS = ("rr", "ro", "ra", "mi", "ma", "k", "p", "e")
_OPERATION_WORDS = {"k": "keep", "p": "drop", "rr": "reroll", "ro": "reroll once", "ra": "reroll and add",
                    "e": "explode", "mi": "raise to at least", "ma": "lower to at most"}
_SYMBOLS = frozenset("+-*/()")
_NOTE_RE = re.compile(r"[A-Za-z0-9 '_-]{1,40}")


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded roll: what was rolled, why, each die's face, the total and how it was reached."""

    notation: str
    faces: tuple[int, ...]
    total: int
    purpose: str = ""
    manual: bool = False
    shown: str = ""  # each die in place, dropped ones struck (`4d6kh3 (2, 5, ~~1~~, 6)`); empty for a plain sum

    def to_dict(self) -> dict[str, Any]:
        """Return the roll as a JSON-able dict."""
        data: dict[str, Any] = {
            "notation": self.notation,
            "faces": list(self.faces),
            "total": self.total,
            "purpose": self.purpose,
            "manual": self.manual,
        }
        if self.shown:
            data["shown"] = self.shown
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        """Rebuild a roll from its dict."""
        return cls(
            notation=str(data["notation"]),
            faces=tuple(int(f) for f in data["faces"]),
            total=int(data["total"]),
            purpose=str(data.get("purpose", "")),
            manual=bool(data.get("manual", False)),
            shown=str(data.get("shown", "")),
        )


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One term of a sum of dice: `count` dice of `faces` sides (keeping the `keep` highest or lowest), or a constant."""

    sign: int
    count: int
    faces: int  # 0 for a constant term
    keep: int = 0  # 0 keeps every die
    lowest: bool = False  # keep the lowest dice rather than the highest

    def __str__(self) -> str:
        body = f"{self.count}d{self.faces}" if self.faces else str(self.count)
        if self.keep:
            body += f"{'kl' if self.lowest else 'kh'}{self.keep}"
        return ("-" if self.sign < 0 else "+") + body

    def kept(self, faces: list[int]) -> list[int]:
        """Return the faces this term counts: all of them, or the highest (lowest) `keep`."""
        if not self.keep:
            return faces
        ranked = sorted(faces, reverse=not self.lowest)
        return ranked[: self.keep]


# The expression tree -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Selector:
    """Which dice an operation acts on: a face (`1`), the highest or lowest few (`h3`, `l1`), or above/below (`>5`)."""

    kind: str  # "", "h", "l", ">" or "<"
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.value}"

    def faces(self, sides: int) -> set[int] | None:
        """Return the faces of a die this selection always matches, or None when it picks by rank."""
        if self.kind == "":
            return {self.value} & set(range(1, sides + 1))
        if self.kind == ">":
            return set(range(max(self.value + 1, 1), sides + 1))
        if self.kind == "<":
            return set(range(1, min(self.value, sides + 1)))
        return None


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation on a die's results: keep, drop, reroll, explode, minimum or maximum, on a selection."""

    name: str
    selector: Selector

    def __str__(self) -> str:
        return f"{self.name}{self.selector}"


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number in an expression."""

    value: int


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """`count` dice of `faces` sides with the operations written after them, in order."""

    count: int
    faces: int
    operations: tuple[Operation, ...] = ()


@dataclass(frozen=True, slots=True)
class Negative:
    """An expression taken away from nothing (`-1d4`)."""

    operand: Expression


@dataclass(frozen=True, slots=True)
class Binary:
    """Two expressions joined by `+`, `-`, `*` or `/`."""

    op: str
    left: Expression
    right: Expression


@dataclass(frozen=True, slots=True)
class Group:
    """An expression in parentheses."""

    inner: Expression


@dataclass(frozen=True, slots=True)
class Noted:
    """An expression with a note in brackets after it, as Avrae's players tag damage (`1d8[slashing]`)."""

    inner: Expression
    note: str


Expression = Number | DiceRoll | Negative | Binary | Group | Noted


def notation_of(node: Expression) -> str:
    """Return an expression's canonical notation (`(1d6+2)*3`, `4d6kh3`)."""
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, DiceRoll):
        return f"{node.count}d{node.faces}" + "".join(str(o) for o in node.operations)
    if isinstance(node, Negative):
        return "-" + notation_of(node.operand)
    if isinstance(node, Group):
        return f"({notation_of(node.inner)})"
    if isinstance(node, Noted):
        return f"{notation_of(node.inner)}[{node.note}]"
    return f"{notation_of(node.left)}{node.op}{notation_of(node.right)}"


# Reading -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    """One piece of notation: a number, a die with its operations, or a symbol."""

    kind: str  # "number", "dice", "symbol" or "note"
    text: str
    count: str = ""
    faces: str = ""
    operations: tuple[tuple[str, str, str], ...] = ()  # (name, selector kind, digits)


def _digits(text: str, pos: int) -> int:
    """Return where the run of digits starting at `pos` ends."""
    while pos < len(text) and text[pos] in _DIGITS:
        pos += 1
    return pos


def _operation(text: str, pos: int) -> tuple[tuple[str, str, str], int] | None:
    """Read one operation with its selection at `pos` (`kh3`, `rr1`, `e>5`), or None when there is none."""
    name = next((n for n in _OPERATIONS if text.startswith(n, pos)), None)
    if name is None:
        return None
    at = pos + len(name)
    kind = text[at] if at < len(text) and text[at] in "hl<>" else ""
    end = _digits(text, at + len(kind))
    if end == at + len(kind):
        return None
    return (name, kind, text[at + len(kind):end]), end


def _token(text: str, pos: int) -> _Token | None:
    """Read one token of lower-case notation without spaces from `pos`, each character once; None if there is none."""
    char = text[pos]
    if char in _SYMBOLS:
        return _Token("symbol", char)
    if char == "[":
        end = text.find("]", pos)
        return None if end < 0 or "[" in text[pos + 1:end] else _Token("note", text[pos:end + 1])
    count_end = _digits(text, pos)
    if count_end < len(text) and text[count_end] == "d":
        faces_at = count_end + 1
        faces_end = faces_at + 1 if text.startswith("%", faces_at) else _digits(text, faces_at)
        if faces_end == faces_at:
            return None
        end = faces_end
        operations = []
        while (read := _operation(text, end)) is not None:
            operations.append(read[0])
            end = read[1]
        return _Token("dice", text[pos:end], text[pos:count_end], text[faces_at:faces_end], tuple(operations))
    if count_end == pos:
        return None
    return _Token("number", text[pos:count_end])


def _tokens(text: str) -> list[_Token] | None:
    """Split lower-case notation without spaces into tokens, or None when some character is not notation."""
    out = []
    pos = 0
    while pos < len(text):
        token = _token(text, pos)
        if token is None:
            return None
        out.append(token)
        pos += len(token.text)
    return out


def _compact(raw: str) -> str:
    """Drop the spaces and lower the case of notation, but not inside the notes in brackets (`[cold iron]`)."""
    parts = []
    pos = 0
    while pos < len(raw):
        start = raw.find("[", pos)
        end = raw.find("]", start) if start >= 0 else -1
        if end < 0:
            parts.append("".join(raw[pos:].split()).lower())
            break
        parts.append("".join(raw[pos:start].split()).lower())
        parts.append(raw[start:end + 1])
        pos = end + 1
    return "".join(parts)


def _number(digits: str, cap: int) -> int:
    """Read digits as a number, or `cap + 1` when there are too many to be worth reading (no huge int())."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(cap)) else cap + 1


class _Reader:
    """Read tokens into an expression: sums of products of signed atoms, each token once."""

    def __init__(self, raw: str, tokens: list[_Token]) -> None:
        self.raw = raw
        self.tokens = tokens
        self.pos = 0
        self.atoms = 0

    def peek(self) -> str:
        """Return the symbol at the reading position, or "" for anything else."""
        if self.pos < len(self.tokens) and self.tokens[self.pos].kind == "symbol":
            return self.tokens[self.pos].text
        return ""

    def wrong(self) -> InvalidOrderError:
        """Return the refusal of notation that does not read."""
        return InvalidOrderError(_NOT_DICE.format(raw=self.raw))

    def sum(self, depth: int) -> Expression:
        """Read `a + b - c` of products."""
        node = self.product(depth)
        while self.peek() in ("+", "-"):
            op = self.tokens[self.pos].text
            self.pos += 1
            node = Binary(op, node, self.product(depth))
        return node

    def product(self, depth: int) -> Expression:
        """Read `a * b / c` of signed atoms."""
        node = self.signed(depth)
        while self.peek() in ("*", "/"):
            op = self.tokens[self.pos].text
            self.pos += 1
            node = Binary(op, node, self.signed(depth))
        return node

    def signed(self, depth: int) -> Expression:
        """Read an atom after any number of signs (`--2` is 2)."""
        negative = False
        while self.peek() in ("+", "-"):
            negative ^= self.tokens[self.pos].text == "-"
            self.pos += 1
        node = self.atom(depth)
        return Negative(node) if negative else node

    def atom(self, depth: int) -> Expression:
        """Read a number, dice, or an expression in parentheses, with the notes in brackets after it."""
        node = self.bare(depth)
        while self.pos < len(self.tokens) and self.tokens[self.pos].kind == "note":
            note = self.tokens[self.pos].text[1:-1].strip()
            if not _NOTE_RE.fullmatch(note):
                raise InvalidOrderError(f"A note in brackets holds up to 40 letters, digits and spaces, like "
                                        f"`1d8[slashing]`, not `[{note[:40]}]`.")
            self.pos += 1
            node = Noted(node, note)
        return node

    def bare(self, depth: int) -> Expression:
        """Read a number, dice, or an expression in parentheses."""
        if self.pos >= len(self.tokens):
            raise self.wrong()
        token = self.tokens[self.pos]
        self.pos += 1
        if token.kind in ("symbol", "note"):
            if token.text != "(":
                raise self.wrong()
            if depth >= MAX_TERMS:
                raise InvalidOrderError(f"Nest at most {MAX_TERMS} parentheses in one roll.")
            inner = self.sum(depth + 1)
            if self.peek() != ")":
                raise InvalidOrderError(f"`{self.raw}` opens a parenthesis it does not close; write it like "
                                        "`(1d6+2)*3`.")
            self.pos += 1
            return Group(inner)
        self.atoms += 1
        if self.atoms > MAX_TERMS:
            raise InvalidOrderError(f"Use at most {MAX_TERMS} terms in one roll.")
        if token.kind == "number":
            value = _number(token.text, MAX_CONSTANT)
            if value > MAX_CONSTANT:
                raise InvalidOrderError(f"Add or subtract at most {MAX_CONSTANT} in a roll, like `1d100+20`; "
                                        f"`{token.text[:12]}` is more than any roll needs.")
            return Number(value)
        return self.dice(token)

    def dice(self, token: _Token) -> DiceRoll:
        """Check a die's count, faces and operations against the limits."""
        count = _number(token.count, MAX_DICE_PER_TERM) if token.count else 1
        if count < 1 or count > MAX_DICE_PER_TERM:
            shown = token.text[:16]
            raise InvalidOrderError(f"Roll between 1 and {MAX_DICE_PER_TERM} dice at a time; `{shown}` asks for "
                                    f"{'none' if count < 1 else 'more'}.")
        faces = 100 if token.faces == "%" else _number(token.faces, MAX_FACES)
        if faces < 2 or faces > MAX_FACES:
            raise InvalidOrderError(f"A die has between 2 and {MAX_FACES} faces; `d{token.faces[:12]}` has "
                                    f"{'too many' if faces > MAX_FACES else faces}.")
        operations = []
        grows = False  # once dice may be added, a count kept or dropped can no longer be checked
        for name, kind, digits in token.operations:
            value = _number(digits, MAX_CONSTANT)
            if value > MAX_CONSTANT:
                raise InvalidOrderError(f"`{name}{kind}{digits[:12]}` names a number above {MAX_CONSTANT}.")
            selector = Selector(kind, value)
            written = f"{count}d{faces}{name}{selector}"
            if name in ("mi", "ma") and kind:
                raise InvalidOrderError(f"`{name}` takes a number, like `{count}d{faces}{name}2`, not `{written}`.")
            if kind in ("h", "l") and value < 1:
                raise InvalidOrderError(f"`{written}` selects no dice; select at least one, like "
                                        f"`{count}d{faces}{name}{kind}1`.")
            if kind in ("h", "l") and name in ("k", "p") and not grows and value > count:
                verb = "Keep" if name == "k" else "Drop"
                raise InvalidOrderError(f"{verb} between 1 and {count} of {count}d{faces}, like "
                                        f"`{count}d{faces}{name}{kind}1`; not {value}.")
            if name in ("rr", "e"):
                matched = selector.faces(faces)
                if matched is None:
                    raise InvalidOrderError(f"`{name}` goes on while a die matches, so it takes a face or a "
                                            f"range, like `{count}d{faces}{name}1` or `{count}d{faces}{name}<3`, "
                                            f"not `{name}{selector}`.")
                if len(matched) == faces:
                    raise InvalidOrderError(f"`{written}` would {_OPERATION_WORDS[name]} every face of a "
                                            f"d{faces} for ever; leave at least one face out.")
            grows = grows or name in ("e", "ra")
            operations.append(Operation(name, selector))
        return DiceRoll(count, faces, tuple(operations))


def parse_expression(text: str) -> Expression:
    """Parse notation such as `(1d6+2)*3`, `4d6kh3`, `1d20ro1+5`, `8d6e6`, `2d8mi2/2` into an expression."""
    raw = text.strip()
    if not raw:
        raise InvalidOrderError("Write the dice to roll, like `2d6+3`, `d100` or `1d5`.")
    if len(raw) > MAX_NOTATION_LENGTH:
        raise InvalidOrderError(
            f"That dice expression is {len(raw):,} characters long; keep it under {MAX_NOTATION_LENGTH}, "
            "like `2d10+5`."
        )
    tokens = _tokens(_compact(raw))
    if tokens is None or not tokens:
        raise InvalidOrderError(_NOT_DICE.format(raw=raw))
    reader = _Reader(raw, tokens)
    node = reader.sum(0)
    if reader.pos < len(tokens):
        if reader.peek() == ")":
            raise InvalidOrderError(f"`{raw}` closes a parenthesis it never opened.")
        raise InvalidOrderError(_NOT_DICE.format(raw=raw))
    flat = _flat(node)
    if flat is not None and flat[0].sign < 0 and flat[0].faces:
        raise InvalidOrderError(f"`{raw}` starts by taking dice away; start with the dice you roll, like "
                                f"`{format_dice((DiceTerm(1, flat[0].count, flat[0].faces), *flat[1:]))}`.")
    if not _has_dice(node):
        written = raw.lstrip("+")
        if flat is not None:
            raise InvalidOrderError(f"`{raw}` has no dice in it; add one, like "
                                    f"`1d10{written if written.startswith('-') else '+' + written}`.")
        raise InvalidOrderError(f"`{raw}` has no dice in it; add one, like `1d10+({written})`.")
    return node


def _has_dice(node: Expression) -> bool:
    """Tell whether an expression rolls any die."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, DiceRoll):
            return True
        if isinstance(item, Binary):
            stack += [item.left, item.right]
        elif isinstance(item, Negative):
            stack.append(item.operand)
        elif isinstance(item, (Group, Noted)):
            stack.append(item.inner)
    return False


def _flat_term(node: Expression, sign: int) -> DiceTerm | None:
    """Return an atom as a term of a plain sum, or None when it is more than that."""
    if isinstance(node, Negative) and not isinstance(node.operand, Negative):
        return _flat_term(node.operand, -sign)
    if isinstance(node, Number):
        return DiceTerm(sign, node.value, 0)
    if not isinstance(node, DiceRoll):
        return None
    if not node.operations:
        return DiceTerm(sign, node.count, node.faces)
    if len(node.operations) == 1 and node.operations[0].name == "k" and node.operations[0].selector.kind in ("h", "l"):
        keep = node.operations[0].selector.value
        return DiceTerm(sign, node.count, node.faces, keep if keep < node.count else 0,
                        node.operations[0].selector.kind == "l")
    return None


def _flat(node: Expression) -> tuple[DiceTerm, ...] | None:
    """Return an expression as the terms of a plain sum (`2d6+3`, `4d6kh3-1`), or None when it is more."""
    terms: list[DiceTerm] = []
    while isinstance(node, Binary) and node.op in "+-":
        term = _flat_term(node.right, -1 if node.op == "-" else 1)
        if term is None:
            return None
        terms.append(term)
        node = node.left
    first = _flat_term(node, 1)
    if first is None:
        return None
    terms.append(first)
    return tuple(reversed(terms))


def parse_dice(text: str) -> tuple[DiceTerm, ...]:
    """Parse a plain sum of dice such as `2d6+3`, `d100`, `d%`, `4d6kh3`, `2d20kl1`, `1d5-1+d3` into terms.

    Weapons' damage and initiative formulas are plain sums; a roll may use the whole notation
    (`parse_expression`).
    """
    terms = _flat(parse_expression(text))
    raw = text.strip()
    if terms is None:
        raise InvalidOrderError(f"`{raw}` is more than a sum of dice and numbers here; write it like `2d6+3` or "
                                "`4d6kh3`.")
    return terms


def _is_dice_token(token: str) -> bool:
    """Tell whether a word is all notation (`2d20kh1`, `+5`, `d%`, `(1d6+2)*3`, `*`), reading it once."""
    return bool(token) and _tokens(_compact(token)) is not None


def _words(text: str) -> list[str]:
    """Split text at spaces, except inside a note in brackets (`1d8 [cold iron]` is two words), reading it once."""
    words: list[list[str]] = []
    open_note = False
    for word in text.split():
        if open_note:
            words[-1].append(word)
            open_note = "]" not in word
        else:
            words.append([word])
            # A word opens a note when its last `[` comes after its last `]`; the note runs to the next `]`.
            open_note = word.rfind("[") > word.rfind("]")
    return [" ".join(parts) for parts in words]


def split_notation(text: str) -> tuple[str, str]:
    """Split what a player typed into the dice and a comment: `1d20+5 adv to hit` -> (`2d20kh1+5`, `to hit`).

    `adv` or `dis` after the dice rolls the first d20 twice and keeps the higher or the lower; said twice,
    the roll is refused rather than the second read as a comment.
    """
    tokens = _words(text)
    dice: list[str] = []
    mode = ""
    rest = 0
    length = 0
    for i, token in enumerate(tokens):
        # A first word too long to roll is refused for its length whether it is dice or not: it is not read.
        if (not dice and len(token) > MAX_NOTATION_LENGTH) or _is_dice_token(token):
            dice.append(token)
            rest = i + 1
            length += len(token)
            if length > MAX_NOTATION_LENGTH:
                break  # too long to roll already: the parser says so, without reading the rest
        elif token.lower() in ADVANTAGE and dice:
            if mode:
                raise InvalidOrderError("Say `adv` or `dis` once, after the dice, like `1d20+5 adv`; a d20 is rolled "
                                        "twice at most.")
            mode = ADVANTAGE[token.lower()]
            rest = i + 1
        else:
            break
    if not dice:
        return text.strip(), ""  # not dice at all: the parser says what dice notation looks like
    notation = "".join(dice)
    if mode:
        notation, changed = re.subn(r"^(?:1)?[dD]20(?![0-9a-zA-Z%])", f"2d20{mode}1", notation, count=1)
        if not changed:
            raise InvalidOrderError("Advantage and disadvantage roll a d20 twice: start with `1d20`, like "
                                    "`1d20+5 adv`.")
    return notation, " ".join(tokens[rest:])


def format_dice(terms: tuple[DiceTerm, ...]) -> str:
    """Return canonical notation for terms (`2d6+3`)."""
    return "".join(str(t) for t in terms).lstrip("+")


# Rolling -----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Die:
    """One die as rolled: its face, whether it still counts, and what happened to it."""

    face: int
    kept: bool = True
    mark: str = ""  # "dropped", "rerolled", "exploded" or "set" (raised or lowered)
    was: int = 0  # the face before a minimum or maximum set it

    def __str__(self) -> str:
        if not self.kept:
            return f"~~{self.face}~~"
        if self.mark == "exploded":
            return f"{self.face}!"
        if self.mark == "set":
            return f"{self.was}\u2192{self.face}"
        return str(self.face)


def _select(dice: list[_Die], selector: Selector) -> list[_Die]:
    """Return the kept dice a selection names."""
    kept = [d for d in dice if d.kept]
    if selector.kind in ("h", "l"):
        ranked = sorted(kept, key=lambda d: d.face, reverse=selector.kind == "h")
        return ranked[: selector.value]
    if selector.kind == ">":
        return [d for d in kept if d.face > selector.value]
    if selector.kind == "<":
        return [d for d in kept if d.face < selector.value]
    return [d for d in kept if d.face == selector.value]


@dataclass
class Dice:
    """Roll dice from an injected `random.Random`, recording every roll in order."""

    rng: random.Random
    rolls: list[Roll] = field(default_factory=list)
    scripted: list[int] = field(default_factory=list)

    @classmethod
    def seeded(cls, seed: int | None) -> Dice:
        """Return dice over a fresh `random.Random(seed)`."""
        return cls(random.Random(seed))

    def _face(self, faces: int) -> tuple[int, bool]:
        if self.scripted:
            value = self.scripted.pop(0)
            if not 1 <= value <= faces:
                raise InvalidOrderError(f"A d{faces} cannot show {value}; enter a result from 1 to {faces}.")
            return value, True
        return self.rng.randint(1, faces), False

    def d(self, faces: int, purpose: str = "") -> int:
        """Roll one die of `faces` sides (d5 and d3 are read as on a d10/d6 halved)."""
        value, manual = self._face(faces)
        self.rolls.append(Roll(f"1d{faces}", (value,), value, purpose, manual))
        return value

    def d100(self, purpose: str = "") -> int:
        """Roll percentile dice (1-100)."""
        return self.d(100, purpose)

    def roll(self, notation: str, purpose: str = "") -> Roll:
        """Roll a whole expression and record it as one roll, every die in the order it was rolled."""
        tree = parse_expression(notation)
        rolling = _Rolling(self, notation.strip())
        value, shown = rolling.evaluate(tree)
        flat = _flat(tree)
        plain = flat is not None and not rolling.marked
        if len(shown) > MAX_SHOWN:
            shown = shown[: MAX_SHOWN - 1].rsplit(" ", 1)[0] + " \u2026"  # the faces are all in the record
        roll = Roll(format_dice(flat) if flat is not None else notation_of(tree), tuple(rolling.faces),
                    int(value), purpose, rolling.manual, "" if plain else shown)
        self.rolls.append(roll)
        return roll

    def take(self) -> list[Roll]:
        """Return and forget the rolls recorded so far."""
        out, self.rolls = self.rolls, []
        return out


class _Rolling:
    """One expression being rolled: the faces in order, whether any was typed in, and the breakdown."""

    def __init__(self, dice: Dice, raw: str) -> None:
        self.dice = dice
        self.raw = raw
        self.faces: list[int] = []
        self.manual = False
        self.marked = False

    def die(self, faces: int) -> _Die:
        """Roll one die through the engine's dice, within the roll's limit."""
        if len(self.faces) >= MAX_DICE_ROLLED:
            raise InvalidOrderError(f"`{self.raw[:40]}` needed more than {MAX_DICE_ROLLED:,} dice with its rerolls "
                                    "and explosions; reroll or explode on fewer faces.")
        value, manual = self.dice._face(faces)
        self.manual = self.manual or manual
        self.faces.append(value)
        return _Die(value)

    def evaluate(self, node: Expression) -> tuple[Fraction, str]:
        """Roll an expression left to right; return its value and its breakdown."""
        if isinstance(node, Number):
            return Fraction(node.value), str(node.value)
        if isinstance(node, DiceRoll):
            dice = self.roll_dice(node)
            kept = sum(d.face for d in dice if d.kept)
            return Fraction(kept), f"{notation_of(node)} ({', '.join(str(d) for d in dice)})"
        if isinstance(node, Negative):
            value, shown = self.evaluate(node.operand)
            return -value, f"-{shown}"
        if isinstance(node, Group):
            value, shown = self.evaluate(node.inner)
            return value, f"({shown})"
        if isinstance(node, Noted):
            value, shown = self.evaluate(node.inner)
            self.marked = True  # a note is shown in the breakdown
            return value, f"{shown} [{node.note}]"
        left, left_shown = self.evaluate(node.left)
        right, right_shown = self.evaluate(node.right)
        shown = f"{left_shown} {node.op} {right_shown}"
        if node.op == "+":
            return left + right, shown
        if node.op == "-":
            return left - right, shown
        if node.op == "*":
            return left * right, shown
        if right == 0:
            raise InvalidOrderError(f"`{self.raw[:40]}` divided by zero ({shown[:80]}); divide by a number, "
                                    "like `2d8/2`.")
        return left / right, shown

    def roll_dice(self, node: DiceRoll) -> list[_Die]:
        """Roll a term's dice, then apply its operations in the order written, each on the dice still kept."""
        dice = [self.die(node.faces) for _ in range(node.count)]
        for operation in node.operations:
            selected = _select(dice, operation.selector)
            name = operation.name
            if name in ("k", "p"):
                chosen = {id(d) for d in selected}
                for d in dice:
                    if d.kept and (id(d) in chosen) != (name == "k"):
                        d.kept, d.mark = False, "dropped"
            elif name in ("rr", "ro"):
                while selected:
                    fresh = []
                    for d in selected:
                        d.kept, d.mark = False, "rerolled"
                        fresh.append(self.die(node.faces))
                        dice.append(fresh[-1])
                    if name == "ro":
                        break
                    selected = _select(fresh, operation.selector)
            elif name == "ra":
                if selected:
                    selected[0].mark = "exploded"
                    dice.append(self.die(node.faces))
            elif name == "e":
                while selected:
                    fresh = []
                    for d in selected:
                        d.mark = "exploded"
                        fresh.append(self.die(node.faces))
                    dice += fresh
                    selected = _select(fresh, operation.selector)
            else:
                bound = operation.selector.value
                for d in dice:
                    if d.kept and (d.face < bound if name == "mi" else d.face > bound):
                        d.was, d.face, d.mark = d.face, bound, "set"
        self.marked = self.marked or any(d.mark for d in dice)
        return dice
