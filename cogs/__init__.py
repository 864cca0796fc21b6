"""Slash-command groups, one package per noun, plus the players' verbs (the bot loads them by name)."""
