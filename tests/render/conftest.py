"""Shared fixtures for the renderer tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from render import clear_cache


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Start and end every test with an empty base-layer cache."""
    clear_cache()
    yield
    clear_cache()
