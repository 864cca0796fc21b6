"""Errors discord.py only logs must fail tests; commands that never answer must not hang."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import loopback
from loopback import ErrorLogCapture, InteractionError, LoopbackDiscord

PROJECT_ROOT = Path(loopback.__file__).resolve().parents[2]


async def test_raising_command_is_logged_and_claimed(
    running: LoopbackDiscord, logged_errors: ErrorLogCapture
) -> None:
    reply = await running.slash("boom")
    assert (reply.content, reply.ephemeral) == ("Something went wrong.", True)
    [record] = logged_errors.take()
    assert record.name.startswith("discord")
    assert record.exc_info is not None
    assert "kaboom" in repr(record.exc_info[1])


async def test_capture_helper_sees_handler_errors_directly(
    running: LoopbackDiscord, logged_errors: ErrorLogCapture
) -> None:
    with ErrorLogCapture() as capture:
        await running.slash("boom")
    assert len(capture) == 1
    assert capture.records[0].levelno == logging.ERROR
    assert "kaboom" in capture.report()
    logging.getLogger("discord").error("after the capture closed")
    assert len(capture) == 1
    assert len(logged_errors.take()) == 2


def test_fixture_fails_a_test_that_logged_an_error(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    (tmp_path / "test_probe.py").write_text(
        textwrap.dedent(
            """
            import logging
            from loopback.pytest_fixtures import *  # noqa: F403

            def test_logs_an_error():
                logging.getLogger("discord.client").error("handler blew up")

            def test_logs_a_warning():
                logging.getLogger("cogs.battle").warning("only a warning")
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-c",
            str(tmp_path / "pytest.ini"),
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    # pytest reports a failure found in fixture teardown as an error of that test.
    assert "ERROR at teardown of test_logs_an_error" in result.stdout
    assert "test_logs_a_warning" not in result.stdout.split("short test summary info")[-1]
    assert "1 error(s) were logged during the test" in result.stdout
    assert "handler blew up" in result.stdout


async def test_command_that_never_answers_times_out(running: LoopbackDiscord) -> None:
    with pytest.raises(TimeoutError, match="did not answer /silent"):
        await running.slash("silent", within=0.2)


async def test_interacting_without_a_bot_raises(loopback: LoopbackDiscord) -> None:
    with pytest.raises(InteractionError, match="no bot is connected"):
        await loopback.slash("anything")


async def test_discord_limits_are_enforced(running: LoopbackDiscord, logged_errors: ErrorLogCapture) -> None:
    fits = await running.slash("shout", length=2000)
    assert len(fits.content) == 2000
    assert running.rejections == []
    apology = await running.slash("shout", length=2001)
    assert (apology.content, apology.ephemeral) == ("Something went wrong.", True)
    assert apology.interaction.rejections == [
        "Invalid Form Body: content is 2001 characters; the limit is 2000"
    ]
    assert len(running.rejections) == 1 and running.rejections[0].startswith("POST /interactions/")
    [record] = logged_errors.take()
    assert record.exc_info is not None and "50035" in str(record.exc_info[1])
