"""drill import streams: the file is read, checked and written a piece at a time; what it reads is
what ``json.loads`` reads; the first problem names the row, the field and the line, and changes nothing."""

import io
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from drill.cli import main
from engine.storage import InvalidDocument, Profile, jsonstream
from engine.storage.jsonstream import ObjectStream, StreamError
from tests.unit.storage_support import files, row

_SCALARS = st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=12) \
    | st.floats(allow_nan=False, allow_infinity=False)
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                           max_size=4), max_leaves=12)


def read_all(text: str, chunk: int, streamed=frozenset({"reviews", "mocks"})) -> dict:
    out = {}
    for key, value in ObjectStream(io.BytesIO(text.encode("utf-8")), limit=1 << 20, chunk=chunk).members(streamed):
        out[key] = list(value) if key in streamed and not isinstance(value, (dict, list, str, int, float, bool,
                                                                              type(None))) else value
    return out


@settings(max_examples=60, deadline=None)
@given(doc=st.dictionaries(st.sampled_from(["reviews", "mocks", "a", "b", "ü"]), _JSON, max_size=5),
       chunk=st.integers(1, 40), indent=st.sampled_from([None, 1, 3]))
@example(doc={"reviews": 1.3016827998477978e+16}, chunk=1, indent=None)  # a chunk ending in "…978e": not 1.3016…
def test_the_stream_reads_what_json_loads_reads_at_any_chunk_size(doc, chunk, indent):
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    assert read_all(text, chunk) == json.loads(text)


@settings(max_examples=60, deadline=None)
@given(doc=st.dictionaries(st.sampled_from(["reviews", "mocks", "a"]), _JSON, min_size=1, max_size=3),
       cut=st.integers(0, 10_000), chunk=st.integers(1, 40))
def test_a_document_cut_short_or_with_a_wrong_byte_is_a_stream_error_never_a_crash(doc, cut, chunk):
    text = json.dumps(doc)
    cut %= len(text)
    for bad in (text[:cut], text[:cut] + "#" + text[cut + 1:]):
        try:
            json.loads(bad)
            continue  # (still JSON: the # replaced white space inside a string...)
        except ValueError:
            pass
        with pytest.raises(StreamError):
            read_all(bad, chunk)


def test_errors_name_the_line_and_column_and_a_key_given_twice_is_refused():
    with pytest.raises(StreamError, match=r"line 3 column 8"):
        read_all('{"a": 1,\n "reviews": [1,\n  2, 3 4]}', chunk=3)
    with pytest.raises(StreamError, match="the key 'x' appears twice"):
        read_all('{"reviews": [{"x": 1, "x": 2}]}', chunk=5)
    with pytest.raises(StreamError, match="extra data"):
        read_all('{"a": 1} []', chunk=4)
    with pytest.raises(StreamError) as e:
        read_all('[1, 2]', chunk=4)
    assert e.value.kind == "shape"
    with pytest.raises(StreamError) as e:
        list(ObjectStream(io.BytesIO(b'{"a": "' + b"x" * 5000 + b'"}'), limit=1000, chunk=64).members())
    assert e.value.kind == "large"


def export_text(tmp_path, n=0) -> str:
    with Profile.open(tmp_path / "src") as p:  # (dated up to DAY: an import refuses what is after today)
        p.set_setting("new_per_day", 3)
        p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})
        for i in range(n + 8):
            p.record(row(p, item=f"x{i % 5}", q=i % 6))
        return "".join(p.export_chunks())


def test_a_long_file_read_a_few_characters_at_a_time_imports_the_same_profile(tmp_path, small_segments, monkeypatch):
    text = export_text(tmp_path, 20)
    monkeypatch.setattr(jsonstream, "CHUNK", 7)
    with Profile.open(tmp_path / "dst") as q:
        counts = q.import_file(io.BytesIO(text.encode()))
        assert counts == {"items": 5, "reviews": 28, "mocks": 1}
        src = json.loads(text)  # another replica's export: its rows keep their origin
        assert q.export() == {**src, "profile": "default", "replica": q.replica,
                              "reviews": [{**r, "origin": {"replica": src["replica"], "id": r["id"]}}
                                          for r in src["reviews"]]}
        assert len(list((tmp_path / "dst" / "default" / "reviews").glob("*.json"))) == 10


def test_a_bad_row_deep_in_the_file_names_row_field_and_line_and_changes_nothing(tmp_path, small_segments, capsys):
    doc = json.loads(export_text(tmp_path, 20))
    doc["reviews"][23]["quality"] = 9  # in the 8th log file: seven were written to the new folder already
    source = tmp_path / "doc.json"
    source.write_text(json.dumps(doc, indent=1))
    line = json.dumps(doc, indent=1).splitlines().index('  {', 0) + 1  # (some row's line)
    with Profile.open(tmp_path / "dst") as q:
        q.record(row(q, item="keep"))
    before = files(tmp_path / "dst" / "default")
    assert main(["--saves", str(tmp_path / "dst"), "import", "--replace", str(source)]) == 1
    err = capsys.readouterr().err
    assert f"{source}: reviews[23]: quality must be a whole number 0-5, not 9 (at line " in err
    assert "nothing was imported" in err and err.count("\n") == 1
    at = int(err.split("(at line ")[1].split()[0])
    assert at > line and json.dumps(doc, indent=1).splitlines()[at - 1].strip() == "{"
    assert files(tmp_path / "dst" / "default") == before
    assert not list((tmp_path / "dst").glob(".default.*"))  # no half-built folder left


@pytest.mark.parametrize("text, said", [
    ('{"format": "infra-drill-profile",\n "settings": {"a": 1,}', "is not valid JSON (Expecting property name "
                                                                "enclosed in double quotes (line 2 column 22))"),
    ('[]', "the document must be a JSON object"),
    ('{"format": "infra-drill-profile", "schema": 1, "settings": {}, "states": {}, "reviews": [], "mocks": [],'
     ' "mocks": []}', "the member 'mocks' appears twice"),
    ('{"format": "other"}', "format must be 'infra-drill-profile', not 'other'"),
    ('{"format": "infra-drill-profile", "schema": 1, "settings": {}, "states": {}, "reviews": []}',
     "mocks must be a JSON list"),
])
def test_a_file_that_is_not_an_export_says_why_and_imports_nothing(tmp_path, capsys, text, said):
    source = tmp_path / "doc.json"
    source.write_text(text)
    assert main(["--saves", str(tmp_path / "s"), "import", str(source)]) == 1
    err = capsys.readouterr().err
    assert said in err and "nothing was imported" in err
    with Profile.open(tmp_path / "s") as p:
        assert p.is_empty()


def test_the_dict_and_the_file_are_checked_by_the_same_rules(tmp_path):
    doc = json.loads(export_text(tmp_path))
    doc["mocks"][0]["ts"] = 5
    with Profile.open(tmp_path / "dst") as q:
        with pytest.raises(InvalidDocument, match=r"^mocks\[0\]: ts must be") as a:
            q.import_document(doc)
        with pytest.raises(InvalidDocument, match=r"^mocks\[0\]: ts must be .* \(at line 1 column \d+\)$") as b:
            q.import_file(io.BytesIO(json.dumps(doc).encode()))
        assert str(b.value).startswith(str(a.value)) and q.is_empty()
