"""Encode and decode the JSON documents and compressed snapshots stored in the database."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import orjson

from .errors import TooLargeToStore
from .records import JsonDict, decode_document


def encode(document: Mapping[str, Any]) -> str:
    """Serialise a JSON-able mapping to the text stored in the database."""
    # orjson raises on non-str keys and unknown types but writes NaN/Infinity as null;
    # the rules layer never produces non-finite numbers, so that is not checked here.
    # TEXT rather than BLOB so json_extract() works from the sqlite3 shell when a GM needs help.
    try:
        return orjson.dumps(document).decode()
    except orjson.JSONEncodeError as exc:
        if "64-bit" not in str(exc):
            raise
        # Numbers are bounded where users type or import them; this is the last guard, before anything is written.
        raise TooLargeToStore("A number in this change is larger than a battle can store (at most "
                              "9,223,372,036,854,775,807); nothing was changed. Use a smaller number.") from None


def encode_optional(document: Mapping[str, Any] | None) -> str | None:
    """Serialise a mapping, passing None through."""
    return None if document is None else encode(document)


def decode(text: str | bytes) -> JsonDict:
    """Parse a stored document back into a dict."""
    return decode_document(text)


def decode_optional(text: str | bytes | None) -> JsonDict | None:
    """Parse a stored document, passing NULL through as None."""
    return None if text is None else decode(text)


def encode_list(values: list[Any]) -> str:
    """Serialise a JSON-able list, e.g. to pass a set of ids to json_each()."""
    return orjson.dumps(values).decode()


def decode_list(text: str | bytes) -> list[Any]:
    """Parse a stored JSON list."""
    value = orjson.loads(text)
    if not isinstance(value, list):
        raise ValueError(f"stored value is a {type(value).__name__}, not a list")
    return value


# Level 1: about 40 µs for a 30 KB state and within a few percent of level 6's size.
SNAPSHOT_COMPRESSION_LEVEL = 1


def pack_snapshot(text: str) -> bytes:
    """Compress a stored state document for an event's undo snapshot."""
    # Every order keeps a full copy of the state before it; JSON shrinks 5-10x under
    # zlib, which is the difference between megabytes and gigabytes over a long campaign.
    return zlib.compress(text.encode(), SNAPSHOT_COMPRESSION_LEVEL)


def unpack_snapshot(blob: bytes) -> str:
    """Expand an undo snapshot back into the stored state text."""
    return zlib.decompress(blob).decode()


def pack_state(state: Mapping[str, Any]) -> bytes:
    """Encode and compress a state document as an undo snapshot."""
    return pack_snapshot(encode(state))
