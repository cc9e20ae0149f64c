"""The mock interview's report, and one question's worked solution.

:class:`MockReportScreen` (``"mock_report"``): score, time, a per-question table, misconceptions,
weakest topics, the comparison with earlier mocks; Enter opens a question's
worked solution, ``p`` sends the missed templates to the next practice
session (profile setting ``queued_items``).

Saving a mock can fail (a full disk, no permission: ``engine.storage.SaveFailed``).
Its report opens all the same, saying what was stored, the path and the
cause; ``r`` saves the rest (:class:`drill.core.mock.MockSave`: nothing is
stored twice), and so does leaving the report or quitting the app, which ask
before losing what still cannot be stored.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from drill.core import mock as glue
from drill.core.i18n import points, t, topic_name
from drill.core.mock import format_clock
from drill.keybindings import bind
from drill.screens import VERDICT_COLOUR, DrillModal
from drill.screens.mock import MockScreen, asked_step, expected_shown, problem_context, step_prompt, verdict_name
from drill.screens.mock_run import ConfirmEndScreen
from drill.widgets.footer import KeyFooter
from engine.grading import misconception_label
from engine.mock_report import Report
from engine.status import UNANSWERED
from engine.storage import SaveFailed


class SolutionScreen(DrillModal[None]):
    """One question of a mock with your answer, the expected one and the worked solution."""

    DEFAULT_CSS = """
    SolutionScreen { align: center middle; }
    SolutionScreen > VerticalScroll { width: 90%; height: 90%; border: thick $primary; background: $surface;
                                      padding: 1 2; }
    """
    BINDINGS = [*bind("key.close", "close", keys=("escape", "enter"))]

    def __init__(self, question: Mapping | None = None, label: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.question = dict(question or {})
        self.label = label

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.render_text(), id="solution-text")

    def render_text(self) -> Text:
        lang, q = self.lang, self.question
        asked = asked_step(q.get("item", ""), q.get("seed", 0), q.get("step"))
        if asked is None:
            return Text(t("mock.unknown_template", lang))
        problem, step_i = asked
        step = problem.steps[step_i]
        title = problem.title_in(lang)  # as its conventions write it (8ΦD)
        out = Text(t("mock.solution_title", lang, label=self.label, title=title, seed=problem.seed) + "\n\n",
                   style="bold")
        out.append_text(step_prompt(problem, step_i, lang))
        verdict = q.get("verdict", UNANSWERED)
        out.append("\n" + t("mock.col.answer", lang) + ": ", style="dim")
        out.append((q.get("typed") or "—") + "   ")
        out.append(verdict_name(verdict, lang), style=VERDICT_COLOUR.get(verdict, ""))
        out.append("\n" + t("mock.col.expected", lang) + ": ", style="dim")
        out.append(step.expected.display_in(lang) + "\n")
        if q.get("misconception"):
            out.append(misconception_label(q["misconception"], lang) + "\n", style="yellow")
        out.append("\n" + t("solution", lang) + "\n", style="bold")
        for line in step.solution_lines(lang):
            out.append(line + "\n")
        out.append("\n" + t("mock.problem", lang) + "\n", style="bold")
        out.append_text(problem_context(problem, step_i, lang))
        out.append("\n\n" + t("mock.close_hint", lang), style="dim")
        return out

    def action_close(self) -> None:
        self.dismiss(None)


class MockReportScreen(MockScreen):
    """The report of a saved mock (the latest one when none is given), or of one whose save failed
    (``saving``, ``error``): it says so, and ``r`` saves the rest."""

    DEFAULT_CSS = """
    MockReportScreen #report-unsaved { height: auto; margin: 0 1 1 1; color: $error; text-style: bold; }
    MockReportScreen #report-head { height: auto; margin: 0 1 1 1; }
    MockReportScreen #report-table { height: 1fr; min-height: 5; margin: 0 1; }
    MockReportScreen #report-notes { height: auto; max-height: 12; margin: 1 1 0 1; }
    """
    CELL_WIDTH = 20  # most cells of an answer in the table: the verdict stays in view at 80 columns
    BINDINGS = [
        *bind("key.mock_queue", "queue_missed"),
        *bind("key.mock_save_again", "save_again"),
        *bind("key.back", "back"),
    ]

    def __init__(self, record: Mapping | None = None, saving: glue.MockSave | None = None,
                 error: SaveFailed | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.record = dict(record) if record is not None else None
        self.report: Report | None = None
        self.saving = saving  # a mock not wholly saved yet (a write failed): r saves the rest
        self.save_error = error

    def compose(self) -> ComposeResult:
        yield Static(id="report-unsaved")
        yield Static(id="report-head")
        table: DataTable = DataTable(id="report-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="report-notes")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.record is None:
            mocks = self.ctx.profile.mocks()
            self.record = mocks[-1] if mocks else None
        if self.record is not None:
            self.report = glue.report_of(self.ctx.profile, self.record)
        self._keep_unsaved()
        self.apply_lang()
        self.query_one("#report-table", DataTable).focus()

    # --- a mock whose save failed ----------------------------------------- #

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save_again":
            return self.saving is not None
        return True

    def _keep_unsaved(self) -> None:
        """While part of the mock is not stored, the app knows (it says so on stderr should it close anyway)."""
        if self.saving is not None:
            self.app.unsaved[self.saving] = self.saving.lost(self._why_unsaved(), self.lang)

    def _why_unsaved(self) -> str:
        """Why part of the mock is not stored: a save is held only with the error that stopped it."""
        assert self.save_error is not None, "a save is held only with the write that failed"
        return self.save_error.text(self.lang)

    def show_unsaved(self) -> None:
        box = self.query_one("#report-unsaved", Static)
        box.display = self.saving is not None
        if self.saving is not None:
            box.update(Text(self.saving.progress(self._why_unsaved(), self.lang)))

    def save_again(self) -> bool:
        """Store what is not stored yet; True when the whole mock is saved now."""
        if self.saving is None:
            return True
        try:
            self.record = dict(self.saving.write(self.ctx.profile, self.ctx.local_date))
        except SaveFailed as e:
            self.save_error = e
            self._keep_unsaved()
            self.show_unsaved()
            return False
        self.app.unsaved.pop(self.saving, None)
        self.saving = self.save_error = None
        self.show_unsaved()
        self.refresh_bindings()
        return True

    def action_save_again(self) -> None:
        if self.saving is None:
            return
        total = self.saving.total
        if self.save_again():
            self.notify(t("mock.saved_now", self.lang, n=total), timeout=4)
        else:
            self.notify(t("mock.still_not_saved", self.lang), severity="error", timeout=4)

    def _confirm_losing(self, title: str, then) -> None:
        """Ask before leaving with part of the mock not stored (``then``: what yes does)."""
        if isinstance(self.app.screen, ConfirmEndScreen):  # already asking
            return
        saving = self.saving
        assert saving is not None, "asked only once save_again() failed"

        def answered(yes: bool | None) -> None:
            if yes and self.saving is saving:
                self.app.unsaved.pop(saving, None)  # the learner chose to lose it: nothing more to say
                then()

        body = saving.progress(self._why_unsaved(), self.lang) + "\n\n" + t("mock.lose", self.lang)
        self.app.push_screen(ConfirmEndScreen(body, title=title), answered)

    def before_quit(self) -> bool:
        """Quitting saves what is not stored yet; if it still cannot be, asks first (``DrillApp.action_quit``)."""
        if self.save_again():
            return True
        self._confirm_losing("mock.quit_title", self.app.exit)
        return False

    def apply_lang(self) -> None:
        self._keep_unsaved()
        self.show_unsaved()
        lang, rep, rec = self.lang, self.report, self.record
        head = self.query_one("#report-head", Static)
        table = self.query_one("#report-table", DataTable)
        notes = self.query_one("#report-notes", Static)
        table.clear(columns=True)
        if rep is None:
            head.update(Text(t("mock.no_mocks", lang)))
            notes.update("")
            return
        assert rec is not None, "a report is made only from its record (on_mount)"
        text = Text(t("mock.report", lang, date=str(rec.get("ts", ""))[:10], seed=rec.get("seed", "")) + "\n",
                    style="bold")
        text.append(t("mock.score", lang, percent=rep.percent) + "  ", style="bold")
        text.append(t("mock.tally", lang, **rep.score) + "\n")
        text.append(t("mock.time_used", lang, used=format_clock(rep.seconds_used),
                       limit=format_clock(rep.limit_seconds)) + (t("mock.timed_out", lang) if rep.timed_out else "")
                    + "\n")
        c = rep.comparison
        text.append(t("mock.first", lang) if c is None else
                    t("mock.compare", lang, n=c.earlier, previous=c.previous, delta=points(c.delta(rep.percent), lang),
                       best=c.best, average=c.average), style="italic")
        head.update(text)
        cols = ["mock.col.n", "mock.col.topic", "mock.col.answer", "mock.col.expected", "mock.col.verdict",
                "mock.col.time"]
        table.add_columns(*[t(k, lang) for k in cols], "⚑")
        for i, r in enumerate(rep.results):
            typed, expected = Text(r.typed or "—"), Text(expected_shown(r.template_id, r.seed, r.step, r.expected,
                                                                         lang))
            for cell in (typed, expected):  # in full on the question's solution (Enter)
                cell.truncate(self.CELL_WIDTH, overflow="ellipsis")
            table.add_row(Text(r.label), Text(topic_name(r.topic, lang)), typed, expected,
                          Text(verdict_name(r.verdict, lang), style=VERDICT_COLOUR.get(r.verdict, "")),
                          Text(format_clock(r.seconds)), Text("⚑" if r.flagged else ""), key=str(i))
        out = Text(t("mock.misconceptions", lang), style="bold")
        if rep.misconceptions:
            out.append("; ".join(f"{misconception_label(label, lang)} (×{n})" for label, n in rep.misconceptions))
        else:
            out.append(t("mock.no_misconceptions", lang), style="dim")
        out.append("\n" + t("mock.weakest", lang), style="bold")
        weak = [(t, p, n) for t, p, n in rep.weakest_topics if p < 100][:3]
        if weak:
            out.append(" · ".join(f"{topic_name(t, lang)} {p:.0f} % ({n})" for t, p, n in weak))
        else:
            out.append(t("mock.no_weak_topic", lang), style="dim")
        out.append("\n" + (t("mock.report_keys", lang, n=len(rep.missed_templates)) if rep.missed_templates
                            else t("mock.report_keys_none", lang)), style="dim")
        notes.update(out)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        row = event.row_key.value
        assert row is not None, "each row is added with its index as key"
        self.open_solution(int(row))

    def open_solution(self, index: int) -> None:
        if self.record is None or self.report is None:
            return
        q = self.record["questions"][index]
        self.app.push_screen(SolutionScreen(question=q, label=self.report.results[index].label))

    def action_queue_missed(self) -> None:
        if self.report is None:
            return
        if not self.report.missed_templates:
            self.notify(t("mock.nothing_missed", self.lang))
            return
        try:
            glue.queue_missed(self.ctx.profile, self.report)
        except SaveFailed as e:
            self.notify(t("mock.not_queued", self.lang, why=e.text(self.lang)), severity="error", timeout=8,
                        markup=False)
            return
        self.notify(t("mock.queued", self.lang, n=len(self.report.missed_templates)))

    def action_back(self) -> None:
        """Back; a mock not wholly saved is saved first, and if it still cannot be, asks first."""
        if self.save_again():
            self.app.pop_screen()
            return
        self._confirm_losing("mock.leave_title", self.app.pop_screen)
