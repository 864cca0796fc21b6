"""The one error handler never sends more than Discord takes: quotes are shortened first, then the whole."""

from __future__ import annotations

from bot.tree import MAX_CONTENT, fit


def test_a_short_message_is_sent_as_written() -> None:
    assert fit("`E5` is not on the map.") == "`E5` is not on the map."


def test_a_long_quote_is_shortened_and_the_advice_after_it_kept() -> None:
    message = fit(f"`{'9' * 5000}` is not a number; write it like `12`.")
    assert len(message) <= MAX_CONTENT
    assert message.endswith("is not a number; write it like `12`.") and "9" * 80 not in message


def test_a_message_too_long_without_quotes_is_cut_to_the_limit() -> None:
    message = fit("word " * 1000)
    assert len(message) == MAX_CONTENT and message.endswith("…")
