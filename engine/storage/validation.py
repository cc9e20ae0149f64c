"""Checks of what is stored and imported: a review row (:mod:`engine.review`'s checks, with its type), an item
state, a setting, a mock result, a whole export document.  Each ``*_problem`` names the first problem (None:
valid); the ``*_ok`` checks are the fast yes used when reading the log, with the ``*_problem`` explaining a no.

Two levels.  Always (reading the log, recording, importing): strict types (a
``bool`` is not a number, ``1.0`` is not a whole number), real days and UTC
times between :data:`MIN_DAY` and :data:`MAX_DAY`, finite numbers within the
bounds below, bounded string lengths and nesting: so every figure computed
from stored data stays finite and every date sum stays in the calendar.  On
import also: no control characters (terminal escape sequences) in ``typed`` -
a file from elsewhere is held to what this drill itself writes; and (``now``
given: time is injected) nothing dated beyond the importer's instant and its
slack (:class:`engine.checks.Horizon`: instants, never the importer's local
day, so an export always imports on the machine that wrote it).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from .. import convention_set
from ..checks import (  # noqa: F401 (the value checks, read here by the storage's modules)
    CONTROL,
    MAX_DAY,
    MAX_DEPTH,
    MAX_EF,
    MAX_ID,
    MAX_NAME,
    MAX_REPS,
    MAX_TEXT,
    MAX_TYPED,
    MIN_DAY,
    SURROGATE,
    FutureDated,
    Horizon,
    InvalidDocument,
    day_ok,
    is_int,
    number_problem,
    state_future,
    state_problem,
    text_ok,
    ts_ok,
)
from ..langs import LANGS
from ..review import MAX_SECONDS, VERDICT_SET, row_future, row_ok, row_problem  # noqa: F401 (a row's checks, with its type)
from ..schedule import fsrs_fit
from ..schedule.fsrs_bridge import SCHEDULERS
from .layout import EXPORT_FORMAT, HARDWARE_ID, SCHEMA_VERSION


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
                return f"{what} holds a lone surrogate ({SURROGATE.search(v).group()!r}): not text"
        elif isinstance(v, float):
            if not math.isfinite(v):
                return f"{what} holds a number that is not finite"
        elif not (v is None or isinstance(v, (bool, int))):
            return f"{what} holds values that are not plain JSON"
    return None


def mock_problem(mock: Any, *, stored: bool = True) -> str | None:
    """The first problem of a mock-interview result, or None (what may be dated when: :class:`Horizon`)."""
    if not isinstance(mock, Mapping):
        return f"must be an object, not {type(mock).__name__}"
    if stored and (p := number_problem("id", mock.get("id"), 1, MAX_ID, whole=True)):
        return p
    if not ts_ok(mock.get("ts")):
        return f"ts must be a UTC time like 2026-11-29T15:42:01Z between {MIN_DAY} and {MAX_DAY}, " \
               f"not {mock.get('ts')!r:.80}"
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


def _counts_problem(key: str, value: Any) -> str | None:
    """Why ``value`` is not a map of template ids to whole numbers >= 0, or None."""
    if type(value) is not dict or not all(type(n) is int and n >= 0 for n in value.values()):
        return f"{key} must map template ids to whole numbers >= 0, not {value!r:.80}"
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
# scheduler, step_drills, fsrs_weights, retention), the language (lang), drill.screens.card (cards_seen, card_before_new),
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
    "suspended": _names_problem,  # drill.core.leeches: templates the learner took out of the schedule
    "leech_reset": lambda k, v: _counts_problem(k, v),  # drill.core.leeches: lapse counts when reset
    "leech_cards": lambda k, v: _counts_problem(k, v),  # drill.core.leeches: lapse counts when the card was shown
    "hardware": lambda k, v: (None if v is None or (type(v) is str and HARDWARE_ID.fullmatch(v))
                              else f"{k} must be an accelerator id or null, not {v!r:.80}"),
    "conventions": lambda k, v: convention_set.problem(v),  # Settings → conventions
    "model": lambda k, v: (None if v is None or (type(v) is str and HARDWARE_ID.fullmatch(v))
                           else f"{k} must be a model id or null, not {v!r:.80}"),
    "fsrs_weights": fsrs_fit.setting_problem,  # drill plan --optimize
    "retention": lambda k, v: None if (p := fsrs_fit.retention_problem(v)) is None else f"{k}: {p}",
}


def setting_problem(key: Any, value: Any) -> str | None:
    """The first problem of a setting (a name of :data:`SETTINGS` holds a value of its kind), or None."""
    if not isinstance(key, str) or not 0 < len(key) <= MAX_NAME or not text_ok(key):
        return f"a setting name must be a non-empty string of at most {MAX_NAME} characters, not {key!r:.80}"
    if (p := plain_problem(value, f"setting {key!r}")) is not None:
        return p
    check = SETTINGS.get(key)
    return check(key, value) if check is not None else None


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


def checked_rows(members: Iterable[tuple[str, Any]], now: datetime | None = None, rest: dict | None = None,
                 where: Callable[[], str] | None = None, skip_future: bool = False) -> Iterator[dict]:
    """The review rows of an export document given as its members (``members_of``, or a streamed file's:
    ``jsonstream.ObjectStream.members`` with :data:`STREAMED`), each yielded once checked, in file order; at the
    end ``rest`` gets the checked ``settings``, ``states`` and ``mocks`` (by id), and ``left_out``.

    ``InvalidDocument`` names the first problem: the member, the row and the field (``where()``, if given, says
    where in the file the value just read began: ``line 12 column 3``).  ``now`` (the importer's instant): rows,
    states and mocks dated beyond its :class:`Horizon` are not yielded nor kept; once all the rest is read and
    valid, ``FutureDated`` names them all, unless ``skip_future`` (then ``left_out`` counts them).
    """
    def bad(problem: str, at: str = "") -> InvalidDocument:
        return InvalidDocument(f"{at}{problem}" + (f" (at {where()})" if where is not None else ""))

    horizon = Horizon.after(now) if now is not None else None
    future: dict[str, list] = {"reviews": [], "states": [], "mocks": []}
    seen: dict[str, Any] = {}
    last = 0
    mocks: dict[int, dict] = {}
    states: dict[str, Any] = {}
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
        elif key == "settings_changed":
            if not isinstance(value, dict) or not all(isinstance(k, str) and ts_ok(v) for k, v in value.items()):
                raise bad("settings_changed must map setting names to UTC times like 2026-11-29T15:42:01Z")
        elif key == "states":
            for item, st in value.items():
                if not 0 < len(item) <= MAX_NAME or not text_ok(item):
                    raise bad(f"an item id must be text of 1 to {MAX_NAME} characters", "states: ")
                if (p := state_problem(st)) is not None:
                    raise bad(p, f"states[{item!r}]: ")
                if horizon is not None and state_future(st, horizon):
                    future["states"].append(item)
                else:
                    states[item] = st
        elif key == "reviews" and streamed:
            for i, row in enumerate(value):
                if (p := row_problem(row, imported=now is not None)) is not None:
                    raise bad(p, f"reviews[{i}]: ")
                if row["id"] <= last:
                    raise bad(f"ids must increase (id {row['id']} after {last})", f"reviews[{i}]: ")
                last = row["id"]
                if horizon is not None and row_future(row, horizon):
                    future["reviews"].append(row["id"])
                else:
                    yield row
        elif key == "mocks" and streamed:
            for i, m in enumerate(value):
                if (p := mock_problem(m)) is not None:
                    raise bad(p, f"mocks[{i}]: ")
                if m["id"] in mocks or m["id"] in future["mocks"]:
                    raise bad(f"id {m['id']} appears twice", f"mocks[{i}]: ")
                if horizon is not None and m["ts"] > horizon.ts:
                    future["mocks"].append(m["id"])
                else:
                    mocks[m["id"]] = m
    for key in ("format", "schema"):
        if key not in seen and (p := _head_problem(key, None)) is not None:
            raise InvalidDocument(p)
    for key, kind in _REQUIRED:
        if key not in seen:
            raise InvalidDocument(f"{key} must be a JSON {'object' if kind is dict else 'list'}")
    left_out = sum(map(len, future.values()))
    if left_out and not skip_future:
        assert now is not None  # (nothing is future without a horizon)
        raise FutureDated(now, future["reviews"], future["states"], future["mocks"])
    if rest is not None:
        changed = seen.get("settings_changed") or {}
        rest.update(settings=seen["settings"], states=states, mocks=mocks, left_out=left_out,
                    changed={k: v for k, v in changed.items() if k in seen["settings"]})


def document_problem(doc: Any, now: datetime | None = None) -> str | None:
    """The first problem of an export document, or None when all of it is valid.

    ``now`` (the importing drill's instant): nothing in it may be dated beyond its :class:`Horizon`.  The checks
    are the import's own (:func:`checked_rows`, which a streamed import runs as it reads).
    """
    try:
        for _ in checked_rows(members_of(doc), now):
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
