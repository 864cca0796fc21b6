"""Dice over an injected random source; every roll is recorded for the log, undo and audit."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from rules.errors import InvalidOrderError

MAX_DICE_PER_TERM = 100
MAX_FACES = 1000
MAX_CONSTANT = 1000  # no table or modifier of the seeds comes near it
MAX_TERMS = 10
MAX_NOTATION_LENGTH = 100

_DIGITS = frozenset("0123456789")
_NOT_DICE = ("`{raw}` is not dice notation. Use terms like `2d6`, `d100`, `d%`, `4d6kh3` (keep the 3 highest), "
             "`2d20kl1` (the lowest) or `+3`, joined by + or -.")
ADVANTAGE = {"adv": "kh", "advantage": "kh", "dis": "kl", "disadvantage": "kl"}


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded roll: what was rolled, why, each die's face and the total."""

    notation: str
    faces: tuple[int, ...]
    total: int
    purpose: str = ""
    manual: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the roll as a JSON-able dict."""
        return {
            "notation": self.notation,
            "faces": list(self.faces),
            "total": self.total,
            "purpose": self.purpose,
            "manual": self.manual,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        """Rebuild a roll from its dict."""
        return cls(
            notation=str(data["notation"]),
            faces=tuple(int(f) for f in data["faces"]),
            total=int(data["total"]),
            purpose=str(data.get("purpose", "")),
            manual=bool(data.get("manual", False)),
        )


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One term of a dice expression: `count` dice of `faces` sides (keeping the `keep` highest or lowest), or a constant."""

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


@dataclass(frozen=True, slots=True)
class _Body:
    """The digits of one term as written, before any is read as a number."""

    end: int
    count: str = ""  # dice: the digits before `d` (empty for `d6`)
    faces: str = ""  # dice: the digits after `d`, or `%`
    keep: str = ""  # dice: `k`, `kh` or `kl` when the term keeps some dice
    kept: str = ""  # dice: the digits after the keep letters
    constant: str = ""  # a constant term: its digits


def _digits(text: str, pos: int) -> int:
    """Return where the run of digits starting at `pos` ends."""
    while pos < len(text) and text[pos] in _DIGITS:
        pos += 1
    return pos


def _body(text: str, pos: int) -> _Body | None:
    """Read one term without its sign from `pos` (`2d6`, `d%`, `4d6kh3`, `5`), each character once.

    A term is dice (`[count]d(faces|%)[k[h|l]kept]`) or a constant; a `k` not followed by its digits
    is not part of the term, so the term ends before it.
    """
    count_end = _digits(text, pos)
    if count_end < len(text) and text[count_end] in "dD":
        faces_at = count_end + 1
        if faces_at < len(text) and text[faces_at] == "%":
            faces_end = faces_at + 1
        else:
            faces_end = _digits(text, faces_at)
            if faces_end == faces_at:
                return None if count_end == pos else _Body(count_end, constant=text[pos:count_end])
        keep_at = faces_end
        if keep_at < len(text) and text[keep_at] in "kK":
            side_end = keep_at + 1 + (keep_at + 1 < len(text) and text[keep_at + 1] in "hHlL")
            kept_end = _digits(text, side_end)
            if kept_end > side_end:
                return _Body(kept_end, text[pos:count_end], text[faces_at:faces_end], text[keep_at:side_end],
                             text[side_end:kept_end])
        return _Body(faces_end, text[pos:count_end], text[faces_at:faces_end])
    if count_end == pos:
        return None
    return _Body(count_end, constant=text[pos:count_end])


def _number(digits: str, cap: int) -> int:
    """Read digits as a number, or `cap + 1` when there are too many to be worth reading (no huge int())."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(cap)) else cap + 1


def parse_dice(text: str) -> tuple[DiceTerm, ...]:
    """Parse notation such as `2d6+3`, `d100`, `d%`, `4d6kh3`, `2d20kl1`, `1d5-1+d3` into terms."""
    raw = text.strip()
    if not raw:
        raise InvalidOrderError("Write the dice to roll, like `2d6+3`, `d100` or `1d5`.")
    if len(raw) > MAX_NOTATION_LENGTH:
        raise InvalidOrderError(
            f"That dice expression is {len(raw):,} characters long; keep it under {MAX_NOTATION_LENGTH}, "
            "like `2d10+5`."
        )
    compact = "".join(raw.split())
    # Every term after the first starts with a sign, so counting signs bounds the terms before any reading.
    if sum(compact.count(c, 1) for c in "+-") + 1 > MAX_TERMS:
        raise InvalidOrderError(f"Use at most {MAX_TERMS} terms in one roll.")
    pos = 0
    terms: list[DiceTerm] = []
    while pos < len(compact):
        sign_char = compact[pos] if compact[pos] in "+-" else ""
        if terms and not sign_char:
            raise InvalidOrderError(_NOT_DICE.format(raw=raw))
        body = _body(compact, pos + len(sign_char))
        if body is None:
            raise InvalidOrderError(_NOT_DICE.format(raw=raw))
        sign = -1 if sign_char == "-" else 1
        if body.constant:
            constant = _number(body.constant, MAX_CONSTANT)
            if constant > MAX_CONSTANT:
                raise InvalidOrderError(f"Add or subtract at most {MAX_CONSTANT} in a roll, like `1d100+20`; "
                                        f"`{body.constant[:12]}` is more than any roll needs.")
            terms.append(DiceTerm(sign, constant, 0))
        else:
            count = _number(body.count, 10**6 - 1) if body.count else 1
            faces = 100 if body.faces == "%" else _number(body.faces, 10**6 - 1)
            if count < 1 or count > MAX_DICE_PER_TERM:
                raise InvalidOrderError(f"Roll between 1 and {MAX_DICE_PER_TERM} dice at a time, not {count}.")
            if faces < 2 or faces > MAX_FACES:
                raise InvalidOrderError(f"A die needs between 2 and {MAX_FACES} faces; `d{faces}` has {faces}.")
            keep = _number(body.kept, 10**6 - 1) if body.keep else 0
            if body.keep and not 1 <= keep <= count:
                raise InvalidOrderError(f"Keep between 1 and {count} of {count}d{faces}, like `{count}d{faces}kh1`; "
                                        f"not {keep}.")
            terms.append(DiceTerm(sign, count, faces, keep if keep < count else 0, body.keep[1:].lower() == "l"))
        pos = body.end
        if len(terms) > MAX_TERMS:
            raise InvalidOrderError(f"Use at most {MAX_TERMS} terms in one roll.")
    if all(t.faces == 0 for t in terms):
        written = raw.lstrip("+")
        raise InvalidOrderError(f"`{raw}` has no dice in it; add one, like "
                                f"`1d10{written if written.startswith('-') else '+' + written}`.")
    if terms[0].sign < 0:
        raise InvalidOrderError(f"`{raw}` starts by taking dice away; start with the dice you roll, like "
                                f"`{format_dice((DiceTerm(1, terms[0].count, terms[0].faces), *terms[1:]))}`.")
    return tuple(terms)


def _is_dice_token(token: str) -> bool:
    """Tell whether a word is all dice terms (`2d20kh1`, `+5`, `d%`, `1d6+2`) or a lone sign, reading it once."""
    if token in ("+", "-"):
        return True
    pos = 0
    while pos < len(token):
        pos += token[pos] in "+-"
        body = _body(token, pos)
        if body is None:
            return False
        pos = body.end
    return bool(token)


def split_notation(text: str) -> tuple[str, str]:
    """Split what a player typed into the dice and a comment: `1d20+5 adv to hit` -> (`2d20kh1+5`, `to hit`).

    `adv` or `dis` after the dice rolls the first d20 twice and keeps the higher or the lower.
    """
    tokens = text.split()
    dice: list[str] = []
    mode = ""
    rest = 0
    for i, token in enumerate(tokens):
        if _is_dice_token(token):
            dice.append(token)
            rest = i + 1
        elif token.lower() in ADVANTAGE and dice and not mode:
            mode = ADVANTAGE[token.lower()]
            rest = i + 1
        else:
            break
    if not dice:
        return text.strip(), ""  # not dice at all: the parser says what dice notation looks like
    notation = "".join(dice)
    if mode:
        notation, changed = re.subn(r"^(?:1)?[dD]20(?![0-9kK])", f"2d20{mode}1", notation, count=1)
        if not changed:
            raise InvalidOrderError("Advantage and disadvantage roll a d20 twice: start with `1d20`, like "
                                    "`1d20+5 adv`.")
    return notation, " ".join(tokens[rest:])


def format_dice(terms: tuple[DiceTerm, ...]) -> str:
    """Return canonical notation for terms (`2d6+3`)."""
    return "".join(str(t) for t in terms).lstrip("+")


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
        """Roll a whole expression and record it as one roll."""
        terms = parse_dice(notation)
        faces: list[int] = []
        total = 0
        manual = False
        for term in terms:
            if term.faces == 0:
                total += term.sign * term.count
                continue
            rolled = []
            for _ in range(term.count):
                value, was_manual = self._face(term.faces)
                manual = manual or was_manual
                rolled.append(value)
            faces += rolled
            total += term.sign * sum(term.kept(rolled))
        roll = Roll(format_dice(terms), tuple(faces), total, purpose, manual)
        self.rolls.append(roll)
        return roll

    def take(self) -> list[Roll]:
        """Return and forget the rolls recorded so far."""
        out, self.rolls = self.rolls, []
        return out
