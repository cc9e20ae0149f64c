"""Checks of what is stored and imported: a review row, an item state, a setting, a mock result, a whole
export document.  Each ``*_problem`` names the first problem (None: valid); the ``_*_ok`` checks are the
fast yes used when reading the log, with the ``*_problem`` explaining a no."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from datetime import date
from typing import Any

from ..session import MODES, VERDICTS
from ..sm2 import ItemState
from .layout import _TS, EXPORT_FORMAT, ROW_FIELDS, SCHEMA_VERSION


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_STATE_KEYS = frozenset(("ef", "interval", "reps", "due", "last"))


def _day_ok(v: Any) -> bool:
    if v is None:
        return True
    if type(v) is not str or len(v) != 10:
        return False
    try:
        date.fromisoformat(v)
        return True
    except ValueError:
        return False


def _state_ok(d: Any) -> bool:
    """A quick yes for a well-formed state dict (ItemState.from_dict explains a no)."""
    if type(d) is not dict or not d.keys() <= _STATE_KEYS:
        return False
    ef, iv, reps = d.get("ef", 2.5), d.get("interval", 0), d.get("reps", 0)
    return (type(ef) in (float, int) and 1.3 <= ef < math.inf and type(iv) is int and iv >= 0
            and type(reps) is int and reps >= 0 and _day_ok(d.get("due")) and _day_ok(d.get("last")))


_ROW_KEYS = frozenset(ROW_FIELDS)
_VERDICTS, _MODES = frozenset(VERDICTS), frozenset(MODES)


def _row_ok(r: Any) -> bool:
    """A quick yes for a well-formed stored row (:func:`row_problem` explains a no)."""
    if type(r) is not dict or r.keys() != _ROW_KEYS:
        return False
    v, sec, step, b, a = r["value"], r["seconds"], r["step"], r["before"], r["after"]
    return (type(r["id"]) is int and r["id"] >= 1 and type(r["ts"]) is str and _TS.fullmatch(r["ts"]) is not None
            and type(r["date"]) is str and _day_ok(r["date"]) and type(r["item"]) is str and r["item"] != ""
            and type(r["topic"]) is str and r["topic"] != "" and type(r["seed"]) is int
            and (step is None or (type(step) is int and step >= 1)) and type(r["typed"]) is str
            and (v is None or type(v) is str or (type(v) in (float, int) and math.isfinite(v)))
            and r["verdict"] in _VERDICTS and type(r["quality"]) is int and 0 <= r["quality"] <= 5
            and (sec is None or (type(sec) in (float, int) and 0 <= sec < math.inf)) and r["mode"] in _MODES
            and type(r["scheduled"]) is bool and (a is not None or not r["scheduled"])
            and (b is None or _state_ok(b)) and (a is None or _state_ok(a)))


def row_problem(row: Any, *, stored: bool = True) -> str | None:
    """The first problem of a review row, or None when it is valid."""
    if not isinstance(row, Mapping):
        return f"must be an object, not {type(row).__name__}"
    fields = ROW_FIELDS if stored else ROW_FIELDS[1:]
    missing = [f for f in fields if f not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    extra = sorted(set(row) - set(ROW_FIELDS))
    if extra:
        return f"unknown field {extra[0]!r}"
    if stored and (not _is_int(row["id"]) or row["id"] < 1):
        return f"id must be a whole number >= 1, not {row['id']!r}"
    if not isinstance(row["ts"], str) or not _TS.fullmatch(row["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z, not {row['ts']!r}"
    try:
        date.fromisoformat(row["date"]) if isinstance(row["date"], str) and len(row["date"]) == 10 else 1 / 0
    except (ValueError, ZeroDivisionError):
        return f"date must be a day YYYY-MM-DD, not {row['date']!r}"
    for key in ("item", "topic"):
        if not isinstance(row[key], str) or not row[key]:
            return f"{key} must be a non-empty string, not {row[key]!r}"
    if not _is_int(row["seed"]):
        return f"seed must be a whole number, not {row['seed']!r}"
    if row["step"] is not None and (not _is_int(row["step"]) or row["step"] < 1):
        return f"step must be null or a whole number >= 1, not {row['step']!r}"
    if not isinstance(row["typed"], str):
        return f"typed must be a string, not {row['typed']!r}"
    v = row["value"]
    if not (v is None or isinstance(v, str) or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                                 and math.isfinite(v))):
        return f"value must be a finite number, a string or null, not {v!r}"
    if row["verdict"] not in VERDICTS:
        return f"verdict must be one of {', '.join(VERDICTS)}, not {row['verdict']!r}"
    if not _is_int(row["quality"]) or not 0 <= row["quality"] <= 5:
        return f"quality must be a whole number 0-5, not {row['quality']!r}"
    s = row["seconds"]
    if s is not None and (isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s < 0):
        return f"seconds must be a number >= 0 or null (not measured), not {s!r}"
    if row["mode"] not in MODES:
        return f"mode must be one of {', '.join(MODES)}, not {row['mode']!r}"
    if not isinstance(row["scheduled"], bool):
        return f"scheduled must be true or false, not {row['scheduled']!r}"
    if row["scheduled"] and row["after"] is None:
        return "a scheduled review needs its state after"
    for key in ("before", "after"):
        if row[key] is not None and not _state_ok(row[key]):
            try:
                ItemState.from_dict(row[key])
            except ValueError as e:
                return f"{key}: {e}"
    return None


def mock_problem(mock: Any, *, stored: bool = True) -> str | None:
    """The first problem of a mock-interview result, or None."""
    if not isinstance(mock, Mapping):
        return f"must be an object, not {type(mock).__name__}"
    if stored and (not _is_int(mock.get("id")) or mock["id"] < 1):
        return f"id must be a whole number >= 1, not {mock.get('id')!r}"
    if not isinstance(mock.get("ts"), str) or not _TS.fullmatch(mock["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z, not {mock.get('ts')!r}"
    if not isinstance(mock.get("questions"), list) or not all(isinstance(q, Mapping) for q in mock["questions"]):
        return "questions must be a list of objects"
    if not isinstance(mock.get("score"), Mapping):
        return "score must be an object"
    if not _json_safe(mock):
        return "holds values that are not plain JSON"
    return None


def setting_problem(key: Any, value: Any) -> str | None:
    if not isinstance(key, str) or not key:
        return f"a setting name must be a non-empty string, not {key!r}"
    if key == "new_per_day" and (not _is_int(value) or not 0 <= value <= 100):
        return f"new_per_day must be a whole number 0-100, not {value!r}"
    if key == "lang" and value not in ("en", "zh"):
        return f"lang must be 'en' or 'zh', not {value!r}"
    if not _json_safe(value):
        return f"setting {key!r} must be plain JSON, not {value!r}"
    return None


def document_problem(doc: Any) -> str | None:
    """The first problem of an export document, or None when all of it is valid."""
    if not isinstance(doc, Mapping):
        return "the document must be a JSON object"
    if doc.get("format") != EXPORT_FORMAT:
        return f"format must be {EXPORT_FORMAT!r}, not {doc.get('format')!r}"
    if _is_int(doc.get("schema")) and doc["schema"] > SCHEMA_VERSION:
        return (f"written by a newer version of infra-drill (schema {doc['schema']}; this one reads "
                f"{SCHEMA_VERSION}): upgrade infra-drill to import it")
    if doc.get("schema") != SCHEMA_VERSION:
        return f"schema must be {SCHEMA_VERSION}, not {doc.get('schema')!r}"
    for key, kind in (("settings", dict), ("states", dict), ("reviews", list), ("mocks", list)):
        if not isinstance(doc.get(key), kind):
            return f"{key} must be a JSON {'object' if kind is dict else 'list'}"
    for key, value in doc["settings"].items():
        if (p := setting_problem(key, value)) is not None:
            return f"settings.{key}: {p}"
    for item, st in doc["states"].items():
        if not item:
            return "states: an item id is empty"
        try:
            ItemState.from_dict(st)
        except ValueError as e:
            return f"states[{item!r}]: {e}"
    last = 0
    for i, row in enumerate(doc["reviews"]):
        if (p := row_problem(row)) is not None:
            return f"reviews[{i}]: {p}"
        if row["id"] <= last:
            return f"reviews[{i}]: ids must increase (id {row['id']} after {last})"
        last = row["id"]
    ids = set()
    for i, m in enumerate(doc["mocks"]):
        if (p := mock_problem(m)) is not None:
            return f"mocks[{i}]: {p}"
        if m["id"] in ids:
            return f"mocks[{i}]: id {m['id']} appears twice"
        ids.add(m["id"])
    return None
def _copy(value: Mapping) -> dict:
    return copy.deepcopy(dict(value))


def _row_copy(row: Mapping) -> dict:
    """A review row the caller may change freely (its only nested values are the two states)."""
    b, a = row["before"], row["after"]
    return {**row, "before": dict(b) if b is not None else None, "after": dict(a) if a is not None else None}
