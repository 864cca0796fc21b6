"""The errors of the game: every message is written for the player who caused it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class GameError(Exception):
    """Base of every error a player or GM can cause; its message says what to do instead.

    `cells` names squares worth drawing with the refusal (the legal ones, say), as `A1`-style labels.
    """

    def __init__(self, message: str, *, cells: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.cells: tuple[str, ...] = tuple(cells)

    def __str__(self) -> str:
        return self.message


class InvalidOrderError(GameError):
    """The input could not be read (bad syntax, unknown name)."""


class IllegalOrderError(GameError):
    """The order is well formed but the rules forbid it."""


class NotYourTurnError(IllegalOrderError):
    """The unit may not act now."""


class NotAllowedError(GameError):
    """The caller lacks the right (not a GM, not the unit's owner)."""


class NotFoundError(GameError):
    """A battle, unit or other named thing does not exist."""


class RulesetError(GameError):
    """A ruleset or its data file is unknown or invalid."""


class SystemMissingError(RulesetError):
    """A stored battle plays a rule system that is not installed here; it is left exactly as it was."""

    def __init__(self, ruleset_id: str, package: str | None) -> None:
        self.ruleset_id = ruleset_id
        self.package = package
        needs = (f"the package `{package}`, which is not installed on this bot. Install it again "
                 f"(`pip install {package}`) and restart the bot to play on"
                 if package else "a rule system that is not installed on this bot. Install the package that "
                 "ships that ruleset and restart the bot to play on")
        super().__init__(f"This battle plays the ruleset `{ruleset_id}` from {needs}. Until then the battle is "
                         "read-only: nothing of it is changed.")


class ConflictError(GameError):
    """The battle changed underneath the order; try again."""


class NothingToUndoError(GameError):
    """Undo went past the start of the battle."""


class NoMapError(IllegalOrderError):
    """The battle's rule system has no map, and the command needs one."""


QUOTE_MAX = 80  # characters of what a user typed that a message quotes back


def shorten(text: str, limit: int = QUOTE_MAX) -> str:
    """Return text cut to at most `limit` characters (ending in an ellipsis when cut), for quoting it back."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def did_you_mean(wanted: str, names: list[str]) -> str:
    """Return ` Did you mean X?` for a name close to one of these (a typo), else nothing."""
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(wanted.strip().lower(), list(lowered), n=1, cutoff=0.75)
    return f" Did you mean `{lowered[close[0]]}`?" if close else ""
