"""Surface Combat's own reply pieces: its setup steps, /battle info's stage and forces, and its end summary."""

from __future__ import annotations

import rules.systems.surface.effects as surface
from cogs.common.embeds import safe
from cogs.common.systems import FrontEnd
from cogs.common.words import SystemWords, plural
from cogs.surface import guide
from cogs.surface.info import SETUP_STEPS, force_fields, surface_stage
from cogs.surface.setup_panel import setup_panel
from cogs.surface.summary import end_summary

WORDS = SystemWords(
    commands={kind: kind.replace("surface-", "surface ") for kind in
              ("surface-import", "surface-next-turn", "surface-plan", "surface-resolve", "surface-side")},
    named_alone=frozenset({"surface-import"}),
)


def _resolved(e: surface.Resolved) -> str:
    levels = ", ".join(f"{safe(side)} {level}" for side, level in e.levels.items())
    return f"The engagement is fought over {plural(e.rounds, 'round')}: {levels}"


def _changed(fields: object) -> str:
    return safe(list(fields) if isinstance(fields, tuple) else fields)


LINES = {
    surface.UnitAdded: lambda e: f"{safe(e.unit)} joins {safe(e.side)}",
    surface.UnitRemoved: lambda e: f"{safe(e.unit)} removed",
    surface.Resolved: _resolved,
    surface.UnitEdited: lambda e: f"{safe(e.unit)}: changed {_changed(e.fields)}",
    # Surface Combat plays game turns of secret plans, not rounds.
    surface.BattleStarted: lambda e: (f"Game turn {e.turn} begins: each side commits its secret pre-battle plan "
                                      f"with /surface plan."),
    surface.BattleEnded: lambda e: f"The battle ended in game turn {e.turn}.",
}

FRONT_END = FrontEnd(lines=LINES, words=WORDS, help_gm=(guide.GM_TITLE, guide.GM_GUIDE), setup_steps=SETUP_STEPS,
                     info_stage=surface_stage, info_fields=force_fields, end_summary=end_summary,
                     commands=frozenset({"surface"}), setup_panel=setup_panel)
