"""Dice as Avrae's players type them: parentheses, `*` and `/`, rerolls, explosions, minimum, maximum, keep, drop.

Each operation acts on the dice still counted, in the order written; every die, rerolled or exploded,
is rolled by the engine's `Dice` and recorded, so the faces of a roll replay it.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import (
    MAX_DICE_PER_TERM,
    MAX_DICE_ROLLED,
    MAX_NOTATION_LENGTH,
    MAX_SHOWN,
    Dice,
    parse_dice,
    parse_expression,
    split_notation,
)
from rules.errors import InvalidOrderError


def rolled(notation: str, faces: list[int]) -> tuple[int, str, tuple[int, ...]]:
    """Roll notation with the faces given in order; return the total, the breakdown and the faces recorded."""
    dice = Dice(random.Random(0), scripted=list(faces))
    roll = dice.roll(notation)
    assert dice.rolls == [roll] and not dice.scripted, "every face given was rolled, and the roll recorded once"
    return roll.total, roll.shown, roll.faces


def test_parentheses_products_and_quotients_bind_as_in_arithmetic() -> None:
    assert rolled("(1d6+2)*3", [4]) == (18, "(1d6 (4) + 2) * 3", (4,))
    assert rolled("1d6+2*3", [4])[0] == 10
    assert rolled("2d8/2", [3, 4])[0] == 3, "7 / 2 is 3.5, and the total drops the fraction"
    assert rolled("(2d8/2)+(2d8/2)", [3, 4, 3, 4])[0] == 7, "the fraction is dropped only from the total"
    assert rolled("3-1d4", [4])[0] == -1
    assert rolled("2d6++3", [1, 1])[0] == 5, "a sign before a number is that number's sign"


def test_keep_and_drop_the_highest_or_lowest() -> None:
    assert rolled("4d6kh3", [2, 5, 1, 6]) == (13, "4d6kh3 (2, 5, ~~1~~, 6)", (2, 5, 1, 6))
    assert rolled("4d6kl1", [2, 5, 1, 6])[0] == 1
    assert rolled("4d6ph1", [2, 5, 1, 6]) == (8, "4d6ph1 (2, 5, 1, ~~6~~)", (2, 5, 1, 6))
    assert rolled("4d6pl1", [2, 5, 1, 6])[0] == 13
    assert rolled("4d6k5", [5, 2, 5, 1])[0] == 10, "a bare number keeps the dice showing it"
    assert rolled("4d6p>4", [5, 2, 6, 1])[0] == 3, "drop every die above 4"


def test_reroll_until_a_die_no_longer_matches_or_only_once() -> None:
    # `rr1`: each 1 is rolled again until it is not a 1; the 1s are struck out but recorded.
    assert rolled("2d6rr1", [1, 4, 1, 3]) == (7, "2d6rr1 (~~1~~, 4, ~~1~~, 3)", (1, 4, 1, 3))
    # `ro<3`: dice under 3 are rolled once more, and the new face stands even if it is low.
    assert rolled("3d6ro<3", [1, 2, 6, 1, 5]) == (12, "3d6ro<3 (~~1~~, ~~2~~, 6, 1, 5)", (1, 2, 6, 1, 5))
    # `ra6`: one 6 rolls one more die, which adds to the total.
    assert rolled("2d6ra6", [6, 6, 3])[0] == 15


def test_exploding_dice_roll_again_and_may_explode_again() -> None:
    assert rolled("2d6e6", [6, 2, 6, 3]) == (17, "2d6e6 (6!, 2, 6!, 3)", (6, 2, 6, 3))
    assert rolled("1d10e>8", [9, 10, 1])[0] == 20


def test_minimum_and_maximum_set_a_face_and_show_what_it_was() -> None:
    assert rolled("2d6mi3", [1, 5]) == (8, "2d6mi3 (1\u21923, 5)", (1, 5))
    assert rolled("2d6ma4", [6, 2]) == (6, "2d6ma4 (6\u21924, 2)", (6, 2))


def test_operations_apply_in_order_to_the_dice_still_counted() -> None:
    # Reroll the 1s, then keep the highest two of what stands.
    assert rolled("3d6rr1kh2", [1, 3, 4, 2]) == (7, "3d6rr1kh2 (~~1~~, 3, 4, ~~2~~)", (1, 3, 4, 2))


def test_plain_sums_keep_their_notation_and_breakdown() -> None:
    roll = Dice(random.Random(0), scripted=[4, 2]).roll("2d6 + 3")
    assert (roll.notation, roll.total, roll.shown) == ("2d6+3", 9, "")
    assert "shown" not in roll.to_dict(), "a plain sum's stored roll is what it always was"
    marked = Dice(random.Random(0), scripted=[2, 5]).roll("2d20KL1")
    assert marked.notation == "2d20kl1" and marked.to_dict()["shown"] == "2d20kl1 (2, ~~5~~)"


@pytest.mark.parametrize(("text", "fragment"), [
    ("99999999999d6", f"Roll between 1 and {MAX_DICE_PER_TERM} dice at a time"),
    ("1d99999999999", "A die has between 2 and 1000 faces"),
    ("1d6rr<7", "would reroll every face of a d6 for ever"),
    ("1d6e>0", "would explode every face of a d6 for ever"),
    ("2d6rrh1", "takes a face or a range"),
    ("2d6mih2", "`mi` takes a number"),
    ("2d6kh3", "Keep between 1 and 2 of 2d6"),
    ("2d6pl3", "Drop between 1 and 2 of 2d6"),
    ("2d6kh0", "selects no dice"),
    ("(1d6+2", "opens a parenthesis it does not close"),
    ("1d6+2)", "closes a parenthesis it never opened"),
    ("(2*3)", "has no dice in it"),
    ("1d6**2", "not dice notation"),
    ("1d6rr", "not dice notation"),
    ("(" * 11 + "1d6" + ")" * 11, "Nest at most"),
])
def test_notation_that_cannot_be_rolled_is_refused_with_the_reason(text: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment.replace("(", r"\(").replace("*", r"\*")):
        parse_expression(text)


def test_a_roll_that_would_need_too_many_dice_says_the_limit() -> None:
    # Every d1000 below 1000 is rolled again: a hundred of them need far more than the limit.
    with pytest.raises(InvalidOrderError, match=f"more than {MAX_DICE_ROLLED:,} dice"):
        Dice(random.Random(1)).roll("100d1000rr<1000")


def test_a_long_breakdown_is_cut_to_fit_a_message_and_the_record_keeps_every_face() -> None:
    roll = Dice(random.Random(5)).roll("100d6rr<6")
    assert len(roll.faces) > 100 and len(roll.shown) <= MAX_SHOWN and roll.shown.endswith("\u2026")
    assert roll.total == 600, "every die is rolled again until it shows 6"


def test_dividing_by_a_zero_the_dice_made_is_refused() -> None:
    with pytest.raises(InvalidOrderError, match="divided by zero"):
        Dice(random.Random(0), scripted=[3, 3, 3]).roll("1d6/(1d6-1d6)")


def test_advantage_said_twice_is_refused_not_read_as_a_comment() -> None:
    with pytest.raises(InvalidOrderError, match="Say `adv` or `dis` once"):
        split_notation("1d20 adv adv")
    with pytest.raises(InvalidOrderError, match="Say `adv` or `dis` once"):
        split_notation("1d20+5 adv dis to hit")
    assert split_notation("(1d6+2)*2 fire damage") == ("(1d6+2)*2", "fire damage")
    assert split_notation("1d20ro1 + 5 hello") == ("1d20ro1+5", "hello"), "a word of operation letters is a comment"


def test_notes_in_brackets_tag_a_term_and_show_in_the_breakdown() -> None:
    """Avrae's players tag damage by kind: `1d8[slashing] + 2d6 [cold iron]`; the note changes no number."""
    notation, comment = split_notation("1d8[slashing] + 2d6 [cold iron] on the Angel")
    assert (notation, comment) == ("1d8[slashing]+2d6[cold iron]", "on the Angel")
    assert rolled(notation, [3, 5, 1]) == (9, "1d8 (3) [slashing] + 2d6 (5, 1) [cold iron]", (3, 5, 1))
    with pytest.raises(InvalidOrderError, match="A note in brackets holds"):
        parse_expression("1d8[<@1234>]")
    with pytest.raises(InvalidOrderError, match="not dice notation"):
        parse_expression("[fire]1d8")


def test_plain_sums_are_still_what_damage_and_initiative_read() -> None:
    assert [str(t) for t in parse_dice("4d6kh3-1")] == ["+4d6kh3", "-1"]
    with pytest.raises(InvalidOrderError, match="more than a sum of dice"):
        parse_dice("(1d6+2)*3")


_PIECES = ["1d6", "(", ")", "[", "]", "[fire]", "cold iron", "*", "/", "+", "-", "rr", "ro", "ra", "e", "mi", "ma", "kh", "pl", "<", ">", "1", "6",
           "d", "%", " ", "adv", "x"]


@settings(deadline=None, max_examples=150)
@given(st.lists(st.sampled_from(_PIECES), max_size=3000).map("".join))
def test_any_text_of_the_new_grammar_is_rolled_or_refused(text: str) -> None:
    """Up to ten thousand characters of the grammar's own pieces: a roll within the limits, or a refusal."""
    try:
        notation, _comment = split_notation(text)
        roll = Dice(random.Random(7)).roll(notation)
    except InvalidOrderError as exc:
        assert exc.message.strip() and len(exc.message) < 500
    else:
        assert len(notation) <= MAX_NOTATION_LENGTH and 1 <= len(roll.faces) <= MAX_DICE_ROLLED
