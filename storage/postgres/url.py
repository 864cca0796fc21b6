"""Tell a PostgreSQL URL from a file path, check it before connecting, and print it without its password."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit, urlunsplit

from ..errors import DatabaseAddressError

SCHEMES = ("postgresql", "postgres")
# Anything that starts like "word://" is meant as a URL, even with a misspelt scheme; a file path never does.
_LOOKS_LIKE_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
EXAMPLE = "postgresql://battlepost:secret@db.example.org:5432/battlepost"


def is_url(target: str) -> bool:
    """Return whether a BATTLEPOST_DB value is meant as a URL rather than a file path."""
    return bool(_LOOKS_LIKE_URL.match(target.strip()))


def check_url(url: str) -> str:
    """Return the URL if it names a PostgreSQL database, or say exactly what is wrong with it."""
    text = url.strip()
    scheme = text.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise DatabaseAddressError(
            f"BATTLEPOST_DB starts with `{scheme}://`, which battlepost cannot use: give a file path for "
            f"SQLite, or a PostgreSQL URL like {EXAMPLE}."
        )
    try:
        parts = urlsplit(text)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        raise DatabaseAddressError(
            f"BATTLEPOST_DB is not a usable PostgreSQL URL ({exc}); write it like {EXAMPLE}."
        ) from None
    query = parse_qs(parts.query)
    if not host and "host" not in query:
        raise DatabaseAddressError(
            f"BATTLEPOST_DB names no PostgreSQL server: write it like {EXAMPLE} "
            "(or postgresql:///battlepost?host=/run/postgresql for a local socket)."
        )
    if port == 0:
        raise DatabaseAddressError("BATTLEPOST_DB has port 0; PostgreSQL listens on 5432 unless told otherwise.")
    if not parts.path.strip("/"):
        raise DatabaseAddressError(f"BATTLEPOST_DB names no database after the server: write it like {EXAMPLE}.")
    return text


def redact(url: str) -> str:
    """Return the URL with its password replaced, for logs and messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[-1]}"))
