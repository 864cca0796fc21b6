"""Shape HTTP responses exactly the way discord.py expects them."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

# Discord's own JSON error codes for the failures the stand-in reports.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
INVALID_FORM_BODY = 50035
CANNOT_EDIT_OTHERS = 50005
MISSING_PERMISSIONS = 50013
WRONG_CHANNEL_TYPE = 50024


def json_response(data: Any, status: int = 200) -> web.Response:
    """Return JSON with a bare 'application/json' content type (discord.py rejects a charset suffix)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    """Return the empty 204 Discord sends for pins, deletes and typing."""
    return web.Response(status=204)


def discord_error(status: int, message: str, code: int = 0) -> web.Response:
    """Return a Discord-style JSON error body with the given HTTP status."""
    return json_response({"message": message, "code": code}, status=status)


class DiscordHTTPError(Exception):
    """Abort a handler with a Discord-style error response."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.message = message
        self.code = code

    def response(self) -> web.Response:
        """Return the HTTP response this error stands for."""
        return discord_error(self.status, self.message, self.code)


def not_found(what: str, code: int) -> DiscordHTTPError:
    """Build the 404 Discord answers for an unknown object."""
    return DiscordHTTPError(404, f"Unknown {what}", code)


def snowflake(request: web.Request, name: str) -> int:
    """Read a snowflake path parameter, answering 404 when it is not a number."""
    raw = request.match_info[name]
    if not raw.isdigit():
        raise DiscordHTTPError(404, f"404: Not Found ({name}={raw!r})", 0)
    return int(raw)
