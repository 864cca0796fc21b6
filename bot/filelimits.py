"""The bounded reader of attached files, as the bot's importers name it (it lives in rules, beside the parsers)."""

from rules.filelimits import FileLimitError, Limits, check_shape, check_toml, load_json, load_toml, load_xml

__all__ = ["FileLimitError", "Limits", "check_shape", "check_toml", "load_json", "load_toml", "load_xml"]
