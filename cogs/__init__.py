"""Slash-command groups, one package per noun, plus the players' verbs."""

EXTENSIONS = (
    "cogs.battle",
    "cogs.map",
    "cogs.unit",
    "cogs.play",
    "cogs.settings",
    "cogs.help",
)
