"""Readers need no lock; import refuses states SM-2 cannot produce (rows' states too)."""

from datetime import UTC, date, datetime

import pytest

from engine.session import review_row
from engine.storage import DamagedSave, InvalidDocument, Profile, ProfileLocked, document_problem

WHEN = datetime(2026, 11, 29, 9, tzinfo=UTC)
DAY = date(2026, 11, 29)


def row(p, item, q=4):
    return p.record(review_row(item=item, topic="roofline", seed=1, quality=q, verdict="correct", when=WHEN,
                               today=DAY, state=p.state(item), schedule=True))


def test_a_reader_sees_the_last_durable_state_while_the_writer_holds_the_profile(tmp_path):
    writer = Profile.open(tmp_path, "ann")
    try:
        row(writer, "a")
        row(writer, "b", 2)  # fewer than STATE_EVERY rows: the state file has not seen them yet
        with pytest.raises(ProfileLocked):
            Profile.open(tmp_path, "ann")  # writers are still exclusive
        with Profile.open(tmp_path, "ann", read_only=True) as reader:
            assert set(reader.states()) == {"a", "b"} and len(list(reader.reviews())) == 2
            assert reader.export()["states"]["b"]["reps"] == 0
            with pytest.raises(ValueError, match="reading only"):
                row(reader, "c")
        row(writer, "c")  # the reader left nothing behind that stops the writer
    finally:
        writer.close()
    with Profile.open(tmp_path, "ann") as p:
        assert set(p.states()) == {"a", "b", "c"}


def test_a_reader_of_a_profile_that_does_not_exist_creates_nothing(tmp_path):
    with Profile.open(tmp_path / "none", "ann", read_only=True) as p:
        assert p.states() == {} and list(p.reviews()) == []
    assert not (tmp_path / "none").exists()


def test_a_reader_still_reports_a_damaged_file(tmp_path):
    with Profile.open(tmp_path, "ann") as p:
        row(p, "a")
    (tmp_path / "ann" / "state.json").write_text("{not json")
    with pytest.raises(DamagedSave, match="state.json"):
        Profile.open(tmp_path, "ann", read_only=True)


@pytest.mark.parametrize("state, field", [
    ({"ef": 2.5, "interval": 0, "reps": 2, "due": "2026-11-29", "last": "2026-11-29"}, "interval"),
    ({"ef": 1.0, "interval": 6, "reps": 2, "due": "2026-12-05", "last": "2026-11-29"}, "ef"),
    ({"ef": 2.5, "interval": 6, "reps": 2, "due": "2026-11-20", "last": "2026-11-29"}, "due"),
])
def test_import_refuses_a_review_row_whose_state_sm2_cannot_produce(tmp_path, state, field):
    r = review_row(item="a", topic="roofline", seed=1, quality=4, verdict="correct", when=WHEN, today=DAY,
                   state=None, schedule=True)
    doc = {"format": "infra-drill-profile", "schema": 1, "profile": "p", "settings": {}, "states": {},
           "mocks": [], "reviews": [{"id": 1, **r.to_dict(), "after": state}]}
    problem = document_problem(doc)
    assert problem.startswith("reviews[0]: after: ") and field in problem
    with Profile.open(tmp_path) as p, pytest.raises(InvalidDocument, match=field):
        p.import_document(doc)


@pytest.mark.parametrize("key, value", [("interview", "2026-13-01"), ("interview", 5), ("reviews_per_day", 0)])
def test_the_scheduling_settings_are_checked(tmp_path, key, value):
    with Profile.open(tmp_path) as p, pytest.raises(InvalidDocument, match=key):
        p.set_setting(key, value)
