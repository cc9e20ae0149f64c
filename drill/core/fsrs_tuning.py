"""FSRS fitted to the learner, for both faces: fitting the profile's weights (``drill plan --optimize``, Settings),
the desired retention's expected workload, and the lines that say them (:mod:`engine.schedule.fsrs_fit`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

from drill.core.settings import FSRS_WEIGHTS_KEY, fitted, retention
from engine.messages import pick

if TYPE_CHECKING:
    from engine.schedule.fsrs_fit import Fit, TooFew
    from engine.storage import Profile

WORDS: dict[str, tuple[str, str]] = {
    "start": ("Fitting FSRS-6 weights to your review log (its newest {most} reviews at most)...",
              "正在按你的复习记录拟合 FSRS-6 权重（最多取最近 {most} 次复习）……"),
    "too_few": ("Not enough reviews to fit FSRS yet: {have} of the {need} it needs, {more} more (a review counts "
                "when the item was last reviewed on an earlier day). The default weights stay.",
                "复习次数还不够拟合 FSRS：已有 {have} 次，需要 {need} 次，还差 {more} 次（同一题在更早的某天复习过，"
                "这次复习才计入）。继续使用默认权重。"),
    "kept": ("Fitted on {reviews} reviews: log loss {before:.4f} -> {after:.4f}. The new weights are saved.",
             "基于 {reviews} 次复习拟合：对数损失 {before:.4f} -> {after:.4f}。新权重已保存。"),
    "not_better": ("Fitted on {reviews} reviews: log loss {before:.4f} -> {after:.4f}, no better than the weights "
                   "in use, which stay.",
                   "基于 {reviews} 次复习拟合：对数损失 {before:.4f} -> {after:.4f}，不比当前权重好，继续使用当前权重。"),
    "fitted": ("FSRS weights: fitted to your log on {day} ({reviews} reviews; log loss {before:.4f} -> {after:.4f})",
               "FSRS 权重：{day} 按你的记录拟合（{reviews} 次复习；对数损失 {before:.4f} -> {after:.4f}）"),
    "default": ("FSRS weights: the defaults (drill plan --optimize fits them to your log)",
                "FSRS 权重：默认值（drill plan --optimize 可按你的记录拟合）"),
    "retention": ("Desired retention {r:.2f}: about {n:.1f} reviews a day (simulated: {items} items, {new} new a "
                  "day, a year)",
                  "期望记忆保持率 {r:.2f}：每天约 {n:.1f} 次复习（模拟：{items} 道题，每天 {new} 道新题，一年）"),
    "cancelled": ("Fitting cancelled: nothing changed.", "已取消拟合：没有任何改动。"),
}


def say(key: str, lang: str, **fmt) -> str:
    return pick(lang, *WORDS[key]).format(**fmt)


def compute(profile: Profile, today: date, cancelled: Callable[[], bool] = lambda: False) -> Fit | TooFew | None:
    """FSRS-6 weights fitted to the profile's scheduled reviews, compared with the weights in use; None when
    ``cancelled()`` said so.  Reads only (the app runs it in a worker thread; :func:`keep` saves on the UI
    thread).  ``DamagedSave`` when the log cannot be read."""
    from engine.schedule import fsrs_bridge, fsrs_fit

    history = fsrs_bridge.history_of_digest(profile.digest())
    if cancelled():
        return None
    current = fitted(profile)
    result = fsrs_fit.fit(history, today, fsrs_bridge.rating, current.weights if current is not None else None)
    return None if cancelled() else result


def keep(profile: Profile, result: Fit | TooFew) -> None:
    """Save fitted weights that beat the ones in use (nothing else).  ``SaveFailed`` when they cannot be written."""
    from engine.schedule import fsrs_fit

    if isinstance(result, fsrs_fit.Fit) and result.kept:
        profile.set_setting(FSRS_WEIGHTS_KEY, result.to_setting())


def optimize(profile: Profile, today: date) -> Fit | TooFew:
    """:func:`compute` then :func:`keep` (``drill plan --optimize``)."""
    result = compute(profile, today)
    assert result is not None, "never cancelled"
    keep(profile, result)
    return result


def result_line(result: Fit | TooFew, lang: str) -> str:
    """What a fit did, in ``lang``."""
    from engine.schedule import fsrs_fit

    if isinstance(result, fsrs_fit.TooFew):
        return say("too_few", lang, have=result.have, need=result.need, more=result.more)
    return say("kept" if result.kept else "not_better", lang, reviews=result.reviews, before=result.loss_before,
               after=result.loss_after)


def expected_workload(profile: Profile, new_per_day: int, items: int) -> tuple[float, float]:
    """The profile's desired retention and the reviews a day the simulator expects of it (with its weights)."""
    from engine.schedule import fsrs_fit

    fit, r = fitted(profile), retention(profile)
    return r, fsrs_fit.workload(fit.weights if fit is not None else None, r, items, max(1, new_per_day))


def lines(profile: Profile, lang: str, new_per_day: int, items: int) -> list[str]:
    """The plan's FSRS lines: the weights in use (fitted: when, on how many reviews, the losses) and the desired
    retention with its expected workload."""
    fit = fitted(profile)
    out = [say("default", lang) if fit is None else
           say("fitted", lang, day=fit.day.isoformat(), reviews=fit.reviews, before=fit.loss_before,
               after=fit.loss_after)]
    r, n = expected_workload(profile, new_per_day, items)
    out.append(say("retention", lang, r=r, n=n, items=items, new=max(1, new_per_day)))
    return out


def report(profile: Profile, new_per_day: int, items: int) -> dict:
    """The same for ``drill plan --json``."""
    fit = fitted(profile)
    r, n = expected_workload(profile, new_per_day, items)
    return {"weights": None if fit is None else {**fit.to_setting()},
            "retention": r, "expected_reviews_per_day": round(n, 2)}
