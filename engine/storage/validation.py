"""Checks of what is stored and imported: a review row, an item state, a setting, a mock result, a whole
export document.  Each ``*_problem`` names the first problem (None: valid); the ``_*_ok`` checks are the
fast yes used when reading the log, with the ``*_problem`` explaining a no.

Two levels.  Always (reading the log, recording, importing): strict types (a
``bool`` is not a number, ``1.0`` is not a whole number), real days and UTC
times between :data:`MIN_DAY` and :data:`MAX_DAY`, finite numbers within the
bounds below, bounded string lengths and nesting: so every figure computed
from stored data stays finite and every date sum stays in the calendar.  On
import also (``today`` given: time is injected): nothing dated after
``today``, and no control characters (terminal escape sequences) in ``typed``
- a file from elsewhere is held to what this drill itself writes.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date, timedelta
from typing import Any, TypeGuard

from .. import convention_set
from ..langs import LANGS
from ..patterns import pattern
from ..schedule.fsrs_bridge import SCHEDULERS
from ..session import MAX_SECONDS, MODES, VERDICTS
from ..sm2 import MAX_INTERVAL, ItemState
from .layout import EXPORT_FORMAT, HARDWARE_ID, OPTIONAL_ROW_FIELDS, ROW_FIELDS, SCHEMA_VERSION

MIN_DAY, MAX_DAY = "2000-01-01", "2999-12-31"  # ISO days compare as strings
MAX_EF = 100.0  # SM-2 adds at most 0.1 per review, and intervals stop growing at MAX_INTERVAL long before
MAX_REPS = 10_000
MAX_ID = 2**53  # ids and seeds: exact in any JSON reader
MAX_TYPED = 10_000  # characters of a typed answer (drill check takes at most this many)
MAX_NAME = 200  # characters of an item or topic id
MAX_DEPTH = 16  # nesting of a setting's value or a mock result
MAX_TEXT = 100_000  # characters of any other string (a setting, a mock result)
_TS = re.compile(r"(\d{4}-\d\d-\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0 and C1 controls (ESC starts a terminal escape sequence)
_SURROGATE = pattern("[\ud800-\udfff]")  # half of a UTF-16 pair: not text, and not writable as UTF-8


def text_ok(s: str) -> bool:
    """True when ``s`` can be written as UTF-8 (it holds no lone surrogate)."""
    return s.isascii() or _SURROGATE.search(s) is None


def is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


_STATE_KEYS = frozenset(("ef", "interval", "reps", "due", "last"))


def day_ok(v: Any) -> bool:
    """None, or a real day YYYY-MM-DD between MIN_DAY and MAX_DAY."""
    if v is None:
        return True
    if type(v) is not str or len(v) != 10 or not MIN_DAY <= v <= MAX_DAY:
        return False
    try:
        date.fromisoformat(v)
        return True
    except ValueError:
        return False


def _ts_ok(v: Any) -> bool:
    """A real UTC time like 2026-11-29T15:42:01Z on a day between MIN_DAY and MAX_DAY."""
    return type(v) is str and (m := _TS.fullmatch(v)) is not None and day_ok(m.group(1))


def _state_ok(d: Any) -> bool:
    """A quick yes for a well-formed state dict (:func:`state_problem` explains a no)."""
    if type(d) is not dict or not d.keys() <= _STATE_KEYS:
        return False
    ef, iv, reps = d.get("ef", 2.5), d.get("interval", 0), d.get("reps", 0)
    due, last = d.get("due"), d.get("last")
    # a state SM-2 can produce: an interval of at least 1 once reviewed, due not before the last review
    return (type(ef) in (float, int) and 1.3 <= ef <= MAX_EF and type(iv) is int and 0 <= iv <= MAX_INTERVAL
            and type(reps) is int and 0 <= reps <= MAX_REPS and (reps == 0 or iv >= 1) and day_ok(due)
            and day_ok(last) and (due is None or last is None or due >= last))


def state_problem(d: Any, today: date | None = None) -> str | None:
    """The first problem of an item state, or None (``today``: also nothing reviewed after it)."""
    try:
        st = ItemState.from_dict(d)
    except ValueError as e:
        return str(e)
    if st.ef > MAX_EF:
        return f"ef must be at most {MAX_EF:g}, not {d['ef']!r}"
    if st.interval > MAX_INTERVAL:
        return f"interval must be at most {MAX_INTERVAL} days, not {st.interval!r}"
    if st.reps > MAX_REPS:
        return f"reps must be at most {MAX_REPS}, not {st.reps!r}"
    for key in ("due", "last"):
        if not day_ok(d.get(key)):
            return f"{key} must be a day between {MIN_DAY} and {MAX_DAY}, not {d.get(key)!r}"
    if today is not None:
        if st.last is not None and st.last > today:
            return f"last is after today ({st.last.isoformat()} > {today.isoformat()})"
        if st.due is not None and st.due > today + timedelta(days=MAX_INTERVAL + 1):
            return f"due is more than {MAX_INTERVAL} days after today ({st.due.isoformat()})"
    return None


_ROW_KEYS = frozenset(ROW_FIELDS)
_OPTIONAL_OK = {"hardware": lambda v: type(v) is str and HARDWARE_ID.fullmatch(v) is not None,
                "model": lambda v: type(v) is str and HARDWARE_ID.fullmatch(v) is not None,
                "conventions": lambda v: type(v) is dict and bool(v) and convention_set.problem(v) is None}
VERDICT_SET, _MODES = frozenset(VERDICTS), frozenset(MODES)


def row_ok(r: Any) -> bool:
    """A quick yes for a well-formed stored row (:func:`row_problem` explains a no)."""
    if type(r) is not dict:
        return False
    if r.keys() != _ROW_KEYS:  # optional fields (layout.OPTIONAL_ROW_FIELDS), each well-formed
        extra = r.keys() - _ROW_KEYS
        if not (_ROW_KEYS <= r.keys() and all(k in _OPTIONAL_OK and _OPTIONAL_OK[k](r[k]) for k in extra)):
            return False
    v, sec, step, b, a, item, topic = r["value"], r["seconds"], r["step"], r["before"], r["after"], r["item"], r["topic"]
    ts, day = r["ts"], r["date"]
    return (type(r["id"]) is int and 1 <= r["id"] <= MAX_ID and day_ok(day) and day is not None
            and type(ts) is str and _TS.fullmatch(ts) is not None and (ts[:10] == day or day_ok(ts[:10]))
            and type(item) is str and 0 < len(item) <= MAX_NAME and text_ok(item)
            and type(topic) is str and 0 < len(topic) <= MAX_NAME and text_ok(topic) and type(r["seed"]) is int
            and -MAX_ID <= r["seed"] <= MAX_ID and (step is None or (type(step) is int and 1 <= step <= MAX_ID))
            and type(r["typed"]) is str and len(r["typed"]) <= MAX_TYPED and text_ok(r["typed"])
            and (v is None or (type(v) is str and len(v) <= MAX_TYPED and text_ok(v))
                 or (type(v) in (float, int) and math.isfinite(v)))
            and r["verdict"] in VERDICT_SET and type(r["quality"]) is int and 0 <= r["quality"] <= 5
            and (sec is None or (type(sec) in (float, int) and 0 <= sec <= MAX_SECONDS)) and r["mode"] in _MODES
            and type(r["scheduled"]) is bool and (a is not None or not r["scheduled"])
            and (b is None or _state_ok(b)) and (a is None or _state_ok(a)))


def _number_problem(key: str, v: Any, low: int, high: int, *, whole: bool = False) -> str | None:
    """``quality must be a whole number 0-5, not 9``; a bound of MAX_ID reads as none (``>= 1``)."""
    if isinstance(v, bool) or not (isinstance(v, int) if whole else isinstance(v, (int, float))) \
            or (isinstance(v, float) and not math.isfinite(v)) or not low <= v <= high:
        kind = "whole number" if whole else "number"
        span = (f" of size at most {MAX_ID}" if low <= -MAX_ID else f" >= {low}" if high >= MAX_ID
                else f" {low}-{high}")
        return f"{key} must be a {kind}{span}, not {v!r:.80}"
    return None


def row_problem(row: Any, *, stored: bool = True, today: date | None = None) -> str | None:
    """The first problem of a review row, or None when it is valid (``today``: the import rules too)."""
    if not isinstance(row, Mapping):
        return f"must be an object, not {type(row).__name__}"
    fields = ROW_FIELDS if stored else ROW_FIELDS[1:]
    missing = [f for f in fields if f not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    extra = sorted(set(row) - set(ROW_FIELDS) - set(OPTIONAL_ROW_FIELDS))
    if extra:
        return f"unknown field {extra[0]!r}"
    if "hardware" in row and not (isinstance(row["hardware"], str) and HARDWARE_ID.fullmatch(row["hardware"])):
        return f"hardware must be an accelerator id (lowercase letters, digits, _ . -), not {row['hardware']!r:.80}"
    if "conventions" in row and (p := convention_set.problem(row["conventions"])) is not None:
        return p
    if "conventions" in row and not row["conventions"]:
        return "conventions must name at least one convention off its default (a row without it: the defaults)"
    if "model" in row and not (isinstance(row["model"], str) and HARDWARE_ID.fullmatch(row["model"])):
        return f"model must be a model id (lowercase letters, digits, _ . -), not {row['model']!r:.80}"
    if stored and (p := _number_problem("id", row["id"], 1, MAX_ID, whole=True)):
        return p
    if not _ts_ok(row["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z between {MIN_DAY} and {MAX_DAY}, not {row['ts']!r}"
    if row["date"] is None or not day_ok(row["date"]):
        return f"date must be a day YYYY-MM-DD between {MIN_DAY} and {MAX_DAY}, not {row['date']!r}"
    for key in ("item", "topic"):
        if not isinstance(row[key], str) or not 0 < len(row[key]) <= MAX_NAME:
            return f"{key} must be a non-empty string of at most {MAX_NAME} characters, not {row[key]!r:.80}"
    for key in ("item", "topic", "typed", "value"):
        if isinstance(row[key], str) and not text_ok(row[key]):
            return f"{key} holds a lone surrogate ({_SURROGATE.search(row[key]).group()!r}): not text"
    if p := _number_problem("seed", row["seed"], -MAX_ID, MAX_ID, whole=True):
        return p
    if row["step"] is not None and (p := _number_problem("step", row["step"], 1, MAX_ID, whole=True)):
        return f"{p} (or null)"
    if not isinstance(row["typed"], str):
        return f"typed must be a string, not {row['typed']!r:.80}"
    if len(row["typed"]) > MAX_TYPED:
        return f"typed must be at most {MAX_TYPED} characters, not {len(row['typed'])}"
    v = row["value"]
    if not (v is None or (isinstance(v, str) and len(v) <= MAX_TYPED)
            or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v))):
        return f"value must be a finite number, a string of at most {MAX_TYPED} characters or null, not {v!r:.80}"
    if row["verdict"] not in VERDICTS:
        return f"verdict must be one of {', '.join(VERDICTS)}, not {row['verdict']!r:.80}"
    if p := _number_problem("quality", row["quality"], 0, 5, whole=True):
        return p
    if row["seconds"] is not None and (p := _number_problem("seconds", row["seconds"], 0, MAX_SECONDS)):
        return f"{p} (or null: not measured)"
    if row["mode"] not in MODES:
        return f"mode must be one of {', '.join(MODES)}, not {row['mode']!r:.80}"
    if not isinstance(row["scheduled"], bool):
        return f"scheduled must be true or false, not {row['scheduled']!r:.80}"
    if row["scheduled"] and row["after"] is None:
        return "a scheduled review needs its state after"
    for key in ("before", "after"):
        if row[key] is not None and (p := state_problem(row[key], today)) is not None:
            return f"{key}: {p}"
    if today is not None:
        if row["date"] > today.isoformat():
            return f"date is after today ({row['date']} > {today.isoformat()})"
        if row["ts"][:10] > (today + timedelta(days=1)).isoformat():  # UTC may be a day ahead of the learner
            return f"ts is after today ({row['ts']})"
        if (m := _CONTROL.search(row["typed"])) is not None:
            return f"typed holds a control character ({m.group()!r} at {m.start()}): not something typed as an answer"
    return None


def plain_problem(value: Any, what: str) -> str | None:
    """Why ``value`` is not plain bounded JSON (nesting at most MAX_DEPTH, strings at most MAX_TEXT), or None.

    Walked with an explicit stack: a value nested 100,000 deep is refused, never a RecursionError.
    """
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"{what} is nested more than {MAX_DEPTH} deep"
        if isinstance(v, Mapping):
            for k, x in v.items():
                if not isinstance(k, str) or len(k) > MAX_TEXT or not text_ok(k):
                    return f"{what} has a key that is not a string of at most {MAX_TEXT} characters"
                stack.append((x, depth + 1))
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, str):
            if len(v) > MAX_TEXT:
                return f"{what} holds a string longer than {MAX_TEXT} characters"
            if not text_ok(v):
                return f"{what} holds a lone surrogate ({_SURROGATE.search(v).group()!r}): not text"
        elif isinstance(v, float):
            if not math.isfinite(v):
                return f"{what} holds a number that is not finite"
        elif not (v is None or isinstance(v, (bool, int))):
            return f"{what} holds values that are not plain JSON"
    return None


def mock_problem(mock: Any, *, stored: bool = True, today: date | None = None) -> str | None:
    """The first problem of a mock-interview result, or None (``today``: nothing after it)."""
    if not isinstance(mock, Mapping):
        return f"must be an object, not {type(mock).__name__}"
    if stored and (p := _number_problem("id", mock.get("id"), 1, MAX_ID, whole=True)):
        return p
    if not _ts_ok(mock.get("ts")):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z between {MIN_DAY} and {MAX_DAY}, " \
               f"not {mock.get('ts')!r:.80}"
    if today is not None and mock["ts"][:10] > (today + timedelta(days=1)).isoformat():
        return f"ts is after today ({mock['ts']})"
    if not isinstance(mock.get("questions"), list) or not all(isinstance(q, Mapping) for q in mock["questions"]):
        return "questions must be a list of objects"
    if not isinstance(mock.get("score"), Mapping):
        return "score must be an object"
    return plain_problem(mock, "the result")


def _names_problem(key: str, value: Any) -> str | None:
    """Why ``value`` is not a list of template ids (strings of 1 to MAX_NAME characters), or None."""
    if type(value) is not list or not all(type(i) is str and 0 < len(i) <= MAX_NAME for i in value):
        return f"{key} must be a list of template ids, not {value!r:.80}"
    return None


def _mock_setup_problem(key: str, value: Any) -> str | None:
    """Why ``value`` is not a mock setup as the app remembers it (minutes, questions, topics, chains), or None."""
    if type(value) is not dict or not value.keys() <= {"minutes", "questions", "topics", "chains"}:
        return f"{key} must be an object with minutes, questions, topics and chains, not {value!r:.80}"
    for field in ("minutes", "questions"):
        if value.get(field) is not None and (not is_int(value[field]) or value[field] < 1):
            return f"{key}.{field} must be a whole number >= 1 or null, not {value[field]!r:.80}"
    if "topics" in value and _names_problem(f"{key}.topics", value["topics"]) is not None:
        return f"{key}.topics must be a list of topic names, not {value['topics']!r:.80}"
    if type(value.get("chains", True)) is not bool:
        return f"{key}.chains must be true or false, not {value['chains']!r:.80}"
    return None


# The settings the app reads, each with the check of its value (any other name holds plain bounded JSON).
# Their users: engine.session (new_per_day, queued_items), drill.core.settings (reviews_per_day, interview,
# scheduler, step_drills), the language (lang), drill.screens.card (cards_seen, card_before_new),
# drill.commands.mock ("mock": the last setup).
_LANGS_SAID = " or ".join(repr(lang.value) for lang in LANGS)  # 'en' or 'zh'
_SCHEDULERS_SAID = " or ".join(repr(s.value) for s in SCHEDULERS)  # 'sm2' or 'fsrs'
SETTINGS: dict[str, Any] = {
    "new_per_day": lambda k, v: None if is_int(v) and 0 <= v <= 100 else f"{k} must be a whole number 0-100, not {v!r:.80}",
    "reviews_per_day": lambda k, v: (None if is_int(v) and 1 <= v <= 10_000
                                     else f"{k} must be a whole number 1-10000, not {v!r:.80}"),
    "lang": lambda k, v: None if isinstance(v, str) and v in LANGS else f"{k} must be {_LANGS_SAID}, not {v!r:.80}",
    "interview": lambda k, v: (None if v is None or (type(v) is str and day_ok(v))
                               else f"{k} must be a date YYYY-MM-DD or null, not {v!r:.80}"),
    "queued_items": _names_problem,
    "cards_seen": _names_problem,
    "card_before_new": lambda k, v: None if type(v) is bool else f"{k} must be true or false, not {v!r:.80}",
    "scheduler": lambda k, v: (None if isinstance(v, str) and v in SCHEDULERS
                               else f"{k} must be {_SCHEDULERS_SAID}, not {v!r:.80}"),
    "step_drills": lambda k, v: (None if type(v) is dict and all(type(d) is str and day_ok(d) for d in v.values())
                                 else f"{k} must map template ids to dates YYYY-MM-DD, not {v!r:.80}"),
    "mock": _mock_setup_problem,
    "hardware": lambda k, v: (None if v is None or (type(v) is str and HARDWARE_ID.fullmatch(v))
                              else f"{k} must be an accelerator id or null, not {v!r:.80}"),
    "conventions": lambda k, v: convention_set.problem(v),  # Settings → conventions
    "model": lambda k, v: (None if v is None or (type(v) is str and HARDWARE_ID.fullmatch(v))
                           else f"{k} must be a model id or null, not {v!r:.80}"),
}


def setting_problem(key: Any, value: Any) -> str | None:
    """The first problem of a setting (a name of :data:`SETTINGS` holds a value of its kind), or None."""
    if not isinstance(key, str) or not 0 < len(key) <= MAX_NAME or not text_ok(key):
        return f"a setting name must be a non-empty string of at most {MAX_NAME} characters, not {key!r:.80}"
    if (p := plain_problem(value, f"setting {key!r}")) is not None:
        return p
    check = SETTINGS.get(key)
    return check(key, value) if check is not None else None


class InvalidDocument(ValueError):
    """An import document (or a row) that fails validation: names the first problem."""


STREAMED = frozenset(("reviews", "mocks"))  # the members an import reads element by element (they grow)
_REQUIRED = (("settings", dict), ("states", dict), ("reviews", list), ("mocks", list))


def members_of(doc: Any) -> Iterator[tuple[str, Any]]:
    """An export document already in memory as the members :func:`checked_rows` reads."""
    if not isinstance(doc, Mapping):
        raise InvalidDocument("the document must be a JSON object")
    yield from doc.items()


def _head_problem(key: str, value: Any) -> str | None:
    """The problem of a member that is not the log nor the mocks (None: valid, or a member an import ignores)."""
    if key == "format" and value != EXPORT_FORMAT:
        return f"format must be {EXPORT_FORMAT!r}, not {value!r:.80}"
    if key == "schema":
        if is_int(value) and value > SCHEMA_VERSION:
            return (f"written by a newer version of infra-drill (schema {value}; this one reads "
                    f"{SCHEMA_VERSION}): upgrade infra-drill to import it")
        if type(value) is not int or value != SCHEMA_VERSION:  # not true, not 1.0
            return f"schema must be the whole number {SCHEMA_VERSION}, not {value!r:.80}"
    kind = dict(_REQUIRED).get(key)
    if kind is not None and not isinstance(value, kind):
        return f"{key} must be a JSON {'object' if kind is dict else 'list'}"
    return None


def checked_rows(members: Iterable[tuple[str, Any]], today: date | None = None, rest: dict | None = None,
                 where: Callable[[], str] | None = None) -> Iterator[dict]:
    """The review rows of an export document given as its members (``members_of``, or a streamed file's:
    ``jsonstream.ObjectStream.members`` with :data:`STREAMED`), each yielded once checked, in file order; at the
    end ``rest`` gets the checked ``settings``, ``states`` and ``mocks`` (by id).

    ``InvalidDocument`` names the first problem: the member, the row and the field (``where()``, if given, says
    where in the file the value just read began: ``line 12 column 3``).  ``today``: nothing may be dated after it.
    """
    def bad(problem: str, at: str = "") -> InvalidDocument:
        return InvalidDocument(f"{at}{problem}" + (f" (at {where()})" if where is not None else ""))

    seen: dict[str, Any] = {}
    last = 0
    mocks: dict[int, dict] = {}
    for key, value in members:
        if key in seen:
            raise bad(f"the member {key!r} appears twice")
        streamed = key in STREAMED and isinstance(value, (list, Iterator))  # (else: the wrong kind, said below)
        seen[key] = value if not streamed else []
        if not streamed and (p := _head_problem(key, value)) is not None:
            raise bad(p)
        if key == "settings":
            for name, v in value.items():
                if (p := setting_problem(name, v)) is not None:
                    raise bad(p, f"settings.{name}: ")
        elif key == "states":
            for item, st in value.items():
                if not 0 < len(item) <= MAX_NAME or not text_ok(item):
                    raise bad(f"an item id must be text of 1 to {MAX_NAME} characters", "states: ")
                if (p := state_problem(st, today)) is not None:
                    raise bad(p, f"states[{item!r}]: ")
        elif key == "reviews" and streamed:
            for i, row in enumerate(value):
                if (p := row_problem(row, today=today)) is not None:
                    raise bad(p, f"reviews[{i}]: ")
                if row["id"] <= last:
                    raise bad(f"ids must increase (id {row['id']} after {last})", f"reviews[{i}]: ")
                last = row["id"]
                yield row
        elif key == "mocks" and streamed:
            for i, m in enumerate(value):
                if (p := mock_problem(m, today=today)) is not None:
                    raise bad(p, f"mocks[{i}]: ")
                if m["id"] in mocks:
                    raise bad(f"id {m['id']} appears twice", f"mocks[{i}]: ")
                mocks[m["id"]] = m
    for key in ("format", "schema"):
        if key not in seen and (p := _head_problem(key, None)) is not None:
            raise InvalidDocument(p)
    for key, kind in _REQUIRED:
        if key not in seen:
            raise InvalidDocument(f"{key} must be a JSON {'object' if kind is dict else 'list'}")
    if rest is not None:
        rest.update(settings=seen["settings"], states=seen["states"], mocks=mocks)


def document_problem(doc: Any, today: date | None = None) -> str | None:
    """The first problem of an export document, or None when all of it is valid.

    ``today`` (the importing drill's day): nothing in it may be dated later.  The checks are the import's own
    (:func:`checked_rows`, which a streamed import runs as it reads).
    """
    try:
        for _ in checked_rows(members_of(doc), today):
            pass
    except InvalidDocument as e:
        return str(e)
    return None


def plain_copy(value: Mapping) -> dict:
    return copy.deepcopy(dict(value))


def row_copy(row: Mapping) -> dict:
    """A review row the caller may change freely (its nested values: the two states and the conventions)."""
    b, a = row["before"], row["after"]
    out = {**row, "before": dict(b) if b is not None else None, "after": dict(a) if a is not None else None}
    if "conventions" in row:
        out["conventions"] = dict(row["conventions"])
    return out
