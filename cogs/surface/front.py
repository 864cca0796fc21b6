"""Surface Combat's own reply pieces: its setup steps, and /battle info's stage and forces."""

from __future__ import annotations

from cogs.common.systems import FrontEnd
from cogs.surface.info import SETUP_STEPS, force_fields, surface_stage

FRONT_END = FrontEnd(setup_steps=SETUP_STEPS, info_stage=surface_stage, info_fields=force_fields,
                     commands=frozenset({"surface"}))
