"""Dice notation, recorded rolls and manual (scripted) results."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import MAX_NOTATION_LENGTH, MAX_TERMS, Dice, parse_dice, split_notation
from rules.errors import InvalidOrderError


def test_roll_records_faces_total_and_purpose() -> None:
    dice = Dice(random.Random(3))
    roll = dice.roll("2d6+3", "damage")
    assert roll.notation == "2d6+3"
    assert len(roll.faces) == 2 and all(1 <= f <= 6 for f in roll.faces)
    assert roll.total == sum(roll.faces) + 3
    assert dice.rolls == [roll]


def test_same_seed_same_rolls() -> None:
    a = [Dice(random.Random(9)).roll("3d10-2").total for _ in range(1)]
    b = [Dice(random.Random(9)).roll("3d10-2").total for _ in range(1)]
    assert a == b


def test_several_terms_and_small_dice() -> None:
    dice = Dice(random.Random(1), scripted=[4, 2, 5])
    roll = dice.roll("d5+d3-1d6")
    assert roll.faces == (4, 2, 5)
    assert roll.total == 4 + 2 - 5
    assert roll.manual


def test_d100_is_percentile() -> None:
    dice = Dice(random.Random(0))
    values = {dice.d100() for _ in range(2000)}
    assert min(values) == 1 and max(values) == 100


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [("1d0", "faces"), ("999d999999", "dice at a time"), ("d", "not dice"), ("x" * 2000, "characters long"),
     ("", "Write the dice"), ("5", "no dice"), ("2d6*/3", "not dice"), ("1d1", "faces")],
)
def test_malformed_dice_are_refused(bad: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        parse_dice(bad)


def test_manual_roll_outside_the_die_is_refused() -> None:
    dice = Dice(random.Random(0), scripted=[11])
    with pytest.raises(InvalidOrderError, match="cannot show 11"):
        dice.d(10)


def test_keep_highest_and_lowest_count_only_the_kept_dice() -> None:
    """Avrae's notation: `4d6kh3` keeps the three highest of four d6, `2d20kl1` the lower of two d20."""
    rolled = Dice(random.Random(0), scripted=[2, 5, 1, 6]).roll("4d6kh3")
    assert rolled.notation == "4d6kh3" and rolled.faces == (2, 5, 1, 6) and rolled.total == 13
    low = Dice(random.Random(0), scripted=[17, 4]).roll("2d20kl1+3")
    assert low.total == 7 and low.notation == "2d20kl1+3"
    # A bare number after `k` is a face, as Avrae reads it: `3d6k3` keeps the dice showing 3.
    assert Dice(random.Random(0), scripted=[3, 3, 6]).roll("3d6k3").total == 6


def test_percentile_dice_and_a_keep_of_all_dice() -> None:
    assert parse_dice("d%") == parse_dice("1d100")
    assert str(parse_dice("2d6kh2")[0]) == "+2d6", "keeping every die is a plain roll"


def test_advantage_disadvantage_and_a_comment_after_the_dice() -> None:
    assert split_notation("1d20+5 adv to hit the Angel") == ("2d20kh1+5", "to hit the Angel")
    assert split_notation("d20 dis") == ("2d20kl1", "")
    assert split_notation("4d6kh3 for strength") == ("4d6kh3", "for strength")
    assert split_notation("2d10 + 5 damage") == ("2d10+5", "damage")
    with pytest.raises(InvalidOrderError, match="start with `1d20`"):
        split_notation("2d6 adv")


def test_keeping_more_dice_than_rolled_is_refused() -> None:
    with pytest.raises(InvalidOrderError, match="Keep between 1 and 2 of 2d20"):
        parse_dice("2d20kh3")


# Pieces a player (or a modified client) can type, chosen so that repeating them builds the inputs that
# made the old pattern try every way of splitting digits between terms: `1d6+1d6+...+`, `1d61d61d6...`.
_PIECES = ["1d6", "+", "-", "d", "D", "6", "0", "12", "%", "k", "kh", "kl", "H", "L", " ", "1d6+", "d20", "x", "adv"]
dice_texts = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=2500).map("".join).filter(lambda s: len(s) <= 10_000),
    st.text(alphabet=st.sampled_from("0123456789dDkKhHlL%+- \t\n,x٣"), max_size=10_000),
    st.text(max_size=10_000),
)


@pytest.mark.parametrize("text", [
    "1d6+" * 25, "1d6+" * 2500, "1d6" * 3333 + "+", "1" * 10_000 + "+", "1d6kh1" * 1666 + "k",
    ("1d20+" * 600 + " adv"), "+" * 10_000, "d" * 10_000,
])
def test_long_and_repetitive_dice_are_answered(text: str) -> None:
    """Each is read once from left to right: a refusal or the dice, never a search through ways to split it."""
    for read in (split_notation, parse_dice):
        try:
            read(text)
        except InvalidOrderError as exc:
            assert exc.message and len(exc.message) < 300, exc.message
    with pytest.raises(InvalidOrderError, match=r"characters long|terms"):
        parse_dice(split_notation(text)[0])


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(dice_texts)
def test_every_text_of_up_to_ten_thousand_characters_is_answered(text: str) -> None:
    """The /roll path (split, then parse) answers any text: the dice, or a refusal that says what is wrong."""
    try:
        notation, _comment = split_notation(text)
        terms = parse_dice(notation)
    except InvalidOrderError as exc:
        assert exc.message.strip(), "a refusal says what was wrong"
        assert len(exc.message) < 400, "a refusal quotes at most the hundred characters a roll may have"
    else:
        assert 1 <= len(terms) <= MAX_TERMS and len(notation) <= MAX_NOTATION_LENGTH


def test_terms_are_counted_before_the_dice_are_read() -> None:
    with pytest.raises(InvalidOrderError, match=f"at most {MAX_TERMS} terms"):
        parse_dice("1d2+" * 11 + "1")
    assert len(parse_dice("+".join(["1d2"] * MAX_TERMS))) == MAX_TERMS
