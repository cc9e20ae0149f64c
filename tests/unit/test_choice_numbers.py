"""A numbered option is read from a whole decimal number; a superscript digit is not one."""

from engine.answers import Unreadable
from engine.choices import BOUND_CHOICES, Choice, parse_choice


def test_a_superscript_digit_is_unreadable_not_a_crash():
    assert isinstance(parse_choice("¹", BOUND_CHOICES), Unreadable)


def test_numbered_options_still_read():
    assert parse_choice("2", BOUND_CHOICES) == BOUND_CHOICES[1]
    assert parse_choice("２", BOUND_CHOICES) == BOUND_CHOICES[1]  # a full-width 2


def test_a_choice_is_immutable_and_compared_by_value():
    assert Choice("a", ("b",)) == Choice("a", ("b",)) and hash(Choice("a")) == hash(Choice("a"))
