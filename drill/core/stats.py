"""The figures of ``drill stats`` and the stats screen, and how they read, in English and Chinese.

The figures come from ``engine.stats.compute`` (:func:`figures`: the one call the screen and the command
make); the words of the summary and of the screen live in :data:`STRINGS`.  The command
(:mod:`drill.commands.stats`) prints :func:`summary`; the screen (:mod:`drill.screens.stats`) lays out the
same lines, rows and shades.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from drill.core.i18n import singular, template_title, topic_name  # one name per topic, shared with the screens
from engine.langs import EN, pick

if TYPE_CHECKING:
    from engine.stats import Stats
    from engine.storage import Profile

STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Progress · {date}", "进度 · {date}"),
    "empty": ("No reviews yet. Practise a few problems (p on Home, or `drill practice`) and your progress "
              "shows up here: streaks, accuracy by topic, what is coming due.",
              "还没有练习记录。先做几道题（主页按 p，或运行 `drill practice`），这里就会显示你的进度："
              "连续天数、各主题正确率、即将到期的题。"),
    "loading": ("Reading your history…", "正在读取练习记录…"),
    "read_error": ("Could not read your history: {error}", "无法读取练习记录：{error}"),
    "ready_computing": ("Readiness: fitting it on your answers…", "就绪度：正在按你的作答拟合…"),
    "ready_error": ("Readiness could not be computed: {error}", "无法计算就绪度：{error}"),
    "tab.overview": ("Overview", "概览"),
    "tab.topics": ("Topics", "主题"),
    "tab.mocks": ("Mock interviews", "模拟面试"),
    "reviews": ("Reviews", "答题数"),
    "reviews_value": ("{n} ({today} today)", "{n}（今天 {today}）"),
    "days": ("Days studied", "学习天数"),
    "streak": ("Streak", "连续天数"),
    "streak_value": ("{n} d (longest {longest} d)", "{n} 天（最长 {longest} 天）"),
    "streak_note": ("a day counts when at least one review was done that day",
                    "当天至少答过一道题才算一天"),
    "time": ("Time spent", "用时"),
    "retention": ("True retention, 30 d", "真实保持率（30 天）"),
    "retention_value": ("{pct} of {n} first reviews of mature items passed",
                        "成熟题当日首次复习 {n} 次，通过 {pct}"),
    "retention_value.one": ("{pct} of 1 first review of a mature item passed", "成熟题当日首次复习 1 次，通过 {pct}"),
    "retention_none": ("— (no mature item, interval ≥ 21 d, reviewed in 30 d)",
                       "—（近 30 天没有复习过成熟题，即间隔 ≥ 21 天）"),
    "accuracy": ("Accuracy, 30 d", "正确率（30 天）"),
    "accuracy_value": ("{pct} of {n} answers correct or close", "{n} 次作答中 {pct} 正确或接近"),
    "accuracy_value.one": ("{pct} of 1 answer correct or close", "1 次作答中 {pct} 正确或接近"),
    "due": ("Due", "到期"),
    "due_value": ("{today} today ({overdue} overdue) · {week} in 7 days · {month} in 30 days",
                  "今天 {today}（逾期 {overdue}）· 7 天内 {week} · 30 天内 {month}"),
    "heatmap": ("Reviews per day, last 26 weeks", "近 26 周每日答题数"),
    "heatmap_less": ("less", "少"),
    "heatmap_more": ("more", "多"),
    "forecast": ("Due per day, next 30 days (overdue counts today)", "未来 30 天每日到期数（逾期计入今天）"),
    "forecast_day": ("days from today", "距今天数"),
    "topic": ("Topic", "主题"),
    "learned": ("Learned", "已掌握"),
    "acc30": ("Accuracy 30 d", "正确率 30 天"),
    "mean_ef": ("Mean EF", "平均 EF"),
    "median_time": ("Median time", "用时中位数"),
    "topic_reviews": ("Reviews", "答题数"),
    "weakest": ("Weakest", "最弱"),
    "leeches": ("Leeches", "顽固题"),
    "leeches_value": ("{n}: {names} (failed 6 times or more; Browse: z suspend, l reset)",
                      "{n} 个：{names}（失败 6 次及以上；浏览页：z 暂停，l 重置）"),
    "hints": ("Hints taken", "用过的提示"),
    "hints_value": ("{n} answers ({one} hint 1, {two} hint 2); most in {topics}",
                    "{n} 次作答（提示 1：{one} 次，提示 2：{two} 次）；最多在{topics}"),
    "hints_value.one": ("1 answer ({one} hint 1, {two} hint 2) in {topics}",
                        "1 次作答（提示 1：{one} 次，提示 2：{two} 次），在{topics}"),
    "sorted_by": ("sorted by {col}{dir} · o: next column · r: reverse · click a header",
                  "按{col}排序{dir} · o：换一列 · r：反向 · 可点表头"),
    "descending": (", descending", "，降序"),
    "templates_of": ("Templates: {topic}", "题型：{topic}"),
    "template": ("Template", "题型"),
    "recent": ("Last 10", "最近 10 次"),
    "interval": ("Interval", "间隔"),
    "due_on": ("Due", "到期日"),
    "history_of": ("History: {title}", "历史：{title}"),
    "pick_template": ("Highlight a template to see its history.", "选中一个题型查看其历史。"),
    "date": ("Date", "日期"),
    "verdict": ("Verdict", "结果"),
    "seconds": ("Time", "用时"),
    "mode": ("Mode", "模式"),
    "trend": ("Accuracy trend (last {n} answers, %)", "正确率走势（最近 {n} 次，%）"),
    "no_history": ("Not answered yet.", "还没有作答。"),
    "mocks_none": ("No mock interview yet (m on Home, or `drill mock`).", "还没有模拟面试（主页按 m，或运行 `drill mock`）。"),
    "mock_scores": ("Mock interview scores (%)", "模拟面试得分（%）"),
    "mock_score": ("Score", "得分"),
    "mock_questions": ("Questions", "题数"),
    "mock_counts": ("Correct / close / wrong / unanswered", "正确 / 接近 / 错误 / 未答"),
    "mock_time": ("Time used", "用时"),
    "mock_open": ("Enter: open the report", "回车：查看报告"),
    "mock_nth": ("mock", "次"),
    "none": ("—", "—"),
    "verdict.correct": ("correct", "正确"),
    "verdict.convention": ("by another convention", "按另一种约定"),
    "verdict.close": ("close", "接近"),
    "verdict.wrong": ("wrong", "错误"),
    "verdict.dont_know": ("don't know", "不会"),
    "mode.practice": ("practice", "练习"),
    "mode.mock": ("mock", "模拟"),
    "mode.extra": ("extra", "加练"),
    "mode.redrill": ("re-drill", "重练"),
    "mode.paper": ("paper", "纸面"),
}

SORT_COLUMNS = ("topic", "learned", "accuracy", "ef", "time", "reviews")
SORT_LABEL_KEYS = {"topic": "topic", "learned": "learned", "accuracy": "acc30", "ef": "mean_ef",
                   "time": "median_time", "reviews": "topic_reviews"}


def tr(key: str, lang: str = EN, **fmt) -> str:
    s = pick(lang, *STRINGS[singular(STRINGS, key, fmt)])  # "1 answer", not "1 answers"
    return s.format(**fmt) if fmt else s


# --------------------------------------------------------------------------- #
# Figures and how they read


def figures(profile: Profile, today: date, lang: str = EN, readiness: bool = True) -> Stats:
    """Every figure of the profile: the one call both the screen and the CLI make.

    The figures come from the running totals kept beside the log (``Profile.running``): the log itself
    is not read, so they cost the same however long the history (an item's history and trend cover its
    latest ``engine.stats_running.HISTORY_ROWS`` reviews).  The readiness per topic (:func:`fitted_readiness`)
    comes with them unless ``readiness`` is False: it is fitted on the whole log, so the stats screen shows
    the other figures first and fits it in a worker of its own, and the text summary (which does not show
    it) never asks for it."""
    from engine.records import replace
    from question_bank.registry import all_templates
    from question_bank.topics import TOPICS

    bank = [(t.id, t.topic, t.title_in(lang)) for t in all_templates()]
    s = profile.running().figures(profile.states(), profile.mocks(), bank, today, TOPICS)
    return replace(s, readiness=fitted_readiness(profile, None, today)) if readiness else s


def fitted_readiness(profile: Profile, digest, today: date, stop=None):
    """``(Readiness, Calibration)`` fitted on the learner's answers (the log's ``digest``, read when None): for the interview
    day when one is ahead, else for today (:func:`drill.core.readiness_view.readiness_report`).  ``stop()`` True
    abandons the fit (``engine.schedule.readiness.Stopped``)."""
    from drill.core.readiness_view import readiness_report
    from drill.core.settings import learning

    return readiness_report(profile, today, learning(profile).interview, digest, stop=stop)


def pct(x: float | None, lang: str = EN) -> str:
    return tr("none", lang) if x is None else f"{100 * x:.0f} %"  # a space before %, as before any unit


def num(x: float | None, fmt: str = "{:.2f}", lang: str = EN) -> str:
    return tr("none", lang) if x is None else fmt.format(x)


def duration(seconds: float | None, lang: str = EN, compact: bool = False) -> str:
    """``42 s``, ``3 min 5 s``, ``12 h 4 min``; compact: ``42s``, ``3m05s``, ``12h04m`` (Chinese: 秒/分钟/小时)."""
    if seconds is None:
        return tr("none", lang)
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    if compact:  # a table's narrow column: no spaces in either language
        zh = f"{h}小时{m}分" if h else f"{m}分{sec}秒" if m else f"{sec}秒"
        return pick(lang, f"{h}h{m:02d}m" if h else f"{m}m{sec:02d}s" if m else f"{sec}s", zh)
    # a space between a number and its unit, as everywhere (engine/typography.py); one word for minutes, 分钟
    zh = f"{h} 小时 {m} 分钟" if h else (f"{m} 分钟 {sec} 秒" if sec else f"{m} 分钟") if m else f"{sec} 秒"
    return pick(lang, f"{h} h {m} min" if h else (f"{m} min {sec} s" if sec else f"{m} min") if m else f"{sec} s", zh)


def days(n: int, lang: str = EN) -> str:
    return pick(lang, f"{n} d", f"{n} 天")


def learned(t, lang: str = EN) -> str:
    return f"{t.learned}/{t.total}"


def overview_lines(s: Stats, lang: str = EN, leeches: list[str] | None = None) -> list[tuple[str, str]]:
    """(label, value) pairs of the overview, as the screen and the summary show them (``leeches``: the leeches'
    ids, :func:`drill.core.leeches.leech_ids`, a line when there are any)."""
    lines = [
        (tr("reviews", lang), tr("reviews_value", lang, n=f"{s.reviews:,}", today=s.reviews_today)),
        (tr("days", lang), f"{s.days_studied:,}"),
        (tr("streak", lang), tr("streak_value", lang, n=s.streak, longest=s.longest_streak)),
        (tr("time", lang), duration(s.seconds, lang)),
    ]
    if s.retention_30d is None:
        lines.append((tr("retention", lang), tr("retention_none", lang)))
    else:
        lines.append((tr("retention", lang),
                      tr("retention_value", lang, pct=pct(s.retention_30d), n=s.retention_reviews_30d)))
    acc = (tr("accuracy_value", lang, pct=pct(s.accuracy_30d), n=s.reviews_30d) if s.reviews_30d
           else tr("none", lang))
    lines.append((tr("accuracy", lang), acc))
    lines.append((tr("due", lang), tr("due_value", lang, today=s.due_today, overdue=s.overdue,
                                      week=sum(s.forecast[:7]), month=sum(s.forecast))))
    if leeches:
        names = ", ".join(s.items[i].title if i in s.items else i for i in leeches)
        lines.append((tr("leeches", lang), tr("leeches_value", lang, n=len(leeches), names=names)))
    if (hinted := hints_line(s, lang)) is not None:
        lines.append(hinted)
    return lines


def hints_figure(s: Stats) -> dict:
    """The hints taken over the whole log (:func:`engine.hints.hints_taken`): ``drill stats --json``'s ``hints``,
    from the statistics' running totals (``Stats.hints``: by topic and level), not a read of the log."""
    from engine.hints import hints_taken

    return hints_taken(s.hints)


def hints_line(s: Stats, lang: str = EN) -> tuple[str, str] | None:
    """The overview's line on the hints taken (None when none was): how many, and the topics most hinted."""
    h = hints_figure(s)
    if not h["answers"]:
        return None
    ranked = sorted(h["by_topic"].items(), key=lambda kv: (-kv[1], kv[0]))[:2]
    topics = pick(lang, ", ", "、").join(pick(lang, f"{topic_name(t, lang)} ({n})", f"{topic_name(t, lang)}（{n}）")
                                        for t, n in ranked)
    return tr("hints", lang), tr("hints_value", lang, n=h["answers"], one=h["hint1"], two=h["hint2"], topics=topics)


def topic_row(t, lang: str = EN) -> tuple[str, ...]:
    """One line of the topic table: name, learned, accuracy, mean EF, median time, reviews, weakest."""
    return (topic_name(t.topic, lang), learned(t, lang), pct(t.accuracy_30d, lang), num(t.mean_ef, lang=lang),
            duration(t.median_seconds, lang, compact=True), f"{t.reviews:,}", weakest_names(t, lang) or tr("none", lang))


WEAK_TITLE = 28  # terminal columns of each title in the topic table's Weakest column


def weakest_names(t, lang: str = EN) -> str:
    """The topic's weakest templates by title in ``lang``, each cut to :data:`WEAK_TITLE` columns with "…";
    a template no longer in the bank by its id, without the topic prefix."""
    from question_bank.registry import REGISTRY

    prefix = t.topic + "."
    return ", ".join(_cut(template_title(REGISTRY[i], lang) if i in REGISTRY
                          else i[len(prefix):] if i.startswith(prefix) else i, WEAK_TITLE) for i in t.weakest)


def _cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal columns, ending with "…" when cut."""
    if _width(text) <= width:
        return text
    out = ""
    for c in text:
        if _width(out + c) > width - 1:
            break
        out += c
    return out.rstrip() + "…"


def topic_headers(lang: str = EN) -> tuple[str, ...]:
    return tuple(tr(k, lang) for k in ("topic", "learned", "acc30", "mean_ef", "median_time", "topic_reviews",
                                       "weakest"))


def summary(s: Stats, lang: str = EN, sort: str = "topic", reverse: bool = False,
            leeches: list[str] | None = None) -> str:
    """The readable text of ``drill stats`` without a terminal (``leeches``: :func:`overview_lines`)."""
    from engine.stats import sort_topics

    out = [tr("title", lang, date=s.today.isoformat()), ""]
    if s.empty:
        out.append(tr("empty", lang))
        return "\n".join(out) + "\n"
    pairs = overview_lines(s, lang, leeches)
    width = max(_width(label) for label, _ in pairs)
    out += [f"{_pad(label, width)}  {value}" for label, value in pairs]
    out.append(f"{'':{width}}  " + pick(lang, "({})", "（{}）").format(tr("streak_note", lang)))
    out += ["", tr("forecast", lang) + pick(lang, ":", "："), "  " + " ".join(str(n) for n in s.forecast), ""]
    out.append(_heatmap_text(s, lang))
    out.append("")
    rows = [topic_headers(lang)] + [topic_row(t, lang) for t in sort_topics(s.topics, sort, reverse)]
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        out.append("  ".join(_pad(c, w) for c, w in zip(r, widths)) + "  " + r[-1])
    out.append("")
    if s.mocks:
        out.append(tr("mock_scores", lang) + ":")
        for m in s.mocks:
            out.append(f"  {m.date}  {num(m.percent, '{:.0f} %', lang):>5}  "
                       f"{tr('mock_questions', lang)} {m.questions}  "
                       f"{m.correct}/{m.close}/{m.wrong}/{m.unanswered}  {duration(m.seconds_used, lang)}")
    else:
        out.append(tr("mocks_none", lang))
    return "\n".join(out) + "\n"


SHADES = " ░▒▓█"


def shade(count: int, peak: int) -> int:
    """0 for no review, else 1-4 by quarter of the busiest day."""
    if count <= 0 or peak <= 0:
        return 0
    return min(4, 1 + (4 * (count - 1)) // peak) if peak > 1 else 4


def _heatmap_text(s: Stats, lang: str) -> str:
    peak = max(s.heatmap, default=0)
    names = pick(lang, "MTWTFSS", "一二三四五六日")
    lines = [tr("heatmap", lang) + f" ({tr('heatmap_less', lang)} {SHADES[1:]} {tr('heatmap_more', lang)}):"]
    for wd in range(7):
        cells = []
        for i in range(wd, len(s.heatmap) + (7 - len(s.heatmap) % 7) % 7, 7):
            cells.append(SHADES[shade(s.heatmap[i], peak)] if i < len(s.heatmap) else " ")
        lines.append(f"  {names[wd]} " + "".join(cells))
    return "\n".join(lines)


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two, "…" and the heatmap's shades one."""
    from rich.cells import cell_len

    return cell_len(text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))
