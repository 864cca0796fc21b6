"""Start battlepost: `python -m bot` runs the bot; `console` and `play FILE` run it locally.

`python -m bot --shards 0-3 --shard-count 8` runs only those shards (other processes run the rest over
the same PostgreSQL database); `python -m bot migrate-db --from FILE --to URL` moves the battles between
backends; `python -m bot web` serves the web view alone (as many processes as wanted, over one database). Settings that cannot work (a malformed database URL, an unreachable server, a schema from a
newer release) stop the start with a message and exit status 2, before anything is written.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from pathlib import Path

from bot.config import ConfigError, Settings, load_settings

NO_TOKEN = """\
battlepost needs a Discord bot token to connect to Discord.

  1. Open https://discord.com/developers/applications, create an application, and add a Bot to it.
  2. Copy the bot's token (Bot > Reset Token).
  3. Put it in a file named .env next to the Makefile:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell), then run `make run` again.

To try battlepost without Discord, run `make demo` (a scripted battle) or `python -m bot console`.
"""


def _shard_options(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument("--shards", default=default, metavar="IDS",
                        help="run only these shards, e.g. 0-3 or 4,5,7 (needs --shard-count); default: all")
    parser.add_argument("--shard-count", default=default, metavar="N",
                        help="how many shards the bot has in all, across every process")


def build_parser() -> argparse.ArgumentParser:
    """Return the command line's parser."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="battlepost: play-by-post battles on Discord")
    _shard_options(parser)
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="connect to Discord (the default)")
    # SUPPRESS keeps `python -m bot --shards 0-3 run` from being reset by the subcommand's own defaults.
    _shard_options(run, argparse.SUPPRESS)
    console = sub.add_parser("console", help="type slash commands locally, without Discord")
    console.add_argument("--out", default="console-out", help="folder for map images")
    console.add_argument("--seed", type=int, default=None, help="seed the dice")
    console.add_argument("--db", default=None, help="the console's database (default: OUT/console.sqlite3; "
                                                    "never the bot's own); an existing one is resumed")
    console.add_argument("--verbose", action="store_true", help="show the bot's log here (else it goes to OUT/console.log)")
    play = sub.add_parser("play", help="run a file of slash-command lines")
    play.add_argument("file", help="script file; '-' reads standard input")
    play.add_argument("--json", action="store_true", help="print one JSON object per command line")
    play.add_argument("--seed", type=int, default=None, help="seed the dice")
    play.add_argument("--out", default="console-out", help="folder for map images")
    play.add_argument("--db", default=None, help="the script's database (default: OUT/console.sqlite3)")
    play.add_argument("--verbose", action="store_true", help="show the bot's log here (else it goes to OUT/console.log)")
    sub.add_parser("web", help="serve the web view alone (BATTLEPOST_WEB), over the bot's database")
    backup = sub.add_parser("backup", help="copy the database to a SQLite file while the bot may be running")
    backup.add_argument("dest", nargs="?", default=None,
                        help="backup file to write (default: a dated file in BATTLEPOST_BACKUP_DIR)")
    migrate = sub.add_parser("migrate-db", help="copy every battle to another database (SQLite <-> PostgreSQL)")
    migrate.add_argument("--from", dest="source", required=True, metavar="DB",
                         help="the database to copy: a SQLite file or a postgresql:// URL")
    migrate.add_argument("--to", dest="target", required=True, metavar="DB",
                         help="an empty database to copy into: a SQLite file or a postgresql:// URL")
    migrate.add_argument("--sample", type=int, default=20, metavar="N",
                         help="replay this many battles, spread over the database, to check the copy (default 20)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the bot, the console or a script."""
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(shards=args.shards, shard_count=args.shard_count)
    except ConfigError as exc:
        print(f"battlepost: {exc}", file=sys.stderr)
        return 2
    log_format = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    if args.command in ("console", "play") and not args.verbose:
        # The console's screen is the game: its log goes to a file beside the maps unless asked for.
        Path(args.out).mkdir(parents=True, exist_ok=True)
        logging.basicConfig(level=settings.log_level, format=log_format, filename=str(Path(args.out) / "console.log"))
    else:
        logging.basicConfig(level=settings.log_level, format=log_format)
    from bot.app import StartupError

    try:
        return _dispatch(args, settings)
    except StartupError as exc:
        print(f"battlepost: {exc}", file=sys.stderr)
        return 2


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    command = args.command or "run"
    if command == "run":
        if not settings.discord_token:
            print(NO_TOKEN, file=sys.stderr)
            return 2
        from bot.runner import check_shards, event_loop_policy, run_discord

        check_shards(settings)
        asyncio.set_event_loop_policy(event_loop_policy())
        return asyncio.run(run_discord(settings))
    if command == "web":
        from bot.webfront import run_web

        return asyncio.run(run_web(settings))
    if command == "backup":
        from bot.runner import backup_to

        return asyncio.run(backup_to(settings, args.dest))
    if command == "migrate-db":
        from bot.migrate_db import migrate_db

        return asyncio.run(migrate_db(args.source, args.target, sample=args.sample))
    from bot.console import run_console, run_script

    # The console plays on a database of its own, never the bot's (BATTLEPOST_DB is for the bot).
    settings = dataclasses.replace(settings, database=args.db or str(Path(args.out) / "console.sqlite3"))
    if command == "console":
        try:
            return asyncio.run(run_console(settings, out_dir=args.out, seed=args.seed))
        except KeyboardInterrupt:  # Ctrl-C while a line runs leaves the console as `quit` would, saved
            print()
            return 130
    return asyncio.run(run_script(settings, args.file, as_json=args.json, seed=args.seed, out_dir=args.out))


if __name__ == "__main__":
    sys.exit(main())
