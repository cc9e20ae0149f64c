"""engine.review: a review row's type, its stored form and its checks."""

from datetime import UTC, date, datetime

import pytest

from engine.review import OPTIONAL, REQUIRED, Review, row_problem
from engine.session import review_row
from engine.storage.layout import OPTIONAL_ROW_FIELDS, ROW_FIELDS
from engine.storage.validation import InvalidDocument

WHEN, DAY = datetime(2026, 11, 29, 15, 42, 1, tzinfo=UTC), date(2026, 11, 29)


def stored(**kw) -> dict:
    return {"id": 7, **review_row(item="r1", topic="roofline", seed=3, quality=4, verdict="correct", when=WHEN,
                                  today=DAY, state=None, schedule=True, **kw).to_dict()}


def test_the_save_layout_reads_the_fields_from_the_type():
    assert (ROW_FIELDS, OPTIONAL_ROW_FIELDS) == (REQUIRED, OPTIONAL) == (Review._fields[:16], Review._fields[16:])
    assert OPTIONAL == ("hardware", "conventions", "model", "pressed", "hint", "origin")


@pytest.mark.parametrize("kw", [{}, {"hardware": "h100"}, {"model": "llama-70b", "hardware": "h100"},
                                {"conventions": {"bytes_per_param": "18"}}, {"pressed": True}, {"hint": 2}])
def test_a_stored_row_reads_back_as_itself_keys_in_order(kw):
    d = stored(**kw)
    r = Review.from_dict(d)
    assert r.to_dict() == d and list(r.to_dict()) == list(d) and r.id == 7 and r.item == "r1"
    assert [k for k in d if k in OPTIONAL] == [k for k in OPTIONAL if k in kw]  # only when set, in the type's order


def test_a_row_not_yet_recorded_has_no_id():
    r = review_row(item="r1", topic="roofline", seed=3, quality=4, verdict="correct", when=WHEN, today=DAY,
                   state=None, schedule=False, hardware="", conventions={})
    assert r.id is None and r.hardware is None and r.conventions is None
    assert list(r.to_dict()) == list(REQUIRED[1:])
    assert Review.from_dict(r.to_dict(), stored=False) == r


def test_from_dict_refuses_what_the_checks_refuse_in_their_words():
    for bad in ({**stored(), "quality": 9}, {**stored(), "hardware": "H 100"}, {**stored(), "extra": 1},
                {**stored(), "pressed": False},  # pressed is true or absent
                {**stored(), "hint": 3}, {**stored(), "hint": True}):  # a hint is 1 or 2 or absent
        with pytest.raises(InvalidDocument) as e:
            Review.from_dict(bad)
        assert str(e.value) == row_problem(bad) is not None
