"""Surface Combat's own reply pieces: its setup steps, and /battle info's stage and forces."""

from __future__ import annotations

from cogs.common.systems import FrontEnd
from cogs.common.words import SystemWords
from cogs.surface import guide
from cogs.surface.info import SETUP_STEPS, force_fields, surface_stage

WORDS = SystemWords(
    commands={kind: kind.replace("surface-", "surface ") for kind in
              ("surface-import", "surface-next-turn", "surface-plan", "surface-resolve", "surface-side")},
    named_alone=frozenset({"surface-import"}),
)

FRONT_END = FrontEnd(words=WORDS, help_gm=(guide.GM_TITLE, guide.GM_GUIDE), setup_steps=SETUP_STEPS, info_stage=surface_stage, info_fields=force_fields,
                     commands=frozenset({"surface"}))
