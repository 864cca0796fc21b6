"""Start battlepost: `python -m bot` runs the bot; `console` and `play FILE` run it locally."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import ConfigError, load_settings

NO_TOKEN = """\
battlepost needs a Discord bot token to connect to Discord.

  1. Open https://discord.com/developers/applications, create an application, and add a Bot to it.
  2. Copy the bot's token (Bot > Reset Token).
  3. Put it in a file named .env next to the Makefile:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell), then run `make run` again.

To try battlepost without Discord, run `make demo` (a scripted battle) or `python -m bot console`.
"""


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the bot, the console or a script."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="battlepost: play-by-post battles on Discord")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord (the default)")
    console = sub.add_parser("console", help="type slash commands locally, without Discord")
    console.add_argument("--out", default="console-out", help="folder for map images")
    console.add_argument("--seed", type=int, default=None, help="seed the dice")
    play = sub.add_parser("play", help="run a file of slash-command lines")
    play.add_argument("file", help="script file; '-' reads standard input")
    play.add_argument("--json", action="store_true", help="print one JSON object per command line")
    play.add_argument("--seed", type=int, default=None, help="seed the dice")
    play.add_argument("--out", default="console-out", help="folder for map images")
    backup = sub.add_parser("backup", help="copy the database to a file while the bot may be running")
    backup.add_argument("dest", help="backup file to write")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"battlepost: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    command = args.command or "run"
    if command == "run":
        if not settings.discord_token:
            print(NO_TOKEN, file=sys.stderr)
            return 2
        from bot.runner import run_discord

        return asyncio.run(run_discord(settings))
    if command == "backup":
        from bot.runner import backup_to

        return asyncio.run(backup_to(settings, args.dest))
    from bot.console import run_console, run_script

    if command == "console":
        return asyncio.run(run_console(settings, out_dir=args.out, seed=args.seed))
    return asyncio.run(run_script(settings, args.file, as_json=args.json, seed=args.seed, out_dir=args.out))


if __name__ == "__main__":
    sys.exit(main())
