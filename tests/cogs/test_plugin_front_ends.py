"""The shipped rule systems are plug-ins like any other: found through entry points, each with a front end."""

from __future__ import annotations

import importlib
import inspect
from importlib import metadata

from cogs.common.systems import FrontEnd
from rules.plugins import GROUP, Plugin, installed
from rules.systems import builtin, install

SHIPPED = {"strategic", "combat_action", "surface", "m42"}


def test_every_shipped_system_is_declared_as_an_entry_point_of_battlepost() -> None:
    entries = {e.name: e for e in metadata.entry_points(group=GROUP) if e.dist is not None and e.dist.name == "battlepost"}
    assert set(entries) == SHIPPED
    for name, entry in entries.items():
        plugin = entry.load()
        assert isinstance(plugin, Plugin)
        assert plugin.system.id == name and plugin.system.package == entry.module


def test_the_shipped_systems_load_from_their_entry_points_and_register() -> None:
    ids = {s.id for s in install()}
    assert SHIPPED <= ids
    assert {s.id for s in builtin()} == SHIPPED
    assert {done.plugin.system.id for done in installed() if done.distribution == "battlepost"} == SHIPPED


def test_each_front_end_named_by_a_shipped_plugin_is_an_extension_with_its_pieces() -> None:
    install()
    for done in installed():
        if done.distribution != "battlepost":
            continue
        assert done.plugin.front_end is not None, f"{done.name} names no front end"
        module = importlib.import_module(done.plugin.front_end)
        assert inspect.iscoroutinefunction(getattr(module, "setup", None)), f"{done.plugin.front_end} has no async setup"
        assert isinstance(getattr(module, "FRONT_END", None), FrontEnd), f"{done.plugin.front_end} offers no FRONT_END"
