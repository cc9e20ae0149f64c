"""Practice: one problem at a time, graded as you type, saved before the feedback shows.

States: *asking* (the answer box has focus), *feedback* (the verdict, the
worked solution, the grade keys), *empty* (nothing due: when the next item is
due and an offer of extra practice).  The session logic lives in
:class:`drill.core.practice_run.PracticeRun`; this screen only draws it.
"""

from __future__ import annotations

from datetime import date

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Static

from drill.core import practice_run, sessions
from drill.core.i18n import placeholder, t, template_title, topic_name, when
from drill.core.mock import format_clock
from drill.keybindings import bind
from drill.screens import VERDICT_COLOUR, DrillScreen, question_in_view, scroll_bindings, scroll_view
from drill.widgets.footer import KeyFooter
from drill.widgets.formulas import Solution, Wrapped
from drill.widgets.problem import givens_table
from engine.review_mode import ReviewMode
from engine.status import Status
from engine.storage import SaveFailed, save_failed
from engine.verdicts import by_factor
from question_bank import registry

ASKING, FEEDBACK, EMPTY = "asking", "feedback", "empty"
# a card asked off the schedule says why (engine.session.CARD_KINDS): its words and style, by card kind
_CARD_BANNERS: dict[str, tuple[str, str]] = {"redrill": ("practice.redrill", "italic yellow"),
                                             "extra": ("practice.extra", "italic cyan")}
PROBLEM_MIN = 44  # columns the problem keeps beside the feedback in a wide terminal
FEEDBACK_FRAME = 4  # the feedback column's border, padding and scrollbar
VERDICT_STYLE: dict[str, tuple[str, str]] = {
    v: (mark, f"bold {VERDICT_COLOUR[v]}")
    for v, mark in ((Status.CORRECT, "✓"), (Status.CONVENTION, "✓"), (Status.CLOSE, "≈"), (Status.WRONG, "✗"),
                    (Status.DONT_KNOW, "?"))}


def clock_text(seconds: float) -> str:
    return f"⏱ {format_clock(seconds)}"


def progress_bar(done: int, total: int, width: int = 16) -> Text:
    """``━━━━━╺━━━━━━━━━━``: done in colour, the rest dim."""
    filled = round(width * done / total) if total else 0
    bar = Text("━" * filled, "bold magenta")
    if filled < width:
        bar.append("╺" + "━" * (width - filled - 1), "dim")
    return bar


class TopBar(Widget):
    """One line: where we are on the left; progress and clock on the right, always visible."""

    DEFAULT_CSS = "TopBar { height: 1; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.where, self.right = Text(), Text()

    def show(self, where: Text, right: Text) -> None:
        self.where, self.right = where, right
        self.refresh()

    def render(self) -> Text:
        room = max(0, self.content_size.width - self.right.cell_len - 1)
        where = self.where.copy()
        where.truncate(room, overflow="ellipsis", pad=True)
        return Text.assemble(where, " ", self.right)


def quality_name(q: int, lang: str) -> str:
    return t(f"quality.{q}", lang)


class PracticeScreen(DrillScreen):
    """``PracticeScreen(mode="today")``; ``mode="extra"`` for the weakest items; ``items=[...]`` for chosen templates."""

    BINDINGS = [
        *bind("key.dont_know", "dont_know"),
        *bind("key.undo", "undo"),  # Ctrl+Z, and u after an answer
        *bind("key.next", "next"),
        *bind("key.again", "grade(1)"),
        *bind("key.hard", "grade(3)"),
        *bind("key.good", "grade(4)"),
        *bind("key.easy", "grade(5)"),
        *(b for q in range(6) for b in bind(f"key.q{q}", f"grade({q})", show=False)),
        *bind("key.extra", "extra"),
        # F2 is said on the typing line (80 columns of footer); c works after an answer (the answer box takes c)
        *bind("key.card", "card", show=False),
        *bind("key.hint", "hint", show=False),  # said on the typing line, as F2
        *bind("key.leave", "leave"),
        *scroll_bindings(),  # the problem scrolls while the answer box keeps the focus
    ]

    def __init__(self, mode: str = "today", items: list[str] | None = None, seed: int | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.add_class(f"-{ASKING}")
        self.mode = "items" if items else mode
        self.items = list(items or [])
        self.seed = seed  # the first chosen template's seed (`drill practice TEMPLATE --seed N`); else a fresh one
        self.run: practice_run.PracticeRun | None = None
        self.state = ASKING
        self._understood_pending = False
        self._not_graded: str | None = None  # the unreadable text whose reason is on show
        self._dont_know_asked: str | None = None  # the typed text Ctrl+G asked about (again: don't know)
        self._checking: tuple | None = None  # (run, answers, step) while a symbolic answer is judged off-thread
        self._solution_width = 0  # cells of the longest line of the worked solution on show

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        # few widgets on purpose: the answer box must be live fast (benchmarks/bench_startup.py); the feedback
        # column comes with the first answer (feedback_column).  Laid out by app.tcss: one column, or in a wide
        # terminal the feedback beside the problem
        yield TopBar(id="topbar")
        with VerticalScroll(id="problem", can_focus=False):
            yield Static(id="question")
        yield Input(id="answer")
        yield Static(id="understood")
        yield KeyFooter()  # one widget: it costs the first frame little (drill.widgets.footer)

    @property
    def active_run(self) -> practice_run.PracticeRun:
        """The run, started on mount: before any key or answer reaches the screen."""
        assert self.run is not None, "started on mount"
        return self.run

    def on_mount(self) -> None:
        self.start_run()
        self.set_interval(1.0, self.tick)

    def start_run(self, mode: str | None = None) -> None:
        mode = mode or self.mode
        if mode == "items":
            session = sessions.items_session(self.ctx, self.items, self.seed)
            self.seed = None  # asked once: practising the same templates again draws fresh problems
        elif mode == "extra":
            session = sessions.extra_session(self.ctx)
        else:
            session = sessions.today_session(self.ctx)
        self.mode = mode
        self.run = practice_run.PracticeRun(self.ctx, session)
        if self.run.done:
            self.show_empty()
        else:
            self.show_asking()

    # ------------------------------------------------------------------ drawing
    def set_state(self, state: str) -> None:
        if state == self.state:
            return
        self.state = state
        for s in (ASKING, FEEDBACK, EMPTY):
            self.set_class(state == s, f"-{s}")
        self.refresh_bindings()

    def tick(self) -> None:
        """Redraw the top bar: where we are, the progress bar, the clock of this problem."""
        run = self.run
        if run is None:
            return
        right = Text()  # never cut: a re-drill or extra card says so here, whatever the title's length
        if run.done:
            where = Text(self.tr("practice.title"), "bold")
        else:
            assert run.problem is not None and run.card is not None, "not done: a card is on show"
            t_ = run.problem.template
            where = Text.assemble((topic_name(t_.topic, self.lang), "bold"), " · ",
                                  run.problem.title_in(self.lang))  # as its conventions write it (8ΦD)
            banner = _CARD_BANNERS.get(run.card.kind)  # why the card is asked, when it is not the schedule
            if banner is not None:
                right.append(self.tr(banner[0]) + "  ", banner[1])
        done, total = run.step_progress  # a chain's steps each count
        seconds = (run.elapsed() if self.state == ASKING else
                   run.answers[-1].seconds if self.state == FEEDBACK and run.answers else None)
        right += progress_bar(done, total) + Text(" " + self.tr("practice.progress", done=done, total=total))
        right.append(f"  {clock_text(seconds)}" if seconds is not None and not run.done else "")
        self.query_one("#topbar", TopBar).show(where, right)

    def draw_problem(self) -> None:
        run, lang = self.active_run, self.lang
        p, step = run.problem, run.current_step
        assert p is not None, "drawn only while a card is on show"
        text = Text()
        if p.scenario(lang):
            text.append(p.scenario(lang) + "\n\n")
        text.append_text(givens_table(p, lang))
        if p.conventions(lang):
            text.append(p.conventions(lang) + "\n\n", "dim italic")
        for a in run.prior:
            mark, style = VERDICT_STYLE[a.status]
            shown = a.problem.steps[a.step]
            text.append(f"{a.step + 1}. ", "bold")
            text.append(shown.prompt(lang) + "\n", "dim")
            text.append(f"   {mark} ", style)
            text.append(a.verdict.given_in(lang) if a.verdict else "?")
            text.append(f"   ({self.tr('practice.expected')}{shown.expected.display_in(lang)})\n\n", "dim")
        if p.is_chain:
            text.append(self.tr("practice.step", n=step.index + 1, total=len(p.steps)) + "  ", "bold cyan")
        text.append(step.prompt(lang), "bold")
        if run.hint:  # the hints taken, under the question they help with
            from question_bank.hints import hint_levels, hint_text

            text.append("\n\n" + "\n".join(hint_text(step, run.hint, lang)), "cyan")
            more = "practice.hint_more" if run.hint < hint_levels(step) else "practice.hint_solution"
            text.append("\n" + self.tr("practice.hint_next", what=self.tr(more)), "dim italic")
        self.query_one("#question", Static).update(Wrapped(text))  # broken where a person would (engine.wrap)
        self.query_one("#answer", Input).placeholder = placeholder(step.expected, lang, "practice.placeholder")
        self.tick()

    def draw_understood(self) -> None:
        if self.state != ASKING or self._checking is not None:  # keep "checking…" while a proof runs
            return
        ok, what = practice_run.understood(self.query_one("#answer", Input).value, self.active_run.current_step, self.lang)
        line = self.query_one("#understood", Static)
        if ok is None:
            line.update(Wrapped(Text(self.tr("practice.typing"), style="dim")))
        elif ok:
            shown = self.tr("key.dont_know") if what == "?" else what
            line.update(Wrapped(Text(self.tr("practice.understood", what=shown), style="green")))
        else:
            line.update(Wrapped(Text(self.tr("practice.cannot_read", why=what), style="yellow")))

    def show_asking(self, typed: str = "") -> None:
        self._drop_check()
        self._dont_know_asked = None
        self.set_state(ASKING)
        self._card_before_first_problem()
        self.draw_problem()
        answer = self.query_one("#answer", Input)
        answer.disabled = False
        answer.value = typed
        answer.cursor_position = len(typed)
        self.set_focus(answer)  # at once (Widget.focus waits for the app's next turn): live on the first frame
        self.draw_understood()
        self.question_in_view()

    def question_in_view(self) -> None:
        """The problem opens at its question (the last thing it draws), the givens above it a PgUp away: the
        learner knows what is asked before reading on, at every step of a chain."""
        question_in_view(self.query_one("#problem", VerticalScroll))

    def action_scroll_problem(self, how: str) -> None:
        scroll_view(self.query_one("#problem", VerticalScroll), how)

    def show_feedback(self, a: practice_run.Answer) -> None:
        self.set_state(FEEDBACK)
        lang, step = self.lang, a.problem.steps[a.step]
        self.query_one("#answer", Input).disabled = True
        mark, style = VERDICT_STYLE[a.status]
        head = Text()
        head.append(f"{mark} {self.tr('verdict.' + a.status)}", style)
        head.append("   " + self.tr("practice.grade", q=a.quality, name=quality_name(a.quality, lang)))
        if a.after_solution and a.quality < a.auto_quality:
            head.append(self.tr("practice.after_solution", q=a.auto_quality), "bold")
        elif a.peeked and a.quality < a.auto_quality:
            head.append(self.tr("practice.peeked", q=a.auto_quality), "bold")
        elif a.hint and a.quality < a.auto_quality:
            head.append(self.tr("practice.hint_capped", q=a.auto_quality, cap=a.quality, n=a.hint), "bold")
        elif a.quality != a.auto_quality:
            head.append(self.tr("practice.set_by_you", q=a.auto_quality), "bold")
        elif a.hint:
            head.append(self.tr("practice.hint_taken", n=a.hint), "dim")
        head.append("\n")
        if a.chain_quality is not None:
            q = a.chain_quality
            rule = ("practice.grade_chain_again" if a.chain_repeated_slip else
                    "practice.grade_chain_slip" if a.chain_one_slip else "practice.grade_chain")
            head.append(self.tr(rule, q=q, name=quality_name(q, lang)) + "\n", "bold")
        v = a.verdict
        if v is not None:
            head.append(self.tr("practice.you"), "dim")
            head.append(v.given_in(lang), "bold")
            head.append("   " + self.tr("practice.expected"), "dim")
            head.append(v.expected_in(lang), "bold green")
            if v.error_said is not None:  # the grader's words: a factor beyond 2 needs no "error" before it
                err = v.error_said.text(lang)
                head.append("   " + (err if by_factor(v.ratio) else self.tr("practice.error", err=err)), "dim")
            head.append("\n")
            if v.diagnosis:
                head.append(self.tr("practice.misconception", what=v.diagnosis_in(lang)) + "\n", "bold magenta")
            for note in v.notes_in(lang):
                head.append(self.tr("practice.note", note=note) + "\n", "dim")
            e = step.expected
            if e.answer_kind.measured:  # graded within a band: say which
                head.append((self.tr("practice.band_integer") if e.integer else
                             self.tr("practice.band", tol=f"{e.tolerance * 100:g}", close=f"{e.close * 100:g}")) + "\n",
                            "dim")
        else:
            head.append(self.tr("practice.expected"), "dim")
            head.append(step.expected.display_in(lang) + "\n", "bold green")
        row = a.item_row
        if row is not None:
            if row.scheduled and row.after:
                due = date.fromisoformat(row.after["due"])
                head.append(self.tr("practice.next_review", when=when(due, self.ctx.today(), lang)), "dim")
            else:  # a re-drill follows the answer that set the schedule; any other is one that was not due
                head.append(self.tr("practice.not_scheduled_redrill" if row.mode == ReviewMode.REDRILL
                                    else "practice.not_scheduled"), "dim")
            if row.quality < 4 and not a.card.extra:
                head.append("  " + self.tr("practice.comes_back"), "yellow")
        fb = self.feedback_column()
        self.query_one("#verdict", Static).update(Wrapped(head))  # "320 GB" kept whole (engine.wrap)
        # each line whole where the column holds it, else broken between terms (drill.widgets.formulas)
        self.query_one("#solution", Static).update(
            Solution(Text(self.tr("solution"), "bold underline"), step.solution_lines(lang)))
        self._solution_width = max((cell_len(line) for line in step.solution_lines(lang)), default=0)
        self.fit_feedback()
        for old in self.query("RooflinePlot"):
            old.remove()
        if step.roofline:
            from drill.widgets.roofline import RooflinePlot

            fb.mount(RooflinePlot(step.roofline, lang), after="#solution")
        keys = self.tr("practice.grade_keys") if a.last_step else self.tr("practice.step_keys")
        self.query_one("#next-keys", Static).update(Text(keys, style="dim italic"))
        self.query_one("#understood", Static).update("")
        fb.scroll_home(animate=False)
        fb.focus()
        # beside or above the verdict: the question just answered (the problem's end)
        self.call_after_refresh(self.query_one("#problem", VerticalScroll).scroll_end, animate=False)
        self.tick()

    def feedback_column(self) -> VerticalScroll:
        """The feedback column (verdict, worked solution, next keys), mounted before the answer box the first
        time an answer is shown: four widgets the first problem does not draw (~23M instructions of start-up)."""
        found = self.query("#feedback")
        if found:
            return found.first(VerticalScroll)
        column = VerticalScroll(id="feedback")
        self.mount(column, before=self.query_one("#answer", Input))
        column.mount(Static(id="verdict"), Static(id="solution"), Static(id="next-keys"))  # in the DOM at once
        return column

    def fit_feedback(self) -> None:
        """In a wide terminal, the feedback column as wide as the longest line of the worked solution needs
        (a formula is not broken where a line can hold it), half the screen at least, and the problem
        keeps :data:`PROBLEM_MIN` columns."""
        width = self.app.size.width
        need = self._solution_width + FEEDBACK_FRAME
        self.styles.grid_columns = f"1fr {max(min(need, width - PROBLEM_MIN), width // 2)}"

    def on_resize(self) -> None:
        if self.state == FEEDBACK:
            self.fit_feedback()

    def show_empty(self) -> None:
        self.set_state(EMPTY)
        run, lang = self.active_run, self.lang
        self.query_one("#answer", Input).disabled = True
        today = self.ctx.today()
        text = Text(self.tr("practice.empty") + "\n", "bold")
        nxt = run.session.next_due()
        text.append((self.tr("practice.empty_next", when=when(nxt, today, lang)) if nxt
                     else self.tr("practice.empty_none")) + "\n\n")
        weak = run.session.weakest()
        if weak:
            text.append(self.tr("practice.empty_offer") + "\n")
            for item, _topic in weak:
                tpl = registry.get(item)
                text.append(f"  • {template_title(tpl, lang)}\n")
        text.append(self.tr("practice.empty_back"), "dim")
        self.query_one("#question", Static).update(text)
        self.query_one("#understood", Static).update("")
        self.tick()
        self.query_one("#problem").focus()

    def apply_lang(self) -> None:
        if self.run is None:
            return
        if self.state == EMPTY:
            self.show_empty()
        elif self.state == FEEDBACK:
            self.draw_problem()
            self.show_feedback(self.run.answers[-1])
        else:
            self.draw_problem()
            self.draw_understood()

    # ------------------------------------------------------------------ input
    @on(Input.Changed, "#answer")
    def _typed(self) -> None:
        # read the answer once per frame, however many keys arrived in it
        if not self._understood_pending:
            self._understood_pending = True
            self.call_after_refresh(self._read_typed)

    def _read_typed(self) -> None:
        self._understood_pending = False
        if self.query_one("#answer", Input).value != self._not_graded:  # keep "not graded: why" until edited
            self.draw_understood()

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.state != ASKING or self._checking is not None:
            return
        if self.active_run.current_step.expected.answer_kind.slow and event.value.strip() not in practice_run.DONT_KNOW_TYPED:
            self._check(event.value)  # a proof may take seconds: never on the UI thread
            return
        self._submit(event.value)

    def _check(self, text: str) -> None:
        """Judge a symbolic answer in a thread; the screen stays live (Esc, Ctrl+Q, Ctrl+G) meanwhile."""
        run = self.active_run
        token = self._checking = (run, len(run.answers), run.step)
        self.query_one("#answer", Input).disabled = True
        self.query_one("#understood", Static).update(Text(self.tr("practice.checking"), style="italic"))

        def work() -> None:
            judged = run.judge(text)
            self.app.call_from_thread(self._checked, token, text, judged)

        self.run_worker(work, thread=True, group="symbolic", exit_on_error=False)

    def _checked(self, token, text: str, judged) -> None:
        if self._checking != token:  # the session moved on meanwhile (don't know, undo, left): drop it
            return
        self._checking = None
        answer = self.query_one("#answer", Input)
        answer.disabled = False
        answer.focus()
        self._submit(text, judged)

    def _drop_check(self) -> None:
        """Forget a proof still running (don't know, undo, leaving, quitting): stop its worker, do not wait."""
        if self._checking is not None:
            self._checking = None
            from engine import symbolic

            symbolic.shutdown()

    def on_unmount(self) -> None:
        self._drop_check()

    def _submit(self, text: str, judged=None) -> None:
        try:
            result = self.active_run.submit(text, judged)
        except SaveFailed as e:  # nothing recorded: the answer stays in the box, Enter records it again
            self._not_graded = text
            self.query_one("#understood", Static).update(
                Wrapped(Text(self.tr("save.answer_kept", why=e.text(self.lang)), style="bold red")))
            return
        if isinstance(result, practice_run.Answer):
            self.show_feedback(result)
            return
        self._not_graded = text
        reason = result.reason_in(self.lang)
        self.query_one("#understood", Static).update(
            Wrapped(Text(self.tr("practice.not_graded", why=reason), style="bold red")))

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dont_know":
            return self.state == ASKING
        if action in ("next", "grade"):
            return self.state == FEEDBACK
        if action == "undo":
            return self.state in (ASKING, FEEDBACK)
        if action == "extra":
            return self.state == EMPTY and bool(self.run and self.run.session.weakest())
        if action == "card":
            return self.state in (ASKING, FEEDBACK)
        if action == "hint":
            return self.state == ASKING and self._checking is None
        if action == "scroll_problem":  # in the feedback its own view has the focus and PgUp PgDn; ↑ ↓ a line
            return self.state in (ASKING, EMPTY) or (self.state == FEEDBACK and parameters[:1] in (("up",), ("down",)))
        return True

    def action_dont_know(self) -> None:
        if self.state == ASKING:
            typed = self.query_one("#answer", Input).value
            # an answer typed is not thrown away unasked; while its proof runs it was submitted, and the
            # checking line offers Ctrl+G as the way out: no second question then
            answer_typed = typed.strip() not in ("", *practice_run.DONT_KNOW_TYPED)  # "?" is a don't know already
            if answer_typed and typed != self._dont_know_asked and self._checking is None:
                self._dont_know_asked = self._not_graded = typed  # the question stays on show until edited
                self.query_one("#understood", Static).update(
                    Wrapped(Text(self.tr("practice.dont_know_typed"), style="bold yellow")))
                return
            self._drop_check()
            try:
                self.show_feedback(self.active_run.dont_know(typed.strip()))
            except SaveFailed as e:  # nothing recorded: still asking (the box live again if a proof had it)
                self._dont_know_asked = typed  # already confirmed: the next Ctrl+G records it
                answer = self.query_one("#answer", Input)
                answer.disabled = False
                answer.focus()
                self.draw_understood()
                self.notify(self.tr("save.dont_know_kept", why=e.text(self.lang)), severity="error", timeout=8,
                            markup=False)

    def action_grade(self, quality: int) -> None:
        if self.state != FEEDBACK:
            return
        try:
            a = self.active_run.override(int(quality))
        except SaveFailed as e:
            back = self.active_run.fell_back
            if back is None:  # nothing changed: the answer stands with its grade
                self.notify(self.tr("save.grade_kept", why=e.text(self.lang)), severity="error", timeout=8,
                            markup=False)
                return
            self.show_asking(back.typed)  # taken back whole: given again once space is freed
            self._not_graded = back.typed
            self.query_one("#understood", Static).update(
                Wrapped(Text(self.tr("save.answer_kept", why=e.text(self.lang)), style="bold red")))
            return
        self.show_feedback(a)
        self.notify(self.tr("practice.overridden", q=a.quality, name=quality_name(a.quality, self.lang)),
                    timeout=2)

    def action_next(self) -> None:
        if self.state != FEEDBACK:
            return
        if self.active_run.advance():
            self.show_asking()
        else:
            self.finish()

    def action_undo(self) -> None:
        try:
            a = self.run.undo() if self.run else None
        except SaveFailed as e:  # nothing changed
            self.notify(self.tr("save.undo_refused", why=e.text(self.lang)), severity="error", timeout=8,
                        markup=False)
            return
        if a is None:
            self.notify(self.tr("practice.nothing_to_undo"), severity="warning", timeout=2)
            return
        self.show_asking(a.typed)
        if self.active_run.pending is a:  # a row of it is still in the log: taken back before the next answer
            assert self.active_run.pending_why is not None, "set with pending"
            why = save_failed(self.active_run.pending_why).text(self.lang)
            self.notify(self.tr("save.undo_partly", why=why), severity="warning", timeout=8, markup=False)
        else:
            self.notify(self.tr("practice.undone"), timeout=2)

    def _card_before_first_problem(self) -> None:
        """A template new to the learner shows its formula card first (not a review; its clock starts after), and
        so does a leech that lapsed since its card was last shown (drill.core.leeches)."""
        from drill.core import leeches
        from drill.core.teach import mark_seen, needs_card

        run = self.active_run
        problem = run.problem
        assert problem is not None, "called while a card is on show"
        if run.step != 0 or run.prior:
            return
        new = needs_card(self.ctx.profile, problem.template.id)
        if not new and not leeches.card_due(self.ctx.profile, problem.template.id):
            return
        remember = mark_seen if new else leeches.mark_card
        from drill.screens.card import CardScreen  # only now: its module costs start-up

        def read(template_id: str | None) -> None:
            run.started = self.ctx.now()  # the time spent reading is not the answer's time
            self.question_in_view()  # laid out again now that it is on show: at its question
            try:
                remember(self.ctx.profile, problem.template.id)  # the card stays on show while it is read
            except SaveFailed as e:  # harmless: the card is shown again before this template's next first problem
                self.notify(self.tr("save.card_not_kept", why=e.text(self.lang)), severity="warning", timeout=8,
                            markup=False)

        self.app.push_screen(CardScreen(problem.template.id, first=True, why="card.first" if new else "card.leech"),
                             read)

    def action_card(self) -> None:
        if self.run is not None and not self.run.done:
            from drill.screens.card import CardScreen

            if self.state == ASKING:  # a peek while the answer box is live: this answer is graded 3 at most
                self.run.peek()
            assert self.run.problem is not None, "not done: a card is on show"
            self.app.push_screen(CardScreen(self.run.problem.template.id))

    def action_hint(self) -> None:
        """The hint ladder (engine.hints): hint 1, hint 2, then the solution as Ctrl+G gives it."""
        if self.state != ASKING or self._checking is not None:
            return
        run = self.active_run
        if run.take_hint() is None:
            if not run.hint:  # no hint at all: said, and the solution stays a deliberate Ctrl+G away
                self.notify(self.tr("practice.no_hint"), timeout=3, markup=False)
                return
            self.action_dont_know()
            return
        self.draw_problem()
        self.question_in_view()

    def action_extra(self) -> None:
        if self.state == EMPTY:
            self.start_run("extra")

    def action_leave(self) -> None:
        self.finish()

    def finish(self) -> None:
        """The summary if anything was answered, else straight back."""
        if self.run is not None and self.run.answers:
            self.app.switch_to("summary", summary=self.run.summary())
        else:
            self.app.pop_screen()
