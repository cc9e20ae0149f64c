"""engine.storage.segments: the digests kept beside closed log segments - a cache never trusted unchecked."""

import json
import os
import zlib
from datetime import timedelta
from pathlib import Path

import pytest

from engine import storage
from engine.digest import Digest
from engine.storage import DamagedSave, Profile, segments
from tests.unit.storage_support import DAY, build, edit_text, read_tables, record_days, row, write_tables  # noqa: F401

# --------------------------------------------------------------------------- digests of closed segments


def digests(tmp_path) -> list[str]:
    return sorted(f.name for f in (tmp_path / "default" / "reviews").glob("*.digest"))


def test_a_segment_gets_its_digest_when_it_is_full(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 3})
        assert digests(tmp_path) == []  # the newest segment changes: no digest
        record_days(p, {1: 4})
        assert digests(tmp_path) == ["000001.digest", "000002.digest"]
        assert p.digest() == Digest.of_reviews(p.reviews())
        assert len(p.digest()) == 7
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_digests_are_read_instead_of_closed_segments(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    with Profile.open(tmp_path) as p:
        monkeypatch.setattr(Profile, "_rows_of", lambda self, n: pytest.fail(f"segment {n} was read"))
        assert p.digest() == Digest.of_reviews(log)


def test_import_writes_the_digests_of_its_closed_segments(tmp_path, small_segments):
    with Profile.open(tmp_path / "a") as p:
        build(p)
        doc = p.export()
    with Profile.open(tmp_path / "b") as q:
        q.import_document(doc)
        assert digests(tmp_path / "b") == ["000001.digest", "000002.digest"]  # not the newest, 000003
        for n in (1, 2):
            seg = tmp_path / "b" / "default" / "reviews" / f"00000{n}.json"
            kept = storage.read_digest(storage.digest_path(seg), storage.file_identity(seg))
            assert kept == Digest.of_rows(doc["reviews"][3 * (n - 1):3 * n])
        assert q.digest() == Digest.of_rows(doc["reviews"])


def rewrite_body(path: Path, change) -> None:
    """Change a digest's columns and give it a matching checksum: only the values can tell."""
    head, _, body = path.read_bytes().partition(b"\n")
    columns = json.loads(body)
    change(columns)
    body = json.dumps(columns).encode()
    header = {**json.loads(head), "crc32": zlib.crc32(body)}
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


def touch_later(path: Path) -> None:
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize("spoil", [
    pytest.param(lambda d, seg: d.unlink(), id="missing"),
    pytest.param(lambda d, seg: d.write_bytes(b""), id="empty"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes()[:-7]), id="truncated"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"correct"', b'"wrong"', 1)), id="bit-rot"),
    pytest.param(lambda d, seg: d.write_bytes(b"\xff\xfe\n\x00"), id="not-utf8"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"version":1', b'"version":0')), id="old-format"),
    pytest.param(lambda d, seg: d.write_bytes(d.read_bytes().replace(b'"interval"]', b'"interval","x"]', 1)),
                 id="other-fields"),
    pytest.param(lambda d, seg: touch_later(seg), id="segment-touched"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["quality"].__setitem__(0, 9)), id="out-of-range"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["item"].__setitem__(1, ["a"])), id="wrong-type"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["seconds"].__setitem__(2, "NaN")), id="not-a-number"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c["date"].pop()), id="short-column"),
    pytest.param(lambda d, seg: rewrite_body(d, lambda c: c.pop("mode")), id="no-column"),
])
def test_a_stale_missing_or_damaged_digest_is_rebuilt_never_trusted(tmp_path, small_segments, spoil):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
        p.undo_last()
        log[-1] = p.record(row(p, item="last", q=1, day=DAY + timedelta(days=2)))
    seg = tmp_path / "default" / "reviews" / "000001.json"
    spoil(storage.digest_path(seg), seg)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_reviews(log)
    kept = storage.read_digest(storage.digest_path(seg), storage.file_identity(seg))
    assert kept == Digest.of_reviews(log[:3])  # rebuilt and kept again
    assert not list((tmp_path / "default").rglob("*.tmp"))


def test_a_digest_follows_its_segment_when_the_segment_changes(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    seg = tmp_path / "default" / "reviews" / "000001.json"
    tables = read_tables(seg)
    tables["reviews"]["2"].update(quality=0, verdict="dont_know")  # same length: only the times tell
    write_tables(seg, tables)
    (seg.parent.parent / "manifest.json").unlink()  # (as a drill from before manifests changed it)
    touch_later(seg)
    log[1] = log[1]._replace(quality=0, verdict="dont_know")
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_reviews(log)


def test_the_digest_of_a_segment_that_reopens_is_dropped(tmp_path, small_segments):
    """Undo can empty the newest segment and reopen the full one before it: that one changes again."""
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 1})
        assert digests(tmp_path) == ["000001.digest"]
        p.undo_last()  # segment 2 is gone, segment 1 is the newest again
        p.undo_last()
        assert digests(tmp_path) == []
        log = log[:2] + [p.record(row(p, item="new", q=2, day=DAY)), p.record(row(p, item="z", q=0))]
        assert p.digest() == Digest.of_reviews(log)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_reviews(log)


def test_a_digest_that_cannot_be_kept_changes_nothing(tmp_path, small_segments, monkeypatch):
    with Profile.open(tmp_path) as p:
        log = record_days(p, {0: 3, 1: 3, 2: 1})
    for d in (tmp_path / "default" / "reviews").glob("*.digest"):
        d.unlink()
    real = storage.atomic_write

    def refuse_digests(path, data, **kw):
        if Path(path).suffix == ".digest":
            raise OSError(28, "No space left on device")
        real(path, data, **kw)

    monkeypatch.setattr(segments, "atomic_write", refuse_digests)
    with Profile.open(tmp_path) as p:
        assert p.digest() == Digest.of_reviews(log)
        log.append(p.record(row(p, day=DAY + timedelta(days=3))))
    assert digests(tmp_path) == []


def test_a_damaged_segment_is_reported_even_with_its_digest_gone_stale(tmp_path, small_segments):
    with Profile.open(tmp_path) as p:
        record_days(p, {0: 3, 1: 3, 2: 1})
    seg = tmp_path / "default" / "reviews" / "000002.json"
    seg.write_text("{ not json")
    with Profile.open(tmp_path) as p:
        with pytest.raises(DamagedSave) as e:
            p.digest()
        assert e.value.path == seg
    assert seg.read_text() == "{ not json"
