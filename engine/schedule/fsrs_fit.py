"""FSRS fitted to the learner: FSRS-6 weights from the learner's own log, and a retention's expected workload.

Both come from ``fsrs-rs-python`` (the Rust optimizer and simulator Anki uses: no torch), not our own code: the
fitting (outlier filter, pre-training of the first stabilities, recency weighting, clipping) is the
published method, and its results compare with the open benchmark's.

* **The training set.** Each scheduled review of an item that was already reviewed on an earlier day is
  one training example (the library's ``FSRSItem``: the item's reviews up to that one, each with the days
  since the previous).  A review on the same day as the previous one tells nothing about long-term memory
  and is left out as a target (it stays in the history).  At most :data:`MAX_REVIEWS` examples, the newest,
  so a fit takes a bounded time whatever the log's length.
* **The minimum** is the library's own: it trains the weights only from :data:`MIN_REVIEWS` examples on
  (below, it returns the defaults, or only re-estimates the first-review stabilities).
* **Adopted only if better**, as Anki does: the new weights are kept when their log loss on the same
  examples is below the loss of the weights in use (the defaults, or an earlier fit); the result says both.
* **Deterministic**: the optimizer's seed is fixed, and the examples are built in a fixed order, so the
  same log gives the same weights (and so the same due dates).

Pure: the caller passes the history and the day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from engine.records import NamedTuple

MIN_REVIEWS = 64  # fsrs-rs trains the weights only from 64 examples on (training.rs: compute_parameters)
MAX_REVIEWS = 20_000  # the newest examples fed to the optimizer: a fit of a long log stays within seconds
SEED = 2023  # the optimizer's seed (its default, written out so that a change of default changes nothing here)
RETENTION_MIN, RETENTION_MAX = 0.80, 0.97  # the desired retention a learner may set
DEFAULT_RETENTION = 0.9
WEIGHTS = 21  # FSRS-6
SIMULATED_DAYS = 365  # the workload of a retention: the mean reviews a day over a simulated year
SIMULATED_ITEMS = 200  # ... of a deck this size by default (the caller passes the bank's)
SIMULATED_NEW = 5  # ... met this many a day by default (the caller passes the profile's)


class Fit(NamedTuple):
    """Weights fitted to a learner's log: the day, the examples used, the log loss of the weights in use before
    and of the fitted ones on the same examples; ``kept``: the fitted weights beat the ones in use."""

    weights: tuple[float, ...]
    day: date
    reviews: int
    loss_before: float
    loss_after: float
    kept: bool = True

    def to_setting(self) -> dict[str, Any]:
        """The fit as the profile's ``fsrs_weights`` setting holds it (plain JSON)."""
        return {"weights": list(self.weights), "date": self.day.isoformat(),
                "reviews": self.reviews, "loss_before": round(self.loss_before, 6),
                "loss_after": round(self.loss_after, 6)}


class TooFew(NamedTuple):
    """Not enough examples to fit: ``have`` of the ``need`` the library trains from."""

    have: int
    need: int = MIN_REVIEWS

    @property
    def more(self) -> int:
        return self.need - self.have


def setting_problem(key: str, value: Any) -> str | None:
    """The problem of a stored fit (the ``fsrs_weights`` setting), or None: null, or an object with 21 finite
    weights, the date, the number of reviews and the two losses."""
    if value is None:
        return None
    if type(value) is not dict or set(value) != {"weights", "date", "reviews", "loss_before", "loss_after"}:
        return f"{key} must be null or an object with weights, date, reviews, loss_before and loss_after"
    w = value["weights"]
    low, high = bounds()
    if (type(w) is not list or len(w) != WEIGHTS
            or not all(type(x) in (int, float) and lo <= x <= hi for x, lo, hi in zip(w, low, high))):
        return f"{key}.weights must be a list of {WEIGHTS} numbers within FSRS-6's bounds, not {w!r:.80}"
    try:
        date.fromisoformat(value["date"])
    except (TypeError, ValueError):
        return f"{key}.date must be a date YYYY-MM-DD, not {value['date']!r:.80}"
    if type(value["reviews"]) is not int or value["reviews"] < 0:
        return f"{key}.reviews must be a whole number >= 0, not {value['reviews']!r:.80}"
    for loss in ("loss_before", "loss_after"):
        if type(value[loss]) not in (int, float) or not 0 <= value[loss] < 1e6:
            return f"{key}.{loss} must be a number >= 0, not {value[loss]!r:.80}"
    return None


def from_setting(value: Any, key: str = "fsrs_weights") -> Fit | None:
    """The fit stored in the settings (None: none, or not readable)."""
    if value is None or setting_problem(key, value) is not None:
        return None
    return Fit(tuple(float(x) for x in value["weights"]), date.fromisoformat(value["date"]), value["reviews"],
               float(value["loss_before"]), float(value["loss_after"]))


def retention_problem(value: Any) -> str | None:
    """Why ``value`` is no desired retention (None: it is one, :data:`RETENTION_MIN` to :data:`RETENTION_MAX`)."""
    if type(value) not in (int, float) or not RETENTION_MIN <= value <= RETENTION_MAX:
        return f"the desired retention must be a number from {RETENTION_MIN:.2f} to {RETENTION_MAX:.2f}, not {value!r:.40}"
    return None


def examples(history: Mapping[str, Sequence[tuple]], rating, limit: int = MAX_REVIEWS) -> list:
    """The training examples of each item's scheduled reviews ``(day, quality[, pressed])`` (oldest first), the
    newest ``limit``; ``rating(quality, pressed)`` maps an SM-2 quality to the FSRS rating (the scheduler's own
    mapping: Easy only for a grade the learner pressed)."""
    from fsrs_rs_python import FSRSItem, FSRSReview

    dated: list[tuple[date, str, int, Any]] = []
    for item in sorted(history):  # a fixed order: the same log, the same examples
        reviews, last = [], None
        for day, quality, *pressed in history[item]:
            gap = 0 if last is None else (day - last).days
            reviews.append(FSRSReview(int(rating(quality, bool(pressed and pressed[0]))), gap))
            last = day
            if gap > 0:
                dated.append((day, item, len(reviews), reviews[:]))
    dated.sort(key=lambda d: (d[0], d[1], d[2]))
    return [FSRSItem(r) for *_, r in dated[-limit:]]


def log_loss(weights: Sequence[float], items: list) -> float:
    """The log loss of ``weights`` predicting the examples' recall (lower is better)."""
    from fsrs_rs_python import FSRS

    return float(FSRS(list(weights)).evaluate(items).log_loss)


def bounds() -> tuple[Sequence[float], Sequence[float]]:
    """The lowest and highest value of each weight the scheduler (the ``fsrs`` package) accepts."""
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    return LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS


def stored_weights(raw: Sequence[float]) -> tuple[float, ...]:
    """The optimizer's weights as stored and scheduled by: rounded to 6 decimals (so the weights read back are
    the weights fitted) and held within the scheduler's bounds (the optimizer clips to the same bounds in
    32-bit floats: its 0.8 is 0.800000012, which the scheduler would refuse)."""
    low, high = bounds()
    return tuple(min(max(round(float(w), 6), lo), hi) for w, lo, hi in zip(raw, low, high))


def default_weights() -> tuple[float, ...]:
    """FSRS-6's default weights, as the scheduler has them (the optimizer's are the same in 32-bit floats)."""
    from fsrs.scheduler import DEFAULT_PARAMETERS

    return tuple(DEFAULT_PARAMETERS)


def fit(history: Mapping[str, Sequence[tuple]], today: date, rating,
        current: Sequence[float] | None = None, limit: int = MAX_REVIEWS) -> Fit | TooFew:
    """FSRS-6 weights fitted to the history (as :func:`examples`), compared with the ``current`` weights (None:
    the defaults); :class:`TooFew` below the library's minimum."""
    from fsrs_rs_python import FSRS, TrainingConfig

    items = examples(history, rating, limit)
    if len(items) < MIN_REVIEWS:
        return TooFew(len(items))
    before = tuple(current) if current is not None else default_weights()
    fitted = stored_weights(FSRS(list(before)).compute_parameters(items, training_config=TrainingConfig(seed=SEED)))
    loss_before, loss_after = log_loss(before, items), log_loss(fitted, items)
    kept = loss_after < loss_before
    return Fit(fitted if kept else before, today, len(items), loss_before, loss_after, kept)


def workload(weights: Sequence[float] | None, retention: float, items: int = SIMULATED_ITEMS,
             new_per_day: int = SIMULATED_NEW) -> float:
    """The expected reviews a day at ``retention`` (new items' first answers not counted): the library's
    simulator over :data:`SIMULATED_DAYS` days of ``items`` items met ``new_per_day`` a day, seeded (the same
    figure each time)."""
    from fsrs_rs_python import default_simulator_config, simulate

    if (p := retention_problem(retention)) is not None:
        raise ValueError(p)
    config = default_simulator_config()
    config.deck_size, config.learn_span, config.learn_limit = max(1, items), SIMULATED_DAYS, max(1, new_per_day)
    w = list(weights) if weights is not None else list(default_weights())
    days = simulate(w, retention, config, SEED).review_cnt_per_day
    return sum(days) / len(days) if days else 0.0
