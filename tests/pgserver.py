"""A throwaway PostgreSQL server for the tests: its own data folder, a free port on 127.0.0.1, gone after.

The server binaries come from PATH, ``pg_config --bindir`` or Debian's ``/usr/lib/postgresql/N/bin``.
initdb and postgres refuse to run as root, so when the tests run as root (CI does) the server runs as
the unprivileged ``nobody`` user, in a folder that user owns. Durability settings are off: the tests
kill bot processes, never the server, so nothing here needs to survive a power cut.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

SUPERUSER = "battlepost"
START_ATTEMPTS = 3


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed."""


def find_bindir() -> Path:
    """Return the folder holding initdb and pg_ctl, or say how to install them."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        bindir = Path(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True).stdout.strip())
        if (bindir / "initdb").is_file():
            return bindir
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if candidates:
        return Path(candidates[-1]).parent
    raise PostgresMissing(
        "PostgreSQL's server programs (initdb, pg_ctl) were not found; install them, e.g. "
        "`apt-get install postgresql`, to run the PostgreSQL tests."
    )


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ThrowawayPostgres:
    """Run one PostgreSQL server in a temporary folder; hand out empty databases by URL."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="battlepost-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self._as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]], cwd=self.root, capture_output=True, text=True,
            env={**os.environ, "LC_ALL": "C"}, **self._as,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")

    def start(self) -> ThrowawayPostgres:
        """Create the cluster and start the server on a free port."""
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        for attempt in range(START_ATTEMPTS):
            self.port = free_port()
            options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"),
                          "-w", "-t", "30", "start")
                return self
            except RuntimeError:
                # Another program took the port between our check and the server's bind.
                if attempt == START_ATTEMPTS - 1:
                    raise
        return self

    def url(self, database: str = "postgres") -> str:
        """Return the URL of a database on this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """Create an empty database and return its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by create_database, closing whatever is still connected to it."""
        name = url.rsplit("/", 1)[-1]
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run one statement with psql and return its unaligned output."""
        result = subprocess.run(
            [str(self.bindir / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", self.url(database),
             "-c", sql], capture_output=True, text=True,
        )
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        with contextlib.suppress(RuntimeError):
            if self.port:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
