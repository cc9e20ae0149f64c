"""The mock interview's glue, shared by the Mock screens and ``drill mock``: planning from what was typed and
from a profile, building a run, saving a finished one, its report and the misses it queues, and its clock.

The engine (:mod:`engine.mock`) decides; this module reads and writes the profile for it, so the app and
the command share one code path.  The engine and the bank are imported inside functions so that ``drill``
starts fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from engine.langs import EN
from engine.session import QUEUE_KEY  # templates the next practice session asks first

if TYPE_CHECKING:
    from drill.core.context import AppContext
    from drill.core.world import ChosenWorld
    from engine.mock import MockPlan, MockRun, MockSettings
    from engine.mock_report import Report
    from engine.review import Review
    from engine.storage import Profile
    from question_bank.template import Problem

SETTINGS_KEY = "mock"  # the profile setting remembering the last setup (not the seed)


def candidates() -> list:
    """Every template of the bank as an engine.mock Candidate."""
    from engine.mock import Candidate
    from question_bank import registry

    return [Candidate(t.id, t.topic, t.chain_length, t.target_seconds) for t in registry.all_templates()]


def make_settings(*, minutes: Any = None, questions: Any = None, topics: Iterable[str] = (), chains: bool = True,
                  seed: Any = None, new_seed=None, world: ChosenWorld | None = None) -> MockSettings:
    """Settings from what was typed; a blank seed draws one from ``new_seed()`` and weights by weakness.
    ``world``: the hardware, model and conventions its problems are drawn in (drill.core.world).

    Raises engine.mock.MockError with a one-line reason for anything unreadable.
    """
    from engine.mock import MockError, MockSettings
    from question_bank.topics import TOPICS

    def whole(name: str, value: Any) -> int | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        from drill.core.usage import shown_arg

        t = str(value).strip()
        digits = t[1:] if t.startswith("-") else t
        if not digits.isdecimal():
            raise MockError(f"{name} must be a whole number, not {shown_arg(t)}")
        if len(digits.lstrip("0")) > 19:  # bounded before int(): thousands of digits are out of range, not a ValueError
            raise MockError(f"{name} is too large: {shown_arg(t)}")
        return int(t)

    drawn_in: dict[str, Any] = {} if world is None else {
        "hardware": world.hardware, "model": world.model, "conventions": tuple(world.conventions.items())}
    topics = tuple(topics)
    unknown = [t for t in topics if t not in TOPICS]
    if unknown:
        raise MockError(f"unknown topic {unknown[0]!r} (topics: {', '.join(TOPICS)})")
    given_seed = whole("the seed", seed)
    if given_seed is None:
        if new_seed is None:
            raise MockError("no seed given and no way to draw one")
        return MockSettings(whole("minutes", minutes), whole("questions", questions), topics, chains,
                            int(new_seed()), weighted=True, **drawn_in)
    return MockSettings(whole("minutes", minutes), whole("questions", questions), topics, chains, given_seed,
                        weighted=False, **drawn_in)


def make_plan(settings: MockSettings, reviews: Iterable[Review] = (),
              weakness: Mapping[str, float] | None = None) -> MockPlan:
    """Plan the mock; the weakness figures (or the review rows they come from) only count
    when the mock is weighted, never for a shared seed."""
    from engine.mock import plan_mock, weakness_figures

    if not settings.weighted:
        weakness = {}
    elif weakness is None:
        weakness = weakness_figures(reviews)
    return plan_mock(settings, candidates(), weakness)


def problems_of(plan: MockPlan) -> list[Problem]:
    from question_bank import registry

    s = plan.settings
    return [registry.get(q.template_id).generate(q.seed, hardware=s.hardware, model=s.model,
                                                 conventions=dict(s.conventions)) for q in plan.questions]


def world_of_plan(plan: MockPlan) -> ChosenWorld:
    """The world a plan's problems are drawn in."""
    from drill.core.world import ChosenWorld

    s = plan.settings
    return ChosenWorld(s.hardware, s.model, dict(s.conventions))


def begin_run(plan: MockPlan, now: float) -> tuple[MockRun, list[Problem]]:
    """Generate the planned problems and start the clock at ``now`` (seconds)."""
    from engine.mock import MockRun

    problems = problems_of(plan)
    return MockRun.begin(plan, [[(s.expected, s.target_seconds) for s in p.steps] for p in problems], now), problems


class MockSave:
    """Saving a finished mock: its record (``Profile.add_mock``), then its answers as ``mock`` review rows (a
    template's first answer anywhere, a due template and a lapse (quality < 3) move its schedule,
    :func:`engine.mock_report.review_rows`, so a missed question is due the next day).

    A write may fail (``engine.storage.SaveFailed``: a full disk, no permission...), so this is built once,
    when the mock ends, and :meth:`write` may be called again until it succeeds, storing nothing twice.
    Why the progress is kept here rather than an id per run in the save files: every write of
    ``engine.storage`` is durable when it returns and, when it raises ``SaveFailed``, has left its file as
    it was (``atomic_write``), so the caller knows exactly what is stored: the record (:attr:`stored`) and
    the first :attr:`logged` rows.  A retry adds only the rest.  A run id would have to go into every
    review row, whose fields are fixed (``ROW_FIELDS``, checked on import), to find the same thing again;
    and a run that exists only in memory cannot be saved by another process.  The rows still to write are
    built at each attempt from the profile's states then (``review_rows(stored=...)``), so a review recorded
    meanwhile (practice, between two attempts) is not overwritten by a state computed before it.

    The record (its score compared with the mocks saved before) and the time of each answer are fixed when
    the mock ends: the record's ``ts`` is the moment it ended, each row the moment of its answer.
    """

    def __init__(self, profile: Profile, run: MockRun) -> None:

        from engine.mock_report import build_report, mock_record, review_rows
        from engine.session import iso_utc

        self.report = build_report(run, profile.mocks())
        assert run.ended is not None, "build_report: the run is finished"
        self.ended = datetime.fromtimestamp(run.ended, UTC)
        self.record = mock_record(run, self.report, iso_utc(self.ended))
        self.total = len(review_rows(self.report, when=self.ended, local_date=lambda when: when.date()))
        self.stored: dict | None = None  # the record as stored, with its id
        self.logged = 0  # how many of the review rows are stored (they are written in order)
        # each row says the world its problem was drawn in, as practice's rows do (none: the catalogue's mix)
        s = run.plan.settings
        self.drawn = ({(p.template.id, p.seed): p for p in problems_of(run.plan)}
                      if s.hardware or s.model or s.conventions else {})

    @property
    def done(self) -> bool:
        return self.stored is not None and self.logged >= self.total

    @property
    def shown(self) -> dict:
        """The record to show: as stored (with its id), or as it will be."""
        return self.stored if self.stored is not None else self.record

    def write(self, profile: Profile, local_date: Callable[[datetime], date]) -> dict:
        """Store what is not stored yet; ``local_date``: the learner's day at a moment (``AppContext.local_date``).

        Returns the stored record; raises ``SaveFailed`` (:meth:`progress` says what is stored by then).
        """
        from drill.core.recording import book_of
        from engine.mock_report import review_rows

        if self.stored is None:
            self.stored = profile.add_mock(self.record)
        from drill.core.sessions import previous_chain_steps

        book = book_of(profile, local_date(self.ended))
        for row in review_rows(self.report, when=self.ended, local_date=local_date, book=book,
                               stored=self.logged, previous=lambda item: previous_chain_steps(profile, item)):
            if (p := self.drawn.get((row.item, row.seed))) is not None:  # as engine.session.record fills them
                row = row._replace(hardware=p.hardware, model=p.model, conventions=p.chosen_conventions or None)
            profile.record(row)
            self.logged += 1
        return self.stored

    def progress(self, why: str, lang: str = EN) -> str:
        """What a failed save has stored and what to do (``why``: ``SaveFailed.text(lang)``), in ``lang``."""
        from drill.core.i18n import t

        if self.stored is None:
            return t("mock.not_saved", lang, why=why)
        return t("mock.partly_saved", lang, why=why, stored=self.logged, total=self.total)

    def lost(self, why: str, lang: str = EN) -> str:
        """What is lost should the app close before the rest is stored (printed after it), in ``lang``."""
        from drill.core.i18n import t

        if self.stored is None:
            return t("mock.lost", lang, why=why)
        return t("mock.lost_partly", lang, why=why, stored=self.logged, total=self.total)


def report_of(profile: Profile, record: Mapping) -> Report:
    """The report of a saved mock, compared with the mocks saved before it."""
    from engine.mock_report import report_from_record

    earlier = [m for m in profile.mocks() if m["id"] < record.get("id", float("inf"))]
    return report_from_record(record, earlier)


def queue_missed(profile: Profile, report: Report) -> list[str]:
    """Add the report's missed templates to the queue the next practice session asks first."""
    from engine.mock_report import queue_missed as merged

    queued = profile.settings().get(QUEUE_KEY) or []
    new = merged([q for q in queued if isinstance(q, str)], report)
    profile.set_setting(QUEUE_KEY, new)
    return new


def format_clock(seconds: float, *, up: bool = False) -> str:
    """``24:13``, or ``1:02:03`` from an hour up; ``up`` rounds a countdown up to the whole second."""
    s = max(0, int(-(-seconds // 1)) if up else int(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def weakness(ctx: AppContext) -> dict[str, float]:
    """Template id -> weakness in [0, 1] for a weighted mock (:func:`engine.mock.weakness_figures`),
    from the qualities of each template's latest answers kept in the state file: the log is not read."""
    return weakness_of(ctx.profile)


def weakness_of(profile: Profile) -> dict[str, float]:
    """:func:`weakness` of an open profile (for a command that has no app context)."""
    from engine.mock import weakness_of_answers

    return weakness_of_answers((item, q) for item, r in profile.recent().items() for q in r.qualities)
