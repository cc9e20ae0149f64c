"""An import dates things by instants: what an export holds is compared with the importer's now (plus two days
of slack), a local day read as its earliest instant anywhere on earth, so an export always imports on the machine
that wrote it, whatever the time zones and a clock a day off; what lies further ahead is named and, only when
asked (``--skip-future``), left out."""

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from drill.cli import main
from drill.core import context
from engine.checks import Horizon
from engine.session import review_row
from engine.storage import FutureDated, Profile

NOW = datetime(2026, 12, 7, 10, 30, tzinfo=UTC)  # 00:30 on the 8th at UTC+14, 23:30 on the 6th at UTC-11
PLUS_14, MINUS_11 = "LINT-14", "SST11"  # POSIX zones (no tz database needed): UTC+14 and UTC-11


@pytest.fixture
def zone(monkeypatch):
    def set_zone(tz: str) -> None:
        monkeypatch.setenv("TZ", tz)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


def answer(p: Profile, when: datetime, item: str = "roofline.ridge_point") -> None:
    """One answer given at ``when``, filed under the local day there (as the app files it)."""
    p.record(review_row(item=item, topic="roofline", seed=1, quality=5, verdict="correct", when=when,
                        today=when.astimezone().date(), state=p.state(item), schedule=True).to_dict())


def exported(tmp_path, zone, tz: str, *whens: datetime) -> dict:
    zone(tz)
    with Profile.open(tmp_path / "src") as p:
        for i, when in enumerate(whens):
            answer(p, when, item=f"t{i % 2}")
        return json.loads("".join(p.export_chunks()))


def test_a_horizon_is_two_days_after_now_and_a_day_is_read_from_its_start_at_utc_plus_14():
    h = Horizon.after(NOW)
    assert h.ts == "2026-12-09T10:30:00Z"
    assert h.day == "2026-12-10"  # begins at UTC+14 at 10:00 UTC on the 9th, before the horizon
    assert Horizon.after(datetime(2026, 12, 7, 9, 59, tzinfo=UTC)).day == "2026-12-09"  # ... but not yet at 09:59
    assert h.due == (datetime(2026, 12, 10) + timedelta(days=36_500)).date().isoformat()


@pytest.mark.parametrize("tz", [PLUS_14, MINUS_11, "UTC0", "CST-8"])
def test_an_export_imports_on_the_machine_that_wrote_it_at_once(tmp_path, zone, tz):
    doc = exported(tmp_path, zone, tz, NOW - timedelta(days=1), NOW)
    with Profile.open(tmp_path / "dst") as q:
        assert q.import_document(doc, now=NOW) == {"items": 2, "reviews": 2, "mocks": 0}


def test_an_export_written_with_the_clock_a_day_ahead_imports(tmp_path, zone):
    doc = exported(tmp_path, zone, PLUS_14, NOW + timedelta(days=1))
    assert doc["states"]["t0"]["last"] == "2026-12-09"  # two local days after the importer's at UTC-11
    zone(MINUS_11)
    with Profile.open(tmp_path / "dst") as q:
        assert q.import_document(doc, now=NOW)["reviews"] == 1


def test_an_answer_at_utc_plus_14_imports_at_utc_minus_11_the_same_instant(tmp_path, zone, monkeypatch, capsys):
    doc = exported(tmp_path, zone, PLUS_14, NOW)
    assert doc["reviews"][0]["date"] == doc["states"]["t0"]["last"] == "2026-12-08"
    zone(MINUS_11)  # the importer's local day: the 6th, two days before the answer's
    source = tmp_path / "export.json"
    source.write_text(json.dumps(doc))
    monkeypatch.setattr(context, "utc_now", lambda: NOW)
    assert main(["--saves", str(tmp_path / "saves"), "import", str(source)]) == 0
    assert "1 review" in capsys.readouterr().out


def future_doc(tmp_path, zone) -> dict:
    """Four answers: two now, one three days ahead (its row and, as the latest of t1, its state), one a year
    ahead of a third item; and a mock three days ahead."""
    doc = exported(tmp_path, zone, "UTC0", NOW, NOW, NOW + timedelta(days=3), NOW + timedelta(days=365))
    doc["reviews"][3]["item"] = "t2"
    doc["states"]["t2"] = doc["states"]["t1"] | {"last": "2027-12-07", "due": "2027-12-08"}
    doc["mocks"] = [{"id": 7, "ts": "2026-12-10T12:00:00Z", "questions": [], "score": {}}]
    return doc


def test_what_lies_beyond_two_days_is_named_and_nothing_is_imported(tmp_path, zone):
    doc = future_doc(tmp_path, zone)
    with Profile.open(tmp_path / "dst") as q:
        with pytest.raises(FutureDated) as e:
            q.import_document(doc, now=NOW)
        assert q.is_empty() and not (tmp_path / "dst" / ".default.import").exists()
    assert (e.value.reviews, e.value.states, e.value.mocks) == ([3, 4], ["t1", "t2"], [7])
    assert str(e.value) == ("dated more than 2 days after now (2026-12-07T10:30:00Z): review ids 3, 4; "
                            "states 't1', 't2'; mock ids 7")


def test_skip_future_imports_the_rest_and_says_how_much_it_left_out(tmp_path, zone, monkeypatch, capsys):
    source = tmp_path / "export.json"
    source.write_text(json.dumps(future_doc(tmp_path, zone)))
    monkeypatch.setattr(context, "utc_now", lambda: NOW)
    saves = str(tmp_path / "saves")
    assert main(["--saves", saves, "--lang", "zh", "import", str(source)]) == 1
    err = capsys.readouterr().err
    assert "复习记录 id 3, 4；题目 't1', 't2' 的复习状态；模拟面试 id 7；未导入任何内容" in err
    assert "--skip-future" in err
    assert main(["--saves", saves, "import", str(source)]) == 1
    assert ("reviews with ids 3, 4; the states of 't1', 't2'; mock interviews with ids 7; nothing was imported"
            in capsys.readouterr().err)
    assert main(["--saves", saves, "import", "--skip-future", str(source)]) == 0
    out = capsys.readouterr().out
    assert "1 item, 2 reviews, 0 mock interviews" in out  # t0 kept; t1 and t2 dated ahead
    assert "5 of the file's reviews, states and mock interviews are dated more than 2 days after now" in out
    with Profile.open(tmp_path / "saves", read_only=True) as p:
        assert [r.id for r in p.reviews()] == [1, 2] and p.mocks() == []
        assert p.state("t1") is None  # left out: the item starts anew


def test_a_long_list_is_cut_short_in_either_language(tmp_path, zone):
    from drill.core.i18n import future_dated
    from engine.langs import ZH

    e = FutureDated(NOW, list(range(1, 14)), [], [])
    assert str(e).endswith("review ids 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more")
    assert "复习记录 id 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 等，另有 3 个" in future_dated(e, "f.json", ZH)


def test_opening_a_save_dated_ahead_is_unchanged(tmp_path, zone):
    zone("UTC0")
    with Profile.open(tmp_path / "p") as p:
        answer(p, NOW + timedelta(days=400))
    with Profile.open(tmp_path / "p", read_only=True) as p:  # a save's own dates are not an import's to judge
        assert len(list(p.reviews())) == 1
