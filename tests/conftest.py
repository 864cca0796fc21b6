"""Fixtures for every test: fail on logged errors, and the loopback Discord."""

from bot.loopback.pytest_fixtures import *  # noqa: F403
