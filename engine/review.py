"""A review row: one answer in the review log, as :class:`Review` (a typed record) and as stored (a dict).

The record's fields are the row's: the sixteen every row has (:data:`REQUIRED`, in their stored order) and
the ones it has only when they apply (:data:`OPTIONAL`, ``None`` when absent).  :meth:`Review.to_dict` gives
the row exactly as the save files and exports hold it (same keys in the same order, an optional key only
when set); :meth:`Review.from_dict` checks a stored row (:func:`engine.storage.validation.row_problem`) and
reads it.  A tuple under the hood (:data:`engine.records.NamedTuple`): making one costs about what a dict
does, which matters where a history of 200,000 rows is read.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from . import convention_set
from .checks import (
    CONTROL,
    MAX_DAY,
    MAX_ID,
    MAX_NAME,
    MAX_TYPED,
    MIN_DAY,
    SURROGATE,
    TS,
    Horizon,
    InvalidDocument,
    day_ok,
    number_problem,
    state_future,
    state_ok,
    state_problem,
    text_ok,
    ts_ok,
)
from .hints import hint_problem
from .records import NamedTuple
from .review_mode import MODES
from .status import REVIEW_VERDICTS

# "convention": right by another published convention than the problem's own, quality 3, a pass
VERDICTS = REVIEW_VERDICTS  # a review row's verdict
MAX_SECONDS = 10_000_000  # the longest measured time a review row keeps (about 116 days)
HARDWARE_ID = re.compile(r"[a-z0-9][a-z0-9_.-]{0,47}")  # an accelerator or model id (question_bank.catalogue)


class Review(NamedTuple):
    """One answer: what was asked (``item``, ``topic``, ``seed``, the chain ``step``), what was answered
    (``typed``, its ``value``), how it was graded (``verdict``, ``quality`` 0-5), how long it took
    (``seconds``, None: not measured), why it was asked (``mode``), and whether it moved the item's schedule
    (``scheduled``, with the item's state ``before`` and ``after`` as :meth:`engine.sm2.ItemState.to_dict`).
    """

    id: int | None  # the log's id, None until recorded (engine.storage.Profile.record gives it)
    ts: str  # the UTC time of the answer, 2026-11-29T15:42:01Z
    date: str  # the learner's local day of the answer, YYYY-MM-DD
    item: str
    topic: str
    seed: int
    step: int | None
    typed: str
    value: float | str | None
    verdict: str
    quality: int
    seconds: float | None
    mode: str
    scheduled: bool
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    # Only when they apply.  "hardware": the accelerator id the problem was drawn on (drill ... --hardware ID):
    # with template and seed it identifies the problem; a row without it was drawn on the catalogue's mix.
    hardware: str | None = None
    # The conventions the problem was drawn and graded under, off their default (engine.convention_set:
    # {"bytes_per_param": "18"}); a row without it was graded under the seeds' conventions.
    conventions: dict[str, str] | None = None
    model: str | None = None  # the model id the problem was drawn of (drill ... --model ID), as hardware
    # True when the learner chose the grade (a re-grade pressed after the feedback), absent when the grader gave
    # it: FSRS reads a 5 as Easy only then (engine.schedule.fsrs_bridge.rating), so a replay of the log gives
    # the due dates the answers got.
    pressed: bool | None = None
    # The hint taken before answering (engine.hints: 1 named the formula, 2 substituted its numbers), absent when
    # none was: the grade it capped is the row's quality, and the statistics count the hints taken.
    hint: int | None = None
    # Where the row was first recorded, when that is another replica of the profile (a merge: drill sync, drill
    # import --merge): {"replica": its id, "id": the row's id there}.  Absent: this profile's own row, whose
    # origin is (this profile's replica, its id).  A merge tells rows apart by it, so a row is merged once.
    origin: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The row as stored: ``id`` first (left out before it is recorded), then the fields in order, an
        optional one only when set; the nested states and conventions are copies."""
        d: dict[str, Any] = dict(zip(_NAMES, self))
        if self.id is None:
            del d["id"]
        for name in OPTIONAL:
            if d[name] is None:
                del d[name]
        for name in _NESTED:
            if d.get(name) is not None:
                d[name] = dict(d[name])
        return d

    @classmethod
    def from_dict(cls, row: Mapping[str, Any], *, stored: bool = True, imported: bool = False) -> Review:
        """The record of a row, checked (``stored``: it has its ``id``; ``imported``: the import's rules too).

        ``InvalidDocument`` (a ``ValueError``) names the first problem, as ``row_problem`` words it.
        """
        if (p := row_problem(row, stored=stored, imported=imported)) is not None:
            raise InvalidDocument(p)
        return cls.of(row)

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Review:
        """The record of a row already checked (read back from the log): no check."""
        return cls._make(map(row.get, _NAMES))


_NAMES: tuple[str, ...] = Review._fields
REQUIRED: tuple[str, ...] = tuple(n for n in _NAMES if n not in Review._field_defaults)  # every row has them
OPTIONAL: tuple[str, ...] = tuple(Review._field_defaults)  # a row has them only when they apply
_NESTED = ("before", "after", "conventions", "origin")
REPLICA_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a replica's id (engine.storage.manifest.new_replica: 16 hex digits)


def legacy_replica(first: Mapping[str, Any] | None, document: Any = None) -> str:
    """The replica id of a history recorded before copies had replica ids (an older export, a save from before
    manifests): made from its first row (id, time, item, seed, quality), so every copy of that history, an
    export of it made at any time or the save itself, names its rows alike (``pre-`` and 16 hex digits), and a
    merge of it is one however often and in whatever order it comes; two histories are two.  ``first``: the
    history's first row (None: it has none, and the id is made of ``document``, whose rows are none to name)."""
    basis = [first[k] for k in ("id", "ts", "item", "seed", "quality")] if first is not None else document
    text = json.dumps(basis, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return "pre-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def origin_ok(v: Any) -> bool:
    """A row's ``origin``: ``{"replica": id, "id": that replica's row id}``."""
    return (type(v) is dict and v.keys() == {"replica", "id"} and type(v["replica"]) is str
            and REPLICA_ID.fullmatch(v["replica"]) is not None and type(v["id"]) is int and 1 <= v["id"] <= MAX_ID)


_ROW_KEYS = frozenset(REQUIRED)


def _conventions_problem(v: Any) -> str | None:
    if (p := convention_set.problem(v)) is not None:
        return p
    return None if v else "conventions must name at least one convention off its default (a row without it: the defaults)"


# The check of each optional field of a row (OPTIONAL), in the type's order: the first problem
# named is the first field's.  _OPTIONAL_OK is the fast yes of each, for reading the log.
_OPTIONAL_PROBLEM: dict[str, Callable[[Any], str | None]] = {
    "hardware": lambda v: (None if isinstance(v, str) and HARDWARE_ID.fullmatch(v)
                           else f"hardware must be an accelerator id (lowercase letters, digits, _ . -), not {v!r:.80}"),
    "conventions": _conventions_problem,
    "model": lambda v: (None if isinstance(v, str) and HARDWARE_ID.fullmatch(v)
                        else f"model must be a model id (lowercase letters, digits, _ . -), not {v!r:.80}"),
    "pressed": lambda v: None if v is True else f"pressed must be true (absent: the grader's grade), not {v!r:.80}",
    "hint": hint_problem,
    "origin": lambda v: (None if origin_ok(v) else
                         f"origin must be {{\"replica\": a replica id, \"id\": a whole number >= 1}}, not {v!r:.80}"),
}
_OPTIONAL_OK: dict[str, Callable[[Any], bool]] = {
    "hardware": lambda v: type(v) is str and HARDWARE_ID.fullmatch(v) is not None,
    "conventions": lambda v: type(v) is dict and bool(v) and convention_set.problem(v) is None,
    "model": lambda v: type(v) is str and HARDWARE_ID.fullmatch(v) is not None,
    "pressed": lambda v: v is True,
    "hint": lambda v: type(v) is int and v in (1, 2),
    "origin": origin_ok,
}
if not list(_OPTIONAL_PROBLEM) == list(_OPTIONAL_OK) == list(OPTIONAL):  # a field of the type unchecked
    raise TypeError(f"Review's optional fields {OPTIONAL} need their checks here")
VERDICT_SET, _MODES = frozenset(VERDICTS), frozenset(MODES)


def row_ok(r: Any) -> bool:
    """A quick yes for a well-formed stored row (:func:`row_problem` explains a no)."""
    if type(r) is not dict:
        return False
    if r.keys() != _ROW_KEYS:  # optional fields (layout.OPTIONAL), each well-formed
        extra = r.keys() - _ROW_KEYS
        if not (r.keys() >= _ROW_KEYS and all(k in _OPTIONAL_OK and _OPTIONAL_OK[k](r[k]) for k in extra)):
            return False
    v, sec, step, b, a, item, topic = r["value"], r["seconds"], r["step"], r["before"], r["after"], r["item"], r["topic"]
    ts, day = r["ts"], r["date"]
    return (type(r["id"]) is int and 1 <= r["id"] <= MAX_ID and day_ok(day) and day is not None
            and type(ts) is str and TS.fullmatch(ts) is not None and (ts[:10] == day or day_ok(ts[:10]))
            and type(item) is str and 0 < len(item) <= MAX_NAME and text_ok(item)
            and type(topic) is str and 0 < len(topic) <= MAX_NAME and text_ok(topic) and type(r["seed"]) is int
            and -MAX_ID <= r["seed"] <= MAX_ID and (step is None or (type(step) is int and 1 <= step <= MAX_ID))
            and type(r["typed"]) is str and len(r["typed"]) <= MAX_TYPED and text_ok(r["typed"])
            and (v is None or (type(v) is str and len(v) <= MAX_TYPED and text_ok(v))
                 or (type(v) in (float, int) and math.isfinite(v)))
            and r["verdict"] in VERDICT_SET and type(r["quality"]) is int and 0 <= r["quality"] <= 5
            and (sec is None or (type(sec) in (float, int) and 0 <= sec <= MAX_SECONDS)) and r["mode"] in _MODES
            and type(r["scheduled"]) is bool and (a is not None or not r["scheduled"])
            and (b is None or state_ok(b)) and (a is None or state_ok(a)))


def row_problem(row: Any, *, stored: bool = True, imported: bool = False) -> str | None:
    """The first problem of a review row, or None when it is valid (``imported``: the import rules too; what
    may be dated when: :func:`row_future`)."""
    if not isinstance(row, Mapping):
        return f"must be an object, not {type(row).__name__}"
    fields = REQUIRED if stored else REQUIRED[1:]
    missing = [f for f in fields if f not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    extra = sorted(set(row) - set(REQUIRED) - set(OPTIONAL))
    if extra:
        return f"unknown field {extra[0]!r}"
    for name, problem in _OPTIONAL_PROBLEM.items():
        if name in row and (p := problem(row[name])) is not None:
            return p
    if stored and (p := number_problem("id", row["id"], 1, MAX_ID, whole=True)):
        return p
    if not ts_ok(row["ts"]):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z between {MIN_DAY} and {MAX_DAY}, not {row['ts']!r}"
    if row["date"] is None or not day_ok(row["date"]):
        return f"date must be a day YYYY-MM-DD between {MIN_DAY} and {MAX_DAY}, not {row['date']!r}"
    for key in ("item", "topic"):
        if not isinstance(row[key], str) or not 0 < len(row[key]) <= MAX_NAME:
            return f"{key} must be a non-empty string of at most {MAX_NAME} characters, not {row[key]!r:.80}"
    for key in ("item", "topic", "typed", "value"):
        if isinstance(row[key], str) and not text_ok(row[key]):
            return f"{key} holds a lone surrogate ({SURROGATE.search(row[key]).group()!r}): not text"
    if p := number_problem("seed", row["seed"], -MAX_ID, MAX_ID, whole=True):
        return p
    if row["step"] is not None and (p := number_problem("step", row["step"], 1, MAX_ID, whole=True)):
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
    if p := number_problem("quality", row["quality"], 0, 5, whole=True):
        return p
    if row["seconds"] is not None and (p := number_problem("seconds", row["seconds"], 0, MAX_SECONDS)):
        return f"{p} (or null: not measured)"
    if row["mode"] not in MODES:
        return f"mode must be one of {', '.join(MODES)}, not {row['mode']!r:.80}"
    if not isinstance(row["scheduled"], bool):
        return f"scheduled must be true or false, not {row['scheduled']!r:.80}"
    if row["scheduled"] and row["after"] is None:
        return "a scheduled review needs its state after"
    for key in ("before", "after"):
        if row[key] is not None and (p := state_problem(row[key])) is not None:
            return f"{key}: {p}"
    if imported and (m := CONTROL.search(row["typed"])) is not None:
        return f"typed holds a control character ({m.group()!r} at {m.start()}): not something typed as an answer"
    return None


def row_future(row: Mapping[str, Any], horizon: Horizon) -> bool:
    """True when a valid row (:func:`row_problem`) is dated beyond ``horizon``: its instant, its local day, or
    either state's (:func:`engine.checks.state_future`)."""
    b, a = row["before"], row["after"]
    return (row["ts"] > horizon.ts or row["date"] > horizon.day or (b is not None and state_future(b, horizon))
            or (a is not None and state_future(a, horizon)))
