"""Fixtures for every test: fail on logged errors, and the loopback Discord."""

from bot.loopback.pytest_fixtures import *  # noqa: F403
from rules.systems import install as _install_systems

# Every test plays the shipped rule systems; front ends register them the same way at startup.
_install_systems()
