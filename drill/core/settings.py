"""The learner's settings as practice reads them: the keys, their bounds, and a typed value parsed."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from engine.records import NamedTuple
from engine.schedule.fsrs_bridge import SCHEDULERS, Scheduler, Tuning
from engine.session import DEFAULT_REVIEWS_PER_DAY, Rules

if TYPE_CHECKING:
    from engine.storage import Profile


class Learning(NamedTuple):
    """The profile's scheduling settings: new items a day, the review cap a day, the interview date, the
    scheduler (``sm2``, the default, or ``fsrs``)."""

    new_per_day: int
    reviews_per_day: int
    interview: date | None
    scheduler: str = Scheduler.SM2


INTERVIEW_KEY = "interview"
REVIEWS_KEY = "reviews_per_day"
HARDWARE_KEY = "hardware"  # the accelerator practice draws: an id, or None for the catalogue's mix
MODEL_KEY = "model"  # the model practice draws: an id, or None for the catalogue's mix
SCHEDULER_KEY = "scheduler"
FSRS_WEIGHTS_KEY = "fsrs_weights"  # FSRS weights fitted to the log, with the day, reviews and losses (fsrs_fit.Fit)
RETENTION_KEY = "retention"  # FSRS's desired retention, 0.80-0.97 (absent: 0.9)
# Settings → conventions: the profile's setting "conventions" holds the choosable conventions off their
# default (engine.convention_set); each is a field of the Settings screen keyed "convention-KEY".
CONVENTIONS_KEY = "conventions"
CONVENTION_FIELD = "convention-"
STEP_DRILLS_KEY = "step_drills"  # {template: "YYYY-MM-DD"}: a chain's failed step, practised alone from that day


def interview_date(value: object) -> date | None:
    """The interview date kept in the settings (``YYYY-MM-DD``), None when unset or unreadable."""
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def learning(profile: Profile) -> Learning:
    settings = profile.settings()
    cap = settings.get(REVIEWS_KEY)
    cap = cap if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1 else DEFAULT_REVIEWS_PER_DAY
    scheduler = settings.get(SCHEDULER_KEY)
    return Learning(settings["new_per_day"], cap, interview_date(settings.get(INTERVIEW_KEY)),
                    scheduler if scheduler in SCHEDULERS else Scheduler.SM2)


def fitted(profile: Profile):
    """The FSRS weights fitted to the profile's log (:class:`engine.schedule.fsrs_fit.Fit`), None if never."""
    from engine.schedule import fsrs_fit

    return fsrs_fit.from_setting(profile.settings().get(FSRS_WEIGHTS_KEY), FSRS_WEIGHTS_KEY)


def retention(profile: Profile) -> float:
    """FSRS's desired retention set for the profile (0.9 unless set)."""
    from engine.schedule import fsrs_fit

    value = profile.settings().get(RETENTION_KEY)
    if isinstance(value, int | float) and fsrs_fit.retention_problem(value) is None:
        return float(value)
    return fsrs_fit.DEFAULT_RETENTION


def tuning_of(profile: Profile) -> Tuning:
    """The profile's FSRS weights (fitted, else the defaults) and desired retention."""
    fit = fitted(profile)
    return Tuning(fit.weights if fit is not None else None, retention(profile))


def rules_of(profile: Profile) -> Rules:
    """The profile's scheduling rules (``drill plan``, Settings)."""
    rules = learning(profile)
    return Rules(rules.scheduler, rules.interview, rules.reviews_per_day, rules.new_per_day, tuning_of(profile))


SETTING_BOUNDS = {"new_per_day": (0, 100), REVIEWS_KEY: (1, 10_000)}


def known_hardware(hardware_id: str, saves) -> bool:
    """``hardware_id`` names a built-in accelerator or one of the user's (``<saves>/catalogue/``, loaded here)."""
    from question_bank import hardware, user_catalogue

    if any(g.key == hardware_id for g in hardware.ALL):
        return True
    user_catalogue.load(saves)
    return hardware_id in hardware.USER


def saved_conventions(profile: Profile) -> dict[str, str]:
    """The conventions chosen in Settings, off their default (``{}``: the seeds'; an unreadable value: ``{}``)."""
    from engine import convention_set

    saved = profile.settings().get(CONVENTIONS_KEY)
    return convention_set.canonical(saved) if convention_set.problem(saved) is None else {}


def with_convention(saved: dict[str, str], key: str, value: str) -> dict[str, str]:
    """The profile's conventions with ``key`` set to ``value`` (its default drops it)."""
    from engine import convention_set

    return convention_set.canonical({**saved, key: value})


def known_model(model_id: str, saves) -> bool:
    """``model_id`` names a built-in model or one of the user's (``<saves>/catalogue/``, loaded here)."""
    from question_bank import models, user_catalogue

    if any(m.key == model_id for m in models.ALL):
        return True
    user_catalogue.load(saves)
    return model_id in models.USER


def parse_setting(key: str, text: str, today: date, saves=None) -> tuple[object, str | None]:
    """``(value, None)`` for a setting typed as ``text``, or ``(None, problem)`` with the i18n key of the
    problem: a whole number in its bounds, for the interview a date after ``today`` (empty: none), for the
    hardware an accelerator id of the catalogue (the user's in ``saves``; empty: none), for the model a model id
    of it, for the scheduler
    ``sm2`` or ``fsrs``, for FSRS's desired retention a number from 0.80 to 0.97."""
    text = text.strip()
    if key.startswith(CONVENTION_FIELD):  # one of the choosable values; empty: the default
        from engine import convention_set

        c = convention_set.BY_KEY[key.removeprefix(CONVENTION_FIELD)]
        text = text or c.default
        return (text, None) if text in c.values else (None, "settings.bad_convention")
    if key == SCHEDULER_KEY:
        return (text.lower(), None) if text.lower() in SCHEDULERS else (None, "settings.bad_scheduler")
    if key == RETENTION_KEY:
        from engine.schedule import fsrs_fit

        try:
            value = float(text) if len(text) <= 10 else None
        except ValueError:
            value = None
        ok = value is not None and fsrs_fit.retention_problem(value) is None
        return (value, None) if ok else (None, "settings.bad_retention")
    if key == HARDWARE_KEY:
        if not text:
            return None, None
        return (text, None) if len(text) <= 48 and known_hardware(text, saves) else (None, "settings.bad_hardware")
    if key == MODEL_KEY:
        if not text:
            return None, None
        return (text, None) if len(text) <= 48 and known_model(text, saves) else (None, "settings.bad_model")
    if key == INTERVIEW_KEY:
        if not text:
            return None, None
        day = interview_date(text)
        if day is None:
            return None, "settings.bad_date"
        return (text, None) if day > today else (None, "settings.past_date")
    lo, hi = SETTING_BOUNDS[key]
    if len(text) > 6 or not text.isascii() or not text.isdigit() or not lo <= int(text) <= hi:
        return None, "settings.bad_number"
    return int(text), None
