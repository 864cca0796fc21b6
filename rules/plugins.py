"""Rule systems found through the `battlepost.systems` entry point group, the shipped ones included.

Each entry point names a `Plugin` in its system's rules package (`rules.systems.m42:PLUGIN`, say): the
`System` itself and, as a dotted module name (rules never import a front end), the discord.py extension
that plays it on Discord. A plug-in that fails to load (its import fails, it names something that is not a
`Plugin`, one of its ids is taken, its data table is malformed) is logged and left out; the others load.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import metadata

from rules.errors import RulesetError
from rules.ruleset import parse_ruleset
from rules.system import System, register, registered, system_of
from rules.turns import parse_turn_rules

log = logging.getLogger(__name__)

GROUP = "battlepost.systems"


@dataclass(frozen=True)
class Plugin:
    """What a rule system's package offers battlepost: its `System` and the extension that plays it on Discord."""

    system: System
    front_end: str | None = None  # a discord.py extension (`async def setup(bot)`); None: shared commands only


@dataclass(frozen=True)
class Loaded:
    """A plug-in that loaded: its entry point's name, the distribution that ships it, what it gave."""

    name: str
    distribution: str
    plugin: Plugin


@dataclass(frozen=True)
class Failure:
    """A plug-in that did not load: its entry point's name, its distribution, and why, in a sentence."""

    name: str
    distribution: str
    reason: str


@dataclass(frozen=True)
class Discovery:
    """What one pass over the entry points found: the plug-ins that loaded and the ones that did not."""

    loaded: tuple[Loaded, ...]
    failed: tuple[Failure, ...]


_LOADED: dict[str, Loaded] = {}  # by system id
_FAILED: dict[str, Failure] = {}  # by entry point name
_ENTRIES: set[tuple[str, str]] = set()  # (name, value) of the entry points loaded, so a second pass skips them


def _distribution(entry: metadata.EntryPoint) -> str:
    """Return the name of the distribution that declares an entry point (`?` when it cannot be told)."""
    dist = entry.dist
    return dist.name if dist is not None else "?"


def _check(plugin: Plugin) -> None:
    """Refuse a plug-in whose ids are taken by another system or whose rulesets' data tables do not load."""
    system = plugin.system
    for other in registered():
        if other.id == system.id and other is not system:
            raise RulesetError(f"the system id `{system.id}` is already taken by {other.name}")
    for rid in system.ruleset_ids:
        try:
            owner = system_of(rid)
        except RulesetError:
            owner = None
        if owner is not None and owner is not system:
            raise RulesetError(f"the ruleset id `{rid}` is already taken by {owner.name}")
    for rid in system.ruleset_ids:
        document = system.document(rid)
        parsed = parse_ruleset(document, f"{rid}.toml")
        if parsed.id != rid:
            raise RulesetError(f"{rid}.toml says its id is `{parsed.id}`, not `{rid}`")
        parse_turn_rules(document, f"{rid}.toml", system.initiative_tokens)


def _load(entry: metadata.EntryPoint) -> Loaded:
    """Import one entry point's plug-in, check it and register its system; raise saying why it cannot."""
    try:
        plugin = entry.load()
    except Exception as exc:  # an import of someone else's package may fail any way at all
        raise RulesetError(f"importing `{entry.value}` failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(plugin, Plugin) or not isinstance(plugin.system, System):
        raise RulesetError(f"`{entry.value}` is a {type(plugin).__name__}, not a rules.plugins.Plugin")
    try:
        _check(plugin)
    except RulesetError:
        raise
    except Exception as exc:  # a data table may be unreadable in ways the TOML parser does not name
        raise RulesetError(f"its data table does not load: {type(exc).__name__}: {exc}") from exc
    register(plugin.system, _distribution(entry))
    return Loaded(name=entry.name, distribution=_distribution(entry), plugin=plugin)


def discover() -> Discovery:
    """Load every rule system installed under the entry point group not loaded yet, logging each failure."""
    entries = sorted(metadata.entry_points(group=GROUP), key=lambda e: (e.name, e.value))
    loaded: list[Loaded] = []
    failed: list[Failure] = []
    for entry in entries:
        if (entry.name, entry.value) in _ENTRIES:
            continue
        try:
            done = _load(entry)
        except RulesetError as exc:
            failure = Failure(name=entry.name, distribution=_distribution(entry), reason=str(exc))
            _FAILED[entry.name] = failure
            failed.append(failure)
            log.error("rule system plug-in %r from %s left out: %s", failure.name, failure.distribution,
                      failure.reason)
            continue
        _FAILED.pop(entry.name, None)
        _ENTRIES.add((entry.name, entry.value))
        _LOADED[done.plugin.system.id] = done
        loaded.append(done)
        log.info("rule system %s (%s) loaded from %s", done.plugin.system.name, done.name, done.distribution)
    if not entries:
        # Metadata written before the entry points existed (a stale `battlepost.egg-info` next to the sources,
        # say) lists none: every ruleset would be unknown, so say how to mend it.
        log.error("no rule system is installed: no `%s` entry point was found; reinstall battlepost "
                  "(`make` or `pip install -e .`) so its metadata lists its systems", GROUP)
    return Discovery(loaded=tuple(loaded), failed=tuple(failed))


def installed() -> list[Loaded]:
    """Return the plug-ins loaded so far, in the order they loaded."""
    return list(_LOADED.values())


def failures() -> list[Failure]:
    """Return the plug-ins that did not load on the last pass, with why."""
    return list(_FAILED.values())


__all__ = ["GROUP", "Discovery", "Failure", "Loaded", "Plugin", "discover", "failures", "installed"]
