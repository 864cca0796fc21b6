"""Orders written as the commands players type, and read back: what a question's footer shows and gives."""

from __future__ import annotations

import pytest

from cogs.common.confirm import orders_of, question
from cogs.common.systems import register_front_end
from cogs.common.words import command_text, order_text
from cogs.strategic.front import FRONT_END
from rules.orders import Order


@pytest.fixture(autouse=True)
def strategic_words() -> None:
    """Register Strategic's front end, as its extension does when the bot loads it: its orders' commands."""
    register_front_end("strategic", FRONT_END)


@pytest.mark.parametrize(("order", "command"), [
    ("end-turn unit:'Angel Swarm'", '/turn end unit:"Angel Swarm"'),
    ("end", "/battle end"),
    ("attack unit:Eva-01 weapon:'Pallet Rifle' target:Eva-02", '/attack unit:Eva-01 weapon:"Pallet Rifle" target:Eva-02'),
    ("gm-place target:Eva-01 at:C4", "/gm move unit:Eva-01 to:C4"),
])
def test_a_command_reads_back_as_the_order_it_gives(order: str, command: str) -> None:
    assert command_text(order, "strategic") == command
    back = order_text(command, "strategic")
    assert back is not None and Order.parse(back) == Order.parse(order)


def test_text_that_is_not_a_command_is_not_read_as_one() -> None:
    assert order_text("end-turn unit:A") is None
    assert order_text('/turn end unit:"unclosed') is None


class _Message:
    """The parts of a posted message a Confirm button reads back: its embeds."""

    def __init__(self, embed: object) -> None:
        self.embeds = [embed]


def test_a_question_shows_the_commands_and_its_confirm_gives_the_same_orders() -> None:
    orders = [Order.parse("end-turn unit:'Angel Swarm'"), Order.parse("end-turn unit:Eva-01")]
    embed, _view = question(1, "orders", "End these turns?", "Two units have points left.", orders, "End them")
    footer = embed.footer.text or ""
    assert footer.splitlines()[1:] == ['/turn end unit:"Angel Swarm"', "/turn end unit:Eva-01"]
    assert "end-turn" not in footer
    assert orders_of(_Message(embed)) == orders  # type: ignore[arg-type]


def test_an_order_no_command_says_whole_keeps_its_own_text() -> None:
    # The owner option is not shown in commands (a user id means nothing to a reader), so it cannot read back.
    order = Order.parse("add-unit name:Eva-01 side:NERV at:C3 owner:123")
    embed, _view = question(1, "orders", "Add?", "", [order], "Add")
    assert (embed.footer.text or "").splitlines()[1] == str(order)
    assert orders_of(_Message(embed)) == [order]  # type: ignore[arg-type]
